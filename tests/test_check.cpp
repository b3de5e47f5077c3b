// tests/test_check.cpp: `attn check`. The answer reader on crafted .npy and text bytes (every
// accepted layout and every malformed case, with its one-line message); the hints, on wrong
// answers built from the lesson's own printed intermediates with core ops (each hint must name
// its mistake); and the real binary on answers PyTorch made (tests/answers/, from
// tools/make_answers.py), as a grading script runs it: exit codes, output, JSON.
#include <doctest/doctest.h>

#include "run_attn.h"

#include <sys/wait.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/tensor.h"
#include "lab/answer.h"
#include "lab/grade.h"
#include "lesson/catalog.h"
#include "lesson/run.h"

namespace lesson = attn::lesson;
namespace core = attn::core;
namespace lab = attn::lab;
namespace py = attn::py;

namespace {

// ---- .npy bytes as numpy.lib.format writes them ----

std::string le(uint64_t v, int bytes) {
  std::string out;
  for (int k = 0; k < bytes; ++k) out += static_cast<char>((v >> (8 * k)) & 0xff);
  return out;
}

// A .npy file with this exact header dict text, padded as NumPy pads it (to 64 bytes, then '\n').
std::string npy_raw(const std::string& dict, const std::string& data, int major = 1) {
  size_t pre = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((pre + header.size() + 1) % 64) header += ' ';
  header += '\n';
  return std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0' + le(header.size(), major == 1 ? 2 : 4) + header + data;
}

std::string npy(const std::string& descr, const std::string& shape, const std::string& data, int major = 1, bool fortran = false) {
  return npy_raw("{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }", data,
                 major);
}

template <typename T>
std::string bytes_of(std::initializer_list<T> values) {
  std::string out;
  for (T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
  return out;
}

lab::Answer parse(const std::string& bytes, const std::string& file = "a.npy") { return lab::parse_answer(bytes, file); }

std::string error_of(const std::string& bytes, const std::string& file = "a.npy") {
  try {
    lab::parse_answer(bytes, file);
  } catch (const attn::UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

// ---- the real binary ----

using Result = CliResult;

// Runs `attn ARGS` in tests/answers/ (so messages name the files as a student typed them).
Result run_attn(const std::string& args) { return attn_process(args, std::string(ATTN_TEST_DATA) + "/answers"); }

// ---- lessons and answers built from their printed values ----

const lesson::Lesson& lesson_named(const std::string& name) {
  static const std::vector<lesson::Lesson> all = lesson::load_catalog(lesson::lesson_dir());
  return lesson::find_lesson(all, name);
}

// The tensor printed from `name` in step `step` (the last one of that name).
core::Tensor printed(const lesson::LessonRun& run, const std::string& step, const std::string& name) {
  core::Tensor out;
  for (const auto& s : run.steps)
    if (s.step->id == step)
      for (const auto& c : s.cells)
        for (const auto& p : c.printed)
          if (p.name == name) out = py::as_tensor(p.value);
  REQUIRE(!out.shape.empty());
  return out;
}

lab::Answer answer_of(const core::Tensor& t) {
  lab::Answer a;
  a.file = "answer.npy";
  a.dtype = "<f4";
  a.shape = t.shape;
  for (int64_t k = 0; k < t.numel(); ++k) a.data.push_back(t.at(k));
  return a;
}

struct Checked {
  lab::Grade g;
  std::string kinds;     // "softmax_dim,equals_printed"
  std::string messages;  // every hint's message
};

Checked check(const lesson::LessonRun& run, const std::string& step, const lab::Answer& a, const lesson::RunOptions& opts = {},
              const std::string& name = "", lab::Tolerance tol = {}) {
  lab::Target t = lab::select_target(run, step, name);
  Checked c{lab::grade(run, t, a, tol, opts), "", ""};
  for (const auto& h : c.g.hints) {
    c.kinds += c.kinds.empty() ? "" : ",";
    c.kinds += lab::to_string(h.kind);
    c.messages += h.message + "\n";
  }
  return c;
}

core::Tensor div(const core::Tensor& t, double s) { return core::binary_scalar(core::BinOp::div, t, s); }

}  // namespace

// ================================ the .npy reader ================================

TEST_CASE("npy: every accepted dtype, format versions 1.0, 2.0 and 3.0") {
  for (int major : {1, 2, 3}) {
    CAPTURE(major);
    lab::Answer a = parse(npy("<f4", "(2, 3)", bytes_of<float>({0.5f, 1, 2, 3, -INFINITY, 0.1f}), major));
    CHECK(a.format == lab::Answer::Format::npy);
    CHECK(a.dtype == "<f4");
    CHECK(a.shape == core::Shape{2, 3});
    CHECK(a.data == std::vector<double>{0.5, 1, 2, 3, -INFINITY, static_cast<double>(0.1f)});
  }
  CHECK(parse(npy("<f8", "(2,)", bytes_of<double>({0.1, -2.5}))).data == std::vector<double>{0.1, -2.5});
  CHECK(parse(npy("<i8", "(3,)", bytes_of<int64_t>({0, 4, -5}))).data == std::vector<double>{0, 4, -5});
  CHECK(parse(npy("<i4", "(1, 2)", bytes_of<int32_t>({7, -1}))).data == std::vector<double>{7, -1});
  CHECK(parse(npy("|b1", "(3,)", std::string("\x01\x00\x01", 3))).data == std::vector<double>{1, 0, 1});
  // 0-d, empty, Python 2 long literals, double-quoted keys, a UTF-8 header (3.0 only).
  CHECK(parse(npy("<f4", "()", bytes_of<float>({2.5f}))).shape.empty());
  CHECK(parse(npy("<f4", "(0,)", "")).data.empty());
  CHECK(parse(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 2L), }", bytes_of<float>({1, 2}))).shape ==
        core::Shape{1, 2});
  CHECK(parse(npy_raw(R"({"descr": "<f4", "fortran_order": False, "shape": (1,)})", bytes_of<float>({1}))).data.size() == 1);
}

TEST_CASE("npy: Fortran order (np.save of a transposed array) is read in row-major order") {
  // [[1, 2, 3], [4, 5, 6]] stored column by column: 1 4 2 5 3 6.
  lab::Answer a = parse(npy("<f4", "(2, 3)", bytes_of<float>({1, 4, 2, 5, 3, 6}), 1, true));
  CHECK(a.data == std::vector<double>{1, 2, 3, 4, 5, 6});
  // 3-D: element [i, j, k] at i + 2*j + 4*k.
  std::vector<float> f(8);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) f[static_cast<size_t>(i + 2 * j + 4 * k)] = static_cast<float>(100 * i + 10 * j + k);
  std::string data(reinterpret_cast<const char*>(f.data()), f.size() * 4);
  CHECK(parse(npy("<f4", "(2, 2, 2)", data, 1, true)).data == std::vector<double>{0, 1, 10, 11, 100, 101, 110, 111});
}

TEST_CASE("npy: malformed files get one line naming the file") {
  std::string good = npy("<f4", "(2, 2)", bytes_of<float>({1, 2, 3, 4}));
  CHECK(error_of(std::string("\x93NUM", 4)) == "a.npy: truncated .npy file: 4 bytes, not even the whole magic");
  CHECK(error_of(good.substr(0, 8)) == "a.npy: truncated .npy file: 8 bytes, less than the magic, version and header length");
  CHECK(error_of(good.substr(0, 40)) == "a.npy: truncated .npy file: the header should be 118 bytes, the file has 30 after the preamble");
  CHECK(error_of(good.substr(0, good.size() - 3)) ==
        "a.npy: truncated .npy file: shape (2, 2) of <f4 needs 16 bytes of data, the file has 13");
  CHECK(error_of(good + "xx") ==
        "a.npy: 2 bytes after the data its header describes (shape (2, 2) of <f4 is 16 bytes); np.save writes none");
  std::string v4 = good;
  v4[6] = 4;
  CHECK(error_of(v4) == "a.npy: .npy format version 4.0 is not supported (attn check reads 1.0, 2.0 and 3.0)");
  CHECK(error_of(npy("<f2", "(2,)", "abcd")) ==
        "a.npy: dtype '<f2' is not supported; attn check reads <f4, <f8, <i8, <i4, |b1 (np.save(path, t.detach().numpy()) "
        "writes <f4 for a float32 tensor; convert with a.astype('<f4'))");
  CHECK(error_of(npy("<U5", "(1,)", std::string(20, 'a'))).find("dtype '<U5' is not supported; attn check reads <f4, <f8, <i8, <i4, |b1") !=
        std::string::npos);
  CHECK(error_of(npy(">f4", "(1,)", "abcd")) ==
        "a.npy: dtype '>f4' is big-endian; attn check reads little-endian <f4, <f8, <i8, <i4, |b1 (save a.astype('<f4'))");
  CHECK(error_of(npy_raw("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "abcd")) ==
        "a.npy: structured dtypes (records) are not supported; attn check reads arrays of <f4, <f8, <i8, <i4, |b1: save the "
        "tensor with np.save(path, t.detach().numpy())");
  CHECK(error_of(npy_raw("{'descr': '<f4', 'shape': (1,), }", "abcd")) == "a.npy: malformed .npy header: no 'fortran_order' key");
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", "abcd"))
            .rfind("a.npy: malformed .npy header (unexpected '1}", 0) == 0);
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", "abcd")).rfind("a.npy: malformed .npy header (", 0) == 0);
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': 'x', }", "abcd")) ==
        "a.npy: malformed .npy header: 'shape' must be a tuple of integers");
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", "abcd")).find("non-negative integers") !=
        std::string::npos);
  CHECK(error_of(npy("<f4", "(2, 2)", bytes_of<float>({1, 2, NAN, 4}))) ==
        "a.npy: element [1, 0] is NaN; attn check grades numbers; a NaN usually comes from a softmax over a row that is all "
        "-inf (a mask that also hides the diagonal) or from 0/0");
  CHECK(error_of(npy("<f4", "(2, 2)", bytes_of<float>({1, NAN, 3, 4}), 1, true)).rfind("a.npy: element [1, 0] is NaN", 0) == 0);
  CHECK(error_of(npy("<f4", "(100000, 100000, 100000)", "")) == "a.npy: the shape (100000, 100000, 100000) is too large");
  CHECK(error_of(std::string("PK\x03\x04rest", 8), "a.npz") ==
        "a.npz: is a zip archive (np.savez and torch.save write these), not one array; save the tensor with np.save(path, "
        "t.detach().numpy())");
  CHECK(error_of(std::string("\x80\x02}q\x00.", 6), "t.pt") ==
        "t.pt: is neither a .npy file (no \\x93NUMPY magic) nor text; save the tensor with np.save(path, t.detach().numpy())");
}

TEST_CASE("NaN: refused by default; with allow_nan kept, with where it is, for the grader to decide") {
  std::string data = bytes_of<float>({1, NAN, 3, NAN});
  lab::Answer a = lab::parse_answer(npy("<f4", "(2, 2)", data), "a.npy", true);
  CHECK(std::isnan(a.data[1]));
  REQUIRE(a.nans.size() == 2);
  CHECK(a.nans[0].index == 1);
  CHECK(a.nans[0].message.rfind("a.npy: element [0, 1] is NaN; ", 0) == 0);
  // Fortran order: file position 1 is element [1, 0], row-major position 2.
  lab::Answer f = lab::parse_answer(npy("<f4", "(2, 2)", bytes_of<float>({1, NAN, 3, 4}), 1, true), "f.npy", true);
  REQUIRE(f.nans.size() == 1);
  CHECK(f.nans[0].index == 2);
  CHECK(std::isnan(f.data[2]));
  lab::Answer t = lab::parse_answer("1 2\n3 nan\n", "t.txt", true);
  REQUIRE(t.nans.size() == 1);
  CHECK(t.nans[0].index == 3);
  CHECK(t.nans[0].line == 2);
  CHECK(t.nans[0].message.rfind("t.txt:2: 'nan' is NaN; ", 0) == 0);
}

// ================================ the text reader ================================

TEST_CASE("text: CSV, whitespace, comments, CRLF, a byte-order mark, infinities") {
  lab::Answer a = parse("0.1,0.2,0.3\n0.4, 0.5 ,0.6\n", "w.csv");
  CHECK(a.format == lab::Answer::Format::text);
  CHECK(a.shape == core::Shape{2, 3});
  CHECK(a.data == std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6});
  CHECK(parse("# header from np.savetxt\n1.0e-01 2 3\n\n4\t5 6  # trailing comment\n", "w.txt").shape == core::Shape{2, 3});
  CHECK(parse("\xEF\xBB\xBF" "1,2\r\n3,4\r\n", "w.csv").data == std::vector<double>{1, 2, 3, 4});
  CHECK(parse("0.0613,-inf\n-Infinity,+3.5\n", "m.csv").data == std::vector<double>{0.0613, -INFINITY, -INFINITY, 3.5});
  CHECK(parse("42", "x.txt").shape == core::Shape{1, 1});
}

