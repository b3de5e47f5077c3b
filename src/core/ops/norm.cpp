// core/ops/norm.cpp: torch.norm's vector p-norms, forward and backward (ops/norm.h).
//
// What it is: ATen 1.13's norm_kernel_tensor_iterator_impl on a float32 input, per output, the
// reduced elements in index order: p = 2 over the innermost (contiguous) dim, or over every
// element, takes the vectorised fast path: 8 lane sums of squares (the AVX2 build fuses each into
// an FMA), the lanes added left to right, then the size % 8 tail added one by one (AVX2: a
// group of four squares rounded first, then FMAs); p = 2 over another dim is NormTwoOps, one
// serial sum of squares (FMA in AVX2). p = 1 sums |x|, inf / -inf take the largest / smallest
// |x| (NaN wins), 0 counts the non-zeros, any other p sums powf(|x|, p) and returns
// powf(sum, 1/p). Checked against torch for every size up to 100 in both families
// (docs/pytorch-numerics.md §21).
// NormBackward1 is norm_backward: p = 2: g * (x / norm) with +0 where norm is 0; 1: sgn(x) * g;
// inf: sgn(x) * ((g / count) * mask) with mask where |x| equals the norm; 0: no gradient; other
// p as its three branches (p < 1, p < 2, else).
// A view's elements are taken in TensorIterator's order (ops/sum_to.h's reduction_rows), and
// the fast path only where ATen takes it (the reduction coalesces to one contiguous dim).
// What it is not: the Frobenius norm over two dims (torch/).
#include "core/ops/norm.h"

#include <cmath>
#include <limits>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/indexing.h"
#include "core/ops/pow.h"
#include "core/ops/reduce.h"
#include "core/ops/sum_to.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

// The p = 2 fast path over n contiguous floats (binary_kernel_reduce_lastdim's lambda).
float norm2_lastdim(const float* x, int64_t n, bool avx2) {
  float lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t d = 0;
  for (; d < n - n % 8; d += 8)
    for (int j = 0; j < 8; ++j) lanes[j] = avx2 ? std::fma(x[d + j], x[d + j], lanes[j]) : lanes[j] + x[d + j] * x[d + j];
  float acc = lanes[0];
  for (int j = 1; j < 8; ++j) acc = acc + lanes[j];
  const int64_t grouped = avx2 ? (n - d) / 4 * 4 : n - d;   // GCC's 4-wide squares, then FMAs
  for (int64_t k = 0; d < n; ++d, ++k) acc = k < grouped ? acc + x[d] * x[d] : std::fma(x[d], x[d], acc);
  return std::sqrt(acc);
}

// binary_kernel_reduce's norm ops, one element at a time: the accumulator's start, a step, the result.
float norm_init(double p) { return std::isinf(p) && p < 0 ? std::numeric_limits<float>::infinity() : 0.0f; }

float norm_step(float acc, float v, double p, bool avx2) {
  const float a = std::fabs(v);
  if (p == 0) return acc + (v == 0 ? 0.0f : 1.0f);
  if (p == 1) return acc + a;
  if (p == 2) return avx2 ? std::fma(v, v, acc) : acc + v * v;
  if (std::isinf(p)) return std::isnan(acc) || std::isnan(a) ? (std::isnan(acc) ? acc : a) : p > 0 ? std::max(acc, a) : std::min(acc, a);
  return acc + std::pow(a, static_cast<float>(p));
}

float norm_finish(float acc, double p) {
  if (p == 2) return std::sqrt(acc);
  if (p == 0 || p == 1 || std::isinf(p)) return acc;
  return std::pow(acc, 1.0f / static_cast<float>(p));
}

Tensor sgn(const Tensor& x) {
  Tensor out = empty(x.shape());
  const Tensor c = x.contiguous();
  for (int64_t k = 0; k < c.numel(); ++k) {
    const float v = c.data<float>()[k];
    out.data<float>()[k] = static_cast<float>((0 < v) - (v < 0));
  }
  return out;
}

Tensor masked_zero(const Tensor& t, const Tensor& norm) {   // t.masked_fill_(norm == 0, 0)
  return masked_fill(t, compare(CmpOp::eq, norm, zeros({})), 0.0f);
}

