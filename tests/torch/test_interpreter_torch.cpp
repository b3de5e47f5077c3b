// tests/torch/test_interpreter_torch.cpp: torch in the Python subset lesson cells are written in
// (each expected string is what python3 with PyTorch 1.13 prints for the same code): nn.Module
// subclasses, tensors, what print() records, torch's errors at the cell's line, and each session's
// own kernel family. What it is not: the Python alone (tests/py/test_interpreter.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

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

TEST_CASE("functions, classes and modules") {
  CHECK(run("def f(a, b=2):\n    return a + b\nprint(f(1), f(1, b=5))") == "3 6\n");
  CHECK(run("import torch.nn as nn\n"
            "class M(nn.Module):\n"
            "    def __init__(self, k):\n"
            "        super().__init__()\n"
            "        self.k = k\n"
            "    def forward(self, x):\n"
            "        return x * self.k\n"
            "print(M(3)(2))") == "6\n");
  CHECK(run("import torch\ntorch.manual_seed(789)\nl = torch.nn.Linear(3, 2, bias=False)\nprint(l)\nprint(l.weight)") ==
        "Linear(in_features=3, out_features=2, bias=False)\n"
        "Parameter containing:\n"
        "tensor([[ 0.3161,  0.4568,  0.5118],\n"
        "        [-0.1683, -0.3379, -0.0918]], requires_grad=True)\n");
}

TEST_CASE("tensors: creation, indexing, in-place fill and grad_fn bookkeeping") {
  CHECK(run("import torch\nx = torch.tensor([[1., 2.], [3., 4.]])\nprint(x[1], x[:, 0], x.T.shape, x.sum(dim=1, keepdim=True))") ==
        "tensor([3., 4.]) tensor([1., 3.]) torch.Size([2, 2]) tensor([[3.],\n        [7.]])\n");
  CHECK(run("import torch\nx = torch.tensor([1., -2., 3.])\nprint(x > 0, (x > 0).sum(), x.mean())") ==
        "tensor([ True, False,  True]) tensor(2) tensor(0.6667)\n");
  // In-place changes are seen through every name bound to the tensor, as in Python.
  CHECK(run("import torch\nx = torch.zeros(2, 3)\nx[0, 1] = 5\ny = x\n"
            "y.masked_fill_(torch.triu(torch.ones(2, 3), diagonal=1).bool(), -1)\nprint(x)") ==
        "tensor([[ 0., -1., -1.],\n        [ 0.,  0., -1.]])\n");
}

TEST_CASE("print() records each printed value with the expression it came from") {
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  in.run_cell("import torch\nx = torch.ones(2)\nprint('x is', x * 2, x.shape)\nx.masked_fill_(x.bool(), 0)\n");
  REQUIRE(in.printed().size() == 2);   // the label string is not kept
  CHECK(in.printed()[0].name == "x * 2");
  CHECK(in.printed()[0].text == "tensor([2., 2.])");
  CHECK(in.printed()[0].tensor().floats() == std::vector<float>{2.0f, 2.0f});
  CHECK(in.printed()[1].name == "x.shape");
  CHECK(in.printed()[1].text == "torch.Size([2])");
  attn::torch::Session echo(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  echo.run_cell("def f():\n    return 41 + 1\nf()\n", true);
  CHECK(echo.take_output() == "42\n");
  REQUIRE(echo.printed().size() == 1);
  CHECK(echo.printed()[0].name == "f(...)");
}

TEST_CASE("a torch error carries the cell line and PyTorch's wording") {
  CHECK(error_of("import torch\ntorch.ones(2, 3) @ torch.ones(2, 3)") ==
        "2: RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
}

// The kernel family is the Interpreter's own (RunState), not the process's: two sessions with
// different families, their cells interleaved, print exactly what each prints alone.
TEST_CASE("each Interpreter keeps its own kernel family, also when cells interleave") {
  using attn::core::CpuKernels;
  using Interpreter = attn::torch::Session;
  const std::string draw = "import torch\ntorch.manual_seed(1)\nx = torch.randn(2, 20)\nprint(x)\n";
  const std::string use = "print(torch.softmax(x, dim=1), torch.exp(x), torch.nn.Linear(3, 2).weight)\n";
  auto floats = [](Interpreter& in) {
    std::vector<float> out;
    for (const attn::torch::Printed& p : in.printed()) {
      const auto& f = p.tensor().floats();
      out.insert(out.end(), f.begin(), f.end());
    }
    return out;
  };
  auto alone = [&](CpuKernels k) {
    Interpreter in(k, attn::core::DropoutRng::mkl);
    in.run_cell(draw);
    in.run_cell(use);
    return floats(in);
  };
  const std::vector<float> avx2 = alone(CpuKernels::avx2), scalar = alone(CpuKernels::scalar);
  REQUIRE(avx2.size() == scalar.size());
  REQUIRE(avx2 != scalar);   // randn, softmax, exp and Linear's init all round by family

  Interpreter a(CpuKernels::avx2, attn::core::DropoutRng::mkl), s(CpuKernels::scalar, attn::core::DropoutRng::mkl);
  a.run_cell(draw);
  s.run_cell(draw);
  a.run_cell(use);
  s.run_cell(use);
  CHECK(floats(a) == avx2);
  CHECK(floats(s) == scalar);
}
