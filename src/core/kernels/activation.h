// core/kernels/activation.h: nn.GELU's forward and backward kernels, both approximations, as
// PyTorch 1.13 computes them on the CPU (docs/pytorch-numerics.md §15), over float buffers.
//
// What it is: approximate 'none' is oneDNN 2.6.3's JIT gelu_erf (what 1.13 calls for a
// contiguous float input of more than one element) or, otherwise, ATen's erf formula; 'tanh'
// is ATen's GeluKernelImpl. ATen's kernels take a vector body and a scalar tail that round
// differently: `tail[k]` (ops/loops.h scalar_tail) says which element is where; tail == nullptr:
// none is (a contiguous run's body, which ops/activation.cpp passes apart from its last n % 16).
// What it is not: ReLU (one comparison, ops/activation.cpp), or shape-aware (ops/activation.cpp
// decides which kernel a tensor gets).
#pragma once

#include <cstdint>

#include "core/cpu.h"

namespace attn::core::kernels {

// ---- forward: x (n) -> y (n) ----
void gelu_onednn(const float* x, float* y, int64_t n);
// ATen's 'none' (erf) or 'tanh' kernel; tail[k] != 0 where ATen computes element k in the tail.
void gelu_aten(const float* x, const uint8_t* tail, float* y, int64_t n, bool tanh_approximation, CpuKernels cpu);

// ---- backward: x (n), dy (n) -> dx (n) ----
void gelu_onednn_backward(const float* x, const float* dy, float* dx, int64_t n);
// ATen's 'tanh' backward: tail[k] != 0 where ATen computes element k in the scalar tail.
void gelu_tanh_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu);
// ATen's 'none' backward (erf, not oneDNN's: one element or a view), as above.
void gelu_erf_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu);

// The four above with eight lanes per instruction (AVX2 + FMA) where this build and the CPU have
// them; these are their element-by-element definitions, the same bits (tests/core/test_kernels_fast.cpp).
namespace reference {
void gelu_onednn(const float* x, float* y, int64_t n);
void gelu_aten(const float* x, const uint8_t* tail, float* y, int64_t n, bool tanh_approximation, CpuKernels cpu);
void gelu_onednn_backward(const float* x, const float* dy, float* dx, int64_t n);
void gelu_tanh_backward(const float* x, const float* dy, float* dx, int64_t n, const uint8_t* tail, CpuKernels cpu);
}  // namespace reference

}  // namespace attn::core::kernels
