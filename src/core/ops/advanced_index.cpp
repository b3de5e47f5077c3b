// core/ops/advanced_index.cpp: advanced indexing, forward and backward (ops/advanced_index.h).
//
// What it is: the element places of self[indices], row-major over the result (the dims before
// the index tensors, their broadcast shape, the dims after), with PyTorch's errors; index reads
// them, index_put_ writes them (the later of two writes to one place stays, as the serial CPU
// kernel), IndexBackward0 adds the gradient back at them in that order into zeros
// (index_put_(accumulate=True)), IndexPutBackward0 gives self the gradient with the written
// places +0 (grad.index_put(indices, zeros_like(values))) and values grad.index(indices).
// Index tensors separated by a whole dim put their broadcast dims first (ATen's transposeToFront).
// accumulate=True adds the values in (index_put_(accumulate=True)); its backward gives self grad.
#include "core/ops/advanced_index.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/inplace.h"
#include "core/ops/unique.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

// self[indices]'s element places, kept as strides rather than listed: the index tensors are
// read in place through their broadcast views (stride 0 along the broadcast dims), so memory
// stays proportional to the data however many places the broadcast gives (for_each_place).
struct Places {
  Shape shape;                       // self[indices]'s shape
  int64_t offset = 0;                // self's storage offset
  Shape strides;                     // per result dim: self's stride along a kept dim, 0 along the index dims
  std::vector<Tensor> index;         // the index tensors as views over the result's shape
  std::vector<int64_t> size, step;   // per index tensor: its dim's size and stride in self
};

// The broadcast shape of the index tensors, with ATen's error (expandTensors' infer_size).
Shape index_shape(const TensorIndices& indices) {
  std::optional<Shape> b;
  for (const std::optional<Tensor>& i : indices) {
    if (!i) continue;
    if (b) {
      try {
        b = broadcast_shapes(*b, i->shape());
      } catch (const TensorError&) {
        std::string shapes;
        for (const std::optional<Tensor>& j : indices)
          if (j) shapes += (shapes.empty() ? "" : ", ") + shape_str(j->shape());
        throw TensorError("shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes, "IndexError");
      }
    } else {
      b = i->shape();
    }
  }
  if (!b) throw std::logic_error("advanced indexing without an index tensor");
  return *b;
}

// Whether the index tensors stand in consecutive dims (their result dims stay in place).
bool adjacent(const TensorIndices& indices) {
  int64_t first = -1, last = -1, count = 0;
  for (size_t d = 0; d < indices.size(); ++d)
    if (indices[d]) {
      if (first < 0) first = static_cast<int64_t>(d);
      last = static_cast<int64_t>(d);
      ++count;
    }
  return last - first + 1 == count;
}

// ATen's index kernel's bounds check, over each index tensor's own elements in order (the first
// bad value of its broadcast walk is the first of its own elements): the k-th index tensor is
// "dimension k".
void check_bounds(const Tensor& self, const TensorIndices& indices, const std::vector<int64_t>& indexed) {
  for (size_t k = 0; k < indexed.size(); ++k) {
    const int64_t d = indexed[k], size = self.shape()[d];
    const Tensor& idx = *indices[static_cast<size_t>(d)];
    const int64_t* pi = idx.data<int64_t>();
    for_each_offset(idx.shape(), [&](int64_t, int64_t o) {
      const int64_t i = pi[o];
      if (size == 0) throw TensorError("index is out of bounds for dimension with size 0", "IndexError");   // ATen's index kernel's own check
      if (i < -size || i >= size)
        throw TensorError(fmt::format("index {} is out of bounds for dimension {} with size {}", i, k, size), "IndexError");
    }, idx.strides());
  }
}

// The result's dims: the dims before the index tensors, their broadcast shape, the dims after;
// or, when a whole dim separates two index tensors, their broadcast shape first and every other
// dim after it in order (NumPy's and ATen's transposeToFront).
Places places(const Tensor& self, const TensorIndices& indices) {
  if (static_cast<int64_t>(indices.size()) > self.dim())
    throw TensorError(fmt::format("too many indices for tensor of dimension {}", self.dim()), "IndexError");
  std::vector<int64_t> indexed, before, after;
  for (size_t d = 0; d < indices.size(); ++d)
    if (indices[d]) indexed.push_back(static_cast<int64_t>(d));
  const Shape bshape = index_shape(indices);
  const bool together = adjacent(indices);
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d < static_cast<int64_t>(indices.size()) && indices[static_cast<size_t>(d)]) continue;
    (together && d < indexed.front() ? before : after).push_back(d);
  }
  Places p;
  p.offset = self.offset();
  for (int64_t d : before) p.shape.push_back(self.shape()[d]), p.strides.push_back(self.strides()[d]);
  p.shape.insert(p.shape.end(), bshape.begin(), bshape.end());
  p.strides.resize(p.shape.size(), 0);
  for (int64_t d : after) p.shape.push_back(self.shape()[d]), p.strides.push_back(self.strides()[d]);
  if (numel_of(bshape) > 0) check_bounds(self, indices, indexed);
  for (int64_t d : indexed) {
    Shape st(p.shape.size(), 0);   // the index's broadcast view, 0 outside the index dims
    const Tensor e = expand(*indices[static_cast<size_t>(d)], bshape);   // bshape, a view
    std::copy(e.strides().begin(), e.strides().end(), st.begin() + static_cast<int64_t>(before.size()));
    p.index.push_back(make_view(e, p.shape, st, e.offset()));
    p.size.push_back(self.shape()[d]);
    p.step.push_back(self.strides()[d]);
  }
  return p;
}

