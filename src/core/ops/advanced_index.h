// core/ops/advanced_index.h: indexing by index tensors and boolean masks (PyTorch's
// advanced indexing: x[idx], x[mask], x[mask] = v), forward and backward.
//
// What it is: at::index (IndexBackward0) and index_put_ (IndexPutBackward0) for a list of
// per-dim indices: an int64 tensor, or none (a whole dim, `:`); tensors separated by a whole dim
// put their broadcast dims first, as NumPy and ATen do; bool masks
// are given already turned into int64 tensors (mask_to_indices, as PyTorch's expandTensors).
// What it is not: the Python key's parsing (torch/tensor_hooks.cpp).
#pragma once

#include <optional>
#include <vector>

#include "core/autograd.h"
#include "core/tensor.h"

namespace attn::core {

using TensorIndices = std::vector<std::optional<Tensor>>;

// The int64 index tensors of a bool mask over the dims starting at `first` (mask.nonzero()'s
// columns), with PyTorch's shape check against self.
std::vector<Tensor> mask_to_indices(const Tensor& mask, const Tensor& self, int64_t first);
// self[indices] (IndexBackward0).
Tensor index(const Tensor& self, const TensorIndices& indices);
// self[indices] = values in place (values broadcast to self[indices]'s shape); the caller
// records IndexPutBackward0 with index_put_backward.
// accumulate: values added at their places, repeated places each time (index_put_(accumulate=True)).
void index_put_(Tensor& self, const TensorIndices& indices, const Tensor& values, bool accumulate = false);
autograd::Backward index_put_backward(const TensorIndices& indices, bool need_self, bool need_values, bool accumulate = false);

}  // namespace attn::core
