// tests/cli/test_run_cli.cpp: `attn run FILE` as an instructor runs it on a lesson file of their own:
// the walkthrough and JSON of a good file, and one line naming file:line for a bad one.
#include <doctest/doctest.h>

#include "support/run_attn.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace {

using Result = CliResult;

// A temporary folder of this process (removed at exit), the current directory of every
// `attn run` below, so messages name files as the instructor typed them.
std::string workdir() {
  static struct Dir {
    std::string path = std::filesystem::temp_directory_path() / ("attn-run-cli-test-" + std::to_string(getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } dir;
  return dir.path;
}

// Runs `attn ARGS` (ARGS already quoted) in workdir(), capturing stdout and stderr.
Result attn(const std::string& args) { return attn_process(args, workdir()); }

void write(const std::string& name, const std::string& text) { std::ofstream(workdir() + "/" + name) << text; }

// An instructor's lesson: two steps; line 13 is the first code line of the first cell, line 22 of the second.
const std::string kGood =
    "# Scores by hand\n"                                       // 1
    "name: by-hand\n"
    "group: concepts\n"
    "order: 1\n"
    "source: my course notes\n"                                // 5
    "\n"
    "Intro prose.\n"
    "\n"
    "## scores: Dot products\n"
    "Each query against each key.\n"                           // 10
    "\n"
    "```python\n"
    "import torch\n"
    "torch.manual_seed(123)\n"
    "x = torch.rand(3, 2)\n"                                   // 15
    "print(x @ x.T)\n"
    "```\n"
    "\n"
    "## weights: Softmax\n"
    "\n"                                                       // 20
    "```python\n"
    "w = torch.softmax(x @ x.T, dim=-1)\n"
    "print(w.sum(dim=-1))\n"
    "```\n";

}  // namespace

TEST_CASE("attn run: a good lesson file walks through like a course lesson") {
  write("by-hand.lesson", kGood);
  Result r = attn("run by-hand.lesson");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("Scores by hand\nLesson file by-hand.lesson · attn run by-hand.lesson\nSource: \"my course notes\" (author not known)\n\n", 0) == 0);
  CHECK(r.out.find("── 1/2 scores: Dot products") != std::string::npos);
  CHECK(r.out.find("    x = torch.rand(3, 2)\n") != std::string::npos);
  CHECK(r.out.find("    print(w.sum(dim=-1))\n\nOut:\ntensor([1., 1., 1.])\n") != std::string::npos);

  Result step = attn("run by-hand.lesson --step weights --seed 42");
  CHECK(step.code == 0);
  // wrapped at 80 columns (not a terminal), never inside the `command`
  CHECK(step.out.find("(The 1 step before this one ran too, silently: `attn run by-hand.lesson` shows\n them.)") != std::string::npos);
  CHECK(step.out.find("── 1/2") == std::string::npos);
  CHECK(step.out.find("── 2/2 weights: Softmax") != std::string::npos);

  Result json = attn("run by-hand.lesson --format json --cpu scalar");
  CHECK(json.code == 0);
  CHECK(json.out.rfind("{\n  \"schema_version\": 1,\n  \"command\": \"run\",\n  \"lesson\": {\n    \"name\": \"by-hand\",", 0) == 0);
  CHECK(json.out.find("\"parameters\": {\"seed\": null, \"sentence\": null, \"inputs\": null, \"rng\": \"mkl\", \"cpu\": \"scalar\", "
                      "\"step\": null}") != std::string::npos);
  CHECK(json.out.find("\"name\": \"w.sum(dim=-1)\",") != std::string::npos);
}

