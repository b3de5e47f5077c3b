// core/grad_softmax.cpp: backward of softmax, masked_fill and LayerNorm (grad_fns.h).
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
// NativeLayerNormBackward0 (layer_norm_kernel.cpp), per row i with a = rstd, b = -a*mean: dgamma
// += dy*(a*x+b), dbeta += dy (rows in order), ds = sum dy*x*gamma, db = sum dy*gamma (reduce as
// softmax's), then bb, cc and dx with the contractions GCC made in the AVX2 build (§12).
// docs/pytorch-numerics.md §12.
// What it is not: the forward kernels (kernels.cpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

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
  return reads({[y = detach(result), dim, cpu](const Grads& g) { return Grads{softmax_grad(*g[0], y, dim, cpu)}; }}, {}, true);
}

Backward masked_fill(const Tensor& mask) {
  return {[m = detach(mask)](const Grads& g) {
    Tensor out = g[0]->clone();
    masked_fill_(out, m, 0.0f);
    return Grads{out};
  }};
}

}  // namespace attn::core::grad

// ---- NativeLayerNormBackward0 (LayerNormBackwardKernelImplInternal, cpu/layer_norm_kernel.cpp) ----

namespace attn::core::grad {

namespace {

// vec::map{2,3}_reduce_all(+) of products p[k] = first[k] * second[k], where each product is
// fl(first * second): n < 8 left to right; else 8 lanes, later chunks fused (AVX2) or not.
float reduce_products(const std::vector<float>& first, const std::vector<float>& second, CpuKernels cpu) {
  const int64_t n = static_cast<int64_t>(first.size());
  if (n < kLanes) {
    float acc = first[0] * second[0];
    for (int64_t k = 1; k < n; ++k) acc = acc + first[k] * second[k];
    return acc;
  }
  return dot_row(first.data(), second.data(), n, cpu);
}

}  // namespace

Backward layer_norm(const Tensor& input, const Tensor* weight, std::vector<float> mean, std::vector<float> rstd,
                    CpuKernels cpu) {
  const Tensor x = detach(to_float(input)).contiguous();
  const Tensor w = weight ? detach(*weight).contiguous() : Tensor();
  const bool affine = weight != nullptr;
  return {[x, w, affine, mean = std::move(mean), rstd = std::move(rstd), cpu](const Grads& g) {
    const bool fused = cpu == CpuKernels::avx2;
    const int64_t M = static_cast<int64_t>(mean.size()), N = M == 0 ? 0 : x.numel() / M;
    const Tensor dyt = g[0]->contiguous();
    const float *px = x.data<float>(), *dy_all = dyt.data<float>();
    std::vector<float> gamma(static_cast<size_t>(N), 1.0f);
    if (affine) std::copy_n(w.data<float>(), N, gamma.begin());
    Tensor dx = empty(x.shape());
    float* pdx = dx.data<float>();
    std::vector<float> dgamma(static_cast<size_t>(N), 0.0f), dbeta(static_cast<size_t>(N), 0.0f);
    const float scale = 1.0f / static_cast<float>(N);
    std::vector<float> dyx(static_cast<size_t>(N)), dyv(static_cast<size_t>(N));
    for (int64_t i = 0; i < M; ++i) {
      const float* xr = px + i * N;
      const float* dy = dy_all + i * N;
      const float a = rstd[i], b = -a * mean[i];
      for (int64_t j = 0; j < N; ++j) {
        dgamma[j] = fused ? std::fma(dy[j], std::fma(a, xr[j], b), dgamma[j]) : dgamma[j] + dy[j] * (a * xr[j] + b);
        dbeta[j] = dbeta[j] + dy[j];
        dyx[j] = dy[j] * xr[j];
        dyv[j] = dy[j];
      }
      const float ds = reduce_products(dyx, gamma, cpu);
      const float db = reduce_products(dyv, gamma, cpu);
      const float t = fused ? std::fma(db, mean[i], -ds) : db * mean[i] - ds;
      const float bb = (((t * a) * a) * a) * scale;
      const float c2 = (db * a) * scale;
      const float cc = fused ? std::fma(-bb, mean[i], -c2) : -bb * mean[i] - c2;
      for (int64_t j = 0; j < N; ++j) {
        const float lhs = (a * dy[j]) * gamma[j];
        pdx[i * N + j] = (fused ? std::fma(bb, xr[j], lhs) : lhs + bb * xr[j]) + cc;
      }
    }
    Grads out{dx};
    if (affine) {
      Tensor gw = empty({N}), gb = empty({N});
      for (int64_t j = 0; j < N; ++j) {
        gw.data<float>()[j] = 0.0f + dgamma[j];
        gb.data<float>()[j] = 0.0f + dbeta[j];
      }
      out.push_back(gw);
      out.push_back(gb);
    }
    return out;
  }};
}

}  // namespace attn::core::grad
