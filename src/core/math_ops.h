// core/math_ops.h: the forward kernels of issue 11 (the ops published attention tutorials use):
// tanh, log, pow, linspace, float arange, relu, gelu, layer_norm, scaled_dot_product_attention,
// each rounding as PyTorch 1.13's CPU kernel does, in both kernel families (core/cpu.h).
//
// What it is: plain functions of tensors, so autograd can wrap them later. Each returns a new
// contiguous tensor with the grad_fn name PyTorch records; none writes into an input.
// docs/pytorch-numerics.md §13-§17 gives each one's arithmetic and the evidence for it; the
// numbers are checked bit for bit against tests/vectors/fwd_*.txt (tools/make_fwd_vectors.py).
// What it is not: binding (py/ops_*.cpp) or module state (py/nn_modules.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/tensor.h"

namespace attn::core {

// ---- elementwise (unary_math.cpp) ----
// torch.tanh / torch.log: Sleef's u10 functions on every element (AVX2), glibc's (scalar).
Tensor tanh(const Tensor& a, CpuKernels cpu);
Tensor log(const Tensor& a, CpuKernels cpu);
Tensor erf(const Tensor& a, CpuKernels cpu);     // Sleef erff u10 (avx2) or glibc erff (scalar)
Tensor rsqrt(const Tensor& a);                   // 1 / sqrt(x): two roundings, both families
// tensor ** number (PowBackward0): exponents 0.5, -0.5, -1, 2, 3, -2 special-cased; others
// Sleef/glibc powf with fl32(e) on the vector body and double pow(x, e) on the last n % 16.
Tensor pow(const Tensor& a, double exponent, CpuKernels cpu);
// tensor ** tensor (PowBackward1) and number ** tensor (PowBackward2), broadcasting.
Tensor pow(const Tensor& a, const Tensor& exponent, CpuKernels cpu);
Tensor pow(double base, const Tensor& exponent, CpuKernels cpu);
// torch.erfinv: ATen's calc_erfinv<float> (rational guess, two Newton steps with glibc erff and
// expf); the AVX2 build fuses the polynomials' multiply-adds.
Tensor erfinv(const Tensor& a, CpuKernels cpu);

// ---- variance (variance.cpp) ----
// x.var / x.std over one dim (or every element when dim is nullopt), divisor max(0, n - correction):
// Welford in double per output, or two passes when the result has one element (§19).
Tensor var_std(const Tensor& a, std::optional<int64_t> dim, int64_t correction, bool keepdim, bool take_sqrt);

// For each row-major element of x: 1 when ATen's cpu_kernel_vec computes it in the scalar tail
// (memory order, one tail per contiguous run; §13). Used by pow and GELU.
std::vector<uint8_t> scalar_tail(const Tensor& x);

// ---- ranges (unary_math.cpp) ----
Tensor linspace(double start, double end, int64_t steps, CpuKernels cpu);   // float32
Tensor arange_float(double start, double end, double step);                 // float32, double accumulation

// ---- activations and normalisation (activations.cpp) ----
Tensor relu(const Tensor& a);                                               // x < 0 ? 0 : x
// nn.GELU: approximate "none" (oneDNN's erf for contiguous inputs of > 1 element, else ATen's
// erf formula) or "tanh" (ATen's kernel).
Tensor gelu(const Tensor& a, bool tanh_approximation, CpuKernels cpu);
// F.layer_norm over the last `normalized_dims` dims; weight and bias (that shape) optional.
Tensor layer_norm(const Tensor& x, int64_t normalized_dims, const Tensor* weight, const Tensor* bias,
                  double eps, CpuKernels cpu);

}  // namespace attn::core
