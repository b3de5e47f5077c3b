// tests/cli/test_check.cpp: `attn check`, the real binary on answers PyTorch made (tests/answers/,
// from tools/make_answers.py), as a grading script runs it: exit codes, output, JSON. The reader
// is tested in test_answer.cpp, the comparison in test_grade.cpp, the hints in test_hints.cpp.
#include <doctest/doctest.h>

#include "support/run_attn.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>   // getpid: a scratch folder per test process, so concurrent runs never share one

namespace {

using Result = CliResult;

// Runs `attn ARGS` in tests/answers/ (so messages name the files as a student typed them).
Result run_attn(const std::string& args) { return attn_process(args, std::string(ATTN_TEST_DATA) + "/answers"); }

// The words of a wrapped report, joined by single spaces.
std::string words(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    out += c, space = false;
  }
  return out;
}

// `s` as a JSON string's contents: quotes and backslashes escaped.
std::string json_escaped(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out;
}

}  // namespace

// ================================ the real binary ================================

// Under a locale that is not UTF-8, the report's own signs are ASCII (sqrt(2), ~, *); UTF-8 keeps them.
TEST_CASE("attn check under LANG=C: the report's signs in ASCII") {
  const std::string args = "check causal --step weights --answer causal-weights-unscaled.npy";
  Result c = attn_process(args, std::string(ATTN_TEST_DATA) + "/answers", "LANG=C LC_ALL= LC_CTYPE=");
  CHECK(c.code == 1);
  CHECK(c.out.find("0.0001+0.0001*|expected|") != std::string::npos);
  CHECK(c.out.find("hint: Missing 1/sqrt(d_k) scaling: the lesson divides the scores by sqrt(d_k) =\n      sqrt(2) ~ 1.414") != std::string::npos);
  for (const char* sign : {"√", "·", "≈"}) CHECK(c.out.find(sign) == std::string::npos);
  Result u = attn_process(args, std::string(ATTN_TEST_DATA) + "/answers", "LANG=C.UTF-8 LC_ALL=");
  CHECK(u.out.find("hint: Missing 1/√d_k scaling: the lesson divides the scores by √d_k = √2 ≈ 1.414") != std::string::npos);
}

TEST_CASE("attn check: right answers in every format pass (exit 0)") {
  for (const char* f : {"causal-weights.npy", "causal-weights-f8.npy", "causal-weights-v2.npy", "causal-weights-v3.npy",
                        "causal-weights-fortran.npy", "causal-weights.csv", "causal-weights.txt"}) {
    CAPTURE(f);
    Result r = run_attn(std::string("check causal --step weights --answer ") + f);
    CHECK(r.code == 0);
    CHECK(r.out.rfind("PASS  causal/weights  attn_weights [6, 6]\n", 0) == 0);
    CHECK(r.err.empty());
  }
  Result inf = run_attn("check causal --step neg-inf --answer causal-masked.csv");
  CHECK(inf.code == 0);
  CHECK(run_attn("check causal --step tril --answer causal-mask-bool.npy").code == 0);
  CHECK(run_attn("check embedding --step ids --name sentence_int --answer embedding-ids.npy").code == 0);
  CHECK(run_attn("check embedding --step ids --name sentence_int --answer embedding-ids-i4.npy").code == 0);
  Result csv = run_attn("check causal --step weights --answer causal-weights.csv");
  CHECK(csv.out ==
        "PASS  causal/weights  attn_weights [6, 6]\n"
        "      all 36 elements of your answer (causal-weights.csv, text) agree within\n"
        "      0.0001+0.0001·|expected|; the largest difference is 4.723e-05.\n");
}