TEST_CASE("text: malformed files get one line naming the file and the line") {
  CHECK(error_of("", "e.csv") == "e.csv: the file is empty");
  CHECK(error_of("\n  \n# only a comment\n", "e.csv") == "e.csv: the file has no numbers (only blank lines or # comments)");
  CHECK(error_of("1,2,3\n4,5\n", "r.csv") == "r.csv:2: 2 numbers on this line, 3 on line 1 (every row needs the same number of columns)");
  CHECK(error_of("# c\n1 2\n\n3\n", "r.txt") == "r.txt:4: 1 number on this line, 2 on line 2 (every row needs the same number of columns)");
  CHECK(error_of("1,2\nnan,3\n", "n.csv") ==
        "n.csv:2: 'nan' is NaN; attn check grades numbers; a NaN usually comes from a softmax over a row that is all -inf (a mask "
        "that also hides the diagonal) or from 0/0");
  CHECK(error_of("1,NaN\n", "n.csv").rfind("n.csv:1: 'NaN' is NaN", 0) == 0);
  CHECK(error_of("1,2\n3,zero\n", "w.csv") == "w.csv:2: 'zero' is not a number");
  CHECK(error_of("1,2\n3,0x\n", "w.csv") == "w.csv:2: '0x' is not a number");
  CHECK(error_of("1,,2\n", "w.csv") == "w.csv:1: empty field (two commas in a row, or a comma at the start or end of the line)");
  CHECK(error_of("1,2,\n", "w.csv") == "w.csv:1: empty field (two commas in a row, or a comma at the start or end of the line)");
  CHECK(error_of("1e999\n", "w.csv") == "w.csv:1: '1e999' is out of the range of a float");
  CHECK(error_of("tensor([[0.1772, 0.1326],\n        [0.0386, 0.6870]])\n", "p.txt") ==
        "p.txt:1: 'tensor([[0.1772, 0.1326]...' looks like a printed tensor, not a table of numbers: write one with "
        "np.savetxt(path, t.detach().numpy(), delimiter=',') or use np.save");
  CHECK(error_of("1 2\n3 \x01\n", "b.txt") == "b.txt:2: '\\x01' is not a number");
}

