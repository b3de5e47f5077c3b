// tests/torch/test_nn_init.cpp: torch.nn.init.*, nn.Embedding's, nn.Linear's, nn.LayerNorm's and
// nn.MultiheadAttention's parameters, run as lesson code through the interpreter, against
// tests/vectors/fwd_random_init.txt and fwd_random_scalar_init.txt (tools/make_fwd_vectors.py) and
// random_init.txt and random_scalar_init.txt (tools/make_vectors.py), all written from Debian's
// torch 1.13.1 in both kernel families, in one format: seed, ops, count, an FNV-1a digest of every
// float's bits, the first 64 one by one.
// What it is not: the modules' forward passes (test_fwd_ops.cpp, test_attention.cpp).
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "torch/session.h"
#include "torch/values.h"
#include "py/interpreter.h"
#include "support/digest_vectors.h"

namespace {

using attn::core::CpuKernels;

using digest::split;

std::string shape(const std::string& s) {   // "6x3" -> "(6, 3)"
  std::string out = "(";
  for (const std::string& d : split(s, 'x')) out += d + ", ";
  return out + ")";
}

// The lesson code of one op of the file, appending the tensors whose words it makes to `out`.
std::string code_of(const std::string& op) {
  const std::vector<std::string> a = split(op, ':');
  const std::string& n = a[0];
  if (n == "kaiming_uniform" || n == "kaiming_normal")
    return "w = torch.empty" + shape(a[1]) + "\ntorch.nn.init." + n + "_(w, a=" + a[2] + ", mode='" + a[3] + "', nonlinearity='" + a[4] +
           "')\nout.append(w)\n";
  if (n == "xavier_uniform" || n == "xavier_normal")
    return "w = torch.empty" + shape(a[1]) + "\ntorch.nn.init." + n + "_(w, gain=" + a[2] + ")\nout.append(w)\n";
  if (n == "uniform" || n == "normal")
    return "w = torch.empty" + shape(a[1]) + "\ntorch.nn.init." + n + "_(w, " + a[2] + ", " + a[3] + ")\nout.append(w)\n";
  if (n == "trunc_normal")
    return "w = torch.empty" + shape(a[1]) + "\ntorch.nn.init.trunc_normal_(w, " + a[2] + ", " + a[3] + ", " + a[4] + ", " + a[5] +
           ")\nout.append(w)\n";
  if (n == "zeros" || n == "ones") return "w = torch.empty" + shape(a[1]) + "\ntorch.nn.init." + n + "_(w)\nout.append(w)\n";
  if (n == "constant") return "w = torch.empty" + shape(a[1]) + "\ntorch.nn.init.constant_(w, " + a[2] + ")\nout.append(w)\n";
  if (n == "embedding") {
    const std::vector<std::string> d = split(a[1], 'x');
    return "out.append(torch.nn.Embedding(" + d[0] + ", " + d[1] + ").weight)\n";
  }
  if (n == "embedding_pad") {
    const std::vector<std::string> d = split(a[1], 'x');
    return "out.append(torch.nn.Embedding(" + d[0] + ", " + d[1] + ", padding_idx=" + a[2] + ").weight)\n";
  }
  if (n == "linear")
    return "m = torch.nn.Linear(" + a[1] + ", " + a[2] + ", bias=" + (a[3] == "bias" ? "True" : "False") +
           ")\nout.append(m.weight)\nif m.bias is not None:\n    out.append(m.bias)\n";
  if (n == "mha")
    return "m = torch.nn.MultiheadAttention(" + a[1] + ", " + a[2] + ", bias=" + (a[3] == "bias" ? "True" : "False") +
           ")\nout += [p for p in m.parameters()]\n";
  if (n == "layernorm") return "m = torch.nn.LayerNorm(" + shape(a[1]) + ")\nout += [m.weight, m.bias]\n";
  FAIL("unknown op " << op);
  return "";
}

void replay(const std::string& file, CpuKernels cpu) {
  for (const digest::Case& c : digest::read_cases(file)) {
    INFO(file << ": " << c.name << " (" << c.ops << ")");
    attn::torch::Session in(cpu, attn::core::DropoutRng::portable);
    std::string code = "import torch\ntorch.manual_seed(" + c.seed + ")\nout = []\n";
    for (const std::string& op : split(c.ops, ';')) code += code_of(op);
    in.run_cell(code);
    std::vector<uint32_t> words;
    for (const attn::py::Value& v : attn::py::as_seq(in.python().lookup("out"))) {
      for (float f : attn::torch::as_tensor(v).floats()) {
        uint32_t u;
        std::memcpy(&u, &f, sizeof u);
        words.push_back(u);
      }
    }
    REQUIRE(words.size() == c.count);
    for (size_t k = 0; k < c.sample.size(); ++k) CHECK(words[k] == c.sample[k]);
    CHECK(digest::fnv1a64(words) == c.digest);
  }
}

}  // namespace

TEST_CASE("nn.init, LayerNorm and MultiheadAttention parameters equal PyTorch's (avx2 family)") {
  replay("fwd_random_init.txt", CpuKernels::avx2);
}

TEST_CASE("nn.init, LayerNorm and MultiheadAttention parameters equal PyTorch's (scalar family)") {
  replay("fwd_random_scalar_init.txt", CpuKernels::scalar);
}

TEST_CASE("nn.Embedding and nn.Linear initialisation equal PyTorch's (avx2 family)") {
  replay("random_init.txt", CpuKernels::avx2);
}

TEST_CASE("nn.Embedding and nn.Linear initialisation equal PyTorch's (scalar family)") {
  replay("random_scalar_init.txt", CpuKernels::scalar);
}

// The values docs/pytorch-numerics.md section 2 prints, rounded as the article does.
TEST_CASE("nn.Linear(3, 2, bias=False) after manual_seed(789): the weights the docs print") {
  attn::torch::Session in(CpuKernels::avx2, attn::core::DropoutRng::portable);
  in.run_cell("import torch\ntorch.manual_seed(789)\nw = torch.nn.Linear(3, 2, bias=False).weight\n"
              "r = [round(v, 4) for v in w[0].tolist()]\n");
  CHECK(attn::py::repr(in.python().lookup("r")) == "[0.3161, 0.4568, 0.5118]");
  in.run_cell("e = torch.nn.Embedding(4, 2).weight\nmeta = (tuple(e.shape), e.requires_grad, type(e).__name__)\n");
  CHECK(attn::py::repr(in.python().lookup("meta")) == "((4, 2), True, 'Parameter')");
}