TEST_CASE("attn check: PyTorch's wrong answers fail (exit 1) with the hint that names the mistake") {
  struct Case {
    std::string args, hint;
  } cases[] = {
      {"--step weights --answer causal-weights-dim0.npy", "hint: Softmax over the wrong axis: in your answer each column sums to 1 (dim=0)"},
      {"--step weights --answer causal-weights-dim0.csv", "hint: Softmax over the wrong axis"},
      {"--step weights --answer causal-weights-unscaled.npy", "hint: Missing 1/√d_k scaling"},
      {"--step weights --answer causal-weights-dk.npy", "hint: Divided by d_k instead of √d_k"},
      {"--step weights --answer causal-weights-T.npy", "hint: Your answer is the lesson's tensor transposed"},
      {"--step weights --answer causal-weights-swapped.npy", "hint: The scores are transposed"},
      {"--step weights --answer causal-weights-swapped.npy", "draws W_key, W_query, W_value in that order"},
      {"--step weights --answer causal-weights-value-first.npy", "draws W_value, W_query, W_key in that order"},
      {"--step weights --answer causal-weights-noseed.npy", "without the `torch.manual_seed(123)` in step"},
      {"--step scores --answer causal-scores-swapped.npy", "hint: Your answer is the lesson's tensor transposed"},
      {"--step renorm --answer causal-renorm-unnormalised.npy", "hint: The mask was applied after the softmax without renormalising"},
      {"--step softmax-masked --answer causal-softmax-masked-zero-fill.npy", "hint: The mask filled the scores with 0 instead of -inf"},
      {"--step softmax-masked --answer causal-softmax-masked-unmasked.npy", "hint: Your answer gives weight to positions"},
      {"--step softmax-masked --answer causal-softmax-masked-triangle.npy", "hint: Your zeros are on the wrong side of the diagonal"},
      {"--step weights --answer causal-weights-3d.npy", "shape mismatch: your answer (causal-weights-3d.npy, <f4) has shape [1, 6, 6]"},
      {"--step weights --answer causal-weights.npy --seed 42", "without `--seed 42`, with the article's own seed"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = run_attn("check causal " + c.args);
    CHECK(r.code == 1);
    CHECK(r.out.rfind("FAIL  causal/", 0) == 0);
    CHECK(words(r.out).find(c.hint) != std::string::npos);
    CHECK(r.err.empty());
  }
  Result dim0 = run_attn("check causal --step weights --answer causal-weights-dim0.npy");
  // Piped, the report is word-wrapped at 80 columns (issue 19: it was 100, which an 80-column
  // terminal broke again mid-word: "differ by more t" / "han").
  CHECK(dim0.out.find("      36 of 36 elements of your answer (causal-weights-dim0.npy, <f4) differ by\n"
                      "      more than 0.0001+0.0001·|expected|; the largest difference is 0.209043 at\n"
                      "      [1, 4].\n"
                      "      index               expected         yours    difference\n"
                      "      [0, 0]              0.177197      0.171487   -0.00570919\n") != std::string::npos);
  CHECK(dim0.out.find("      (31 more)\n") != std::string::npos);
}

TEST_CASE("attn check: --index, and NaN where the lesson prints NaN") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-check-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/nan.txt") << "nan nan nan\n";
  std::ofstream(dir + "/stray.csv") << "0.0900,nan,0.6652\n";
  Result nan = run_attn("check simple --step overflow --name 'softmax_naive(large_scores)' --answer " + dir + "/nan.txt");
  CHECK(nan.code == 0);
  // A NaN where the lesson's tensor has a number is graded as a wrong number (issue 10; it was refused with exit 2).
  Result stray = run_attn("check simple --step overflow --answer " + dir + "/stray.csv");
  CHECK(stray.code == 1);
  CHECK(stray.err.empty());
  CHECK(stray.out.rfind("FAIL  simple/overflow  softmax_naive(large_scores - 1002.) [3]\n", 0) == 0);
  CHECK(words(stray.out).find("the largest difference is at [1], where yours is NaN.") != std::string::npos);
  CHECK(stray.out.find("      [1]                 0.244728           nan           nan\n") != std::string::npos);
  CHECK(stray.out.find("      1 of your numbers is NaN where the lesson's are numbers") != std::string::npos);
  Result index = run_attn("check multihead --step wrapper-fixed --index 3 --answer causal-weights.npy");
  CHECK(index.code == 2);
  CHECK(index.err == "attn: step 'wrapper-fixed' of lesson 'multihead' prints 2 tensors, so --index 3 does not exist\n");
  CHECK(run_attn("check multihead --step wrapper-fixed --index 0 --answer causal-weights.npy").code == 2);
}