TEST_CASE("read_answer: missing file, directory") {
  auto err = [](const std::string& path) {
    try {
      lab::read_answer(path);
    } catch (const attn::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(err("/nonexistent/w.npy") == "/nonexistent/w.npy: no such file");
  CHECK(err(std::filesystem::temp_directory_path().string()) ==
        std::filesystem::temp_directory_path().string() + ": is a directory, not an answer file");
  lab::Answer a = lab::read_answer(std::string(ATTN_TEST_DATA) + "/answers/causal-weights.npy");
  CHECK(a.shape == core::Shape{6, 6});
}

// ================================ grading and hints ================================

TEST_CASE("select_target: the last float tensor of the step, or --name") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  CHECK(lab::select_target(run, "scores", "").value.name == "attn_scores");   // not attn_scores.shape
  CHECK(lab::select_target(run, "softmax-masked", "").value.name == "attn_weights");
  CHECK(lab::select_target(run, "weights", "attn_weights").float_names == std::vector<std::string>{"attn_weights"});
  auto err = [&](const std::string& step, const std::string& name) {
    try {
      lab::select_target(run, step, name);
    } catch (const attn::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(err("nope", "") == "lesson 'causal' has no step 'nope' (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)");
  CHECK(err("weights", "foo") == "step 'weights' of lesson 'causal' prints no tensor or number named 'foo' (it prints: attn_weights)");
  CHECK(err("setup", "") ==
        "step 'setup' of lesson 'causal' prints no float tensor to grade; steps that print one: scores, weights, tril, masked, renorm, "
        "neg-inf, softmax-masked");
  lesson::LessonRun emb = lesson::run_lesson(lesson_named("embedding"), {});
  CHECK(lab::select_target(emb, "ids", "sentence_int").value.name == "sentence_int");
  try {
    lab::select_target(emb, "ids", "");
    FAIL("no error");
  } catch (const attn::UsageError& e) {
    CHECK(std::string(e.what()) ==
          "step 'ids' of lesson 'embedding' prints no float tensor to grade; --name selects one of the values it prints: sentence_int");
  }
}

TEST_CASE("select_target --index: the N-th tensor of a step that prints the same expression twice") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("multihead"), {});
  lab::Target first = lab::select_target(run, "wrapper-fixed", "", 1), second = lab::select_target(run, "wrapper-fixed", "", 2);
  CHECK(first.value.name == "mha_fixed(batch)");
  CHECK(second.value.name == "mha_fixed(batch)");
  CHECK(first.index < second.index);
  CHECK(py::as_tensor(first.value.value).shape != py::as_tensor(second.value.value).shape);
  CHECK(lab::select_target(run, "wrapper-fixed", "mha_fixed(batch)", 0).index == second.index);   // --name: the last
  auto err = [&](const std::string& name, int index) {
    try {
      lab::select_target(run, "wrapper-fixed", name, index);
    } catch (const attn::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(err("", 3) == "step 'wrapper-fixed' of lesson 'multihead' prints 2 tensors, so --index 3 does not exist");
  CHECK(err("x", 1) == "tensor 1 of step 'wrapper-fixed' of lesson 'multihead' is printed from 'mha_fixed(batch)', not 'x'");
}

TEST_CASE("grade: a NaN passes only where the lesson's tensor has one") {
  // simple/overflow prints softmax_naive(large_scores) = [nan, nan, nan] (inf / inf).
  lesson::LessonRun run = lesson::run_lesson(lesson_named("simple"), {});
  lab::Answer nans = lab::parse_answer("nan nan nan\n", "n.txt", true);
  Checked ok = check(run, "overflow", nans, {}, "softmax_naive(large_scores)");
  CHECK(ok.g.pass);
  lab::Answer finite = lab::parse_answer("0.09 0.2447 0.6652\n", "n.txt", true);
  Checked bad = check(run, "overflow", finite, {}, "softmax_naive(large_scores)");
  CHECK(!bad.g.pass);
  CHECK(bad.g.n_differ == 3);
  CHECK(std::isinf(bad.g.max_abs_diff));
  // Where the lesson's tensor is a number, a NaN is bad input: the reader's message.
  lab::Answer stray = lab::parse_answer("0.09 nan 0.6652\n", "s.txt", true);
  try {
    check(run, "overflow", stray, {}, "torch.softmax(large_scores, dim=0)");
    FAIL("no error");
  } catch (const attn::UsageError& e) {
    CHECK(std::string(e.what()).rfind("s.txt:1: 'nan' is NaN; attn check grades numbers", 0) == 0);
  }
}

TEST_CASE("grade: the printed 4 decimals pass with the default tolerance, and the report counts what differs") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor w = printed(run, "weights", "attn_weights");
  lab::Answer rounded = answer_of(w);
  for (double& x : rounded.data) x = std::round(x * 1e4) / 1e4;
  Checked ok = check(run, "weights", rounded);
  CHECK(ok.g.pass);
  CHECK(ok.g.n_differ == 0);
  CHECK(ok.g.max_abs_diff > 0);
  CHECK(ok.g.max_abs_diff <= 5e-5);
  Checked strict = check(run, "weights", rounded, {}, "", {1e-7, 0});
  CHECK(!strict.g.pass);
  CHECK(strict.g.n_differ > 0);
  CHECK(strict.g.first.size() == std::min<size_t>(5, static_cast<size_t>(strict.g.n_differ)));
  CHECK(strict.g.hints.empty());

  lab::Answer one_off = answer_of(w);
  one_off.data[7] += 0.01;
  Checked c = check(run, "weights", one_off);
  CHECK(!c.g.pass);
  CHECK(c.g.n_differ == 1);
  CHECK(c.g.max_index == std::vector<int64_t>{1, 1});
  CHECK(c.g.first.at(0).index == std::vector<int64_t>{1, 1});
  CHECK(c.g.max_abs_diff == doctest::Approx(0.01).epsilon(1e-4));

  // -inf matches -inf only.
  lab::Answer masked = answer_of(printed(run, "neg-inf", "masked"));
  CHECK(check(run, "neg-inf", masked).g.pass);
  masked.data[1] = -1e30;
  Checked inf = check(run, "neg-inf", masked);
  CHECK(inf.g.n_differ == 1);
  CHECK(std::isinf(inf.g.max_abs_diff));
}

TEST_CASE("hints: softmax over the wrong axis, missing or wrong 1/sqrt(d_k), transposed scores or result") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor s = printed(run, "scores", "attn_scores");
  core::Tensor w = printed(run, "weights", "attn_weights");
  double sqrt_dk = std::sqrt(2.0);

  Checked dim0 = check(run, "weights", answer_of(core::softmax(div(s, sqrt_dk), 0)));
  CHECK(dim0.kinds == "softmax_dim");
  CHECK(dim0.messages.find("Softmax over the wrong axis: in your answer each column sums to 1 (dim=0)") != std::string::npos);
  CHECK(dim0.messages.find("Your answer is softmax(attn_scores / √2, dim=0); the lesson computes softmax(attn_scores / √2, dim=1)") !=
        std::string::npos);

  Checked unscaled = check(run, "weights", answer_of(core::softmax(s, 1)));
  CHECK(unscaled.kinds == "missing_scale");
  CHECK(unscaled.messages.find("divides the scores by √d_k = √2 ≈ 1.414") != std::string::npos);

  CHECK(check(run, "weights", answer_of(core::softmax(div(s, 2), 1))).messages.find("Divided by d_k instead of √d_k") != std::string::npos);
  CHECK(check(run, "weights", answer_of(core::softmax(core::binary_scalar(core::BinOp::mul, s, sqrt_dk), 1))).kinds == "scale");
  Checked both = check(run, "weights", answer_of(core::softmax(s, 0)));
  CHECK(both.kinds == "softmax_dim,missing_scale");

  // keys @ queries.T: what drawing W_key before W_query gives; the re-run finds that too.
  Checked swapped = check(run, "weights", answer_of(core::softmax(div(core::t(s), sqrt_dk), 1)));
  CHECK(swapped.kinds == "transposed_scores,draw_order");
  CHECK(swapped.messages.find("draws W_key, W_query, W_value in that order; the lesson draws W_query, W_key, W_value") != std::string::npos);

  CHECK(check(run, "weights", answer_of(core::t(w))).kinds == "transposed");
  Checked scores_t = check(run, "scores", answer_of(core::t(s)));
  CHECK(scores_t.kinds == "transposed,draw_order");

  // 1-D weights of one query (the book chapter's α₂).
  lesson::LessonRun book = lesson::run_lesson(lesson_named("trainable"), {});
  core::Tensor s2 = printed(book, "omega-2", "attn_scores_2");
  CHECK(check(book, "alpha-2", answer_of(core::softmax(s2, 0))).kinds == "missing_scale");
}

TEST_CASE("hints: causal masks (not renormalised, filled with 0, missing, the wrong triangle)") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor s = printed(run, "scores", "attn_scores");
  core::Tensor w = printed(run, "weights", "attn_weights");
  core::Tensor masked = printed(run, "neg-inf", "masked");
  core::Tensor ones = core::ones({6, 6});

  Checked unnorm = check(run, "renorm", answer_of(core::binary(core::BinOp::mul, w, core::tril(ones))));
  CHECK(unnorm.kinds == "mask_not_renormalised,equals_printed");
  CHECK(unnorm.messages.find("rows of your answer sum to between 0.1772 and 1.0000, not 1") != std::string::npos);
  CHECK(unnorm.messages.find("Your answer equals `masked_simple`, which step 'masked' prints") != std::string::npos);

  core::Tensor zero_filled = masked;
  for (float& x : zero_filled.f)
    if (std::isinf(x)) x = 0;
  Checked zero = check(run, "softmax-masked", answer_of(core::softmax(div(zero_filled, std::sqrt(2.0)), 1)));
  CHECK(zero.kinds == "mask_zero_fill");
  CHECK(zero.messages.find("filled the scores with 0 instead of -inf") != std::string::npos);

  Checked missing = check(run, "softmax-masked", answer_of(w));
  CHECK(missing.kinds == "mask_missing,equals_printed");
  CHECK(missing.messages.find("equals the `attn_weights` that step 'weights' prints") != std::string::npos);

  core::Tensor past = core::to_bool(core::tril(ones, -1));
  core::Tensor wrong = core::softmax(div(core::masked_fill(s, past, -INFINITY), std::sqrt(2.0)), 1);
  for (const char* step : {"softmax-masked", "renorm"}) {
    CAPTURE(step);
    Checked tri = check(run, step, answer_of(wrong));
    CHECK(tri.kinds == "mask_wrong_triangle");
    CHECK(tri.messages.find("the lesson hides the positions above it") != std::string::npos);
  }

  // weights * mask expected, plain weights given: not a distribution, still a missing mask.
  CHECK(check(run, "masked", answer_of(w)).kinds == "mask_missing,equals_printed");
}

