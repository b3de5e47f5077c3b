// core/ops/einsum.h: torch.einsum (ATen's Linear.cpp) for the equations attention tutorials and
// the lessons write ('ibhd,jbhd->ijbh', 'bhnd,bhmd->bhnm', 'ij,jk->ik', one-operand permutes),
// forward and backward.
//
// What it is: one, two or more operands (three or more contracted pairwise, left to right, as 1.13
// does), each letter one dim, repeated letters as diagonals; the implicit output (no '->') as in
// PyTorch. One or two float operands run op by op as 1.13's einsum (its grad_fn tree, its sums
// inside one operand before the bmm).
// What it is not: ellipsis ('...').
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"

namespace attn::core {

// Each operand's dims named by its letters, the output's dims by the letters after '->':
// 'bhnd,bhmd->bhnm' takes (B, H, N, D) and (B, H, M, D) to (B, H, N, M); a letter of extent 1
// broadcasts against the same letter elsewhere.
Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);

}  // namespace attn::core
