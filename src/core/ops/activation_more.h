// core/ops/activation_more.h: nn.SiLU, nn.LeakyReLU and nn.Hardtanh / ReLU6 (ATen's
// Activation.cpp, cpu/Activation.cpp), forward and backward, as PyTorch 1.13 computes them on the CPU.
//
// What it is: new contiguous float32 tensors of a's shape recording SiluBackward0,
// LeakyReluBackward0, HardtanhBackward0. silu's exp is Sleef's in the AVX2 vector body and glibc's
// in the scalar tail (ops/loops.h), as sigmoid's.
// What it is not: relu and gelu (ops/activation.h), sigmoid and tanh (ops/unary.h).
#pragma once

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

Tensor silu(const Tensor& a, CpuKernels cpu);              // x / (1 + exp(-x))
Tensor leaky_relu(const Tensor& a, double negative_slope);  // x > 0 ? x : x * slope
Tensor hardtanh(const Tensor& a, double min_val, double max_val);   // clamp; gradient 0 outside (min, max)

}  // namespace attn::core
