// core/ops/pow.h: torch.pow / `**` with a tensor on either side (ATen's Pow.cpp, PowKernel.cpp),
// forward and backward, as PyTorch 1.13's CPU kernels round it in both kernel families
// (docs/pytorch-numerics.md §13).
//
// What it is: tensor ** number (PowBackward0), tensor ** tensor (PowBackward1) and number **
// tensor (PowBackward2), broadcasting, with ATen's special-cased exponents and its split between
// a vectorised body (Sleef powf in the AVX2 family) and a scalar tail (glibc, or double pow).
// What it is not: binary_scalar(BinOp::pow, ...) (ops/binary.h: the plain std::pow that
// attention tutorials' `x ** 0.5` never reach), or integer pow beyond int64 ** non-negative int.
#pragma once

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

// a ** exponent, a's shape: exponents 0.5, -0.5, -1, 2, 3, -2 special-cased; others Sleef/glibc
// powf with fl32(e) on the vector body and double pow(x, e) on the last n % 16.
Tensor pow(const Tensor& a, double exponent, CpuKernels cpu);
// a ** exponent and base ** exponent, of the broadcast shape.
Tensor pow(const Tensor& a, const Tensor& exponent, CpuKernels cpu);
Tensor pow(double base, const Tensor& exponent, CpuKernels cpu);

}  // namespace attn::core
