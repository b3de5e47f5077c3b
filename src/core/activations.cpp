// core/activations.cpp: nn.ReLU, nn.GELU (both approximations) and nn.LayerNorm's forward as
// PyTorch 1.13 computes them on the CPU (docs/pytorch-numerics.md §15, §16).
//
// What it is: relu = clamp_min; GELU 'none' = oneDNN 2.6.3's JIT gelu_erf (what 1.13 calls for a
// contiguous float input of more than one element), else ATen's erf formula; GELU 'tanh' =
// ATen's GeluKernelImpl with its vector body / scalar tail; LayerNorm = ATen's RowwiseMoments
// (8-lane Welford in chunks of 16 vectors, cascaded, scalar tail, lanes merged) and the affine
// step, fused in the AVX2 build.
// What it is not: the backward formulas (grad_softmax.cpp has LayerNorm's), or the tutorials'
// hand-written LayerNorm (plain mean/var ops).
#include <fmt/format.h>

#include <array>
#include <cmath>

#include "core/bits.h"
#include "core/grad_fns.h"
#include "core/math_ops.h"
#include "core/sleef.h"

namespace attn::core {

namespace {

bool avx2(CpuKernels cpu) { return cpu == CpuKernels::avx2; }

using detail::bits_of;
using detail::float_of;

// oneDNN exp_compute_vector_fwd: 2 * 2^(n-1) * p(r), n = floor(x*log2e + 0.5).
float onednn_exp(float x) {
  const bool zero = x < float_of(0xc2aeac50);   // below ln(FLT_MIN); NaN compares false
  x = x < float_of(0x42b17218) ? x : float_of(0x42b17218);   // vminps(x, ln FLT_MAX): NaN -> the bound
  x = x > float_of(0xc2aeac50) ? x : float_of(0xc2aeac50);   // vmaxps(x, ln FLT_MIN)
  const float n = std::floor(x * float_of(0x3fb8aa3b) + 0.5f);   // mul, then add: two roundings
  const float r = std::fma(-n, float_of(0x3f317218), x);
  const int32_t e = static_cast<int32_t>(std::nearbyint(n - 1.0f)) + 127;
  const float pow2 = zero ? 0.0f : float_of(static_cast<uint32_t>(e) << 23);
  float p = float_of(0x3c07cfce);
  for (uint32_t c : {0x3d2b9d0du, 0x3e2aad40u, 0x3efffee3u, 0x3f7ffffbu, 0x3f800000u}) p = std::fma(p, r, float_of(c));
  return (p * pow2) * 2.0f;
}

// oneDNN gelu_erf_compute_vector_fwd: 0.5 s (1 + erf(s/sqrt 2)), erf by A&S 7.1.26.
float onednn_gelu(float s) {
  const float x = s * float_of(0x3f3504f3);
  const float t = 1.0f / std::fma(float_of(0x3ea7ba05), std::fabs(x), 1.0f);
  const float e = -onednn_exp(-(x * x)) * t;
  float r = float_of(0x3f87dc22);
  for (uint32_t c : {0xbfba00e3u, 0x3fb5f0e3u, 0xbe91a98eu, 0x3e827906u}) r = std::fma(r, t, float_of(c));
  const float erf = float_of(bits_of(std::fma(e, r, 1.0f)) ^ (bits_of(s) & 0x80000000u));
  const float half = s * 0.5f;
  return std::fma(erf, half, half);
}

// ATen GeluKernelImpl, approximate='none': (x * 0.5) * (1 + erf(x * M_SQRT1_2)); Sleef erf on
// the vector body, glibc erff on the scalar tail and in the DEFAULT family.
float aten_gelu_erf(float x, bool tail, CpuKernels cpu) {
  const float v = x * static_cast<float>(M_SQRT1_2);
  const float erf = (!tail && avx2(cpu)) ? sleef::erff_u10(v) : ::erff(v);
  return (x * 0.5f) * (1.0f + erf);
}

// ATen GeluKernelImpl, approximate='tanh'. GCC contracts x + kKappa*x^3 in the AVX2 build.
float aten_gelu_tanh(float x, bool tail, CpuKernels cpu) {
  const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = 0.044715f;
  const float x3 = (x * x) * x;
  const float inner = avx2(cpu) ? beta * std::fma(kappa, x3, x) : beta * (x + kappa * x3);
  const float th = (!tail && avx2(cpu)) ? sleef::tanhf_u10(inner) : ::tanhf(inner);
  return (0.5f * x) * (1.0f + th);
}

// oneDNN gelu_erf_compute_vector_bwd: fma(erf(t), 0.5, t/sqrt(pi) * exp(-t^2) + 0.5), t = s/sqrt 2.
float onednn_gelu_grad(float s) {
  const float x = s * float_of(0x3f3504f3);
  const float ex = onednn_exp(-(x * x));
  const float pdf = (x * float_of(0x3f106eba)) * ex;
  const float t = 1.0f / std::fma(float_of(0x3ea7ba05), std::fabs(x), 1.0f);
  const float e = -ex * t;
  float r = float_of(0x3f87dc22);
  for (uint32_t c : {0xbfba00e3u, 0x3fb5f0e3u, 0xbe91a98eu, 0x3e827906u}) r = std::fma(r, t, float_of(c));
  const float erf = float_of(bits_of(std::fma(e, r, 1.0f)) ^ (bits_of(s) & 0x80000000u));
  return std::fma(erf, 0.5f, pdf + 0.5f);
}

// ATen GeluBackwardKernelImpl, approximate='tanh': the derivative's factor for dy (AVX2 build
// contractions as found by the research; the scalar family rounds every product).
float aten_gelu_tanh_grad(float x, bool tail, CpuKernels cpu) {
  const float beta = static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5), kappa = 0.044715f, kappa3 = 3.0f * kappa;
  const float x_sq = x * x, x_cube = x_sq * x;
  const float inner = avx2(cpu) ? beta * std::fma(kappa, x_cube, x) : beta * (x + kappa * x_cube);
  const float t = (!tail && avx2(cpu)) ? sleef::tanhf_u10(inner) : ::tanhf(inner);
  const float left = 0.5f * x, right = 1.0f + t, left_derivative = 0.5f * right;
  const float tanh_derivative = avx2(cpu) ? std::fma(-t, t, 1.0f) : 1.0f - t * t;
  const float inner_derivative = avx2(cpu) ? beta * std::fma(kappa3, x_sq, 1.0f) : beta * (1.0f + kappa3 * x_sq);
  return left_derivative + (left * tanh_derivative) * inner_derivative;
}

}  // namespace

