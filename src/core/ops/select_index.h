// core/ops/select_index.h: torch.index_select, torch.masked_select and split_with_sizes (ATen's
// TensorAdvancedIndexing.cpp), forward and backward.
//
// What it is: the values read through core's advanced indexing with grad mode off, then one
// node as PyTorch 1.13 records it: IndexSelectBackward0 (the gradient index_add-ed into zeros of
// self's shape, in index order, so repeated indices add as ATen's index_add_cpu does) and
// MaskedSelectBackward0 (the gradient scattered into zeros of the broadcast shape; the engine
// sums it to self's shape).
// What it is not: index_add_/index_copy_ as tensor methods, or x[idx] indexing (advanced_index.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"

namespace attn::core {

// self's slices along dim at index (a 1-D or 0-D int64/int32 tensor), PyTorch's checks.
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
// Pieces of the given sizes (summing to dim's size), views: SplitWithSizesBackward0, PyTorch's checks.
std::vector<Tensor> split_with_sizes(const Tensor& a, const std::vector<int64_t>& sizes, int64_t dim);
// The elements of self where mask (bool, broadcast with self) is true, as a 1-D tensor.
Tensor masked_select(const Tensor& self, const Tensor& mask);

}  // namespace attn::core
