// core/ops/scatter.h: scatter, gather and index_fill (ATen's ScatterGatherKernel.cpp and
// index_fill), forward and backward.
//
// What it is: out-of-place ops returning a new tensor (the torch layer writes scatter_ and
// index_fill_ back into self); index is int64, with PyTorch 1.13's checks and messages.
// What it is not: scatter's reduce= forms, scatter_add, or index_fill's tensor value gradient.
#pragma once

#include "core/tensor.h"

namespace attn::core {

// self with src[i] written at self[..., index[i], ...] along dim (ScatterBackward0).
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
// self with `value` written there (ScatterBackward1).
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, double value);
// out[i] = self[..., index[i], ...] along dim (GatherBackward0).
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index);
// self with every slice self.select(dim, i), i in index, filled with value (IndexFillBackward0).
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, double value);
// index_fill_ written straight through self's strides, for a self whose elements share memory
// (an expand()ed tensor: ATen writes it, with a deprecation warning); no autograd.
void index_fill_overlapping_(Tensor& self, int64_t dim, const Tensor& index, double value);

}  // namespace attn::core
