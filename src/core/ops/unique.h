// core/ops/unique.h: the ops whose result's size depends on the values: nonzero and unique.
//
// What it is: torch.nonzero (the int64 coordinates of the non-zero elements, row-major) and
// torch.unique(sorted=True) over every element with its inverse indices and counts.
// What it is not: unique(dim=...), unique(sorted=False)'s hash order, or unique_consecutive.
#pragma once

#include "core/tensor.h"

namespace attn::core {

Tensor nonzero(const Tensor& a);   // int64 (count, a.dim())

struct Unique {
  Tensor values;    // sorted ascending, a's dtype
  Tensor inverse;   // int64, a's shape: values[inverse] == a
  Tensor counts;    // int64, values' shape
};
Unique unique(const Tensor& a);

}  // namespace attn::core
