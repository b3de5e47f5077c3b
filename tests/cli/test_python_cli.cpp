// tests/cli/test_python_cli.cpp: attn's Python through the real binary: the test lessons
// tests/python/*.lesson go through `attn verify` (their ```output blocks are CPython 3.11's), and
// `attn run` of a lesson that imports the .py file beside it. What it is not: the construct families
// case by case (tests/py/test_python.cpp, tests/torch/test_python_torch.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_attn.h"

namespace {

namespace fs = std::filesystem;

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

}  // namespace

TEST_CASE("the test lessons print what CPython printed, through attn verify") {
  CliResult r = attn_process("verify", "", "ATTN_LESSON_DIR=" + kFolder);
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find(" 0 differ") != std::string::npos);
  for (const char* lesson : {"py-loops", "py-unpacking", "py-functions", "py-classes", "py-exceptions", "py-with", "py-imports", "py-builtins"})
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