namespace grad {

// GeluBackward0 for the kernels the forward used: oneDNN's for 'none' on a contiguous input of
// more than one element, ATen's for 'tanh' (vector body / scalar tail by index) on a contiguous
// input; ATen's erf kernel (the 'none' fallback) and a view's tails are not established and get
// no backward (backward() names GeluBackward0 as missing).
Backward gelu(const Tensor& input, bool tanh_approximation, CpuKernels cpu) {
  const bool onednn = !tanh_approximation && input.is_contiguous() && input.numel() > 1;
  if (!input.is_contiguous() || (!tanh_approximation && !onednn)) return {};   // tails of a view: not established
  return {[x = detach(input).contiguous(), tanh_approximation, contiguous = input.is_contiguous(), cpu](const autograd::Grads& g) {
    const Tensor dy = g[0]->contiguous();
    Tensor dx = empty(x.shape());
    const float *px = x.data<float>(), *pg = dy.data<float>();
    float* o = dx.data<float>();
    const int64_t n = x.numel(), body = contiguous ? n - n % 16 : 0;
    for (int64_t k = 0; k < n; ++k)
      o[k] = pg[k] * (tanh_approximation ? aten_gelu_tanh_grad(px[k], k >= body, cpu) : onednn_gelu_grad(px[k]));
    return autograd::Grads{dx};
  }};
}

}  // namespace grad