// f(k, off, voff) for each element k of self[indices], row-major: off is its element offset in
// self's storage, voff the offset of its value in a view with `vstrides` over the result's shape.
template <typename F>
void for_each_place(const Places& p, const Shape& vstrides, F&& f) {
  const size_t nd = p.shape.size(), ni = p.index.size();
  const int64_t total = numel_of(p.shape);
  std::vector<const int64_t*> ix(ni);
  for (size_t i = 0; i < ni; ++i) ix[i] = p.index[i].data<int64_t>();
  Shape pos(nd, 0);
  std::vector<int64_t> io(ni, 0);
  int64_t so = p.offset, vo = 0;
  DeadlineMeter meter;   // x[idx] of an expand()ed 10^8-element view: stops at the time limit
  for (int64_t k = 0; k < total; ++k) {
    int64_t off = so;
    for (size_t i = 0; i < ni; ++i) {
      const int64_t v = ix[i][io[i]];
      off += (v < 0 ? v + p.size[i] : v) * p.step[i];
    }
    f(k, off, vo);
    meter.add(1);
    for (size_t d = nd; d-- > 0;) {   // the next index, row-major
      so += p.strides[d], vo += vstrides[d];
      for (size_t i = 0; i < ni; ++i) io[i] += p.index[i].strides()[d];
      if (++pos[d] < p.shape[d]) break;
      so -= p.strides[d] * p.shape[d], vo -= vstrides[d] * p.shape[d];
      for (size_t i = 0; i < ni; ++i) io[i] -= p.index[i].strides()[d] * p.shape[d];
      pos[d] = 0;
    }
  }
}

template <typename T>
void gather_at(const Tensor& self, const Places& p, Tensor& out) {
  const T* base = static_cast<const T*>(self.storage()->data());
  T* o = out.data<T>();
  for_each_place(p, Shape(p.shape.size(), 0), [&](int64_t k, int64_t off, int64_t) { o[k] = base[off]; });
}

// values read through their broadcast view (a copy of their own elements first when they share
// self's storage, so every value is read as it was before the write).
template <typename T>
void write_at(Tensor& self, const Places& p, const Tensor& values, bool accumulate) {
  T* base = static_cast<T*>(self.storage()->data());
  Tensor own = to_dtype(values, self.dtype());
  if (own.shares_storage(self)) own = own.clone();
  const Tensor v = expand(own, p.shape);   // p.shape, a view
  const T* pv = v.data<T>();
  for_each_place(p, v.strides(), [&](int64_t, int64_t off, int64_t vo) { base[off] = accumulate ? base[off] + pv[vo] : pv[vo]; });
}

void write(Tensor& self, const Places& p, const Tensor& values, bool accumulate) {
  const bool add = accumulate && self.dtype() != DType::boolean;   // a bool index_put_ never accumulates
  visit_element(self.dtype(), [&](auto t) { write_at<decltype(t)>(self, p, values, add); });
}

// The strides ATen's index kernel gives self[indices] of `shape`: a TensorIterator over self
// restrided to the result's shape (0 along the index dims) and each index tensor viewed as
// [1] * before + its broadcast shape + [1] * after (compute_strides zeroes the 1s the result
// does not have), so the result follows self's memory order (build_index_op).
Shape index_result_strides(const Tensor& self, const TensorIndices& indices, const Shape& shape) {
  size_t first = indices.size(), last = 0;
  for (size_t d = 0; d < indices.size(); ++d)
    if (indices[d]) {
      first = std::min(first, d);
      last = d;
    }
  const size_t nb = shape.size() - (static_cast<size_t>(self.dim()) - (last - first + 1));   // the index dims
  Shape src(shape.size(), 0);
  for (size_t d = 0; d < first; ++d) src[d] = self.strides()[d];
  for (size_t d = last + 1; d < static_cast<size_t>(self.dim()); ++d) src[d - (last + 1) + first + nb] = self.strides()[d];
  std::vector<Shape> operands{src};
  const Shape bshape(shape.begin() + static_cast<int64_t>(first), shape.begin() + static_cast<int64_t>(first + nb));
  for (size_t d = first; d <= last; ++d) {
    if (!indices[d]) continue;
    Shape viewed(shape.size(), 1);   // the index's view: size-1 dims around its broadcast shape
    std::copy(bshape.begin(), bshape.end(), viewed.begin() + static_cast<int64_t>(first));
    Shape st = contiguous_strides(viewed);
    const Tensor e = expand(*indices[d], bshape);   // bshape
    if (!indices[d]->is_contiguous() || indices[d]->shape() != bshape)
      std::copy(e.strides().begin(), e.strides().end(), st.begin() + static_cast<int64_t>(first));
    for (size_t k = 0; k < shape.size(); ++k)
      if (viewed[k] == 1 && shape[k] != 1) st[k] = 0;
    operands.push_back(st);
  }
  return iterator_output_strides(shape, operands);
}

