// tests/core/test_fwd_ops.cpp: forward ops of core/ops/ (unary, pow, activation, normalization,
// range, reduce) against bit patterns recorded from Debian's PyTorch 1.13.1 by
// tools/make_fwd_vectors.py: tanh, log, pow, GELU, ReLU, LayerNorm, linspace, arange, var/std, for
// both kernel families (fwd_<group>.txt from torch's AVX2 kernels, fwd_scalar_<group>.txt from
// ATEN_CPU_CAPABILITY=default); and broadcast tensor (op) tensor against x (op) y one by one.
// What it is not: the bindings (test_torch_api.cpp) or attention (test_attention.cpp).
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/ops.h"
#include "support/fwd_vectors.h"

using attn::core::CpuKernels;
using attn::core::Tensor;

namespace {

using fwd::Family;
using fwd::kFamilies;

std::string file(const Family& f, const char* group) { return std::string(f.prefix) + group + ".txt"; }

}  // namespace

TEST_CASE("tanh and log: Sleef u10 (avx2) or glibc (scalar) on every element") {
  for (const Family& f : kFamilies)
    for (const char* op : {"tanh", "log"})
      for (const fwd::Case& c : fwd::read(file(f, "elementwise"), op)) {
        const Tensor x = c.tensor("in", {c.key("n")});
        fwd::check(c, "out", std::string(op) == "tanh" ? attn::core::tanh(x, f.cpu) : attn::core::log(x, f.cpu));
      }
}

TEST_CASE("pow: special exponents, vector body and double-pow tail, tensor exponents") {
  for (const Family& f : kFamilies) {
    for (const fwd::Case& c : fwd::read(file(f, "elementwise"), "pow_scalar"))
      fwd::check(c, "out", attn::core::pow(c.tensor("in", {c.key("n")}), c.dbl("e"), f.cpu));
    for (const fwd::Case& c : fwd::read(file(f, "elementwise"), "pow_tensor"))
      fwd::check(c, "out", attn::core::pow(c.tensor("in", {c.key("n")}), c.tensor("exponent", {c.key("n")}), f.cpu));
  }
}

TEST_CASE("tensor times and divided by a Python float: the float rounded to float32 first") {
  using attn::core::BinOp;
  for (const Family& f : kFamilies) {
    for (const fwd::Case& c : fwd::read(file(f, "elementwise"), "mul_scalar"))
      fwd::check(c, "out", attn::core::binary_scalar(BinOp::mul, c.tensor("in", {c.key("n")}), c.dbl("s")));
    for (const fwd::Case& c : fwd::read(file(f, "elementwise"), "div_scalar"))
      fwd::check(c, "out", attn::core::binary_scalar(BinOp::div, c.tensor("in", {c.key("n")}), c.dbl("s")));
  }
}

TEST_CASE("tensor (op) tensor broadcast along rows: every element x (op) y, as one IEEE operation") {
  // (3, 4, 37) against (3, 4, 1), (37,), (1, 4, 37), a (3, 4, 37) transposed view and back: the
  // row-by-row path (each operand's rows contiguous or one broadcast float) and the
  // element-by-element one must give the same bits as x (op) y computed here, NaN and inf included.
  using attn::core::BinOp;
  namespace core = attn::core;
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> uni(-4.0f, 4.0f);
  auto values = [&](int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = uni(rng);
    v[1] = std::numeric_limits<float>::quiet_NaN();
    v[2] = std::numeric_limits<float>::infinity();
    v[3] = -0.0f;
    v.back() = 0.0f;
    return v;
  };
  const Tensor a = core::from_floats({3, 4, 37}, values(3 * 4 * 37));                            // (3, 4, 37)
  const Tensor t = core::transpose(core::from_floats({3, 37, 4}, values(3 * 37 * 4)), 1, 2);   // (3, 4, 37) view
  const Tensor others[] = {core::from_floats({3, 4, 1}, values(12)), core::from_floats({37}, values(37)),
                           core::from_floats({1, 4, 37}, values(4 * 37)), t};
  for (BinOp op : {BinOp::add, BinOp::sub, BinOp::mul, BinOp::div}) {
    for (const Tensor& b : others)
      for (bool swap : {false, true}) {
        const Tensor& x = swap ? b : a;
        const Tensor& y = swap ? a : b;
        const Tensor got = core::binary(op, x, y);   // (3, 4, 37)
        const Tensor xs = core::contiguous(core::expand(x, got.shape())), ys = core::contiguous(core::expand(y, got.shape()));
        int bad = 0;
        for (int64_t k = 0; k < got.numel(); ++k) {
          const float u = xs.float_at(k), v = ys.float_at(k);
          const float want = op == BinOp::add ? u + v : op == BinOp::sub ? u - v : op == BinOp::mul ? u * v : u / v;
          const float have = got.float_at(k);
          bad += !(std::isnan(want) && std::isnan(have)) && std::bit_cast<uint32_t>(want) != std::bit_cast<uint32_t>(have);
        }
        CHECK_MESSAGE(bad == 0, "op ", static_cast<int>(op), ", other of ", b.dim(), " dims, swapped ", swap);
      }
  }
}

