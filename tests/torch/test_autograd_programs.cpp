// tests/torch/test_autograd_programs.cpp: whole Python programs through attn's interpreter, their
// leaves' .grad against PyTorch 1.13.1's, bit for bit.
//
// What it is: a replay of tests/vectors/grad_programs.txt (tools/make_grad_vectors.py, Debian's
// torch, reference BLAS, one thread): each case is Python source (`src` lines: inputs from
// torch.manual_seed + rand/randn/module init, a forward pass, loss.backward()) and the .grad of
// named leaves. attn runs the same source with its own RNG, initialisers and kernels and must
// produce the same bits. grad_programs.txt is torch's AVX2 family (replayed with --cpu avx2),
// grad_scalar_programs.txt its DEFAULT kernels (--cpu scalar); dropout masks are the portable
// generator's (Debian's torch has no MKL).
// Programs whose backward attn cannot compute yet are listed in kNotYet, with the reason,
// and checked to still fail (so the list cannot go stale silently). grad_op_programs.txt holds
// one small program per backward formula (sqrt, var, pow, where, amax, ...), same format.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "torch/session.h"
#include "torch/values.h"
#include "core/tensor.h"
#include "py/interpreter.h"

namespace {

struct Program {
  std::string name, line, source;
  std::vector<std::pair<std::string, std::vector<uint32_t>>> grads;   // leaf expression -> bits
};

std::vector<Program> read_programs(const std::string& file) {
  const std::string path = std::string(ATTN_TEST_DATA) + "/vectors/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<Program> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("case program name=", 0) == 0) {
      out.push_back({line.substr(18), line, "", {}});
      continue;
    }
    REQUIRE(!out.empty());
    if (line.rfind("src ", 0) == 0) {
      out.back().source += line.substr(4) + "\n";
      continue;
    }
    std::istringstream words(line);
    std::string name;
    size_t count = 0;
    words >> name >> count;
    std::vector<uint32_t> bits(count);
    for (auto& b : bits) {
      std::string hex;
      words >> hex;
      b = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
    }
    REQUIRE_MESSAGE(!words.fail(), "short line in " << path << ": " << name);
    out.back().grads.emplace_back(name, bits);
  }
  return out;
}

// Programs whose backward needs derivatives attn does not have yet, and which ones.
const std::map<std::string, std::string> kNotYet = {};

// Runs the program and compares every listed .grad; returns the number of differing values.
int replay(const Program& p, attn::core::CpuKernels cpu) {
  attn::torch::Session in(cpu, attn::core::DropoutRng::portable);
  in.run_cell("import torch\n" + p.source);
  int bad = 0;
  for (const auto& grad : p.grads) {
    const auto& leaf = grad.first;   // not a structured binding: clang 14 (the sanitizer build) cannot
    const auto& want = grad.second;  // capture one in the lambdas doctest's macros expand to
    in.run_cell("__grad = " + leaf + ".grad");
    const attn::core::Tensor g = attn::torch::as_tensor(in.python().lookup("__grad"));
    REQUIRE_MESSAGE(g.numel() == static_cast<int64_t>(want.size()), p.name << ": " << leaf);
    const std::vector<float> v = g.floats();
    for (size_t k = 0; k < want.size(); ++k) {
      uint32_t got;
      std::memcpy(&got, &v[k], sizeof got);
      if (got != want[k] && bad++ < 3)
        FAIL_CHECK(p.name << ": " << leaf << ".grad[" << k << "] is " << std::hex << got << ", torch has " << want[k]);
    }
  }
  return bad;
}

void replay_file(const std::string& file, attn::core::CpuKernels cpu, int at_least = 5) {
  int ran = 0;
  for (const Program& p : read_programs(file)) {
    CAPTURE(p.line);
    if (kNotYet.count(p.name)) {
      // Still missing: running it must fail (attn names the derivative it lacks). When it
      // starts to run, move it out of kNotYet.
      attn::torch::Session in(cpu, attn::core::DropoutRng::portable);
      CHECK_THROWS(in.run_cell("import torch\n" + p.source));
      continue;
    }
    CHECK_MESSAGE(replay(p, cpu) == 0, p.name);
    ++ran;
  }
  CHECK(ran >= at_least);
}

}  // namespace

TEST_CASE("autograd programs: leaves' .grad as PyTorch's, AVX2 family") {
  replay_file("grad_programs.txt", attn::core::CpuKernels::avx2);
}

