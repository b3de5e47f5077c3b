// core/ops/range.h: torch.arange and torch.linspace (ATen's RangeFactories.cpp), bit for bit with
// PyTorch 1.13's CPU kernels (docs/pytorch-numerics.md §14).
//
// What it is: new 1-D tensors; int64 arange with PyTorch's checks, float32 arange and linspace
// with ATen's vector-body / scalar-tail split (and, for linspace, the AVX2 build's fused
// multiply-adds).
// What it is not: random tensors (ops/random.h) or the fill-value factories (tensor.h: zeros, ...).
#pragma once

#include <cstdint>

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

Tensor arange(int64_t n);                                         // int64 [0, n)
Tensor arange(int64_t start, int64_t end, int64_t step);          // int64, PyTorch's checks
Tensor arange_float(double start, double end, double step);       // float32, double accumulation
Tensor linspace(double start, double end, int64_t steps, CpuKernels cpu);   // float32 (steps)

}  // namespace attn::core