// norm_backward(grad, self, p, result, dim, keepdim), grad and result already unsqueezed.
Tensor norm_grad(const Tensor& g, const Tensor& x, double p, const Tensor& n, std::optional<int64_t> dim, CpuKernels cpu) {
  using detail::div;
  using detail::mul;
  if (p == 1) return mul(sgn(x), g);
  if (p == 2) return mul(g, masked_zero(div(x, n), n));
  const Tensor ax = unary(x, "abs");
  if (std::isinf(p)) {
    const Tensor mask = compare(CmpOp::eq, ax, n);
    Tensor m = to_float(mask);
    for (int64_t k = 0; k < m.numel(); ++k)   // .logical_or(self_abs.isnan())
      if (std::isnan(ax.contiguous().data<float>()[k])) m.data<float>()[k] = 1.0f;
    const Tensor count = dim && x.dim() > 0 ? sum(m, *dim, true) : sum(m);   // mask.sum(dim, true)
    return mul(sgn(x), mul(div(g, count), m));
  }
  if (p < 1) {
    const Tensor scaled = mul(sgn(x), masked_fill(pow(ax, p - 1, cpu), compare(CmpOp::eq, x, zeros({})), 0.0f));
    return mul(mul(scaled, g), pow(n, 1 - p, cpu));
  }
  const Tensor scaled = p < 2 ? mul(sgn(x), pow(ax, p - 1, cpu)) : mul(x, pow(ax, p - 2, cpu));
  return mul(scaled, masked_zero(div(g, pow(n, p - 1, cpu)), n));
}

}  // namespace

Tensor norm(const Tensor& a, double p, std::optional<int64_t> dim, bool keepdim, CpuKernels cpu) {
  if (!a.is_float())
    throw TensorError(std::string("norm(): input dtype should be either floating point or complex. Got ") +
                      (a.dtype() == DType::int64 ? "Long" : "Bool") + " instead.");
  const bool avx2 = cpu == CpuKernels::avx2;
  const int64_t d = dim ? normalize_dim(*dim, std::max<int64_t>(a.dim(), 1)) : 0;
  Shape shape = a.shape();
  if (!dim) shape = keepdim ? Shape(a.dim(), 1) : Shape{};
  else if (a.dim() > 0 && keepdim) shape[d] = 1;
  else if (a.dim() > 0) shape.erase(shape.begin() + d);
  Tensor out = empty(shape);
  // Each output's elements in TensorIterator's order; the p = 2 fast path only where ATen's
  // binary_kernel_reduce_lastdim runs (a view that does not coalesce takes the serial NormTwoOps).
  float* o = out.data<float>();
  const std::vector<int64_t> dims = dim && a.dim() > 0 ? std::vector<int64_t>{d} : std::vector<int64_t>{};
  const bool fast = p == 2 && autograd::reduction_lastdim(a, dims);
  std::vector<float> acc(static_cast<size_t>(out.numel()), norm_init(p));   // [out's elements]
  DeadlineMeter meter;   // core/deadline.h: one row may be a 10^9-element expanded view
  autograd::reduction_rows(a, dims, [&](int64_t at, const float* x, int64_t n, int64_t si, int64_t so) {
    if (fast) {   // the row is one output's elements, contiguous
      o[at] = norm2_lastdim(x, n, avx2);
      return;
    }
    for (int64_t i = 0; i < n; ++i) {
      meter.add(1);
      float& r = acc[static_cast<size_t>(at + i * so)];
      r = norm_step(r, x[i * si], p, avx2);
    }
  });
  if (!fast)
    for (size_t k = 0; k < acc.size(); ++k) o[k] = norm_finish(acc[k], p);
  const bool unsqueeze_grad = dim && !keepdim && a.dim() > 0;
  const std::optional<int64_t> over = dim ? std::optional<int64_t>(d) : std::nullopt;
  autograd::Backward backward{[x = detach(a), y = detach(out), p, d, over, unsqueeze_grad, cpu](const autograd::Grads& g) {
    if (p == 0) return autograd::Grads{std::nullopt};
    const Tensor gu = unsqueeze_grad ? unsqueeze(*g[0], d) : *g[0];
    const Tensor nu = unsqueeze_grad ? unsqueeze(y, d) : y;
    return autograd::Grads{norm_grad(gu, x, p, nu, over, cpu)};
  }};
  return autograd::record(std::move(out), {&a}, "NormBackward1", autograd::detail::reads(std::move(backward), {a}, true));
}

}  // namespace attn::core