TEST_CASE("GELU (oneDNN erf, ATen erf for one element, tanh) and ReLU") {
  for (const Family& f : kFamilies) {
    for (const fwd::Case& c : fwd::read(file(f, "activation"), "gelu"))
      fwd::check(c, "out", attn::core::gelu(c.tensor("in", {c.key("n")}), false, f.cpu));
    for (const fwd::Case& c : fwd::read(file(f, "activation"), "gelu_tanh"))
      fwd::check(c, "out", attn::core::gelu(c.tensor("in", {c.key("n")}), true, f.cpu));
    for (const fwd::Case& c : fwd::read(file(f, "activation"), "relu"))
      fwd::check(c, "out", attn::core::relu(c.tensor("in", {c.key("n")})));
  }
}

TEST_CASE("LayerNorm: RowwiseMoments and the affine step, with and without weight and bias") {
  for (const Family& f : kFamilies)
    for (const fwd::Case& c : fwd::read(file(f, "layernorm"), "layer_norm")) {
      const int64_t rows = c.key("rows"), n = c.key("n");
      const Tensor x = c.tensor("in", {rows, n});
      if (c.key("affine")) {
        const Tensor w = c.tensor("weight", {n}), b = c.tensor("bias", {n});
        fwd::check(c, "out", attn::core::layer_norm(x, 1, &w, &b, c.dbl("eps"), f.cpu));
      } else {
        fwd::check(c, "out", attn::core::layer_norm(x, 1, nullptr, nullptr, c.dbl("eps"), f.cpu));
      }
    }
}

TEST_CASE("linspace and float arange") {
  for (const Family& f : kFamilies) {
    for (const fwd::Case& c : fwd::read(file(f, "range"), "linspace"))
      fwd::check(c, "out", attn::core::linspace(c.dbl("start"), c.dbl("end"), c.key("steps"), f.cpu));
    for (const fwd::Case& c : fwd::read(file(f, "range"), "arange"))
      fwd::check(c, "out", attn::core::arange_float(c.dbl("start"), c.dbl("end"), c.dbl("step")));
  }
}

TEST_CASE("var and std with a correction: Welford in double, two passes for a one-element result") {
  for (const Family& f : kFamilies)
    for (const fwd::Case& c : fwd::read(file(f, "var"), "var_dims")) {
      attn::core::Shape shape;
      for (int64_t d = 0; d < c.key("ndim"); ++d) shape.push_back(c.key(std::string("s").append(std::to_string(d))));
      const Tensor x = c.tensor("in", shape);
      const int64_t mask = c.key("mask"), all = (int64_t{1} << shape.size()) - 1;
      std::optional<int64_t> dim;   // one dim, or every dim (nullopt)
      if (mask != all || shape.size() == 1)
        for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
          if (mask == (int64_t{1} << d)) dim = d;
      REQUIRE_MESSAGE((dim || mask == all), c.line);
      fwd::check(c, "var", attn::core::var_std(x, dim, c.key("correction"), false, false));
      fwd::check(c, "std", attn::core::var_std(x, dim, c.key("correction"), false, true));
    }
}

TEST_CASE("pow and GELU on views: memory order, one scalar tail per contiguous run") {
  for (const Family& f : kFamilies)
    for (const char* op : {"pow_view", "gelu_view", "gelu_tanh_view"})
      for (const fwd::Case& c : fwd::read(file(f, "views"), op)) {
        const int64_t rows = c.key("rows"), cols = c.key("cols");
        const Tensor base = c.tensor("in", {rows, cols});
        const Tensor x = c.key("view") == 1 ? attn::core::t(base) : attn::core::slice(base, 1, 0, cols - 3, 1);
        const std::string name = op;
        if (name == "pow_view") fwd::check(c, "out", attn::core::pow(x, c.dbl("e"), f.cpu));
        else fwd::check(c, "out", attn::core::gelu(x, name == "gelu_tanh_view", f.cpu));
      }
}

TEST_CASE("erf (Sleef or glibc on every element) and rsqrt (1 / sqrt)") {
  for (const Family& f : kFamilies) {
    for (const fwd::Case& c : fwd::read(file(f, "erf"), "erf"))
      fwd::check(c, "out", attn::core::erf(c.tensor("in", {c.key("n")}), f.cpu));
    for (const fwd::Case& c : fwd::read(file(f, "elementwise"), "rsqrt"))
      fwd::check(c, "out", attn::core::rsqrt(c.tensor("in", {c.key("n")})));
  }
}
