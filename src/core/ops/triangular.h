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

}  // namespace attn::core
