// core/grad_softmax.cpp: backward of softmax and masked_fill (grad_fns.h).
//
// What it is: SoftmaxBackward0 as aten/src/ATen/native/cpu/SoftMaxKernel.cpp computes it from the
// saved result y (grad and y made contiguous first):
//  - last dim, per row of n: s = map2_reduce_all(g * y, +): for n < 8 the rounded products added
//    left to right; else acc = g[0:8] * y[0:8], each further chunk of 8 (and the partial tail,
//    into the low lanes) acc = fma(g, y, acc) in the AVX2 family (GCC contracted the lambda) and
//    acc + fl(g * y) in the scalar one, then the 8 lanes reduced (AVX2: ((l0+l4)+(l2+l6)) +
//    ((l1+l5)+(l3+l7)); scalar: left to right); then grad_in = (g - s) * y;
//  - another dim, per column: s = fma(g, y, s) over the dim in order (AVX2; scalar: unfused),
//    then grad_in = y * (g - s).
// MaskedFillBackward0: grad.masked_fill(mask, 0), so every masked position is exactly +0.
// docs/pytorch-numerics.md §12.
// What it is not: the forward kernels (kernels.cpp).
#include <array>
#include <cmath>

#include "core/grad_fns.h"

namespace attn::core::grad {

namespace {

using autograd::Grads;
constexpr int64_t kLanes = 8;

float mul_add(float a, float b, float acc, CpuKernels cpu) {
  return cpu == CpuKernels::avx2 ? std::fma(a, b, acc) : acc + a * b;
}

// vec::map2_reduce_all(x * y, +) over one contiguous row.
float dot_row(const float* g, const float* y, int64_t n, CpuKernels cpu) {
  if (n < kLanes) {
    float acc = g[0] * y[0];
    for (int64_t k = 1; k < n; ++k) acc = acc + g[k] * y[k];
    return acc;
  }
  std::array<float, kLanes> lane;
  for (int64_t l = 0; l < kLanes; ++l) lane[l] = g[l] * y[l];
  int64_t d = kLanes;
  for (; d + kLanes <= n; d += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) lane[l] = mul_add(g[d + l], y[d + l], lane[l], cpu);
  for (int64_t l = 0; d + l < n; ++l) lane[l] = mul_add(g[d + l], y[d + l], lane[l], cpu);
  if (cpu == CpuKernels::avx2)
    return ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
  float acc = lane[0];
  for (int64_t l = 1; l < kLanes; ++l) acc = acc + lane[l];
  return acc;
}

Tensor softmax_grad(const Tensor& grad, const Tensor& result, int64_t dim, CpuKernels cpu) {
  const Tensor g = grad.contiguous(), y = result.contiguous();
  Tensor out = empty(y.shape());
  if (y.numel() == 0) return out;
  if (y.dim() == 0) {
    out.data<float>()[0] = (g.float_at(0) - g.float_at(0) * y.float_at(0)) * y.float_at(0);
    return out;
  }
  int64_t outer = 1, size = y.shape()[dim], inner = 1;
  for (int64_t d = 0; d < y.dim(); ++d) {
    if (d < dim) outer *= y.shape()[d];
    if (d > dim) inner *= y.shape()[d];
  }
  const float *gp = g.data<float>(), *yp = y.data<float>();
  float* o = out.data<float>();
  if (inner == 1) {
    for (int64_t r = 0; r < outer; ++r) {
      const float* gr = gp + r * size;
      const float* yr = yp + r * size;
      const float s = dot_row(gr, yr, size, cpu);
      for (int64_t k = 0; k < size; ++k) o[r * size + k] = (gr[k] - s) * yr[k];
    }
    return out;
  }
  for (int64_t r = 0; r < outer; ++r)
    for (int64_t c = 0; c < inner; ++c) {
      const int64_t base = r * size * inner + c;
      float s = 0.0f;
      for (int64_t d = 0; d < size; ++d) s = mul_add(gp[base + d * inner], yp[base + d * inner], s, cpu);
      for (int64_t d = 0; d < size; ++d) o[base + d * inner] = yp[base + d * inner] * (gp[base + d * inner] - s);
    }
  return out;
}

}  // namespace

Backward softmax(const Tensor& result, int64_t dim, CpuKernels cpu) {
  return {[y = detach(result), dim, cpu](const Grads& g) { return Grads{softmax_grad(*g[0], y, dim, cpu)}; }};
}

Backward masked_fill(const Tensor& mask) {
  return {[m = detach(mask)](const Grads& g) {
    Tensor out = g[0]->clone();
    masked_fill_(out, m, 0.0f);
    return Grads{out};
  }};
}

}  // namespace attn::core::grad
