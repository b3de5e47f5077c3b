// core/ops/activation_more.cpp: silu, leaky_relu and hardtanh, forward and backward
// (ops/activation_more.h).
//
// silu_kernel: x / (1 + exp(-x)); silu_backward_kernel: s = 1 / (1 + exp(-x)),
// dy * s * (1 + x * (1 - s)), where the AVX2 build (GCC, -mfma) contracts 1 + x * (1 - s) into
// one fma. leaky_relu: x > 0 ? x : x * slope, backward x > 0 ? g : g * slope. hardtanh is clamp;
// its backward passes g where min < x < max, +0 elsewhere; a NaN x gets g only in the scalar tail.
#include "core/ops/activation_more.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "core/autograd.h"
#include "core/kernels/sleef.h"
#include "core/ops/loops.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

using autograd::Grads;
using detail::avx2;

void float_only(const Tensor& a, const char* kernel) {
  if (!a.is_float()) throw TensorError(fmt::format("\"{}\" not implemented for '{}'", kernel, dtype_title(a.dtype())));
}

// f(g, x, whether ATen computes x's element in the scalar tail) over x's shape (g broadcast to it).
// The backward kernels run TensorIterator(dy, x): both contiguous is one run, else its dim order,
// coalescing and vectorised-or-scalar inner loop over both operands (ops/loops.h binary_loop: a
// transposed x under a contiguous dy runs scalar, glibc's exp everywhere).
template <typename F>
Tensor zip_tail(const Tensor& g, const Tensor& x, F f) {
  const Tensor xc = x.contiguous(), gc = expand(g, x.shape());
  const bool one_run = gc.is_contiguous() && x.is_contiguous();
  const std::vector<uint8_t> tail = one_run ? detail::scalar_tail(xc) : detail::binary_loop(gc, x).tail;
  Tensor out = empty(x.shape());
  const float* px = xc.data<float>();
  float* o = out.data<float>();
  for_each_offset(x.shape(), [&](int64_t k, int64_t j) { o[k] = f(gc.data<float>()[j], px[k], tail[static_cast<size_t>(k)] != 0); },
                  gc.strides());
  return out;
}

}  // namespace

Tensor silu(const Tensor& a, CpuKernels cpu) {
  float_only(a, "silu_cpu");
  Tensor out = detail::map_split(a, [cpu](float v, bool tail) {
    const float e = avx2(cpu) && !tail ? sleef::expf_u10(-v) : ::expf(-v);
    return v / (1.0f + e);
  }, true);
  autograd::Backward backward{[x = detach(a), cpu](const Grads& g) {
                                return Grads{zip_tail(*g[0], x, [cpu](float dy, float v, bool tail) {
                                  const float s = 1.0f / (1.0f + (avx2(cpu) && !tail ? sleef::expf_u10(-v) : ::expf(-v)));
                                  const float inner = avx2(cpu) ? std::fma(v, 1.0f - s, 1.0f) : 1.0f + v * (1.0f - s);
                                  return dy * s * inner;
                                })};
                              },
                              true, {a}};
  return autograd::record(std::move(out), {&a}, "SiluBackward0", std::move(backward));
}

Tensor leaky_relu(const Tensor& a, double negative_slope) {
  float_only(a, "leaky_relu_cpu");
  const float slope = static_cast<float>(negative_slope);
  Tensor out = detail::map_split(a, [slope](float v, bool) { return v > 0 ? v : v * slope; }, false);
  autograd::Backward backward{[x = detach(a), slope](const Grads& g) {
                                return Grads{zip_tail(*g[0], x, [slope](float dy, float v, bool) { return v > 0 ? dy : dy * slope; })};
                              },
                              true, {a}};
  return autograd::record(std::move(out), {&a}, "LeakyReluBackward0", std::move(backward));
}

Tensor hardtanh(const Tensor& a, double min_val, double max_val) {
  if (a.dtype() == DType::boolean) throw TensorError("Bool inputs not supported for hardtanh");
  if (!a.is_float()) {   // an integer clamp in a's dtype, the bounds cast to it (no gradient)
    std::vector<int64_t> v = a.ints();
    const auto lo = static_cast<int64_t>(min_val), hi = static_cast<int64_t>(max_val);
    for (int64_t& x : v) x = std::min(std::max(x, lo), hi);
    return from_ints(a.shape(), v, a.dtype());
  }
  const float lo = static_cast<float>(min_val), hi = static_cast<float>(max_val);
  Tensor out = detail::map_split(a, [lo, hi](float v, bool) { return std::isnan(v) ? v : std::min(std::max(v, lo), hi); }, false);
  autograd::Backward backward{[x = detach(a), lo, hi](const Grads& g) {
                                return Grads{zip_tail(*g[0], x, [lo, hi](float dy, float v, bool tail) {
                                  // the vector body masks with (v > lo) & (v < hi), the scalar tail tests
                                  // v <= lo || v >= hi: a NaN x gets +0 in the body and g in the tail
                                  if (tail) return (v <= lo || v >= hi) ? 0.0f : dy;
                                  return (v > lo && v < hi) ? dy : 0.0f;
                                })};
                              },
                              true, {a}};
  return autograd::record(std::move(out), {&a}, "HardtanhBackward0", std::move(backward));
}

}  // namespace attn::core