TEST_CASE("attn check: every answer is graded: NaN, a mask over the diagonal, --seed hints, numbers pasted with commas") {
  // tril(...).bool() as the fill mask: the last row is all -inf, so NaN; a FAIL with the report and the hint.
  Result diag = run_attn("check causal --step softmax-masked --answer causal-softmax-masked-diagonal.npy");
  CHECK(diag.code == 1);
  CHECK(diag.err.empty());
  CHECK(diag.out.rfind("FAIL  causal/softmax-masked  attn_weights [6, 6]\n", 0) == 0);
  CHECK(words(diag.out).find("the largest difference is at [5, 0], where yours is NaN.") != std::string::npos);
  CHECK(diag.out.find("      6 of your numbers are NaN where the lesson's are numbers") != std::string::npos);
  CHECK(diag.out.find("hint: Your weights keep only the positions above the diagonal (the future) and\n") != std::string::npos);
  CHECK(diag.out.find("hint:", diag.out.find("hint:") + 1) == std::string::npos);   // that one hint only
  Result diag_json = run_attn("check causal --step softmax-masked --answer causal-softmax-masked-diagonal.npy --format json");
  CHECK(diag_json.code == 1);
  CHECK(diag_json.out.find("\"n_differ\": 36, \"n_nan\": 6, \"max_abs_diff\": \"inf\", \"max_abs_diff_index\": [5, 0], ") != std::string::npos);
  CHECK(diag_json.out.find("\"hints\": [{\"kind\": \"mask_diagonal\", ") != std::string::npos);
  // The same numbers by the other method (issue 19): the weights times triu(ones, diagonal=1),
  // renormalised (tools/make_answers.py). The hint says what the numbers prove, the future kept
  // and the diagonal and the past hidden, and not "fill triu(..., diagonal=1) with -inf instead",
  // the matrix she had used. Zeroing what triu(..., 1) marks and renormalising passes.
  Result kept = run_attn("check causal --step softmax-masked --answer causal-renorm-triu-kept.npy");
  CHECK(kept.code == 1);
  CHECK(kept.out.substr(kept.out.find("hint:")) ==
        "hint: Your weights keep only the positions above the diagonal (the future) and\n"
        "      hide the diagonal and the past: the last token is left nothing to see, so\n"
        "      its row is NaN (0/0). The lesson hides what\n"
        "      torch.triu(torch.ones(n, n), diagonal=1) marks (the future) and keeps what\n"
        "      torch.tril(torch.ones(n, n)) marks (the diagonal and the past): fill the\n"
        "      first with -inf before the softmax, or multiply the weights by the second\n"
        "      and renormalise each row.\n");
  CHECK(kept.out.find("instead") == std::string::npos);
  Result kept_renorm = run_attn("check causal --step renorm --answer causal-renorm-triu-kept.npy");
  CHECK(kept_renorm.out.substr(kept_renorm.out.find("hint:")) == kept.out.substr(kept.out.find("hint:")));
  CHECK(run_attn("check causal --step softmax-masked --answer causal-renorm-triu-zeroed.npy").code == 0);
  CHECK(run_attn("check causal --step renorm --answer causal-renorm-triu-zeroed.npy").code == 0);

  // nan spelled one way: 0/0 has its sign bit set on x86, and C's printf writes it "-nan"; the
  // text says nan, as Python and the JSON report do.
  Result nan_row = run_attn("check causal --step weights --answer causal-weights-nan-row.npy");
  CHECK(nan_row.code == 1);
  CHECK(nan_row.out.find("      [0, 0]              0.177197           nan           nan\n") != std::string::npos);
  CHECK(nan_row.out.find(" -nan") == std::string::npos);   // (the file's name has "-nan")
  CHECK(run_attn("check causal --step weights --answer causal-weights-nan-row.npy --format json").out.find("\"got\": \"nan\"") !=
        std::string::npos);

  // A NaN in a table of the wrong shape: a shape mismatch, graded.
  Result nan_csv = run_attn("check causal --step weights --answer bad-nan.csv");
  CHECK(nan_csv.code == 1);
  CHECK(nan_csv.out.find("shape mismatch: your answer (bad-nan.csv, text) has shape [2, 2]") != std::string::npos);

  // Hints that missed with --seed: the other triangle where true weights are ~6e-8 (saved, and copied
  // to 4 decimals), and keys @ queries.T, named before the draw order that has the same effect.
  for (const char* f : {"causal-softmax-masked-triangle-s42.npy", "causal-softmax-masked-triangle-s42.txt"}) {
    CAPTURE(f);
    Result tri = run_attn(std::string("check causal --step softmax-masked --seed 42 --format json --answer ") + f);
    CHECK(tri.code == 1);
    CHECK(tri.out.find("\"hints\": [{\"kind\": \"mask_wrong_triangle\", ") != std::string::npos);
    CHECK(tri.out.find("\"kind\"", tri.out.find("\"kind\"") + 1) == std::string::npos);
  }
  Result kq = run_attn("check causal --step softmax-masked --seed 7 --answer causal-softmax-masked-kq-s7.npy --format json");
  CHECK(kq.code == 1);
  CHECK(kq.out.find("\"hints\": [{\"kind\": \"transposed_scores\", \"message\": \"The scores are transposed: your weights are the "
                    "lesson's masked softmax of `attn_scores`.T (step 'scores' prints `attn_scores`)") != std::string::npos);
  CHECK(kq.out.find("}, {\"kind\": \"draw_order\", ") != std::string::npos);   // second, and last
  CHECK(kq.out.find("\"kind\"", kq.out.find("draw_order")) == std::string::npos);

  // Rows copied from the printout, each ending in a comma.
  Result pasted = run_attn("check causal --step weights --answer causal-weights-pasted.txt");
  CHECK(pasted.code == 0);
  CHECK(pasted.out.rfind("PASS  causal/weights  attn_weights [6, 6]\n", 0) == 0);
}

