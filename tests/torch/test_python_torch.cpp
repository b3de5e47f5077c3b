// tests/torch/test_python_torch.cpp: attn's Python against CPython, for the construct families whose
// cases use torch too (unpacking tensors, classes around nn.Module, torch's errors, torch.no_grad,
// importing torch): every case of tests/python/FAMILY.cases runs in a fresh torch::Session and must
// print exactly what CPython 3.11 with PyTorch 1.13 printed, kept in FAMILY.expected by
// tools/make_python_expected.py. What it is not: the families of pure Python and what attn refuses
// (tests/py/test_python.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "py/interpreter.h"
#include "support/files.h"
#include "torch/session.h"
#include "torch/values.h"

namespace {

namespace fs = std::filesystem;
using Interpreter = attn::torch::Session;
using attn::py::ScriptError;

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

// [(name, text)] of a file made of `#### name` blocks (FAMILY.cases and FAMILY.expected alike).
std::vector<std::pair<std::string, std::string>> split_cases(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("#### ", 0) == 0) out.emplace_back(line.substr(5), "");
    else if (!out.empty()) out.back().second += line + "\n";
  }
  return out;
}

// What a case prints in a fresh session, then `error: ...` as the tool writes it if it raised.
std::string run_case(const std::string& code) {
  Interpreter in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  in.set_import_dir(kFolder);
  std::string tail;
  try {
    in.run_cell(code);
  } catch (const ScriptError& e) {
    std::string where = e.file.empty() ? std::to_string(e.line) : fs::path(e.file).filename().string() + ":" + std::to_string(e.line);
    tail = "error: " + where + ": " + e.what() + "\n";
  }
  return in.take_output() + tail;
}

void check_family(const std::string& family) {
  auto cases = split_cases(slurp(kFolder + "/" + family + ".cases"));
  auto expected = split_cases(slurp(kFolder + "/" + family + ".expected"));
  REQUIRE(!cases.empty());
  REQUIRE(cases.size() == expected.size());   // else: rerun tools/make_python_expected.py
  for (size_t k = 0; k < cases.size(); ++k) {
    INFO(family << ".cases: " << cases[k].first);
    REQUIRE(cases[k].first == expected[k].first);
    CHECK(run_case(cases[k].second) == expected[k].second);
  }
}

}  // namespace

TEST_CASE("unpacking in every form") { check_family("unpacking"); }
TEST_CASE("classes: class attributes, super(), properties, dunder methods") { check_family("classes"); }
TEST_CASE("exceptions: try/except/else/finally, raise, assert, torch errors") { check_family("exceptions"); }
TEST_CASE("with blocks: context managers, torch.no_grad") { check_family("with_blocks"); }
TEST_CASE("imports: a .py file next to the lesson, importlib.metadata, typing") { check_family("imports"); }
