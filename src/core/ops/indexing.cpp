// core/ops/indexing.cpp: basic indexing, embedding lookup, repeat_interleave and masked_fill,
// forward and backward (ops/indexing.h).
//
// What it is: indexing is PyTorch 1.13's applySlicing (torch/csrc/autograd/
// python_variable_indexing.cpp): the index entries are applied left to right, an integer as
// select(), a slice as slice(), None as unsqueeze() and `...` as the dims no other entry names,
// so the result is a view of the input and its grad_fn is the last op applied (AliasBackward0
// when none was: `x[...]`). The backward formulas only move or add elements:
//   embedding: zeros(V, D), then each id's gradient row added in row-major order (repeats add)
//   repeat_interleave (1.13 computes it as index_select): zeros, then index_add_ in index order
//   masked_fill: the gradient with the masked positions set to +0
// What it is not: advanced indexing with index tensors or boolean masks.
#include "core/ops/indexing.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "core/ops/binary.h"
#include "core/ops/inplace.h"
#include "core/ops/views.h"

namespace attn::core {

// ---- basic indexing: a view ----

namespace {

// The size applySelect checks an integer against at `dim`. Past the last dim (x[..., ..., 0]: each
// `...` skips the unnamed dims again; 1.13 does not refuse a second `...`) PyTorch reads beyond
// its sizes: c10::SizesAndStrides keeps up to 5 sizes and then 5 strides in one inline array, so
// dim 5 + j of a tensor of at most 5 dims reads its stride j (t[..., ..., ..., -1] of a 2x3x4
// tensor passes the check with stride 1's 4, and select() then raises "Dimension out of range"),
// and the never-written slots read 0 (any integer is out of bounds).
int64_t size_read(const Tensor& t, int64_t dim) {
  const int64_t nd = t.dim();
  if (dim < nd) return t.shape()[static_cast<size_t>(dim)];
  if (nd <= 5 && dim >= 5 && dim - 5 < nd) return t.strides()[static_cast<size_t>(dim - 5)];
  if (nd > 5 && dim < 2 * nd) return t.strides()[static_cast<size_t>(dim - nd)];   // out of line: sizes, then strides
  return 0;
}

}  // namespace

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
        const int64_t n = size_read(result, dim);
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
  if (!applied)   // x[...]: an alias of x
    return autograd::record_view(make_view(a, a.shape(), a.strides(), a.offset()), a, "AliasBackward0",
                                 {[](const autograd::Grads& g) { return g; }, false});
  return result;
}

// ---- embedding lookup ----

namespace grad {

using autograd::Grads;

Backward embedding(const Tensor& ids, int64_t num_weights, int64_t padding_idx) {
  // embedding_dense_backward_cpu: grad_weight = zeros(V, C); for each index in row-major order,
  // skipping padding_idx, grad_weight[k] = grad_weight[k] + g[i]: repeated ids add in order.
  return {[ids = ids.contiguous(), num_weights, padding_idx](const Grads& g) {
    const Tensor gc = g[0]->contiguous();
    const int64_t width = gc.shape().back();
    Tensor out = zeros({num_weights, width});
    const int64_t* id = ids.data<int64_t>();
    const float* src = gc.data<float>();
    float* o = out.data<float>();
    for (int64_t i = 0; i < ids.numel(); ++i) {
      if (id[i] == padding_idx) continue;
      for (int64_t c = 0; c < width; ++c) o[id[i] * width + c] = o[id[i] * width + c] + src[i * width + c];
    }
    return Grads{out};
  }};
}

}  // namespace grad

Tensor index_select_rows(const Tensor& table, const Tensor& id_tensor) {
  if (id_tensor.dtype() != DType::int64 && id_tensor.dtype() != DType::int32)
    throw TensorError("Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got " +
                      tensor_type_name(id_tensor.dtype()) + " instead (while checking arguments for embedding)");
  const Tensor ids = to_dtype(id_tensor, DType::int64);
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
  autograd::Backward backward = grad::embedding(ids, rows, -1);
  backward.saved = {table, id_tensor};   // EmbeddingBackward0 saves weight (for its size: the version check only) and indices
  return autograd::record(std::move(out), {&table}, "EmbeddingBackward0", std::move(backward));
}

// ---- repeat_interleave ----

namespace grad {
namespace {

// IndexSelectBackward0 (also repeat_interleave, which 1.13 computes as index_select).
Backward index_select(const Shape& input_shape, int64_t dim, std::vector<int64_t> index) {
  return {[input_shape, dim, index = std::move(index)](const Grads& g) {
            // index_select_backward: zeros(self_sizes).index_add_(dim, index, grad): for each i in
            // order, out.select(dim, index[i]).add_(grad.select(dim, i))
            Tensor out = zeros(input_shape);
            for (size_t i = 0; i < index.size(); ++i) {
              Tensor dst = core::select(out, dim, index[i]);
              binary_(BinOp::add, dst, core::select(*g[0], dim, static_cast<int64_t>(i)));
            }
            return Grads{out};
          },
          false};
}

}  // namespace
}  // namespace grad

Tensor repeat_interleave(const Tensor& a, int64_t repeats, int64_t dim) {
  if (repeats < 0) throw TensorError("repeats can not be negative");
  if (a.dim() == 0) return repeat_interleave(reshape(a, {1}), repeats, 0);
  dim = normalize_dim(dim, a.dim());
  // Output block (o, s) is input block (o, s / repeats): copy_ one view per repeat.
  Shape shape = a.shape();
  if (__builtin_mul_overflow(shape[dim], repeats, &shape[dim])) throw TensorError("numel: integer multiplication overflow");
  Tensor out = empty(shape, a.dtype());
  for (int64_t r = 0; r < repeats; ++r) {
    Shape strides = out.strides();
    strides[dim] *= repeats;   // every repeats-th slice along dim, starting at r
    Tensor part = make_view(out, a.shape(), strides, r * out.strides()[dim]);
    copy_(part, a);
  }
  std::vector<int64_t> index;   // 1.13 computes it as a.index_select(dim, [0]*repeats + [1]*repeats + ...)
  for (int64_t i = 0; i < a.shape()[dim]; ++i) index.insert(index.end(), static_cast<size_t>(repeats), i);
  return autograd::record(std::move(out), {&a}, "IndexSelectBackward0", grad::index_select(a.shape(), dim, std::move(index)));
}

// ---- masked_fill ----

namespace grad {

Backward masked_fill(const Tensor& mask) {
  return {[m = detach(mask)](const Grads& g) {
    Tensor out = g[0]->clone();
    masked_fill_(out, m, 0.0f);
    return Grads{out};
  }, true, {mask}};   // MaskedFillBackward0 saves mask
}

}  // namespace grad

// Out of place: self broadcast with the mask (as PyTorch's expand_outplace), copied, filled.
Tensor masked_fill(const Tensor& a, const Tensor& mask, float value, bool integral) {
  const Shape shape = broadcast_shapes(mask.shape(), a.shape());   // expand_outplace(mask, self): the mask is "tensor a"
  Tensor out = (shape == a.shape() ? a : make_view(a, shape, broadcast_strides(a, shape), a.offset())).clone();
  masked_fill_(out, mask, value, integral);
  if (out.storage()) out.storage()->forget_own_writes();   // _version 0, as torch's masked_fill
  return autograd::record(std::move(out), {&a}, "MaskedFillBackward0", grad::masked_fill(mask));
}

}  // namespace attn::core