TEST_CASE("hints: context vectors from transposed weights, or from other printed weights") {
  // A small lesson: weights and masked weights printed, values not (they are solved for).
  const char* text = R"(# Context vectors
name: ctx
group: concepts
order: 1
source: a test

## weights: Weights
```python
import torch
torch.manual_seed(5)
scores = torch.randn(4, 4)
weights = torch.softmax(scores, dim=-1)
values = torch.randn(4, 3)
print(weights)
future = torch.triu(torch.ones(4, 4), diagonal=1).bool()
causal = torch.softmax(scores.masked_fill(future, -torch.inf), dim=-1)
print(causal)
```

## context: Context vectors
```python
z = weights @ values
print(z)
```
)";
  lesson::Lesson l = lesson::parse_lesson(text, "ctx.lesson");
  lesson::LessonRun run = lesson::run_lesson(l, {});
  core::Tensor w = printed(run, "weights", "weights");
  core::Tensor causal = printed(run, "weights", "causal");
  core::Tensor z = printed(run, "context", "z");
  // values = weights⁻¹ z, as the grader solves for it; the wrong answers are built from it.
  core::Tensor values = core::empty({4, 3});
  {
    // Solve by Gauss-Jordan in double (the test's own arithmetic, independent of the grader's Eigen).
    std::vector<std::vector<double>> m(4, std::vector<double>(7));
    for (int i = 0; i < 4; ++i) {
      for (int k = 0; k < 4; ++k) m[i][k] = w.f[static_cast<size_t>(i * 4 + k)];
      for (int j = 0; j < 3; ++j) m[i][4 + j] = z.f[static_cast<size_t>(i * 3 + j)];
    }
    for (int c = 0; c < 4; ++c) {
      int p = c;
      for (int r = c + 1; r < 4; ++r)
        if (std::fabs(m[r][c]) > std::fabs(m[p][c])) p = r;
      std::swap(m[c], m[p]);
      for (int r = 0; r < 4; ++r)
        if (r != c) {
          double f = m[r][c] / m[c][c];
          for (int k = c; k < 7; ++k) m[r][k] -= f * m[c][k];
        }
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j) values.f[static_cast<size_t>(i * 3 + j)] = static_cast<float>(m[i][4 + j] / m[i][i]);
  }
  Checked t = check(run, "context", answer_of(core::matmul(core::t(w), values)));
  CHECK(t.kinds == "transposed_weights");
  CHECK(t.messages.find("Your context vectors are `weights`.T @ values") != std::string::npos);
  Checked other = check(run, "context", answer_of(core::matmul(causal, values)));
  CHECK(other.kinds == "other_weights");
  CHECK(other.messages.find("use the weights `causal` that step 'weights' prints; the lesson's use `weights`") != std::string::npos);
}

