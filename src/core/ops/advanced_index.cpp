// core/ops/advanced_index.cpp: advanced indexing, forward and backward (ops/advanced_index.h).
//
// What it is: the element places of self[indices], row-major over the result (the dims before
// the index tensors, their broadcast shape, the dims after), with PyTorch's errors; index reads
// them, index_put_ writes them (the later of two writes to one place stays, as the serial CPU
// kernel), IndexBackward0 adds the gradient back at them in that order into zeros
// (index_put_(accumulate=True)), IndexPutBackward0 gives self the gradient with the written
// places +0 (grad.index_put(indices, zeros_like(values))) and values grad.index(indices).
// What it is not: index tensors separated by a slice, or accumulate=True index_put_ itself.
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

struct Places {
  Shape shape;                  // self[indices]'s shape
  std::vector<int64_t> offset;  // per result element (row-major): the element offset in self
};

Places places(const Tensor& self, const TensorIndices& indices) {
  if (static_cast<int64_t>(indices.size()) > self.dim())
    throw TensorError(fmt::format("too many indices for tensor of dimension {}", self.dim()), "IndexError");
  int64_t first = -1, last = -1;
  Shape bshape;
  for (size_t d = 0; d < indices.size(); ++d) {
    if (!indices[d]) continue;
    if (first >= 0 && last != static_cast<int64_t>(d) - 1)
      throw TensorError("attn indexes with tensors in adjacent dims only (x[idx, :, idx2] is not implemented)", "IndexError");
    if (first < 0) first = static_cast<int64_t>(d);
    last = static_cast<int64_t>(d);
    bshape = d == static_cast<size_t>(first) ? indices[d]->shape() : broadcast_shapes(bshape, indices[d]->shape());
  }
  if (first < 0) throw std::logic_error("advanced indexing without an index tensor");
  Places p;
  p.shape.assign(self.shape().begin(), self.shape().begin() + first);
  p.shape.insert(p.shape.end(), bshape.begin(), bshape.end());
  p.shape.insert(p.shape.end(), self.shape().begin() + last + 1, self.shape().end());
  std::vector<Tensor> idx;
  for (int64_t d = first; d <= last; ++d) idx.push_back(expand(*indices[d], bshape).contiguous());
  const int64_t nb = numel_of(bshape), inner = numel_of(Shape(self.shape().begin() + last + 1, self.shape().end()));
  const int64_t outer = numel_of(Shape(self.shape().begin(), self.shape().begin() + first));
  // offsets of the leading dims and the trailing dims, row-major over each
  Shape lead(self.shape().begin(), self.shape().begin() + first), trail(self.shape().begin() + last + 1, self.shape().end());
  Shape lead_strides(self.strides().begin(), self.strides().begin() + first), trail_strides(self.strides().begin() + last + 1, self.strides().end());
  std::vector<int64_t> lead_off, trail_off, mid_off(static_cast<size_t>(nb), 0);
  for_each_offset(lead, [&](int64_t, int64_t o) { lead_off.push_back(o); }, lead_strides);
  for_each_offset(trail, [&](int64_t, int64_t o) { trail_off.push_back(o); }, trail_strides);
  for (int64_t k = 0; k <= last - first; ++k) {
    const int64_t size = self.shape()[first + k];
    const int64_t* pi = idx[k].data<int64_t>();
    for (int64_t j = 0; j < nb; ++j) {
      int64_t i = pi[j];
      if (size == 0) throw TensorError("index is out of bounds for dimension with size 0", "IndexError");   // ATen's index kernel's own check
      if (i < -size || i >= size)
        throw TensorError(fmt::format("index {} is out of bounds for dimension {} with size {}", i, first + k, size), "IndexError");
      mid_off[j] += (i < 0 ? i + size : i) * self.strides()[first + k];
    }
  }
  p.offset.reserve(static_cast<size_t>(outer * nb * inner));
  DeadlineMeter meter;   // x[idx] of an expand()ed 10^8-element view: stops at the time limit
  for (int64_t lo : lead_off)
    for (int64_t mo : mid_off) {
      meter.add(static_cast<int64_t>(trail_off.size()) + 1);
      for (int64_t to : trail_off) p.offset.push_back(self.offset() + lo + mo + to);
    }
  return p;
}

template <typename T>
void gather_at(const Tensor& self, const Places& p, Tensor& out) {
  const T* base = static_cast<const T*>(self.storage()->data());
  T* o = out.data<T>();
  for (size_t k = 0; k < p.offset.size(); ++k) o[k] = base[p.offset[k]];
}

template <typename T>
void write_at(Tensor& self, const Places& p, const Tensor& values, bool accumulate) {
  T* base = static_cast<T*>(self.storage()->data());
  const Tensor v = expand(to_dtype(values, self.dtype()), p.shape).contiguous();
  const T* pv = v.data<T>();
  for (size_t k = 0; k < p.offset.size(); ++k) base[p.offset[k]] = accumulate ? base[p.offset[k]] + pv[k] : pv[k];
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
  if (!self.is_contiguous() && out.numel() > 1) out = relayout(std::move(out), index_result_strides(self, indices, p.shape));
  autograd::Backward backward{[indices, shape = self.shape()](const autograd::Grads& g) {
    Tensor z = zeros(shape);
    write(z, places(z, indices), detach(*g[0]), true);
    return autograd::Grads{z};
  }, false};
  for (const std::optional<Tensor>& i : indices)   // IndexBackward0 saves the index tensors
    if (i) backward.saved.push_back(*i);
  return autograd::record(std::move(out), {&self}, "IndexBackward0", std::move(backward));
}

void index_put_(Tensor& self, const TensorIndices& indices, const Tensor& values) {
  const Places p = places(self, indices);
  const Shape b = broadcast_shapes(values.shape(), p.shape);
  if (b != p.shape)
    throw TensorError(fmt::format("shape mismatch: value tensor of shape {} cannot be broadcast to indexing result of shape {}",
                                  shape_str(values.shape()), shape_str(p.shape)));
  self.mark_written();
  write(self, p, values, false);
}

autograd::Backward index_put_backward(const TensorIndices& indices, bool need_self, bool need_values) {
  return {[indices, need_self, need_values](const autograd::Grads& g) {
            autograd::Grads r(2);
            const Tensor gd = detach(*g[0]);
            if (need_self) {
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
