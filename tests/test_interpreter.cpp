// tests/test_interpreter.cpp: the Python subset lesson cells are written in behaves as Python does
// (each expected string is what python3 prints for the same code).
#include <doctest/doctest.h>

#include "torch/session.h"
#include "torch/values.h"
#include "py/interpreter.h"

namespace {

// The kernel family and dropout generator a lesson gets when its header names none.
attn::torch::Session fresh() { return attn::torch::Session(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl); }

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

TEST_CASE("comprehensions, sorting and dicts follow Python") {
  CHECK(run("s = 'b a, b c'\nd = {w:i for i,w in enumerate(sorted(s.replace(',', '').split()))}\nprint(d)") ==
        "{'a': 0, 'b': 2, 'c': 3}\n");
  CHECK(run("print([x * x for x in range(4) if x != 2])") == "[0, 1, 9]\n");
  CHECK(run("print(sorted(['is', 'Life', 'eat']))") == "['Life', 'eat', 'is']\n");
  CHECK(run("print(1 < 2 < 3, 1 < 3 < 2, 2 == 2)") == "True False True\n");
  CHECK(run("x = [1]\nx.append(2)\nprint(len(x), x[-1], x[0:1], (1,), 2 ** 10, 7 // 2, -7 // 2, 1 / 4)") ==
        "2 2 [1] (1,) 1024 3 -4 0.25\n");
}

TEST_CASE("sets: literals, comprehensions, set(), in and len, printed in CPython 3.11's order") {
  // Expected strings: python3.11 printing the same code. Numbers come out in hash-table order:
  // colliding items (9, 17, 25, 33 share slot 1 of 8) move as the table grows, and a display of
  // 3+ constants is a frozenset constant rebuilt twice before it becomes the set.
  CHECK(run("print({10, 1}, {3, 1, 2}, {-1, -2, 5}, {1.5, 0.5, 2.0}, {True, 1, 1.0}, set(), {2**61, 2**61 - 1, 7})") ==
        "{1, 10} {1, 2, 3} {5, -1, -2} {0.5, 1.5, 2.0} {True} set() {2305843009213693951, 2305843009213693952, 7}\n");
  CHECK(run("print({100, 8, 16, 0, 33, 1, 2, 3, 4}, set([100, 8, 16, 0, 33, 1, 2, 3, 4]), {x for x in [100, 8, 16, 0, 33, 1, 2, 3, 4]})") ==
        "{0, 33, 2, 1, 100, 3, 4, 8, 16} {0, 33, 1, 2, 100, 3, 4, 8, 16} {0, 33, 1, 2, 100, 3, 4, 8, 16}\n");
  CHECK(run("print({9, 1, 17, 25, 33}, set({9, 1, 17, 25, 33}), set({9: 0, 1: 0, 17: 0, 25: 0, 33: 0}))") ==
        "{33, 1, 17, 9, 25} {33, 1, 17, 9, 25} {1, 17, 33, 9, 25}\n");
  CHECK(run("print({x * 7 for x in range(20)}, {float('inf'), -float('inf'), 1e300, 0.1, -0.0, 0.0})") ==
        "{0, 133, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112, 119, 126} {0.1, -0.0, inf, -inf, 1e+300}\n");
  CHECK(run("a = {10, 1}\nprint(len(a), 1 in a, 2 in a, 2 not in a, 1.0 in a, True in {1, 2}, sorted(a), list(set([3, 3, 2])))") ==
        "2 True False True True True [1, 10] [2, 3]\n");
  CHECK(run("a = {10, 1}\nprint({1, 2} == {2, 1}, {1, 2} == {1, 3}, not set(), isinstance(a, set), {(1, 2), (1, 2.0)}, len({'a', 'b', 'a'}))") ==
        "True False True True {(1, 2)} 2\n");
  CHECK(run("for x in {5, 3}:\n    print(x)\nprint({1, 2,}, {}, {1: 2})") == "3\n5\n{1, 2} {} {1: 2}\n");
  // Strings hash differently in every CPython process; attn keeps the order they were added in.
  CHECK(run("print({'b', 'a', 'b'}, {w for w in 'hello'})") == "{'b', 'a'} {'h', 'e', 'l', 'o'}\n");
  CHECK(error_of("print({[1], 2})") == "1: TypeError: unhashable type: 'list'");
  CHECK(error_of("print(len({1, {2: 3}}))") == "1: TypeError: unhashable type: 'dict'");
  CHECK(error_of("print({1, 2}[0])") == "1: TypeError: 'set' object is not subscriptable");
  CHECK(error_of("print({1: 2, 3})") == "1: SyntaxError: expected ':' near '}'");
  CHECK(error_of("print(set([1], [2]))") == "1: TypeError: set expected at most 1 argument, got 2");
  CHECK(error_of("print(set(1))") == "1: TypeError: 'int' object is not iterable");
}

TEST_CASE("numbers print as Python prints them") {
  CHECK(run("print(2**0.5, 50_000, 1e-05, 0.1 + 0.2, 3.0)") == "1.4142135623730951 50000 1e-05 0.30000000000000004 3.0\n");
  CHECK(run("n = 2360064\nprint(f'{n:,}', f'{3.14159:.2f}', '{} and {}'.format(1, 'x'))") == "2,360,064 3.14 1 and x\n");
}

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

TEST_CASE("Python errors carry the cell line and Python's wording") {
  CHECK(error_of("x = 1\nprint(y)") == "2: NameError: name 'y' is not defined");
  CHECK(error_of("x = 1\ny = (1,\n") == "2: SyntaxError: '(' was never closed");
  CHECK(error_of("x = 1 +\n") == "1: SyntaxError: invalid syntax near end of line");
  CHECK(error_of("import numpy") == "1: ModuleNotFoundError: attn lessons can import torch, torch.nn, torch.nn.functional and math, not 'numpy'");
  CHECK(error_of("import torch\ntorch.ones(2, 3) @ torch.ones(2, 3)") ==
        "2: RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  CHECK(error_of("{}['k']") == "1: KeyError: 'k'");
}

TEST_CASE("keyword-only arguments of builtins are bound by name, and unknown ones raise") {
  CHECK(run("print(sorted([3, 1, 2], reverse=True), sorted(['bb', 'a'], key=len), '{a}-{0}'.format(1, a=2))") ==
        "[3, 2, 1] ['a', 'bb'] 2-1\n");
  CHECK(error_of("sorted([1], foo=1)") == "1: TypeError: 'foo' is an invalid keyword argument for sort()");
  CHECK(error_of("sorted([1], None)") == "1: TypeError: sorted expected 1 argument, got 2");
  CHECK(error_of("'{a}'.format(b=1)") == "1: KeyError: 'a'");
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

TEST_CASE("operands are evaluated left to right, as Python does") {
  // The order is visible through side effects, and autograd records nodes in this order
  // (which decides the order in which a tensor's gradients are added).
  CHECK(run("def f(x):\n    print(x)\n    return x\ny = f(1) + f(2)\nz = [0]\nz[0] += f(3) * f(4)\n") == "1\n2\n3\n4\n");
}