TEST_CASE("autograd programs: leaves' .grad as PyTorch's, scalar family") {
  replay_file("grad_scalar_programs.txt", attn::core::CpuKernels::scalar);
}

// One program per backward formula of core/ops/ (unary.cpp, pow.cpp, reduce.cpp, ...): sqrt,
// rsqrt, log, erf, abs, var/std (dims, keepdim, correction, all elements), pow (every exponent
// form), where, amax/max with ties, tril/triu, repeat_interleave, cat/stack.
TEST_CASE("autograd op programs: each backward formula's .grad as PyTorch's, AVX2 family") {
  replay_file("grad_op_programs.txt", attn::core::CpuKernels::avx2, 31);
}

TEST_CASE("autograd op programs: each backward formula's .grad as PyTorch's, scalar family") {
  replay_file("grad_scalar_op_programs.txt", attn::core::CpuKernels::scalar, 31);
}

TEST_CASE("autograd: under torch.no_grad() nothing is recorded, leaves may be written in place") {
  // Expected text: what PyTorch 1.13 prints for the same code.
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::portable);
  in.run_cell(
      "import torch\n"
      "w = torch.ones(3, requires_grad=True)\n"
      "with torch.no_grad():\n"
      "    y = w * 2\n"
      "    a, b = (w * 3).split(2)\n"
      "    w.masked_fill_(torch.tensor([False, True, False]), 5.0)\n"
      "    print(y, a, y.requires_grad, w.requires_grad, w.is_leaf)\n"
      "z = (w * 2).sum()\n"
      "print(z)\n"
      "z.backward()\n"
      "print(w.grad)\n");
  CHECK(in.take_output() ==
        "tensor([2., 2., 2.]) tensor([3., 3.]) False True True\n"
        "tensor(14., grad_fn=<SumBackward0>)\n"
        "tensor([2., 2., 2.])\n");
}

TEST_CASE("autograd: grad_fn prints as PyTorch's <Name object at 0x...>, with a made-up deterministic address") {
  // PyTorch prints a heap address that changes every run; attn's is fixed (torch/grad_fn.cpp), so
  // the same program prints the same text twice.
  auto run = [] {
    attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::portable);
    in.run_cell(
        "import torch\n"
        "w = torch.ones(2, requires_grad=True)\n"
        "y = (w * 2).tanh()\n"
        "print(y.grad_fn)\n"
        "print(y.grad_fn.next_functions)\n"
        "print(y.grad_fn.next_functions[0][0].next_functions)\n"
        "print(w.grad_fn)\n");
    return in.take_output();
  };
  const std::string out = run();
  CHECK(out == run());
  CHECK(out ==
        "<TanhBackward0 object at 0x7f0000000040>\n"
        "((<MulBackward0 object at 0x7f0000000000>, 0),)\n"
        "((<AccumulateGrad object at 0x7f8000000000>, 0), (None, 0))\n"
        "None\n");
}

TEST_CASE("autograd: an in-place op on part of a tensor that gradients flow through reaches its base (CopySlices)") {
  // Debian's torch 1.13 prints these gradients (w.grad.tolist()); tests/torch/views.py has the
  // whole cross product of view and in-place ops.
  auto grad_of = [](const std::string& code) -> std::string {
    attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::portable);
    in.run_cell("import torch\nw = torch.ones(3, 4, requires_grad=True)\nx = w * 2\n" + code +
                "\n(x * torch.arange(12.).reshape(3, 4)).sum().backward()\nprint(w.grad.tolist())");
    return in.take_output();
  };
  const std::string tail = "[8.0, 10.0, 12.0, 14.0], [16.0, 18.0, 20.0, 22.0]]\n";
  CHECK(grad_of("x[0].masked_fill_(torch.ones(4, dtype=torch.bool), 0.0)") == "[[0.0, 0.0, 0.0, 0.0], " + tail);
  CHECK(grad_of("x[:, 1].add_(1)") == "[[0.0, 2.0, 4.0, 6.0], " + tail);
  CHECK(grad_of("v = x[1:]\nv *= 2") == "[[0.0, 2.0, 4.0, 6.0], [16.0, 20.0, 24.0, 28.0], [32.0, 36.0, 40.0, 44.0]]\n");
  CHECK(grad_of("x[0].zero_()") == "[[0.0, 0.0, 0.0, 0.0], " + tail);
  CHECK(grad_of("z = torch.zeros(2, 4)\nz[0].copy_(x[0])\nx = x + z.sum()") == "[[132.0, 134.0, 136.0, 138.0], " + tail);
}