// index_result_strides after ATen's transposeToFront when the index tensors are separated:
// self permuted to the indexed dims first, the others after in order.
Shape result_strides(const Tensor& self, const TensorIndices& indices, const Shape& shape) {
  if (adjacent(indices)) return index_result_strides(self, indices, shape);
  Shape dims;
  TensorIndices front;
  for (size_t d = 0; d < indices.size(); ++d)
    if (indices[d]) {
      dims.push_back(static_cast<int64_t>(d));
      front.push_back(indices[d]);
    }
  for (int64_t d = 0; d < self.dim(); ++d)
    if (d >= static_cast<int64_t>(indices.size()) || !indices[static_cast<size_t>(d)]) dims.push_back(d);
  Shape sizes, strides;
  for (int64_t d : dims) {
    sizes.push_back(self.shape()[d]);
    strides.push_back(self.strides()[d]);
  }
  return index_result_strides(make_view(self, sizes, strides, self.offset()), front, shape);
}

}  // namespace

std::vector<Tensor> mask_to_indices(const Tensor& mask, const Tensor& self, int64_t first) {
  for (int64_t d = 0; d < mask.dim(); ++d) {
    if (first + d >= self.dim())
      throw TensorError(fmt::format("too many indices for tensor of dimension {}", self.dim()), "IndexError");
    if (mask.shape()[d] != self.shape()[first + d])
      throw TensorError(fmt::format("The shape of the mask {} at index {} does not match the shape of the indexed tensor {} at index {}",
                                    shape_str(mask.shape()), d, shape_str(self.shape()), first + d), "IndexError");
  }
  const Tensor nz = nonzero(mask);
  std::vector<Tensor> out;
  for (int64_t d = 0; d < mask.dim(); ++d) out.push_back(select(nz, 1, d).contiguous());
  return out;
}

Tensor index(const Tensor& self, const TensorIndices& indices) {
  const Places p = places(self, indices);
  Tensor out = empty(p.shape, self.dtype());   // p.shape
  visit_element(self.dtype(), [&](auto t) { gather_at<decltype(t)>(self, p, out); });
  if (!self.is_contiguous() && out.numel() != 1) out = relayout(std::move(out), result_strides(self, indices, p.shape));
  autograd::Backward backward{[indices, shape = self.shape()](const autograd::Grads& g) {
    Tensor z = zeros(shape);
    write(z, places(z, indices), detach(*g[0]), true);
    return autograd::Grads{z};
  }, false};
  for (const std::optional<Tensor>& i : indices)   // IndexBackward0 saves the index tensors
    if (i) backward.saved.push_back(*i);
  return autograd::record(std::move(out), {&self}, "IndexBackward0", std::move(backward));
}

void index_put_(Tensor& self, const TensorIndices& indices, const Tensor& values, bool accumulate) {
  check_no_overlap(self, values);   // 1.13's index_put_ refuses a source or index sharing self's memory
  for (const std::optional<Tensor>& i : indices)
    if (i) check_no_overlap(self, *i);
  const Places p = places(self, indices);
  Shape b;
  try {
    b = broadcast_shapes(values.shape(), p.shape);
  } catch (const TensorError&) {
    b = {};   // reported below, in index_put_'s words
  }
  if (b != p.shape)
    throw TensorError(fmt::format("shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                                  shape_str(values.shape()), shape_str(p.shape)));
  if (values.dtype() != self.dtype())   // no conversion: make_index_put_iterator's check
    throw TensorError(fmt::format("Index put requires the source and destination dtypes match, got {} for the destination and {} for the source.",
                                  dtype_title(self.dtype()), dtype_title(values.dtype())));
  self.mark_written();
  write(self, p, values, accumulate);
}

autograd::Backward index_put_backward(const TensorIndices& indices, bool need_self, bool need_values, bool accumulate) {
  return {[indices, need_self, need_values, accumulate](const autograd::Grads& g) {
            autograd::Grads r(2);
            const Tensor gd = detach(*g[0]);
            if (need_self && accumulate) r[0] = gd;   // self: grad as it is
            if (need_self && !accumulate) {
              Tensor s = gd.clone();
              write(s, places(s, indices), zeros({}), false);
              r[0] = s;
            }
            if (need_values) r[1] = detach(index(gd, indices));
            return r;
          },
          false};
}

}  // namespace attn::core
