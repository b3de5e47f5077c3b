// tests/test_interpreter.cpp: the Python subset lesson cells are written in behaves as Python does
// (each expected string is what python3 prints for the same code).
#include <doctest/doctest.h>

#include "py/interpreter.h"

namespace {

std::string run(const std::string& code) {
  attn::py::Interpreter in;
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
  attn::py::Interpreter in;
  in.run_cell("import torch\nx = torch.ones(2)\nprint('x is', x * 2, x.shape)\nx.masked_fill_(x.bool(), 0)\n");
  REQUIRE(in.printed.size() == 2);   // the label string is not kept
  CHECK(in.printed[0].name == "x * 2");
  CHECK(in.printed[0].text == "tensor([2., 2.])");
  CHECK(attn::py::as_tensor(in.printed[0].value).f == std::vector<float>{2.0f, 2.0f});
  CHECK(in.printed[1].name == "x.shape");
  CHECK(in.printed[1].text == "torch.Size([2])");
  attn::py::Interpreter echo;
  echo.run_cell("def f():\n    return 41 + 1\nf()\n", true);
  CHECK(echo.take_output() == "42\n");
  REQUIRE(echo.printed.size() == 1);
  CHECK(echo.printed[0].name == "f(...)");
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