TEST_CASE("hints: a scaled copy, the wrong shape, a batch element, another printed tensor") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor w = printed(run, "weights", "attn_weights");
  Checked half = check(run, "weights", answer_of(core::binary_scalar(core::BinOp::mul, w, 0.5)));
  CHECK(half.kinds == "scaled");
  CHECK(half.messages.find("Every element of your answer is 0.5 times the lesson's (1/2)") != std::string::npos);

  Checked extra = check(run, "weights", answer_of(core::unsqueeze(w, 0)));
  CHECK(!extra.g.shape_match);
  CHECK(extra.g.got_shape == core::Shape{1, 6, 6});
  CHECK(extra.kinds == "shape");
  CHECK(check(run, "weights", answer_of(core::view(w, {4, 9}))).kinds == "shape");

  core::Tensor s = printed(run, "scores", "attn_scores");
  Checked scores = check(run, "weights", answer_of(s));
  CHECK(scores.kinds == "equals_printed");
  CHECK(scores.messages ==
        "Your answer equals `attn_scores`, which step 'scores' prints (`attn lesson causal --step scores` shows it); the tensor "
        "graded is `attn_weights`.\n");

  lesson::LessonRun batch = lesson::run_lesson(lesson_named("causal-batch"), {});
  core::Tensor z = printed(batch, "fixed", "context_vecs_fixed");
  Checked first = check(batch, "fixed", answer_of(core::index(z, {core::Index{}})), {}, "context_vecs_fixed");
  CHECK(first.kinds == "batch_element");
  // Graded by default: the last float tensor of the step, W_value(batch)[0, 0]; the hint names --name.
  Checked named = check(batch, "fixed", answer_of(z));
  CHECK(named.g.name == "ca_fixed.W_value(batch)[0, 0]");
  CHECK(named.messages.find("To grade `context_vecs_fixed` instead, add --name 'context_vecs_fixed'.") != std::string::npos);
}

