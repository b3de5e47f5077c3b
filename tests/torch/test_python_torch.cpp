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
#include "support/cases.h"
#include "support/files.h"
#include "torch/session.h"
#include "torch/values.h"

namespace {

namespace fs = std::filesystem;
using Interpreter = attn::torch::Session;
using attn::py::ScriptError;

const std::string kFolder = std::string(ATTN_TEST_DATA) + "/python";

// What a case prints in a fresh torch session (the AVX2 family, MKL dropout, as torch on this CPU).
std::string run_case(const std::string& code) {
  Interpreter in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  in.set_import_dir(kFolder);
  return output_of_case<ScriptError>(in, code);
}

void check_family(const std::string& family) { check_cases(kFolder, family, run_case); }

}  // namespace

TEST_CASE("unpacking in every form") { check_family("unpacking"); }
TEST_CASE("classes: class attributes, super(), properties, dunder methods") { check_family("classes"); }
TEST_CASE("exceptions: try/except/else/finally, raise, assert, torch errors") { check_family("exceptions"); }
TEST_CASE("with blocks: context managers, torch.no_grad") { check_family("with_blocks"); }
TEST_CASE("imports: a .py file next to the lesson, importlib.metadata, typing") { check_family("imports"); }
