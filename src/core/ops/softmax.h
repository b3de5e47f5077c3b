// core/ops/softmax.h: torch.softmax and its backward (ATen's SoftMax.cpp), bit for bit with
// PyTorch 1.13's CPU kernels in both kernel families (core/cpu.h; kernels/softmax.h).
//
// What it is: softmax along one dim of a float32 tensor of any shape and layout; the result is
// a new contiguous tensor of the same shape with SoftmaxBackward0, computed from the saved result.
// grad::softmax is public for the tests that replay SoftmaxBackward0 alone.
// log_softmax beside it, the same shape logic over kernels/log_softmax.h.
// What it is not: the loops (kernels/softmax.cpp, kernels/log_softmax.cpp).
#pragma once

#include <cstdint>

#include "core/autograd.h"
#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

Tensor softmax(const Tensor& a, int64_t dim, CpuKernels cpu);   // a (any shape) -> a's shape
// torch.log_softmax: LogSoftmaxBackward0 from the saved result (kernels/log_softmax.h).
Tensor log_softmax(const Tensor& a, int64_t dim, CpuKernels cpu);

namespace grad {
using autograd::Backward;
// SoftmaxBackward0 from the forward's result (dim >= 0).
Backward softmax(const Tensor& result, int64_t dim, CpuKernels cpu);
}  // namespace grad

}  // namespace attn::core