TEST_CASE("hints from re-running the lesson: draw order, a seed left out, the article's seed, the other kernels or dropout RNG") {
  const lesson::Lesson& causal = lesson_named("causal");
  lesson::LessonRun run = lesson::run_lesson(causal, {});
  // The lesson with the draws of step 'scores' reordered: W_value first.
  lesson::Lesson changed = causal;
  for (auto& s : changed.steps)
    if (s.id == "scores") {
      std::string& c = s.cells[0].code;
      size_t v = c.find("W_value = ");
      std::string line = c.substr(v, c.find('\n', v) + 1 - v);
      c.erase(v, line.size());
      c.insert(c.find("W_query = "), line);
    }
  core::Tensor w_value_first = printed(lesson::run_lesson(changed, {}), "weights", "attn_weights");
  Checked order = check(run, "weights", answer_of(w_value_first));
  CHECK(order.kinds == "draw_order");
  CHECK(order.messages.find("step 'scores' draws W_value, W_query, W_key in that order") != std::string::npos);

  lesson::Lesson unseeded = causal;
  for (auto& s : unseeded.steps)
    if (s.id == "scores") s.cells[0].code.replace(0, std::strlen("torch.manual_seed(123)"), "pass");
  Checked seed = check(run, "weights", answer_of(printed(lesson::run_lesson(unseeded, {}), "weights", "attn_weights")));
  CHECK(seed.kinds == "seed");
  CHECK(seed.messages.find("without the `torch.manual_seed(123)` in step 'scores'") != std::string::npos);

  lesson::RunOptions seed42;
  seed42.seed = "42";
  lesson::LessonRun run42 = lesson::run_lesson(causal, seed42);
  Checked article = check(run42, "weights", answer_of(printed(run, "weights", "attn_weights")), seed42);
  CHECK(article.kinds == "options");
  CHECK(article.messages.find("without `--seed 42`, with the article's own seed") != std::string::npos);

  // Dropout masks of the other generator: a different pattern of zeros, found by re-running.
  const lesson::Lesson& dropout = lesson_named("dropout");
  lesson::RunOptions portable;
  portable.rng = attn::core::DropoutRng::portable;
  lesson::LessonRun mkl_run = lesson::run_lesson(dropout, {});
  core::Tensor portable_ones = printed(lesson::run_lesson(dropout, portable), "ones", "dropout(example)");
  Checked rng = check(mkl_run, "ones", answer_of(portable_ones));
  CHECK(rng.kinds == "rng");
  CHECK(rng.messages.find("grade with `--rng portable`") != std::string::npos);

  // The other kernel family differs in the last bits: only a tolerance of 0 tells them apart.
  lesson::RunOptions avx2;
  avx2.cpu = attn::core::CpuKernels::avx2;
  core::Tensor w_avx2 = printed(lesson::run_lesson(causal, avx2), "weights", "attn_weights");
  lesson::LessonRun scalar_run = lesson::run_lesson(causal, {});
  CHECK(check(scalar_run, "weights", answer_of(w_avx2)).g.pass);
  Checked exact = check(scalar_run, "weights", answer_of(w_avx2), {}, "", {0, 0});
  if (!exact.g.pass) CHECK(exact.kinds == "cpu");
}

