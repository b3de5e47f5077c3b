// core/ops/unary.h: pointwise math of one tensor (ATen's UnaryOps.cpp): exp, tanh, sigmoid, reciprocal, log, erf,
// sin, cos, rsqrt, sqrt, abs, erfinv, and the isnan / isinf tests, forward and backward, as PyTorch 1.13's
// CPU kernels round them in both kernel families (core/cpu.h; docs/pytorch-numerics.md §13).
//
// What it is: each returns a new contiguous tensor of a's shape (a of any layout) with the
// grad_fn PyTorch records. The AVX2 family calls Sleef (kernels/sleef.h), the DEFAULT family
// glibc. grad::tanh is public for the tests that replay TanhBackward0 alone.
// What it is not: unary minus (ops/binary.h), pow (ops/pow.h), activations (ops/activation.h).
#pragma once

#include "core/autograd.h"
#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

Tensor exp(const Tensor& a, CpuKernels cpu);     // Sleef expf u10 (avx2) or glibc expf (scalar)
Tensor tanh(const Tensor& a, CpuKernels cpu);    // Sleef's u10 functions (avx2), glibc's (scalar)
// torch.sigmoid: 1 / (1 + exp(-x)); exp is Sleef's in the AVX2 vector body, glibc's in the scalar
// tail and the DEFAULT family. SigmoidBackward0: (g * (1 - y)) * y.
Tensor sigmoid(const Tensor& a, CpuKernels cpu);
Tensor log(const Tensor& a, CpuKernels cpu);
// torch.reciprocal: 1 / x in float32 (ints converted); ReciprocalBackward0: -g * (y*y).
Tensor reciprocal(const Tensor& a);
Tensor erf(const Tensor& a, CpuKernels cpu);
// torch.sin / torch.cos: vml kernels, Sleef sinf8/cosf8 per 8-lane vector of each run (avx2),
// glibc sinf/cosf (scalar). SinBackward0: g * cos(x); CosBackward0: g * -sin(x) (§20).
Tensor sin(const Tensor& a, CpuKernels cpu);
Tensor cos(const Tensor& a, CpuKernels cpu);
Tensor rsqrt(const Tensor& a);                   // 1 / sqrt(x): two roundings, both families
Tensor unary(const Tensor& a, const char* op);   // "sqrt" or "abs" (the same in both families)
// torch.erfinv: ATen's calc_erfinv<float> (rational guess, two Newton steps with glibc erff and
// expf); the AVX2 build fuses the polynomials' multiply-adds. No backward.
Tensor erfinv(const Tensor& a, CpuKernels cpu);
Tensor isnan(const Tensor& a);                   // bool, a's shape
Tensor isinf(const Tensor& a);

namespace grad {
using autograd::Backward;
// TanhBackward0 from the result y: g * (1 - y*y), fused to fma(-y, y, 1) in the AVX2 family.
Backward tanh(const Tensor& result, CpuKernels cpu);
Backward sigmoid(const Tensor& result);
Backward reciprocal(const Tensor& result);
}  // namespace grad

}  // namespace attn::core
