// core/indexing.cpp: basic indexing (`x[1]`, `x[:, 0:2]`, `x[None]`, `x[..., 0]`) and
// embedding lookup.
//
// What it is: PyTorch 1.13's applySlicing (torch/csrc/autograd/python_variable_indexing.cpp):
// the index entries are applied left to right, an integer as select(), a slice as slice(), None
// as unsqueeze() and `...` as the dims no other entry names, so the result is a view of the
// input and its grad_fn is the last op applied (AliasBackward0 when none was: `x[...]`).
// What it is not: advanced indexing with index tensors or boolean masks.
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/grad_fns.h"
#include "core/tensor.h"

namespace attn::core {

Tensor index(const Tensor& a, const std::vector<Index>& idx) {
  // Integers and slices each name one dim of the input; None and `...` name none.
  int64_t specified = 0;
  for (const Index& ix : idx) specified += ix.kind == Index::integer || ix.kind == Index::slice;
  if (specified > a.dim()) throw TensorError(fmt::format("too many indices for tensor of dimension {}", a.dim()), "IndexError");
  Tensor result = a;
  bool applied = false;
  int64_t dim = 0;   // the dim of `result` the next entry applies to
  for (size_t i = 0; i < idx.size(); ++i) {
    const Index& ix = idx[i];
    switch (ix.kind) {
      case Index::integer: {
        const int64_t n = result.shape()[dim];
        if (ix.value < -n || ix.value >= n)   // PyTorch names the entry's position in the index
          throw TensorError(fmt::format("index {} is out of bounds for dimension {} with size {}", ix.value, i, n), "IndexError");
        result = select(result, dim, ix.value);
        break;
      }
      case Index::slice: {
        if (ix.step == 0) throw TensorError("slice step cannot be zero", "ValueError");
        if (ix.step < 0) throw TensorError("step must be greater than zero", "ValueError");
        const int64_t start = ix.has_start ? ix.start : 0;
        const int64_t stop = ix.has_stop ? ix.stop : std::numeric_limits<int64_t>::max();
        result = slice(result, dim, start, stop, ix.step);
        ++dim;
        break;
      }
      case Index::newaxis:
        result = unsqueeze(result, dim);
        ++dim;
        break;
      case Index::ellipsis:
        dim += a.dim() - specified;
        continue;
    }
    applied = true;
  }
  if (!applied) return with_grad(make_view(a, a.shape(), a.strides(), a.offset()), {&a}, "AliasBackward0");   // x[...]
  return result;
}

Tensor index_select_rows(const Tensor& table, const Tensor& ids) {
  if (ids.is_float() || ids.dtype() == DType::boolean)
    throw TensorError("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)");
  if (table.dim() != 2) throw TensorError("'weight' must be 2-D");
  const int64_t rows = table.shape()[0], width = table.shape()[1];
  Shape shape = ids.shape();
  shape.push_back(width);
  Tensor out = empty(shape);
  const Tensor w = table.contiguous();
  const float* src = w.data<float>();
  float* o = out.data<float>();
  const int64_t* id = ids.data<int64_t>();
  bool bad = false;
  for_each_offset(ids.shape(), [&](int64_t k, int64_t off) {
    const int64_t r = id[off];
    if (r < 0 || r >= rows) {
      bad = true;
      return;
    }
    std::copy_n(src + r * width, width, o + k * width);
  }, ids.strides());
  if (bad) throw TensorError("index out of range in self", "IndexError");
  return autograd::record(std::move(out), {&table}, "EmbeddingBackward0", grad::embedding(ids, rows, -1));
}

}  // namespace attn::core