TEST_CASE("attn run: bad files get one line naming file:line, exit code 2") {
  write("by-hand.lesson", kGood);
  std::string bad_heading = kGood;
  bad_heading.replace(bad_heading.find("## weights: Softmax"), 19, "## Weights: Softmax");
  write("bad-heading.lesson", bad_heading);
  std::string python_error = kGood;
  python_error.replace(python_error.find("print(w.sum(dim=-1))"), 20, "print(w.sum(dim=-1), z)");
  write("python-error.lesson", python_error);
  std::string bad_group = kGood;
  bad_group.replace(bad_group.find("group: concepts"), 15, "group: lab");
  write("bad-group.lesson", bad_group);
  std::filesystem::create_directories(workdir() + "/a-folder");

  struct Case {
    std::string args, err;
  } cases[] = {
      {"run bad-heading.lesson",
       "attn: bad-heading.lesson:19: a step heading is '## id: Title' with a lowercase id, got '## Weights: Softmax'\n"},
      {"run bad-group.lesson", "attn: bad-group.lesson:3: group: 'lab' is not a lesson group; use article, book or concepts\n"},
      {"run no-such.lesson", "attn: no-such.lesson: no such lesson file\n"},
      {"run a-folder", "attn: a-folder: is a directory, not a lesson file\n"},
      {"run by-hand.lesson --step nope", "attn: by-hand.lesson: lesson 'by-hand' has no step 'nope' (its steps: scores, weights)\n"},
      {"run by-hand.lesson --step \"$(printf 'no\\npe')\"",
       "attn: by-hand.lesson: lesson 'by-hand' has no step 'no\\npe' (its steps: scores, weights)\n"},
      {"run by-hand.lesson --sentence 'a b'",
       "attn: lesson 'by-hand' has no input sentence, so --sentence does not apply to it\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = attn(c.args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());
  }
  for (const char* args : {"run", "run by-hand.lesson --format xml", "run by-hand.lesson --cpu fast"}) {
    CAPTURE(args);
    Result r = attn(args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("attn: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);   // exactly one line
  }
}

TEST_CASE("attn run: a Python error shows the run up to the failing cell, then the error (file:line, exit 2)") {
  // (These two cases were in the test above, when a failing run printed nothing on stdout.)
  std::string python_error = kGood;
  python_error.replace(python_error.find("print(w.sum(dim=-1))"), 20, "print(w.sum(dim=-1), z)");
  write("python-error.lesson", python_error);
  const std::string first_step =
      "── 1/2 scores: Dot products ────────────────────────────────────────────────────\n\n"
      "Each query against each key.\n\n"
      "In:\n    import torch\n    torch.manual_seed(123)\n    x = torch.rand(3, 2)\n    print(x @ x.T)\n\n"
      "Out:\ntensor([[0.3545, 0.4302, 0.4695],\n        [0.4302, 0.5374, 0.6153],\n        [0.4695, 0.6153, 0.7563]])\n";
  Result r = attn("run python-error.lesson");
  CHECK(r.code == 2);
  CHECK(r.err == "attn: python-error.lesson:23: NameError: name 'z' is not defined\n");
  CHECK(r.out ==
        "Scores by hand\nLesson file python-error.lesson · attn run python-error.lesson\nSource: \"my course notes\" (author not known)\n"
        "\nIntro prose.\n\n" + first_step +
        "\n── 2/2 weights: Softmax ────────────────────────────────────────────────────────\n\n"
        "In:\n    w = torch.softmax(x @ x.T, dim=-1)\n    print(w.sum(dim=-1), z)\n");
  // --about: how the numbers were computed, in the header.
  r = attn("run python-error.lesson --about");
  CHECK(r.code == 2);
  CHECK(r.out.rfind(
        "Scores by hand\nLesson file python-error.lesson · attn run python-error.lesson\nSource: \"my course notes\" (author not known)\n"
        "Numbers: computed as PyTorch 1.13 does with its AVX2 CPU kernels; `--cpu scalar`\n"
        "         for Apple Silicon and other ARM builds\n"
        "BLAS: matrix products add up in the order of the reference BLAS (Debian's\n"
        "      PyTorch with libblas3); OpenBLAS, MKL and Accelerate add in other orders,\n"
        "      which can change a last printed digit\n"
        "\nIntro prose.\n\n", 0) == 0);

  // The failing cell's own output, up to the error; nothing after it runs.
  std::string partial = kGood;
  partial.replace(partial.find("print(w.sum(dim=-1))"), 20, "print(w.sum(dim=-1))\nprint('so far', z)\nprint('never')");
  partial += "\n## after: Never reached\n```python\nprint('never either')\n```\n";
  write("partial.lesson", partial);
  r = attn("run partial.lesson --quiet");
  CHECK(r.code == 2);
  CHECK(r.err == "attn: partial.lesson:24: NameError: name 'z' is not defined\n");
  CHECK(r.out == "tensor([[0.3545, 0.4302, 0.4695],\n        [0.4302, 0.5374, 0.6153],\n        [0.4695, 0.6153, 0.7563]])\n"
                 "tensor([1., 1., 1.])\n");
  r = attn("run partial.lesson");
  CHECK(r.code == 2);
  CHECK(r.out.find("    print('never')\n\nOut:\ntensor([1., 1., 1.])\n") != std::string::npos);
  CHECK(r.out.find("── 3/3") == std::string::npos);

  // --step: the chosen step as far as it got; a step after the failing one never ran.
  r = attn("run partial.lesson --step weights --quiet");
  CHECK(r.code == 2);
  CHECK(r.out == "tensor([1., 1., 1.])\n");
  r = attn("run partial.lesson --step after --quiet");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "attn: partial.lesson:24: NameError: name 'z' is not defined\n");
  // A step before the failing one: the steps after it are not shown, so they do not run (the
  // flash lesson's 8,192-token steps stay out of `--step online`), and nothing failed.
  r = attn("run partial.lesson --step scores");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("── 1/3 scores: Dot products") != std::string::npos);   // numbered in the whole lesson
  CHECK(r.out.find("weights") == std::string::npos);
  r = attn("run partial.lesson --step scores --quiet");
  CHECK(r.out == "tensor([[0.3545, 0.4302, 0.4695],\n        [0.4302, 0.5374, 0.6153],\n        [0.4695, 0.6153, 0.7563]])\n");
  r = attn("run partial.lesson --step weights");   // the failing step's heading counts the lesson's steps too
  CHECK(r.out.find("── 2/3 weights: Softmax") != std::string::npos);

  // JSON: the steps and cells that ran, the failing cell marked, and the error at the top level.
  r = attn("run partial.lesson --format json");
  CHECK(r.code == 2);
  CHECK(r.err == "attn: partial.lesson:24: NameError: name 'z' is not defined\n");
  CHECK(r.out.find("\"step_count\": 3") != std::string::npos);
  CHECK(r.out.find("\"id\": \"after\"") == std::string::npos);
  CHECK(r.out.find("          \"output\": \"tensor([1., 1., 1.])\\n\",\n") != std::string::npos);
  CHECK(r.out.find("          \"error\": {\"line\": 24, \"message\": \"NameError: name 'z' is not defined\"}\n        }\n      ]\n    }\n  ],\n") !=
        std::string::npos);
  CHECK(r.out.find("  \"error\": {\n    \"file\": \"partial.lesson\",\n    \"line\": 24,\n    \"step\": \"weights\",\n    \"cell\": 1,\n"
                   "    \"message\": \"NameError: name 'z' is not defined\"\n  }\n}\n") != std::string::npos);
  r = attn("run python-error.lesson --format json");
  CHECK(r.code == 2);
  CHECK(r.err == "attn: python-error.lesson:23: NameError: name 'z' is not defined\n");
  CHECK(r.out.rfind("{\n  \"schema_version\": 1,\n  \"command\": \"run\",", 0) == 0);
  r = attn("run by-hand.lesson --format json");
  CHECK(r.out.find("\"error\"") == std::string::npos);   // a whole run has no error key
}

TEST_CASE("attn run: a failing step's prose placeholders do not hide the cell's error") {
  // The step's {{w[0]:.4f}} names what the failing cell never assigned: the cell's NameError is
  // reported, and the prose shows the placeholder as written (it cannot be evaluated).
  std::string placeholder = kGood;
  placeholder.replace(placeholder.find("## weights: Softmax\n"), 20, "## weights: Softmax\nThe first weight is {{w[0]:.4f}}.\n");
  placeholder.replace(placeholder.find("w = torch.softmax(x @ x.T, dim=-1)"), 34, "w = torch.softmax(z, dim=-1)");
  write("placeholder.lesson", placeholder);
  Result r = attn("run placeholder.lesson");
  CHECK(r.code == 2);
  CHECK(r.err == "attn: placeholder.lesson:23: NameError: name 'z' is not defined\n");
  CHECK(r.out.find("The first weight is {{w[0]:.4f}}.") != std::string::npos);
}

TEST_CASE("--format json on lesson, verify and list: one document each") {
  Result lesson = attn("lesson causal --step tril --format json");
  CHECK(lesson.code == 0);
  CHECK(lesson.out.rfind("{\n  \"schema_version\": 1,\n  \"command\": \"lesson\",\n", 0) == 0);
  CHECK(lesson.out.find("\"name\": \"mask_simple\",") != std::string::npos);
  CHECK(lesson.out.back() == '\n');
  Result verify = attn("verify causal --format json");
  CHECK(verify.code == 0);
  CHECK(verify.out.find("\"status\": \"differs\"") == std::string::npos);
  CHECK(verify.out.find("\"status\": \"match\"") != std::string::npos);
  Result list = attn("list --format json");
  CHECK(list.code == 0);
  CHECK(list.out.rfind("{\n  \"schema_version\": 1,\n  \"command\": \"list\",\n  \"lessons\": [\n    {\"name\": ", 0) == 0);
}

TEST_CASE("long inputs: a 100,000-character sentence, a seed of 30,000 or 100,000 digits: a result or one line") {
  // These overflowed the stack in std::regex before (a segfault); each answers at once now.
  const std::string sentence = [] {
    std::string s;
    for (int k = 0; k < 33333; ++k) s += "ab ";
    return s + "a";   // 100,000 characters, 33,334 words
  }();
  REQUIRE(sentence.size() == 100000);
  const std::string head = "# Long inputs\nname: long\ngroup: concepts\norder: 1\nsource: a test\n\n## s: Long\n```python\n";
  write("long-sentence.lesson", head + "import torch\ntorch.manual_seed(123)\nsentence = '" + sentence + "'\nprint(len(sentence.split()))\n```\n");
  write("long-seed.lesson", head + "import torch\ntorch.manual_seed(" + std::string(100000, '7') +
                                ")\nsentence = 'a b'\nprint(torch.rand(1))\n```\n");

  Result r = attn("run long-sentence.lesson --quiet --seed 5");
  CHECK(r.code == 0);
  CHECK(r.out == "33334\n");
  r = attn("run long-sentence.lesson --quiet --heatmap");
  CHECK(r.code == 0);
  CHECK(r.out == "33334\n");
  r = attn("run long-sentence.lesson --quiet --sentence 'the cat sat'");
  CHECK(r.code == 0);
  CHECK(r.out == "3\n");
  r = attn("run long-sentence.lesson --quiet --sentence '" + sentence + " b'");
  CHECK(r.code == 0);
  CHECK(r.out == "33335\n");
  r = attn("run long-sentence.lesson --format json --sentence '" + sentence + " b'");
  CHECK(r.code == 0);
  CHECK(r.out.find("\"sentence\": \"" + sentence + " b\"") != std::string::npos);

  r = attn("run long-seed.lesson --quiet --seed 123");   // the 100,000-digit literal is replaced
  CHECK(r.code == 0);
  CHECK(r.out == "tensor([0.2961])\n");
  // attn check looks for a seed line to leave out (a hint): that scan read the 100,000-digit line with std::regex too.
  std::filesystem::create_directories(workdir() + "/long-lessons");
  std::filesystem::copy_file(workdir() + "/long-seed.lesson", workdir() + "/long-lessons/long.lesson");
  write("long-lessons-answer.csv", "0.5\n");
  r = attn_process("check long --step s --answer long-lessons-answer.csv --seed 123", workdir(), "ATTN_LESSON_DIR=long-lessons");
  CHECK(r.code == 1);   // graded: a wrong answer, not a crash
  CHECK(r.out.find("FAIL") != std::string::npos);
  r = attn("run long-seed.lesson --seed " + std::string(30000, '9'));
  CHECK(r.code == 2);
  CHECK(r.err == "attn: --seed must be in PyTorch's range -9223372036854775808 to 18446744073709551615, got a number of 30000 digits\n");
  r = attn("run long-seed.lesson --seed -" + std::string(30000, '9'));
  CHECK(r.code == 2);
  CHECK(r.err == "attn: --seed must be in PyTorch's range -9223372036854775808 to 18446744073709551615, got a number of 30000 digits\n");
  r = attn("run long-seed.lesson --seed " + std::string(30000, '9') + "x");
  CHECK(r.code == 2);
  CHECK(r.err == "attn: --seed must be an integer (as torch.manual_seed takes), got '" + std::string(60, '9') + "'... (30001 characters)\n");
}
