// tests/core/test_trig.cpp: torch.sin and torch.cos (forward, SinBackward0, CosBackward0) against
// the bits of Debian's PyTorch 1.13.1 (tests/vectors/fwd{,_scalar}_trig.txt), and the Sleef port
// alone against libsleef.so.3 (tests/vectors/sleef_trig.txt); all written by
// tools/make_trig_vectors.py (docs/pytorch-numerics.md §20).
// What it is not: the Python spelling (tests/torch/, opinfo) or other unary ops (test_fwd_ops.cpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/autograd.h"
#include "core/kernels/sleef.h"
#include "core/ops.h"
#include "support/fwd_vectors.h"

using attn::core::CpuKernels;
using attn::core::Shape;
using attn::core::Tensor;
namespace core = attn::core;

namespace {

std::string file(const fwd::Family& f) { return std::string(f.prefix) + "trig.txt"; }

Tensor apply(const std::string& op, const Tensor& x, CpuKernels cpu) {
  return op.rfind("sin", 0) == 0 || op.rfind("pe_sin", 0) == 0 ? core::sin(x, cpu) : core::cos(x, cpu);
}

// out = op(view(leaf)); out.backward(g); returns {out, leaf.grad}.
std::pair<Tensor, Tensor> run(const std::string& op, Tensor leaf, Tensor (*view)(const Tensor&, int64_t), int64_t kind,
                              const Tensor& g, CpuKernels cpu) {
  leaf.set_requires_grad(true);
  const Tensor y = apply(op, view(leaf, kind), cpu);
  core::autograd::backward(y, g, false);
  std::optional<Tensor> grad = core::autograd::grad(leaf);
  REQUIRE(grad.has_value());
  return {y, *grad};
}

Tensor same(const Tensor& t, int64_t) { return t; }
Tensor small_view(const Tensor& t, int64_t kind) {   // tools/make_trig_vectors.py's VIEWS
  if (kind == 1) return core::t(t);
  if (kind == 2) return core::slice(t, 1, 0, t.shape()[1] - 3, 1);
  return core::slice(t, 1, 1, t.shape()[1], 2);
}
Tensor pe_view(const Tensor& t, int64_t kind) {   // PE_VIEWS
  if (kind == 1) return core::slice(t, 1, 1, t.shape()[1], 2);
  if (kind == 2) return core::slice(t, 1, 0, 250, 1);
  return t;
}

// FNV-1a 64 of the float32 bits, as the generator's two words (hi, lo).
std::vector<uint32_t> fnv1a64(const Tensor& t) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (float v : t.floats()) {
    unsigned char b[4];
    std::memcpy(b, &v, 4);
    for (unsigned char c : b) h = (h ^ c) * 0x100000001b3ull;
  }
  return {static_cast<uint32_t>(h >> 32), static_cast<uint32_t>(h)};
}

// The generator's upstream gradient: g[k] = ((3k) % 11 - 5) / 8 over row-major elements.
Tensor upstream(const Shape& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<float> g(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) g[static_cast<size_t>(k)] = static_cast<float>((3 * k) % 11 - 5) / 8.0f;
  return core::from_floats(shape, g);
}

}  // namespace

TEST_CASE("sin and cos, lengths 1..40 and specials: Sleef per 8-lane vector (avx2), glibc (scalar); backward") {
  for (const fwd::Family& f : fwd::kFamilies)
    for (const char* op : {"sin", "cos"})
      for (const fwd::Case& c : fwd::read(file(f), op)) {
        const Shape s{c.key("n")};
        const auto [y, grad] = run(op, c.tensor("in", s), same, 0, c.tensor("g", s), f.cpu);
        fwd::check(c, "out", y);
        fwd::check(c, "grad", grad);
      }
}

TEST_CASE("sin and cos on views: a transpose is one run, a column slice or a step one run per row") {
  for (const fwd::Family& f : fwd::kFamilies)
    for (const char* op : {"sin_view", "cos_view"})
      for (const fwd::Case& c : fwd::read(file(f), op)) {
        const int64_t rows = c.key("rows"), cols = c.key("cols"), kind = c.key("view");
        const Tensor base = c.tensor("in", {rows, cols});
        const Shape vs = small_view(base, kind).shape();
        const auto [y, grad] = run(op, base, small_view, kind, c.tensor("g", vs), f.cpu);
        fwd::check(c, "out", y);
        fwd::check(c, "grad", grad);
      }
}

TEST_CASE("sin and cos of the positional encoding: position * div_term, 5000 x 256, and two slices") {
  for (const fwd::Family& f : fwd::kFamilies)
    for (const char* op : {"pe_sin", "pe_cos"})
      for (const fwd::Case& c : fwd::read(file(f), op)) {
        const std::vector<float> div = c.tensor("div", {256}).floats();
        std::vector<float> x(5000 * 256);
        for (int64_t p = 0; p < 5000; ++p)   // int64 position * float32 div_term: fl32(p) * div
          for (int64_t j = 0; j < 256; ++j) x[static_cast<size_t>(p * 256 + j)] = static_cast<float>(p) * div[static_cast<size_t>(j)];
        const Tensor base = core::from_floats({5000, 256}, x);
        CHECK(fnv1a64(base) == c.arrays.at("x_fnv"));
        const auto [y, grad] = run(op, base, pe_view, c.key("view"), upstream(pe_view(base, c.key("view")).shape()), f.cpu);
        INFO(c.line);
        CHECK(fnv1a64(y) == c.arrays.at("out_fnv"));
        CHECK(fnv1a64(grad) == c.arrays.at("grad_fnv"));
      }
}

TEST_CASE("the Sleef port alone: sinf_u10 / cosf_u10 equal libsleef.so.3 lane by lane, NaN bits too") {
  for (const char* op : {"sleef_sin", "sleef_cos"})
    for (const fwd::Case& c : fwd::read("sleef_trig.txt", op)) {
      const std::vector<uint32_t>& in = c.arrays.at("in");
      const std::vector<uint32_t>& want = c.arrays.at("out");
      size_t bad = 0, first = 0;
      for (size_t i = 0; i < in.size(); ++i) {
        float x;
        std::memcpy(&x, &in[i], 4);
        const bool wide = core::sleef::trig_wide(x);   // one lane alone: its own branch
        const float y = std::string(op) == "sleef_sin" ? core::sleef::sinf_u10(x, wide) : core::sleef::cosf_u10(x, wide);
        uint32_t u;
        std::memcpy(&u, &y, 4);
        if (u != want[i] && bad++ == 0) first = i;
      }
      INFO(op << ": " << bad << " differ, the first at x = 0x" << std::hex << in[first]);
      CHECK(bad == 0);
    }
}