TEST_CASE("format_json: one object with the grader's fields") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor s = printed(run, "scores", "attn_scores");
  lab::Answer a = answer_of(core::softmax(div(s, std::sqrt(2.0)), 0));
  lab::Target t = lab::select_target(run, "weights", "");
  lab::Grade g = lab::grade(run, t, a, {}, {});
  std::string j = lab::format_json(g, a, {}, run, {});
  CHECK(j.rfind("{\"lesson\": \"causal\", \"step\": \"weights\", \"name\": \"attn_weights\", \"answer\": {\"file\": \"answer.npy\", "
                "\"format\": \"npy\", \"dtype\": \"<f4\", \"shape\": [6, 6]}, \"options\": {\"seed\": null, \"sentence\": null, "
                "\"inputs\": null, \"cpu\": \"scalar\", \"rng\": \"mkl\", \"atol\": 1e-04, \"rtol\": 1e-04}, \"pass\": false, "
                "\"shape\": {\"expected\": [6, 6], \"got\": [6, 6]}, \"n_elements\": 36, \"n_differ\": 36, \"max_abs_diff\": ",
                0) == 0);
  CHECK(j.find("\"differences\": [{\"index\": [0, 0], \"expected\": 0.17719667, \"got\": ") != std::string::npos);
  CHECK(j.find("\"hints\": [{\"kind\": \"softmax_dim\", \"message\": \"Softmax over the wrong axis") != std::string::npos);
  CHECK(j.back() == '\n');
  CHECK(std::count(j.begin(), j.end(), '\n') == 1);
}

