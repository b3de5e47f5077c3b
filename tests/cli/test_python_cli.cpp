// tests/cli/test_python_cli.cpp: attn's Python through the real binary: the test lessons
// tests/python/*.lesson go through `attn verify` (their ```output blocks are CPython 3.11's),
// `attn run` of a lesson that imports the .py file beside it, and a cell's limits (issue 9): one
// line naming file:line, --time-limit in seconds, control characters never reaching the terminal
// raw. What it is not: the construct families case by case or the limits themselves
// (tests/py/test_python.cpp, tests/py/test_py_limits.cpp and their tests/torch/ parts).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "py/interpreter.h"
#include "support/run_attn.h"

namespace {

namespace fs = std::filesystem;

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

std::string error_of(const std::string& code) {
  try {
    attn::py::Interpreter in;
    in.run_cell(code);
  } catch (const attn::py::ScriptError& e) {
    return std::to_string(e.line) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the test lessons print what CPython printed, through attn verify") {
  CliResult r = attn_process("verify", "", "ATTN_LESSON_DIR=" + kFolder);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find(" 0 differ") != std::string::npos);
  for (const char* lesson : {"py-loops", "py-unpacking", "py-functions", "py-classes", "py-exceptions", "py-with", "py-imports", "py-builtins", "py-warnings"})
    CHECK(r.out.find(std::string(lesson) + "/") != std::string::npos);
}

TEST_CASE("attn run: a lesson imports the .py file beside it; an error inside names that file and line") {
  fs::path dir = fs::temp_directory_path() / ("attn-import-run-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "shared.py") << "def scale(x):\n    return x * factor\n";
  std::ofstream(dir / "use.lesson") << "# Uses a helper\nname: use\ngroup: concepts\norder: 1\nsource: a test\n\nIntro.\n\n## one: One\n\n"
                                       "```python\nfrom shared import scale\nprint('before')\nscale(2)\n```\n";
  CliResult r = attn_process("run " + (dir / "use.lesson").string() + " --quiet");
  CHECK(r.code == 2);
  CHECK(r.err.find((dir / "shared.py").string() + ":2: NameError: name 'factor' is not defined") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("control characters never reach the terminal raw") {
  CHECK(error_of("x = 1\ny = \x1b") == "2: SyntaxError: invalid non-printable character U+001B");
  // The message itself reaches the terminal escaped by cli::one_line (the one escaping function;
  // py::printable_message, which duplicated it with no caller, is gone): ESC, NUL, a newline and
  // a C1 control through the real binary.
  std::string dir = std::filesystem::temp_directory_path() / ("attn-escape-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/t.lesson") << "# t\nname: t\ngroup: concepts\norder: 1\nsource: t\n\n## a: a\n\n```python\n"
                                      "assert False, 'a\\x1b[2J\\x00b\\nc\\x80' + chr(0x202e) + 'd' + chr(0x2069)\n```\n";
  CliResult r = attn_process("run --quiet " + dir + "/t.lesson");
  CHECK(r.code == 2);
  // Bidi controls made at run time (U+202E, U+2069) are written as \u escapes: they would reorder the line.
  CHECK(r.err == "attn: " + dir + "/t.lesson:10: AssertionError: a\\x1b[2J\\x00b\\nc\\x80\\u202ed\\u2069\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("attn run: a cell's limit is one line naming file:line; --time-limit takes seconds") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-limits-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto lesson = [&](const std::string& code) {
    std::string path = dir + "/t.lesson";
    std::ofstream(path) << "# t\nname: t\ngroup: concepts\norder: 1\nsource: t\n\n## a: a\n\n```python\n" << code << "```\n";
    return path;
  };
  CliResult r = attn_process("run --quiet --time-limit 0.05 " + lesson("x = 1\nx = [0 for a in range(5000) for b in range(5000) if False]\n"));
  CHECK(r.code == 2);   // a lesson file's error, as every error in a cell (docs/lesson-authors.md, "Your own lessons")
  CHECK(r.err == "attn: " + dir + "/t.lesson:11: TimeoutError: the cell ran longer than its time limit of 0.05 seconds "
                                  "(--time-limit SECONDS changes it)\n");
  r = attn_process("run --quiet " + lesson("assert False, 'a\\x1b[2Jb\\nc'\n"));
  CHECK(r.code == 2);
  CHECK(r.err == "attn: " + dir + "/t.lesson:10: AssertionError: a\\x1b[2Jb\\nc\n");
  r = attn_process("run --quiet --time-limit 0 " + lesson("x = 1\n"));
  CHECK(r.code == 2);
  CHECK(r.err.find("'0' is not a number of seconds; use one above 0 and at most 86400") != std::string::npos);
  std::filesystem::remove_all(dir);
}
