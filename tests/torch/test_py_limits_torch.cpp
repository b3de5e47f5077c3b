// tests/torch/test_py_limits_torch.cpp: a cell's limits where torch is involved (issue 9): the time
// limit inside one statement of many big ops and inside one huge op (core/deadline.h), nesting and
// sizes reaching torch, Python's unbounded ints beyond int64 reaching torch, and torch values in
// Python syntax (x[..., 0]). The errors are PyTorch's or attn's one line naming the limit. What it
// is not: the interpreter's own limits and ints (tests/py/test_py_limits.cpp, tests/py/test_py_ints.cpp).
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "py/interpreter.h"
#include "support/sanitizers.h"
#include "torch/session.h"
#include "torch/values.h"

namespace {

std::string run(const std::string& code) {
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  in.run_cell(code);
  return in.take_output();
}

std::string error_of(const std::string& code, double time_limit = 0) {
  try {
    attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
    if (time_limit > 0) in.set_time_limit(time_limit);
    in.run_cell(code);
  } catch (const attn::py::ScriptError& e) {
    return std::to_string(e.line) + ": " + e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a list nested 100,000 deep given to torch.tensor is torch's ValueError past 128 dims, at its line") {
  const std::string make = "x = []\nfor i in range(100000):\n    x = [x]\n";
  CHECK(error_of(make + "import torch\nt = torch.tensor(x)") == "5: ValueError: too many dimensions 'list'");
}

TEST_CASE("x[..., 0] indexes the last dimension; ... is Ellipsis") {
  CHECK(run("import torch\nx = torch.arange(6).reshape(2, 3)\nprint(x[..., 0])\nprint(x[0, ...])\nprint(...)") ==
        "tensor([0, 3])\ntensor([0, 1, 2])\nEllipsis\n");
}

TEST_CASE("torch.tensor takes a range, as PyTorch does") {
  CHECK(run("import torch\nprint(torch.tensor(range(3)), sum(range(5)), [i * i for i in range(4)])") == "tensor([0, 1, 2]) 10 [0, 1, 4, 9]\n");
}

TEST_CASE("--time-limit holds inside one statement of many big ops and inside one huge op (core/deadline.h)") {
  const std::string timeout = "TimeoutError: the cell ran longer than its time limit of 0.05 seconds (--time-limit SECONDS changes it)";
  // Eight products of 3.4e9 multiply-adds in one statement: the clock is read after each op, not
  // only every 1024 statements, so the statement stops (it used to finish, with no error at all).
  CHECK(error_of("import torch\na = torch.ones(1500, 1500)\nb = a @ a @ a @ a @ a @ a @ a @ a", 0.05) == "3: " + timeout);
  // One integer einsum of 1.6 * 10^10 terms (two bmm-like steps of 2000^3; seconds to minutes):
  // its loop looks at the deadline itself. The bound below is loose on purpose (a loaded machine);
  // without the check it takes far longer.
  auto start = std::chrono::steady_clock::now();
  CHECK(error_of("import torch\nx = torch.ones(2000, 2000, dtype=torch.long); y = torch.einsum('ab,bc,cd->ad', x, x, x)", 0.05) == "2: " + timeout);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  // One product of 1.25e11 multiply-adds (many seconds): a kernel block at a time.
  start = std::chrono::steady_clock::now();
  CHECK(error_of("import torch\nc = torch.ones(5000, 5000) @ torch.ones(5000, 5000)", 0.05) == "2: " + timeout);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  // A cell within its limit runs as before, and so does the next cell after a timeout.
  CHECK(run("import torch\nprint((torch.ones(300, 300) @ torch.ones(300, 300))[0, 0])") == "tensor(300.)\n");
}

TEST_CASE("integer einsum takes the float path's steps: a letter of one operand summed in it first, operands contracted in pairs") {
  // Each was one loop over every combination of letters: 10^10 and 2.6 * 10^10 terms (minutes,
  // past this limit); now 2 * 10^5 and 1.3 * 10^8.
  // Under ASan (instrumented integer loops, tens of times slower) the chain is 120 wide: the
  // Release pass runs the 400 that the old loop could not finish.
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  in.set_time_limit(20);
  const int n = kTestUnderAsan ? 120 : 400;
  in.run_cell("import torch\nx = torch.ones(100000, dtype=torch.long)\nprint(torch.einsum('i,j->', x, 2 * x))\n"
              "m = torch.ones(" + std::to_string(n) + ", " + std::to_string(n) + ", dtype=torch.long)\n"
              "print(torch.einsum('ij,jk,kl->il', m, m, m)[0, :2])");
  CHECK(in.take_output() == "tensor(20000000000)\ntensor([" + std::to_string(n * n) + ", " + std::to_string(n * n) + "])\n");
}

TEST_CASE("nn.Embedding's size cannot overflow (UBSan: 2**62 * 4 wrapped); the error is PyTorch's, at the lesson's line") {
  CHECK(error_of("import torch.nn as nn\ne = nn.Embedding(2**62, 4)") ==
        "2: RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904, 4]");
  CHECK(error_of("import torch.nn as nn\ne = nn.Embedding(4, 2**62)") ==
        "2: RuntimeError: Storage size calculation overflowed with sizes=[4, 4611686018427387904]");
}

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