Tensor relu(const Tensor& a) {
  if (!a.is_float()) {   // int64 relu stays int64
    Tensor out = to_dtype(a, DType::int64).clone();
    for (int64_t k = 0; k < out.numel(); ++k) out.data<int64_t>()[k] = std::max<int64_t>(out.data<int64_t>()[k], 0);
    return with_grad(std::move(out), {&a}, "ReluBackward0");
  }
  const Tensor x = a.contiguous();
  Tensor out = empty(x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  for (int64_t k = 0; k < x.numel(); ++k) o[k] = in[k] < 0 ? 0.0f : in[k];   // keeps -0 and NaN
  // ReluBackward0: threshold_backward(g, result, 0): +0 where result <= 0, else g.
  autograd::Backward backward{[y = detach(out)](const autograd::Grads& g) {
    const Tensor dy = g[0]->contiguous();
    Tensor dx = empty(y.shape());
    for (int64_t k = 0; k < y.numel(); ++k) dx.data<float>()[k] = y.data<float>()[k] <= 0.0f ? 0.0f : dy.data<float>()[k];
    return autograd::Grads{dx};
  }};
  return autograd::record(std::move(out), {&a}, "ReluBackward0", std::move(backward));
}

// GELU's two kernels. ATen's walks the input in memory order, the last n % 16 elements of each
// contiguous run through the scalar tail (scalar_tail); oneDNN only takes contiguous inputs.
Tensor gelu(const Tensor& a, bool tanh_approximation, CpuKernels cpu) {
  if (!a.is_float()) throw TensorError("\"GeluKernelImpl\" not implemented for 'Long'");
  const bool contiguous = a.is_contiguous();
  const std::vector<uint8_t> tail = scalar_tail(a);
  const Tensor x = a.contiguous();
  Tensor out = empty(x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  const int64_t n = x.numel();
  const bool onednn = !tanh_approximation && contiguous && n > 1;
  for (int64_t k = 0; k < n; ++k) {
    if (onednn) o[k] = onednn_gelu(in[k]);
    else if (tanh_approximation) o[k] = aten_gelu_tanh(in[k], tail[k] != 0, cpu);
    else o[k] = aten_gelu_erf(in[k], tail[k] != 0, cpu);
  }
  return autograd::record(std::move(out), {&a}, "GeluBackward0", grad::gelu(a, tanh_approximation, cpu));
}

// ---- LayerNorm: RowwiseMoments (ATen/native/cpu/moments_utils.h), no FMA in either build ----

namespace {

constexpr int64_t kLanes = 8, kChunk = 16;
using Lanes = std::array<float, kLanes>;

int64_t ceil_log2(int64_t x) { return x <= 2 ? 1 : 64 - __builtin_clzll(static_cast<unsigned long long>(x - 1)); }

// AddMoments / AddMomentsVec, one lane: merge (m0_add, m1_add, m2_add) into (m0, m1, m2).
void add_moments(int64_t m0_add, float m1_add, float m2_add, int64_t& m0, float& m1, float& m2) {
  const int64_t n = m0 + m0_add;
  const float c = n == 0 ? 0.0f : static_cast<float>(m0_add) / static_cast<float>(n);
  const float delta = m1_add - m1;
  m1 = m1 + c * delta;
  m2 = m2 + (m2_add + ((delta * delta) * c) * static_cast<float>(m0));
  m0 = n;
}

struct Moments {
  int64_t m0 = 0;
  Lanes m1{}, m2{};
};

void add_moments(const Moments& add, Moments& into) {
  int64_t m0 = 0;
  for (int64_t l = 0; l < kLanes; ++l) {
    m0 = into.m0;
    add_moments(add.m0, add.m1[l], add.m2[l], m0, into.m1[l], into.m2[l]);
  }
  into.m0 = m0;
}

// (mean, biased variance) of x[0..N).
std::pair<float, float> rowwise_moments(const float* x, int64_t N) {
  const int64_t n = N / kLanes, m = (n + kChunk - 1) / kChunk, depth = ceil_log2(m);
  std::vector<Moments> stack(static_cast<size_t>(depth));
  std::array<float, kChunk> c_vecs;
  for (int64_t j = 0; j < kChunk; ++j) c_vecs[j] = 1.0f / static_cast<float>(j + 1);
  for (int64_t i = 0; i < m; ++i) {
    const float* base = x + i * kChunk * kLanes;
    const int64_t cnt = std::min(kChunk, n - i * kChunk);
    Moments chunk;
    chunk.m0 = cnt;
    for (int64_t j = 0; j < cnt; ++j)
      for (int64_t l = 0; l < kLanes; ++l) {
        const float v = base[j * kLanes + l], delta = v - chunk.m1[l];
        chunk.m1[l] = chunk.m1[l] + delta * c_vecs[j];
        chunk.m2[l] = chunk.m2[l] + delta * (v - chunk.m1[l]);
      }
    add_moments(chunk, stack[0]);
    int64_t mask = i + 1;
    for (int64_t j = 1; j < depth && (mask & 1) == 0; ++j, mask >>= 1) {
      add_moments(stack[j - 1], stack[j]);
      stack[j - 1] = Moments{};
    }
  }
  for (int64_t i = 1; i < depth; ++i) add_moments(stack[i], stack[0]);
  int64_t m0 = 0;
  float m1 = 0.0f, m2 = 0.0f;
  for (int64_t i = n * kLanes; i < N; ++i) {   // the N % 8 tail: scalar Welford that divides
    const float delta = x[i] - m1;
    ++m0;
    m1 = m1 + delta / static_cast<float>(m0);
    m2 = m2 + delta * (x[i] - m1);
  }
  for (int64_t l = 0; l < kLanes; ++l) add_moments(n, stack.empty() ? 0.0f : stack[0].m1[l], stack.empty() ? 0.0f : stack[0].m2[l], m0, m1, m2);
  return {m1, m2 / static_cast<float>(N)};
}

}  // namespace

Tensor layer_norm(const Tensor& input, int64_t normalized_dims, const Tensor* weight, const Tensor* bias, double eps,
                  CpuKernels cpu) {
  const Tensor x = to_float(input).contiguous();
  if (normalized_dims < 1 || normalized_dims > x.dim())
    throw TensorError("layer_norm: normalized_shape does not match the input's last dimensions");
  int64_t N = 1;
  for (int64_t d = x.dim() - normalized_dims; d < x.dim(); ++d) N *= x.shape()[d];
  const int64_t M = N == 0 ? 0 : x.numel() / N;
  const Tensor w = weight ? to_float(*weight).contiguous() : Tensor(), b = bias ? to_float(*bias).contiguous() : Tensor();
  Tensor out = empty(x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  const float eps32 = static_cast<float>(eps);
  std::vector<float> means(static_cast<size_t>(M)), rstds(static_cast<size_t>(M));   // saved for backward
  for (int64_t r = 0; r < M; ++r) {
    const float* row = in + r * N;
    const auto [mean, var] = rowwise_moments(row, N);
    const float rstd = 1.0f / std::sqrt(var + eps32);
    means[r] = mean;
    rstds[r] = rstd;
    const float scale = rstd, shift = -rstd * mean;
    for (int64_t k = 0; k < N; ++k) {
      const float g = weight ? w.data<float>()[k] : 1.0f, be = bias ? b.data<float>()[k] : 0.0f;
      o[r * N + k] = avx2(cpu) ? std::fma(std::fma(row[k], scale, shift), g, be) : (row[k] * scale + shift) * g + be;
    }
  }
  std::vector<const Tensor*> inputs{&input};
  if (weight) inputs.push_back(weight);
  if (bias) inputs.push_back(bias);
  if (!weight && bias) return with_grad(std::move(out), inputs, "NativeLayerNormBackward0");   // not implemented
  return autograd::record(std::move(out), inputs, "NativeLayerNormBackward0",
                          grad::layer_norm(input, weight, std::move(means), std::move(rstds), cpu));
}

}  // namespace attn::core
