// tests/cli/test_cli_input.cpp: the real `attn` binary on careless and hostile command lines and
// files (issue 9 and 10): numeric options validated with one line that names the option, lesson
// files capped in size, every message on one line with control characters made visible, an
// unknown command named as such, running out of memory and a failed write to stdout reported
// (exit 1), never a silent cut or a bare std::bad_alloc.
// What it is not: the lesson format's errors (test_lesson_file.cpp) or attn run's walkthrough
// (test_run_cli.cpp).
#include <doctest/doctest.h>

#include "support/run_attn.h"
#include "support/sanitizers.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>


namespace {

using Result = CliResult;

// A temporary folder of this process (removed at exit), the working directory of every run.
std::string workdir() {
  static struct Dir {
    std::string path = std::filesystem::temp_directory_path() / ("attn-cli-input-test-" + std::to_string(getpid()));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } dir;
  return dir.path;
}

Result attn(const std::string& args, const std::string& env = "") { return attn_process(args, workdir(), env); }

void write(const std::string& name, const std::string& text) { std::ofstream(workdir() + "/" + name, std::ios::binary) << text; }

const std::string kHeader = "# T\nname: t\ngroup: concepts\norder: 1\nsource: a test\n\n";

void check_usage_errors(std::initializer_list<std::pair<std::string, std::string>> cases) {
  for (const auto& c : cases) {
    const std::string& args = c.first;   // not a structured binding: clang 14 (the sanitizer build)
    const std::string& err = c.second;   // cannot capture one in CAPTURE's lambda
    CAPTURE(args);
    Result r = attn(args);
    CHECK(r.code == 2);
    CHECK(r.err == err);
    CHECK(r.out.empty());
  }
}

}  // namespace

TEST_CASE("check's --atol, --rtol and --index: NaN, negative and out-of-range values are one line naming the option") {
  // CLI11's NonNegativeNumber took NaN (NaN < 0 is false), which then failed every right answer,
  // and its range errors printed DBL_MAX in 309 digits.
  const std::string check = "check causal --step weights --answer answer.csv ";
  const std::string tol = " is not a tolerance; give a finite number >= 0, such as 1e-4 (see `attn --help`)\n";
  const std::string index = " is not a tensor's number; give 1 for the first tensor the step prints, 2 for the second, ... (see `attn --help`)\n";
  check_usage_errors({
      {check + "--atol nan", "attn: --atol: 'nan'" + tol},
      {check + "--atol NaN", "attn: --atol: 'NaN'" + tol},
      {check + "--atol -1", "attn: --atol: '-1'" + tol},
      {check + "--atol -0.5e-3", "attn: --atol: '-0.5e-3'" + tol},
      {check + "--atol inf", "attn: --atol: 'inf'" + tol},
      {check + "--atol 1e400", "attn: --atol: '1e400'" + tol},
      {check + "--atol 1e-4x", "attn: --atol: '1e-4x'" + tol},
      {check + "--rtol nan", "attn: --rtol: 'nan'" + tol},
      {check + "--rtol -1", "attn: --rtol: '-1'" + tol},
      {check + "--index 0", "attn: --index: '0'" + index},
      {check + "--index -2", "attn: --index: '-2'" + index},
      {check + "--index 1.5", "attn: --index: '1.5'" + index},
      {check + "--index 99999999999", "attn: --index: '99999999999'" + index},
  });
  // The values they allow reach the grading (a 1-number answer: graded, and failed for its shape).
  write("answer.csv", "1\n");
  for (const char* tol_args : {"--atol 0 --rtol 0", "--atol 4.9e-324", "--atol 1e300 --rtol 1e300 --index 1"}) {
    CAPTURE(tol_args);
    Result r = attn(check + tol_args);
    CHECK(r.code == 1);
    CHECK(r.out.find("causal/weights") != std::string::npos);
    CHECK(r.err.find("tolerance") == std::string::npos);
  }
}

