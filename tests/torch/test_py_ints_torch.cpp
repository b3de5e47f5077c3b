// tests/torch/test_py_ints_torch.cpp: Python's unbounded int meeting torch (issue 9): an int beyond
// int64 raises as PyTorch does (each expected string is what PyTorch 1.13 raises or prints). What it
// is not: Python's int alone (tests/py/test_py_ints.cpp).
#include <doctest/doctest.h>

#include <string>

#include "py/interpreter.h"
#include "torch/session.h"
#include "torch/values.h"

namespace {

std::string run(const std::string& code) {
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  in.run_cell(code);
  return in.take_output();
}

std::string error_of(const std::string& code) {
  try {
    run(code);
  } catch (const attn::py::ScriptError& e) {
    return std::to_string(e.line) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("an int beyond int64 reaching torch raises as PyTorch does") {
  CHECK(error_of("import torch\ntorch.manual_seed(2**64)") == "2: RuntimeError: Overflow when unpacking long");
  CHECK(error_of("import torch\ntorch.manual_seed(-2**63 - 1)") == "2: RuntimeError: Overflow when unpacking long");
  // 2**64 - 1 is the largest seed PyTorch takes; -1 wraps to it; neither is seed 0
  CHECK(run("import torch\ntorch.manual_seed(2**64 - 1)\na = torch.rand(3)\ntorch.manual_seed(-1)\nb = torch.rand(3)\n"
            "torch.manual_seed(0)\nprint(torch.equal(a, b), torch.equal(a, torch.rand(3)))") == "True False\n");
  CHECK(error_of("import torch\ntorch.ones(2) + 2**64") == "2: RuntimeError: Overflow when unpacking long");
  CHECK(error_of("import torch\ntorch.tensor([2**63])") == "2: RuntimeError: Overflow when unpacking long");
  CHECK(run("import torch\nx = torch.arange(4)\nprint(x[1:2**64])") == "tensor([1, 2, 3])\n");
}
