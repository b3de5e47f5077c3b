// core/indexing.cpp: basic indexing (`x[1]`, `x[:, 0:2]`, `x[None]`) and embedding lookup.
//
// What it is: Python's integer/slice semantics applied per dimension, with the grad_fn names
// PyTorch records (SelectBackward0, SliceBackward0, EmbeddingBackward0).
// What it is not: advanced indexing with index tensors or boolean masks.
#include <fmt/format.h>

#include <algorithm>

#include "core/tensor.h"

namespace attn::core {

namespace {

// Python's slice.indices(): clip start/stop for a dimension of size n.
void resolve_slice(const Index& ix, int64_t n, int64_t& start, int64_t& count) {
  int64_t step = ix.step;
  if (step <= 0) throw TensorError("step must be greater than zero");
  auto clip = [n](int64_t v) { return v < 0 ? std::max<int64_t>(v + n, 0) : std::min(v, n); };
  start = ix.has_start ? clip(ix.start) : 0;
  int64_t stop = ix.has_stop ? clip(ix.stop) : n;
  count = stop > start ? (stop - start + step - 1) / step : 0;
}

// Gather from `a` the elements selected per dimension by `picks` (absolute indices).
Tensor gather(const Tensor& a, const std::vector<std::vector<int64_t>>& picks, const Shape& out_shape) {
  Tensor out = empty(out_shape, a.dtype);
  Shape st(a.shape.size(), 1);
  for (int64_t d = a.dim() - 2; d >= 0; --d) st[d] = st[d + 1] * a.shape[d + 1];
  std::vector<size_t> pos(picks.size(), 0);
  int64_t n = numel_of(out_shape);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (size_t d = 0; d < picks.size(); ++d) off += picks[d][pos[d]] * st[d];
    if (a.is_float()) out.f[k] = a.f[off];
    else out.i[k] = a.i[off];
    for (int64_t d = static_cast<int64_t>(picks.size()) - 1; d >= 0; --d) {
      if (++pos[d] < picks[d].size()) break;
      pos[d] = 0;
    }
  }
  return out;
}

}  // namespace

Tensor index(const Tensor& a, const std::vector<Index>& idx) {
  std::vector<std::vector<int64_t>> picks;
  Shape out_shape;
  size_t d = 0;
  bool any_slice = false, any_int = false;
  for (const Index& ix : idx) {
    if (ix.kind == Index::newaxis) {
      out_shape.push_back(1);
      continue;
    }
    if (d >= a.shape.size())
      throw TensorError(fmt::format("too many indices for tensor of dimension {}", a.dim()));
    int64_t n = a.shape[d];
    if (ix.kind == Index::integer) {
      int64_t v = ix.value < 0 ? ix.value + n : ix.value;
      if (v < 0 || v >= n)
        throw TensorError(fmt::format("index {} is out of bounds for dimension {} with size {}", ix.value, d, n));
      picks.push_back({v});
      any_int = true;
    } else {
      int64_t start = 0, count = 0;
      resolve_slice(ix, n, start, count);
      std::vector<int64_t> p;
      for (int64_t c = 0; c < count; ++c) p.push_back(start + c * ix.step);
      picks.push_back(p);
      out_shape.push_back(count);
      any_slice = true;
    }
    ++d;
  }
  for (; d < a.shape.size(); ++d) {
    std::vector<int64_t> p(static_cast<size_t>(a.shape[d]));
    for (int64_t c = 0; c < a.shape[d]; ++c) p[c] = c;
    picks.push_back(p);
    out_shape.push_back(a.shape[d]);
  }
  Tensor out = picks.empty() ? a : gather(a, picks, out_shape);
  out.shape = out_shape;
  const char* name = any_slice && !any_int ? "SliceBackward0" : "SelectBackward0";
  return with_grad(std::move(out), {&a}, name);
}

Tensor index_select_rows(const Tensor& table, const Tensor& ids) {
  if (ids.is_float() || ids.dtype == DType::boolean)
    throw TensorError("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)");
  if (table.dim() != 2) throw TensorError("'weight' must be 2-D");
  int64_t rows = table.shape[0], width = table.shape[1];
  Shape shape = ids.shape;
  shape.push_back(width);
  Tensor out = empty(shape);
  for (int64_t k = 0; k < ids.numel(); ++k) {
    int64_t r = ids.i[k];
    if (r < 0 || r >= rows) throw TensorError("index out of range in self");
    std::copy_n(table.f.begin() + r * width, width, out.f.begin() + k * width);
  }
  return with_grad(std::move(out), {&table}, "EmbeddingBackward0");
}

}  // namespace attn::core
