// tests/cli/test_exercise_cli.cpp: exercises the learner writes, through the real binary:
// `attn exercise` (the files, against tests/golden/exercise/), `attn check --code` (an untouched
// TODO, a solution made from the lesson's own step code, a wrong one, Python errors, hostile code,
// --seed) and `attn watch` (driven by a shell script: a save makes it pass; SIGTERM and a removed
// folder stop it). Each attn run is a few seconds at most; `timeout` bounds every watch.
// Regenerating a golden file is deliberate, after reading it: attn exercise causal --step weights
// > tests/golden/exercise/causal-weights.py (the names are in the test cases below).
#include <doctest/doctest.h>

#include "support/run_attn.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>   // getpid: a scratch folder per test process

namespace {

namespace fs = std::filesystem;
using Result = CliResult;

std::string scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("attn-exercise-test-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// `attn ARGS` run in DIR, so messages name the files as a learner typed them.
Result attn_in(const std::string& dir, const std::string& args) { return attn_process(args, dir); }

std::string golden(const std::string& name) { return slurp(std::string(ATTN_TEST_DATA) + "/golden/exercise/" + name); }

// The code of step STEP's cells in lessons/LESSON.lesson, as its author wrote it.
std::string step_code(const std::string& lesson, const std::string& step) {
  std::ifstream in(std::string(ATTN_TEST_DATA) + "/../lessons/" + lesson + ".lesson");
  std::string line, code;
  bool in_step = false, in_code = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_step = line.rfind("## " + step + ":", 0) == 0;
    else if (in_step && line.rfind("```python", 0) == 0) in_code = true;
    else if (in_code && line == "```") in_code = false;
    else if (in_code) code += line + "\n";
  }
  return code;
}

// The 1-based line of the first line of `text` starting with `prefix`, or 0.
int line_of(const std::string& text, const std::string& prefix) {
  int n = 1;
  for (size_t at = 0; at < text.size(); ++n) {
    if (text.compare(at, prefix.size(), prefix) == 0) return n;
    size_t nl = text.find('\n', at);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return 0;
}

// The exercise with its TODO line replaced by `code`.
std::string solved(const std::string& exercise, const std::string& var, const std::string& code) {
  size_t at = exercise.find(var + " = ...  # TODO");
  REQUIRE(at != std::string::npos);
  size_t end = exercise.find('\n', at) + 1;
  return exercise.substr(0, at) + code + exercise.substr(end);
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// From the first "hint:" to the end: what a report says about the mistake.
std::string hints(const std::string& report) {
  size_t at = report.find("hint:");
  return at == std::string::npos ? "" : report.substr(at);
}

}  // namespace

TEST_CASE("attn exercise: the files for a step of causal and simple, as golden files") {
  Result weights = attn_process("exercise causal --step weights");
  CHECK(weights.code == 0);
  CHECK(weights.err.empty());
  CHECK(weights.out == golden("causal-weights.py"));
  Result seed = attn_process("exercise causal --step masked --seed 7");
  CHECK(seed.code == 0);
  CHECK(seed.out == golden("causal-masked@seed=7.py"));
  Result simple = attn_process("exercise simple --step all-weights");
  CHECK(simple.code == 0);
  CHECK(simple.out == golden("simple-all-weights.py"));
}

TEST_CASE("attn exercise: the code above the TODO is the lesson's own, as the options rewrote it") {
  Result ex = attn_process("exercise causal --step weights --seed 7");
  REQUIRE(ex.code == 0);
  CHECK(ex.out.find("#   attn check causal --step weights --seed 7 --code FILE\n") != std::string::npos);
  CHECK(ex.out.find("torch.manual_seed(7)\n") != std::string::npos);
  CHECK(ex.out.find("torch.manual_seed(123)") == std::string::npos);
  CHECK(ex.out.find(step_code("causal", "scores").substr(0, 40)) == std::string::npos);   // its seed line was rewritten
  CHECK(ex.out.find("attn_weights = ...  # TODO: compute attn_weights") != std::string::npos);
  Result sentence = attn_process("exercise causal --step weights --sentence \"it's a b c d e\"");
  CHECK(sentence.code == 0);
  CHECK(sentence.out.find("#   attn check causal --step weights --sentence 'it'\\''s a b c d e' --code FILE\n") != std::string::npos);
  CHECK(sentence.out.find("sentence = \"it's a b c d e\"") != std::string::npos);
}

TEST_CASE("attn exercise: a step with nothing to grade, --list, -o and --force") {
  Result setup = attn_process("exercise causal --step setup");
  CHECK(setup.code == 2);
  CHECK(setup.out.empty());
  CHECK(setup.err ==
        "attn: step 'setup' of lesson 'causal' has no exercise: it prints no float tensor that it assigns to a name; the steps "
        "with one: scores (attn_scores), weights (attn_weights), tril (mask_simple), masked (masked_simple), renorm "
        "(masked_simple_norm), neg-inf (masked), softmax-masked (attn_weights)\n");
  Result list = attn_process("exercise causal --list");
  CHECK(list.code == 0);
  CHECK(list.out.rfind("The exercises of lesson causal (make one with `attn exercise causal --step STEP -o FILE`):\n"
                       "  scores             attn_scores\n"
                       "  weights            attn_weights\n",
                       0) == 0);
  CHECK(attn_process("exercise causal").err ==
        "attn: give the step to practise with --step STEP; `attn exercise causal --list` lists the steps that have an exercise\n");
  std::string dir = scratch("output");
  Result wrote = attn_in(dir, "exercise causal --step weights -o ex.py");
  CHECK(wrote.code == 0);
  CHECK(wrote.out == "Wrote ex.py: write the code its TODO asks for, then check it with `attn watch ex.py`.\n");
  std::string file = slurp(dir + "/ex.py");
  CHECK(file.find("#   attn check causal --step weights --code ex.py\n#") != std::string::npos);
  CHECK(file.find("#   attn watch ex.py\n") != std::string::npos);
  write(dir + "/ex.py", "my work\n");
  Result again = attn_in(dir, "exercise causal --step weights -o ex.py");
  CHECK(again.code == 2);
  CHECK(again.err ==
        "attn: ex.py: already exists (your work on an earlier exercise?); choose another -o FILE, or add --force to overwrite it\n");
  CHECK(slurp(dir + "/ex.py") == "my work\n");
  CHECK(attn_in(dir, "exercise causal --step weights -o ex.py --force").code == 0);
  CHECK(slurp(dir + "/ex.py") == file);
}

TEST_CASE("attn check --code: untouched, solved, wrong, with --seed") {
  std::string dir = scratch("check");
  REQUIRE(attn_in(dir, "exercise causal --step weights -o ex.py").code == 0);
  std::string ex = slurp(dir + "/ex.py");
  int todo = line_of(ex, "attn_weights = ...");
  REQUIRE(todo > 0);
  Result untouched = attn_in(dir, "check causal --step weights --code ex.py");
  CHECK(untouched.code == 1);
  CHECK(untouched.out.empty());
  CHECK(untouched.err == "attn: ex.py:" + std::to_string(todo) + ": `attn_weights` is still `...`: write the code the TODO on line " +
                             std::to_string(todo) + " asks for\n");

  write(dir + "/right.py", solved(ex, "attn_weights", step_code("causal", "weights")));
  Result right = attn_in(dir, "check causal --step weights --code right.py");
  CHECK(right.code == 0);
  CHECK(right.err.empty());
  CHECK(right.out.rfind("PASS  causal/weights  attn_weights [6, 6]\n", 0) == 0);
  CHECK(right.out.find("(right.py, <f4)") != std::string::npos);
  Result json = attn_in(dir, "check causal --step weights --code right.py --format json");
  CHECK(json.code == 0);
  CHECK(json.out.find("\"answer\": {\"file\": \"right.py\", \"format\": \"code\", \"dtype\": \"<f4\", \"shape\": [6, 6]}") != std::string::npos);

  // The same mistake as tests/answers/causal-weights-dim0.npy: the same hint as --answer gives.
  write(dir + "/dim0.py", solved(ex, "attn_weights", "attn_weights = torch.softmax(attn_scores / d_out_kq**0.5, dim=0)\n"));
  Result wrong = attn_in(dir, "check causal --step weights --code dim0.py");
  CHECK(wrong.code == 1);
  CHECK(wrong.out.rfind("FAIL  causal/weights  attn_weights [6, 6]\n", 0) == 0);
  Result npy = attn_process("check causal --step weights --answer causal-weights-dim0.npy", std::string(ATTN_TEST_DATA) + "/answers");
  CHECK(npy.code == 1);
  CHECK(hints(wrong.out).find("hint: Softmax over the wrong axis") == 0);
  CHECK(hints(wrong.out) == hints(npy.out));

  // --seed: the exercise made with it passes when checked with it (as its header says), not without.
  REQUIRE(attn_in(dir, "exercise causal --step weights --seed 7 -o seven.py").code == 0);
  write(dir + "/seven.py", solved(slurp(dir + "/seven.py"), "attn_weights", step_code("causal", "weights")));
  CHECK(attn_in(dir, "check causal --step weights --seed 7 --code seven.py").code == 0);
  Result unseeded = attn_in(dir, "check causal --step weights --code seven.py");
  CHECK(unseeded.code == 1);
  CHECK(unseeded.out.find("\n      note: seven.py was made with `--seed 7` (its header's `attn check` line),\n"
                          "      and this check ran with no options; check it with the same options, or\n"
                          "      with `attn watch seven.py`.\n") != std::string::npos);
}

TEST_CASE("attn check --code: Python errors, values that are not tensors, hostile code: one line") {
  std::string dir = scratch("errors");
  REQUIRE(attn_in(dir, "exercise causal --step weights -o ex.py").code == 0);
  std::string ex = slurp(dir + "/ex.py");
  int todo = line_of(ex, "attn_weights = ...");
  auto check = [&](const std::string& code, const std::string& extra = "") {
    write(dir + "/try.py", solved(ex, "attn_weights", code));
    return attn_in(dir, "check causal --step weights --code try.py" + extra);
  };
  Result name = check("attn_weights = nope\n");
  CHECK(name.code == 1);
  CHECK(name.out.empty());
  CHECK(name.err == "attn: try.py:" + std::to_string(todo) + ": NameError: name 'nope' is not defined\n");
  Result number = check("attn_weights = 3\n");
  CHECK(number.code == 1);
  CHECK(number.err == "attn: try.py: `attn_weights` is a value of type int, not a tensor; the exercise asks for the tensor step "
                      "'weights' prints\n");
  Result file = check("attn_weights = open('/etc/passwd').read()\n");
  CHECK(file.code == 1);
  CHECK(file.err.rfind("attn: try.py:" + std::to_string(todo) + ": ", 0) == 0);
  CHECK(file.err.find('\n') == file.err.size() - 1);
  CHECK(file.err.find("root:") == std::string::npos);
  Result loop = check("while True:\n    pass\n", " --time-limit 1");
  CHECK(loop.code == 1);
  CHECK(loop.err.rfind("attn: try.py:", 0) == 0);
  CHECK(loop.err.find('\n') == loop.err.size() - 1);
  // a learner's file is not a lesson cell: the limit names it "your code"
  CHECK((loop.err.find(": TimeoutError: your code ran longer than its time limit of 1 seconds") != std::string::npos ||
         loop.err.find(": RuntimeError: your code ran more than 20,000,000 steps") != std::string::npos));
  Result json = check("attn_weights = nope\n", " --format json");
  CHECK(json.code == 1);
  CHECK(json.out.find("\"pass\": false, \"error\": \"try.py:" + std::to_string(todo) + ": NameError: name 'nope' is not defined\"") !=
        std::string::npos);
  CHECK(attn_in(dir, "check causal --step weights --code ex.py --answer ex.py").code == 2);
  CHECK(attn_in(dir, "check causal --step weights --code missing.py").err == "attn: missing.py: no such file\n");
  CHECK(attn_in(dir, "check causal --step setup --code ex.py").code == 2);
  // A FIFO would block the open: refused (timeout: a regression fails instead of hanging CTest).
  REQUIRE(shell_process("mkfifo " + dir + "/fifo").code == 0);
  Result fifo = shell_process("cd " + dir + " && timeout 10 " ATTN_BINARY " check causal --step weights --code fifo");
  CHECK(fifo.code == 2);
  CHECK(fifo.err == "attn: fifo: is not a regular file; an exercise is a .py file\n");
  CHECK(shell_process("cd " + dir + " && timeout 10 " ATTN_BINARY " watch fifo").code == 2);
}

TEST_CASE("attn watch: passes on the save that solves it; not an exercise; SIGTERM; the folder removed") {
  std::string dir = scratch("watch");
  REQUIRE(attn_in(dir, "exercise causal --step weights -o ex.py").code == 0);
  write(dir + "/solution", solved(slurp(dir + "/ex.py"), "attn_weights", step_code("causal", "weights")));
  // Waits (at most 15 s) for the watch to say it is waiting, then runs `then`; the watch's exit code last.
  auto drive = [&](const std::string& then, const std::string& watched = "ex.py") {
    return shell_process("cd " + dir + " && rm -f watch.out && { timeout 30 " ATTN_BINARY " watch " + watched + " >watch.out 2>watch.err & pid=$!; " +
                         "for i in $(seq 150); do grep -qs 'waiting for you' watch.out && break; sleep 0.1; done; " + then +
                         "; wait $pid; echo \"exit $?\"; cat watch.out; cat watch.err >&2; }");
  };
  Result pass = drive("cp solution ex.new && mv ex.new ex.py");   // an editor's save: rename over
  CHECK(pass.out.rfind("exit 0\n", 0) == 0);
  CHECK(pass.err == "");
  CHECK(pass.out.find("`attn_weights` is still `...`") != std::string::npos);
  CHECK(pass.out.find("waiting for you to save ex.py; Ctrl-C to stop\n") != std::string::npos);
  CHECK(pass.out.find("PASS  causal/weights  attn_weights [6, 6]\n") != std::string::npos);
  CHECK(pass.out.find("\nNext exercise: attn exercise causal --step tril -o causal-tril.py\n") != std::string::npos);
  CHECK(pass.out.find('\x1b') == std::string::npos);   // piped: no escape codes

  REQUIRE(attn_in(dir, "exercise causal --step weights -o ex.py --force").code == 0);
  Result term = drive("kill -TERM $pid");
  CHECK(term.out.rfind("exit 143\n", 0) == 0);
  CHECK(term.out.find("stopped watching ex.py\n") != std::string::npos);
  CHECK(term.err.empty());

  fs::create_directories(dir + "/sub");
  REQUIRE(attn_in(dir, "exercise causal --step weights -o sub/ex.py").code == 0);
  Result gone = drive("rm -rf sub", "sub/ex.py");
  CHECK(gone.out.rfind("exit 1\n", 0) == 0);
  CHECK(gone.err == "attn: the folder of sub/ex.py was removed or moved; stopped watching\n");

  write(dir + "/plain.py", "x = 1\n");
  Result plain = attn_in(dir, "watch plain.py");
  CHECK(plain.code == 2);
  CHECK(plain.err == "attn: plain.py: is not an exercise file (it has no `# attn exercise:` header); make one with `attn exercise NAME "
                     "--step STEP -o FILE`\n");
}

TEST_CASE("attn completion and man know exercise, watch and check --code") {
  Result bash = attn_process("completion bash");
  CHECK(bash.code == 0);
  CHECK(bash.out.find("    watch) opts='-h --help --time-limit'; vopts='--time-limit'; pos='file' ;;\n") != std::string::npos);
  CHECK(bash.out.find("    'exercise -o') echo 'file' ;;\n") != std::string::npos);
  CHECK(bash.out.find("    'check --code') echo 'file' ;;\n") != std::string::npos);
  Result man = attn_process("man");
  CHECK(man.out.find("attn exercise causal \\-\\-step weights \\-o weights.py\nattn watch weights.py\n") != std::string::npos);
}
