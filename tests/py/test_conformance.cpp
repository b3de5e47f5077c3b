// tests/py/test_conformance.cpp: the Python conformance corpus, each program in a py::Interpreter
// alone, compared exactly with what CPython 3.11 printed.
//
// What it is: every NAME.py of tests/conformance/micropython/ (MicroPython's tests/basics that attn
// runs as CPython does; the rest are in GAPS.md there) and tests/conformance/attn/ (the project's
// own programs) runs in a fresh Interpreter and must print NAME.expected, written by
// tools/make_conformance.py with CPython, an uncaught error as the last line
// `error: LINE: Kind: message`. One test case per folder, the file named in INFO.
// What it is not: the families of tests/python/ (test_python.cpp), torch (tests/torch/), or the
// differential fuzzer (tools/pyfuzz.py, the CTest test `pyfuzz`).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "py/interpreter.h"
#include "support/files.h"

namespace {

namespace fs = std::filesystem;

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/conformance";

// What a program prints in a fresh session, then `error: LINE: ...` if it raised.
std::string run_program(const std::string& code) {
  attn::py::Interpreter in;
  std::string tail;
  try {
    in.run_cell(code);
  } catch (const attn::py::ScriptError& e) {
    tail = "error: " + std::to_string(e.line) + ": " + e.what() + "\n";
  }
  return in.take_output() + tail;
}

std::vector<fs::path> programs(const std::string& folder) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(kFolder + "/" + folder))
    if (entry.path().extension() == ".py") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

void check_folder(const std::string& folder, size_t at_least) {
  auto files = programs(folder);
  REQUIRE(files.size() >= at_least);   // a corpus that went missing is a failure, not a pass
  for (const auto& py : files) {
    INFO("tests/conformance/" << folder << "/" << py.filename().string());
    fs::path expected = py;
    expected.replace_extension(".expected");
    REQUIRE(fs::exists(expected));   // else: rerun tools/make_conformance.py
    CHECK(run_program(slurp(py.string())) == slurp(expected.string()));
  }
}

}  // namespace

TEST_CASE("MicroPython's tests/basics that attn runs: what CPython 3.11 prints") { check_folder("micropython", 200); }
TEST_CASE("the project's conformance programs: what CPython 3.11 prints") { check_folder("attn", 1); }