TEST_CASE("attn check --format json: one object, exit codes unchanged") {
  Result fail = run_attn("check causal --step weights --answer causal-weights-unscaled.npy --format json");
  CHECK(fail.code == 1);
  CHECK(fail.out.rfind("{\"lesson\": \"causal\", \"step\": \"weights\", \"name\": \"attn_weights\", ", 0) == 0);
  CHECK(fail.out.find("\"pass\": false") != std::string::npos);
  CHECK(fail.out.find("\"hints\": [{\"kind\": \"missing_scale\", ") != std::string::npos);
  CHECK(std::count(fail.out.begin(), fail.out.end(), '\n') == 1);
  Result pass = run_attn("check causal --step weights --answer causal-weights.npy --format json --atol 0 --rtol 0");
  CHECK(pass.code == 0);
  // max_abs_diff is a float, 0.0 (issue 10: it was the integer 0); n_nan was added.
  CHECK(pass.out.find("\"pass\": true, \"shape\": {\"expected\": [6, 6], \"got\": [6, 6]}, \"n_elements\": 36, \"n_differ\": 0, "
                      "\"n_nan\": 0, \"max_abs_diff\": 0.0, \"max_abs_diff_index\": [0, 0], \"differences\": [], \"hints\": []}") !=
        std::string::npos);
  Result shape = run_attn("check causal --step weights --answer causal-weights-3d.npy --format json");
  CHECK(shape.out.find("\"shape\": {\"expected\": [6, 6], \"got\": [1, 6, 6]}, \"n_elements\": 36, \"n_differ\": null, "
                       "\"n_nan\": null, \"max_abs_diff\": null") != std::string::npos);
  // The seed is a number, as in the lesson JSON.
  Result seeded = run_attn("check causal --step weights --seed 42 --answer causal-weights.npy --format json");
  CHECK(seeded.code == 1);
  CHECK(seeded.out.find("\"options\": {\"seed\": 42, \"sentence\": null, ") != std::string::npos);
}

