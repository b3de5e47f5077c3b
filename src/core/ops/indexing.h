// core/ops/indexing.h: reading elements by position: Python's basic indexing (`x[1]`,
// `x[:, 0:2]`, `x[None]`, `x[..., 0]`), embedding lookup (index_select of rows),
// repeat_interleave and masked_fill (ATen's TensorAdvancedIndexing.cpp, Repeat.cpp), forward and
// backward.
//
// What it is: index() returns a view with the grad_fn of the last op PyTorch applied; the others
// copy. The grad:: factories are public because py's nn.Embedding and in-place masked_fill_
// record with them.
// What it is not: advanced indexing with index tensors or boolean masks, or writing through an
// index (py's setitem, with ops/inplace.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/autograd.h"
#include "core/tensor.h"

namespace attn::core {

// One entry per dimension, applied left to right as PyTorch's applySlicing does: an integer
// (select), a slice start:stop:step (Python semantics, bounds clipped), `None` (new axis) or
// `...` (as many `:` as needed).
struct Index {
  enum Kind { integer, slice, newaxis, ellipsis } kind = integer;
  int64_t value = 0;                 // for integer
  bool has_start = false, has_stop = false;
  int64_t start = 0, stop = 0, step = 1;  // for slice
};
Tensor index(const Tensor& a, const std::vector<Index>& idx);
// Embedding lookup: table (V, D), ids (any shape, int64) -> (*ids.shape, D); EmbeddingBackward0.
Tensor index_select_rows(const Tensor& table, const Tensor& ids);
// Each slice along dim repeated `repeats` times in place: dim's size times repeats.
Tensor repeat_interleave(const Tensor& a, int64_t repeats, int64_t dim);
// value where mask (bool, broadcast with a) is true; the broadcast shape out.
Tensor masked_fill(const Tensor& a, const Tensor& mask, float value, bool integral = false);

namespace grad {
using autograd::Backward;
// EmbeddingBackward0 (the only view-like backward that adds: repeated ids); padding_idx -1 = none.
Backward embedding(const Tensor& ids, int64_t num_weights, int64_t padding_idx);
Backward masked_fill(const Tensor& mask);   // MaskedFillBackward0: every masked position exactly +0
}  // namespace grad

}  // namespace attn::core