// ================================ the real binary ================================

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
    CHECK(r.out.find(c.hint) != std::string::npos);
    CHECK(r.err.empty());
  }
  Result dim0 = run_attn("check causal --step weights --answer causal-weights-dim0.npy");
  CHECK(dim0.out.find("      36 of 36 elements of your answer (causal-weights-dim0.npy, <f4) differ by more than\n"
                      "      0.0001+0.0001·|expected|; the largest difference is 0.209043 at [1, 4].\n"
                      "      index               expected         yours    difference\n"
                      "      [0, 0]              0.177197      0.171487   -0.00570919\n") != std::string::npos);
  CHECK(dim0.out.find("      (31 more)\n") != std::string::npos);
}

TEST_CASE("attn check: --index, and NaN where the lesson prints NaN") {
  std::string dir = std::filesystem::temp_directory_path() / "attn-check-test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/nan.txt") << "nan nan nan\n";
  std::ofstream(dir + "/stray.csv") << "0.0900,nan,0.6652\n";
  Result nan = run_attn("check simple --step overflow --name 'softmax_naive(large_scores)' --answer " + dir + "/nan.txt");
  CHECK(nan.code == 0);
  Result stray = run_attn("check simple --step overflow --answer " + dir + "/stray.csv");
  CHECK(stray.code == 2);
  CHECK(stray.err == "attn: " + dir + "/stray.csv:1: 'nan' is NaN; attn check grades numbers; a NaN usually comes from a softmax "
                     "over a row that is all -inf (a mask that also hides the diagonal) or from 0/0\n");
  Result index = run_attn("check multihead --step wrapper-fixed --index 3 --answer causal-weights.npy");
  CHECK(index.code == 2);
  CHECK(index.err == "attn: step 'wrapper-fixed' of lesson 'multihead' prints 2 tensors, so --index 3 does not exist\n");
  CHECK(run_attn("check multihead --step wrapper-fixed --index 0 --answer causal-weights.npy").code == 2);
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
  CHECK(pass.out.find("\"pass\": true, \"shape\": {\"expected\": [6, 6], \"got\": [6, 6]}, \"n_elements\": 36, \"n_differ\": 0, "
                      "\"max_abs_diff\": 0, \"max_abs_diff_index\": [0, 0], \"differences\": [], \"hints\": []}") != std::string::npos);
  Result shape = run_attn("check causal --step weights --answer causal-weights-3d.npy --format json");
  CHECK(shape.out.find("\"shape\": {\"expected\": [6, 6], \"got\": [1, 6, 6]}, \"n_elements\": 36, \"n_differ\": null, "
                       "\"max_abs_diff\": null") != std::string::npos);
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
      {"--answer bad-nan.csv",
       "attn: bad-nan.csv:2: 'nan' is NaN; attn check grades numbers; a NaN usually comes from a softmax over a row that is all "
       "-inf (a mask that also hides the diagonal) or from 0/0\n"},
      {"--answer bad-words.csv", "attn: bad-words.csv:2: 'zero' is not a number\n"},
      {"--answer bad-empty.csv", "attn: bad-empty.csv: the file is empty\n"},
      {"--answer bad-printed.txt",
       "attn: bad-printed.txt:1: 'tensor([[0.1772, 0.1326,...' looks like a printed tensor, not a table of numbers: write one "
       "with np.savetxt(path, t.detach().numpy(), delimiter=',') or use np.save\n"},
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
    Result r = run_attn("check causal " + args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());
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
