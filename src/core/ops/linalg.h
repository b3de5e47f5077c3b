// core/ops/linalg.h: matrix products (ATen's LinearAlgebra.cpp): `a @ b` with torch.matmul's
// dispatch (dot, mv, mm, batched, broadcast batches), torch.dot, and MultiheadAttention's baddbmm,
// forward and backward, summed in the reference BLAS's order (kernels/gemm.h).
//
// What it is: the shape logic and the grad_fn each path records as PyTorch 1.13 does
// (DotBackward0, MvBackward0, MmBackward0, UnsafeViewBackward0, ...), with operands read in place
// through their strides (`q @ k.T` copies nothing).
// What it is not: the loops (kernels/gemm.h, kernels/linalg.h) or nn.Linear's bias and name
// (py's; AddmmBackward0 is a rename of matmul + add).
#pragma once

#include "core/tensor.h"

namespace attn::core {

// a (..., m, k) @ b (..., k, n) -> (broadcast batch..., m, n); a 1-D operand is a row (a) or a
// column (b) whose dim is dropped from the result; 1-D @ 1-D is dot. float32 only.
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor dot(const Tensor& a, const Tensor& b);                     // (n) . (n) -> 0-d
// torch.matmul / `@` / Tensor.matmul: matmul's values, and with a gradient to record the graph of
// the ops 1.13's _matmul_impl composes (`(a @ b).grad_fn.next_functions`): UnsqueezeBackward0 ->
// MmBackward0 -> SqueezeBackward3 for 1-D @ 2-D; a fold's ReshapeAliasBackward0 (or CloneBackward0
// -> UnsafeViewBackward0) -> MmBackward0/MvBackward0 -> UnsafeViewBackward0, transposed back
// (TransposeBackward0, CloneBackward0) for 1-D/2-D @ N-D; ExpandBackward0 -> ReshapeAliasBackward0
// -> BmmBackward0 -> UnsafeViewBackward0 for broadcast batches. Each gradient is those nodes'.
Tensor matmul_op(const Tensor& a, const Tensor& b);
// a (B, m, k) bmm b (B, k, n), one BmmBackward0 node over a and b (float32).
Tensor bmm(const Tensor& a, const Tensor& b);

namespace detail {
// mask (broadcast to (B, L, S)) + a (B, L, hd) @ b (B, hd, S): ATen's own loop when hd*L*S < 400,
// whose sums start from the mask value; above that the BLAS sums first and the mask is added
// after. BaddbmmBackward0 (beta = alpha = 1). For ops/attention.cpp.
Tensor baddbmm(const Tensor& mask, const Tensor& a, const Tensor& b);
}  // namespace detail

}  // namespace attn::core