TEST_CASE("an unknown command is named, with the list of commands") {
  const std::string commands =
      "the commands are list, lesson, next, progress, verify, run, export, check, exercise, watch, coverage and completion (see `attn --help`)\n";
  check_usage_errors({
      {"frobnicate", "attn: unknown command 'frobnicate'; " + commands},
      {"lesson-causal", "attn: unknown command 'lesson-causal'; " + commands},
      {"\"$(printf 'x\\033[2J')\"", "attn: unknown command 'x\\x1b[2J'; " + commands},
      {"''", "attn: a command is required; " + commands},   // bare `attn` is `attn next` (test_progress_cli.cpp)
      // a typo of one command: suggested (lesson/suggest.h)
      {"lesosn causal", "attn: unknown command 'lesosn'; did you mean `attn lesson`? " + commands},
      {"lsit", "attn: unknown command 'lsit'; did you mean `attn list`? " + commands},
      {"progres", "attn: unknown command 'progres'; did you mean `attn progress`? " + commands},
  });
  Result r = attn("--frobnicate");   // an option before any command is still CLI11's (one line)
  CHECK(r.code == 2);
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

TEST_CASE("lesson files are capped at 1 MiB: /dev/zero and a large file fail at once, naming the limit") {
  const std::string limit = ": is larger than 1 MiB (1048576 bytes), the limit for a lesson file; lessons are text of a few KB\n";
  write("big.lesson", kHeader + "## one: One\n```python\nprint(1)\n```\n" + std::string(1 << 20, '\n'));
  check_usage_errors({
      {"run /dev/zero", "attn: /dev/zero" + limit},
      {"run big.lesson", "attn: big.lesson" + limit},
  });
  // Exactly at the limit: read (and found malformed or not by the format's rules, not the size).
  std::string at_limit = kHeader + "## one: One\n```python\nprint(1)\n```\n";
  at_limit += std::string((1 << 20) - at_limit.size(), '\n');
  write("at-limit.lesson", at_limit);
  Result r = attn("run at-limit.lesson --quiet");
  CHECK(r.code == 0);
  CHECK(r.out == "1\n");
  // In a lesson folder the oversized file is named too.
  std::filesystem::create_directories(workdir() + "/big-folder");
  std::filesystem::copy_file(workdir() + "/big.lesson", workdir() + "/big-folder/big.lesson");
  r = attn("list", "ATTN_LESSON_DIR=big-folder");
  CHECK(r.code == 2);
  CHECK(r.err == "attn: big-folder/big.lesson" + limit);
  // A pipe is read as a file is.
  write("small.lesson", kHeader + "## one: One\n```python\nprint(6 * 7)\n```\n");
  r = attn("run /dev/stdin --quiet < small.lesson");
  CHECK(r.code == 0);
  CHECK(r.out == "42\n");
  r = shell_process("cat small.lesson | " ATTN_BINARY " run /dev/stdin --quiet", workdir());
  CHECK(r.code == 0);
  CHECK(r.out == "42\n");
}

TEST_CASE("every message is one line: NUL, ESC, newlines and other control characters are shown escaped") {
  write("nul.lesson", kHeader + "## one: One\n```python\nx = 'a" + std::string(1, '\0') + "b'\n```\n");
  write("esc\033[2J.lesson", kHeader + "## one: One\n```python\nprint(z)\n```\n");
  write("two\nlines.lesson", kHeader + "## One: One\n");
  check_usage_errors({
      {"run nul.lesson", "attn: nul.lesson:9: a NUL byte (\\x00) at column 7; a lesson file is UTF-8 text\n"},
      {"run \"$(printf 'esc\\033[2J.lesson')\" --quiet", "attn: esc\\x1b[2J.lesson:9: NameError: name 'z' is not defined\n"},
      {"run \"$(printf 'two\\nlines.lesson')\"",
       "attn: two\\nlines.lesson:7: a step heading is '## id: Title' with a lowercase id, got '## One: One'\n"},
      {"run \"$(printf 'gone\\r\\033]0;title\\007.lesson')\"", "attn: gone\\r\\x1b]0;title\\x07.lesson: no such lesson file\n"},
      {"run \"$(printf 'caf\\303\\251\\302\\233.lesson')\"", "attn: café\\x9b.lesson: no such lesson file\n"},   // C1 CSI as UTF-8
      {"run \"$(printf 'bad\\377.lesson')\"", "attn: bad\\xff.lesson: no such lesson file\n"},   // not UTF-8
      {"lesson causal --step 'x\n'",   // $'x\n': the newline inside the quotes
       "attn: lesson 'causal' has no step 'x\\n' (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)\n"},
  });
  // verify prints a failing cell's error on stdout (its file named as ATTN_LESSON_DIR names the
  // folder), escaped the same way.
  std::filesystem::create_directories(workdir() + "/esc\033[2J\nfolder");
  std::ofstream(workdir() + "/esc\033[2J\nfolder/t.lesson") << kHeader << "## one: One\n```python\nprint(1)\nprint(z)\n```\n```output\n1\n```\n";
  Result r = attn("verify", "ATTN_LESSON_DIR=\"$(printf 'esc\\033[2J\\nfolder')\"");
  CHECK(r.code == 1);
  CHECK(r.out == "ERROR    t/one: esc\\x1b[2J\\nfolder/t.lesson:10: NameError: name 'z' is not defined\n"
                 "verify: 0 of 0 cells match the article, 0 differ, 1 error (1 lesson)\n");
}

TEST_CASE("ATTN_LESSON_DIR naming a file says it is not a folder") {
  write("a-file", "");
  Result r = attn("list", "ATTN_LESSON_DIR=a-file");
  CHECK(r.code == 1);
  CHECK(r.err == "attn: lesson directory 'a-file' is a file, not a folder (set ATTN_LESSON_DIR to a folder of .lesson files, such as lessons/)\n");
}

TEST_CASE("verify --seed 5 runs every lesson and reports, as docs/learners.md says") {
  Result r = attn("verify --seed 5");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("nothing compared: the article printed its outputs for its own inputs, so with --seed, --sentence or "
                   "--inputs its transcript no longer applies") != std::string::npos);
  CHECK(r.out.rfind("verify: ran ", 0) == 0);
}

TEST_CASE("a failed write to stdout is exit 1 with one line, never a cut-off output with exit 0") {
  for (const char* args : {"list", "lesson causal", "verify causal", "list --format json", "--help"}) {
    CAPTURE(args);
    Result r = shell_process(ATTN_BINARY " " + std::string(args) + " >/dev/full", workdir());
    CHECK(r.code == 1);
    CHECK(r.err == "attn: could not write all of the output to stdout (a full disk?)\n");
  }
}

#ifndef ATTN_TEST_ASAN   // AddressSanitizer reserves terabytes of address space: ulimit -v would stop it at start
TEST_CASE("running out of memory is one line naming what attn was doing, exit 1") {
  // The cell makes a 40 MB tensor; its JSON document (10 million numbers) needs far more than
  // the 300 MB of address space this run gets.
  write("huge.lesson", kHeader + "## one: One\n```python\nimport torch\nprint(torch.zeros(10_000_000))\n```\n");
  Result r = attn("run huge.lesson --quiet");   // without JSON it fits
  CHECK(r.code == 0);
  r = shell_process("ulimit -v 300000 && " ATTN_BINARY " run huge.lesson --format json", workdir());
  CHECK(r.code == 1);
  CHECK(r.err == "attn: out of memory while writing the JSON document\n");
  CHECK(r.out.empty());
}
#endif
