// core/ops/activation.h: nn.ReLU and nn.GELU (ATen's Activation.cpp), forward and backward, as
// PyTorch 1.13 computes them on the CPU (docs/pytorch-numerics.md §15).
//
// What it is: each returns a new contiguous tensor of a's shape with ReluBackward0 /
// GeluBackward0. GELU's two approximations and its two kernels (oneDNN's and ATen's) are
// kernels/activation.h's.
// What it is not: softmax (ops/softmax.h) or tanh (ops/unary.h).
#pragma once

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

Tensor relu(const Tensor& a);   // x < 0 ? 0 : x (keeps -0 and NaN); int64 stays int64
// nn.GELU: approximate "none" (oneDNN's erf for contiguous inputs of > 1 element, else ATen's
// erf formula) or "tanh" (ATen's kernel).
Tensor gelu(const Tensor& a, bool tanh_approximation, CpuKernels cpu);

}  // namespace attn::core
