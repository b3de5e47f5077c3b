// core/ops/triangular.h: torch.tril / torch.triu (ATen's TriangularOps.cpp), the causal mask's
// shape: every matrix of the last two dims keeps the elements on one side of a diagonal.
//
// What it is: a copy of the input with the others set to 0 (any dtype); TrilBackward0 /
// TriuBackward0 give the gradient the same triangle.
// What it is not: masked_fill (ops/indexing.h), which is how a mask is applied.
#pragma once

#include <cstdint>

#include "core/tensor.h"

namespace attn::core {

// a (..., R, C): element (r, c) kept where c - r <= diagonal (tril) or >= diagonal (triu).
Tensor tril(const Tensor& a, int64_t diagonal = 0);
Tensor triu(const Tensor& a, int64_t diagonal = 0);
// tril_ / triu_ of a tensor whose elements overlap (an expand()ed view) where ATen 1.13 writes
// through the strides instead of refusing (compute_triu_tril's in-place update: at most 3 dims, or
// batches laid out contiguously): zeros written through self's strides, matrix by matrix as
// apply_triu_tril walks them (batches of stride 0 counted once, a batch stride of 0 read as 1).
// False, writing nothing, when PyTorch would instead compute out of place and copy_ (which refuses
// the overlap) or self does not overlap (the out-of-place result written back is the same).
bool triangle_through_strides_(Tensor& self, int64_t diagonal, bool lower);

}  // namespace attn::core