TEST_CASE("attn check: malformed answers and bad usage, one line on stderr, exit 2") {
  struct Case {
    std::string args, err;
  } cases[] = {
      {"--answer bad-truncated.npy", "attn: bad-truncated.npy: truncated .npy file: the header should be 118 bytes, the file has 90 after the preamble\n"},
      {"--answer bad-float16.npy",
       "attn: bad-float16.npy: dtype '<f2' is not supported; attn check reads <f4, <f8, <i8, <i4, |b1 (np.save(path, "
       "t.detach().numpy()) writes <f4 for a float32 tensor; convert with a.astype('<f4'))\n"},
      {"--answer bad-bigendian.npy",
       "attn: bad-bigendian.npy: dtype '>f4' is big-endian; attn check reads little-endian <f4, <f8, <i8, <i4, |b1 (save "
       "a.astype('<f4'))\n"},
      {"--answer bad-archive.npz",
       "attn: bad-archive.npz: is a zip archive (np.savez and torch.save write these), not one array; save the tensor with "
       "np.save(path, t.detach().numpy())\n"},
      {"--answer bad-ragged.csv", "attn: bad-ragged.csv:2: 2 numbers on this line, 3 on line 1 (every row needs the same number of columns)\n"},
      {"--answer bad-words.csv", "attn: bad-words.csv:2: item 2 on this line is not a number (numbers are written with digits, '.', 'e', '+' and '-')\n"},
      {"--answer bad-empty.csv", "attn: bad-empty.csv: the file is empty\n"},
      {"--answer bad-printed.txt",
       "attn: bad-printed.txt:1: this line starts with `tensor(`: it looks like a printed tensor, not a table of numbers: "
       "write one with np.savetxt(path, t.detach().numpy(), delimiter=',') or use np.save\n"},
      {"--answer nosuch.npy", "attn: nosuch.npy: no such file\n"},
      {"--answer .", "attn: .: is a directory, not an answer file\n"},
      {"--step nope --answer causal-weights.npy",
       "attn: lesson 'causal' has no step 'nope' (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)\n"},
      {"--answer causal-weights.npy --name attn_scores",
       "attn: step 'weights' of lesson 'causal' prints no tensor or number named 'attn_scores' (it prints: attn_weights)\n"},
      {"--step setup --answer causal-weights.npy",
       "attn: step 'setup' of lesson 'causal' prints no float tensor to grade; steps that print one: scores, weights, tril, masked, "
       "renorm, neg-inf, softmax-masked\n"},
      {"--answer causal-weights.npy --seed x", "attn: --seed must be an integer (as torch.manual_seed takes), got 'x'\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    std::string args = c.args.find("--step") == std::string::npos ? "--step weights " + c.args : c.args;
    std::string step = args.substr(7, args.find(' ', 7) - 7);
    std::string message = c.err.substr(6, c.err.size() - 7);   // without "attn: " and the newline
    Result r = run_attn("check causal " + args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    // stdout has the same words, so a grading loop that saves stdout has feedback (issue 10: it was empty)
    CHECK(r.out.rfind("ERROR  causal/" + step + (args.find("--seed") != std::string::npos ? "  (lesson run with --seed x)" : "") + "\n", 0) == 0);
    CHECK(words(r.out.substr(r.out.find('\n') + 1)) == "cannot grade: " + message);
    Result j = run_attn("check causal " + args + " --format json");
    CHECK(j.code == 2);
    CHECK(j.err == c.err);
    CHECK(j.out.rfind("{\"lesson\": \"causal\", \"step\": \"" + step + "\", \"name\": ", 0) == 0);
    CHECK(j.out.ends_with(", \"pass\": false, \"error\": \"" + json_escaped(message) + "\"}\n"));
    CHECK(std::count(j.out.begin(), j.out.end(), '\n') == 1);
  }
  for (const char* args : {"check causal --step weights", "check causal --answer causal-weights.npy", "check --step weights --answer x.npy",
                           "check causal --step weights --answer causal-weights.npy --atol -1",
                           "check causal --step weights --answer causal-weights.npy --format xml"}) {
    CAPTURE(args);
    Result r = run_attn(args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("attn: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
  }
  Result help = run_attn("check --help");
  CHECK(help.code == 0);
  CHECK(help.out.find("numbers copied from its printout are off by at most") != std::string::npos);
}

TEST_CASE("attn check in a 60-column terminal: wrapped at 60, never inside a word; a cannot-grade error written once") {
  if (!std::filesystem::exists("/usr/bin/script")) {
    MESSAGE("util-linux `script` not found: terminal test skipped");
    return;
  }
  // `script` gives attn a pseudo-terminal, on stdout and stderr both; `stty cols 60` sets its width.
  Result r = shell_process("timeout 20 script -qec 'stty cols 60; " + std::string(ATTN_BINARY) +
                               " check causal --step weights --answer causal-weights-dim0.npy; " + ATTN_BINARY +
                               " check causal --step weights --answer bad-empty.csv; echo exit $?' /dev/null </dev/null | tr -d '\\r'",
                           std::string(ATTN_TEST_DATA) + "/answers");
  CHECK(r.out ==
        "FAIL  causal/weights  attn_weights [6, 6]\n"
        "      36 of 36 elements of your answer\n"
        "      (causal-weights-dim0.npy, <f4) differ by more than\n"
        "      0.0001+0.0001·|expected|; the largest difference is\n"
        "      0.209043 at [1, 4].\n"
        "      index     expected      yours   difference\n"
        "      [0, 0]    0.177197   0.171487  -0.00570919\n"
        "      [0, 1]    0.132559  0.0482981   -0.0842607\n"
        "      [0, 2]      0.1879   0.163816   -0.0240841\n"
        "      [0, 3]    0.164511   0.157153  -0.00735833\n"
        "      [0, 4]    0.154747     0.1304   -0.0243462\n"
        "      (31 more)\n"
        "hint: Softmax over the wrong axis: in your answer each\n"
        "      column sums to 1 (dim=0); in the lesson's each row\n"
        "      sums to 1 (dim=1, or dim=-1): one row per query,\n"
        "      holding its weights over all the keys. Your answer is\n"
        "      softmax(attn_scores / √2, dim=0); the lesson computes\n"
        "      softmax(attn_scores / √2, dim=1), with `attn_scores`\n"
        "      as step 'scores' prints it.\n"
        // stdout and stderr are the same terminal: the error is the report, once (it was twice)
        "ERROR  causal/weights\n"
        "      cannot grade: bad-empty.csv: the file is empty\n"
        "exit 2\n");
}

// Bytes that are not a number are not quoted at all (issue 20: a linked or mistaken file's content
// never reaches the feedback), and the message stays valid JSON.
TEST_CASE("attn check: a message about bytes that are not UTF-8 quotes none of them and stays valid JSON") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-check-utf8-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/bytes.csv") << "0.1,\xff\xfe\x1b[2J\n";
  Result text = attn_process("check causal --step weights --answer bytes.csv", dir);
  CHECK(text.code == 2);
  const std::string message = "bytes.csv:1: item 2 on this line is not a number (numbers are written with digits, '.', 'e', '+' and '-')";
  CHECK(text.out == "ERROR  causal/weights\n      cannot grade: bytes.csv:1: item 2 on this line is not a number (numbers\n"
                    "      are written with digits, '.', 'e', '+' and '-')\n");
  CHECK(text.err == "attn: " + message + "\n");
  Result json = attn_process("check causal --step weights --answer bytes.csv --format json", dir);
  CHECK(json.out.ends_with("\"error\": \"" + message + "\"}\n"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("attn check: a cannot-grade error once in `2>&1`, and on stderr too when stdout is redirected") {
  Result same = shell_process(std::string(ATTN_BINARY) + " check causal --step weights --answer bad-empty.csv 2>&1",
                              std::string(ATTN_TEST_DATA) + "/answers");
  CHECK(same.code == 2);
  CHECK(same.out == "ERROR  causal/weights\n      cannot grade: bad-empty.csv: the file is empty\n");
  Result json = shell_process(std::string(ATTN_BINARY) + " check causal --step weights --answer bad-empty.csv --format json 2>&1",
                              std::string(ATTN_TEST_DATA) + "/answers");
  CHECK(json.code == 2);
  CHECK(json.out.find("attn: ") == std::string::npos);
  // A grading loop (`> feedback.txt`): the report in the file, the line on the terminal.
  Result split = run_attn("check causal --step weights --answer bad-empty.csv");
  CHECK(split.code == 2);
  CHECK(split.out == "ERROR  causal/weights\n      cannot grade: bad-empty.csv: the file is empty\n");
  CHECK(split.err == "attn: bad-empty.csv: the file is empty\n");
}
