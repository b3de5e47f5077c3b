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
// A view's elements are taken in TensorIterator's order (ops/sum_to.h's reduction_groups), and
// the fast path only where ATen takes it (the reduction coalesces to one contiguous dim).
// What it is not: the Frobenius norm over two dims (torch/).
#include "core/ops/norm.h"

#include <cmath>
#include <limits>

#include "core/autograd.h"
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

// One output of binary_kernel_reduce: the n elements x[0], x[step], ... in order.
float norm_serial(const float* x, int64_t n, int64_t step, double p, bool avx2) {
  const float fp = static_cast<float>(p);
  float acc = std::isinf(p) && p < 0 ? std::numeric_limits<float>::infinity() : 0.0f;
  for (int64_t k = 0; k < n; ++k) {
    const float v = x[k * step], a = std::fabs(v);
    if (p == 0) acc = acc + (v == 0 ? 0.0f : 1.0f);
    else if (p == 1) acc = acc + a;
    else if (p == 2) acc = avx2 ? std::fma(v, v, acc) : acc + v * v;
    else if (std::isinf(p)) acc = std::isnan(acc) || std::isnan(a) ? (std::isnan(acc) ? acc : a) : p > 0 ? std::max(acc, a) : std::min(acc, a);
    else acc = acc + std::pow(a, fp);
  }
  if (p == 2) return std::sqrt(acc);
  if (p == 0 || p == 1 || std::isinf(p)) return acc;
  return std::pow(acc, 1.0f / fp);
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
  bool lastdim = false;
  const std::vector<std::vector<float>> groups =
      autograd::reduction_groups(a, dim && a.dim() > 0 ? std::vector<int64_t>{d} : std::vector<int64_t>{}, &lastdim);
  for (size_t o = 0; o < groups.size(); ++o) {
    const std::vector<float>& v = groups[o];
    const int64_t n = static_cast<int64_t>(v.size());
    out.data<float>()[o] = n == 0 ? (p < 0 ? std::numeric_limits<float>::infinity() : 0.0f)
                           : p == 2 && lastdim ? norm2_lastdim(v.data(), n, avx2) : norm_serial(v.data(), n, 1, p, avx2);
  }
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
