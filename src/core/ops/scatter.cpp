// core/ops/scatter.cpp: scatter, gather and index_fill, forward and backward (ops/scatter.h).
//
// What it is: ATen 1.13's cpu_scatter_gather_base_kernel order: for each position of index,
// the elements along dim in order, so of two writes to one place the later along dim stays;
// scatter_gather_dtype_check / gather_shape_check's messages. Backward (derivatives.yaml):
// scatter: self grad.scatter(dim, index, 0), src grad.gather(dim, index); gather: zeros with
// grad added at the gathered places (scatter_add, in index order); index_fill: grad with the
// filled slices +0.
// What it is not: reduce= (scatter's "add"/"multiply"), or the index_fill value tensor's gradient.
#include "core/ops/scatter.h"

#include <fmt/format.h>

#include "core/autograd.h"
#include "core/ops/inplace.h"

namespace attn::core {

namespace {

void check_index(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src, const char* op) {
  if (index.dtype() != DType::int64) throw TensorError(std::string(op) + "(): Expected dtype int64 for index");
  if (src && src->dtype() != self.dtype()) throw TensorError(std::string(op) + "(): Expected self.dtype to be equal to src.dtype");
  if (index.numel() == 0) return;
  if (std::max<int64_t>(index.dim(), 1) != std::max<int64_t>(self.dim(), 1))
    throw TensorError("Index tensor must have the same number of dimensions as " + std::string(src ? "self" : "input") + " tensor");
  for (int64_t d = 0; d < index.dim(); ++d) {
    if (d == dim) continue;
    if (index.shape()[d] > self.shape()[d] || (src && index.shape()[d] > src->shape()[d]))
      throw TensorError(src ? fmt::format("Expected index {} to be smaller than self {} apart from dimension {} and to be smaller size than src {}",
                                          shape_str(index.shape()), shape_str(self.shape()), dim, shape_str(src->shape()))
                            : fmt::format("Size does not match at dimension {} expected index {} to be smaller than self {} apart from dimension {}",
                                          d, shape_str(index.shape()), shape_str(self.shape()), dim));
  }
}

// For every element of index (row-major): f(k, offset in a tensor of `target` strides at the
// indexed place, offset in a tensor of `other` strides at the same coordinates).
template <typename F>
void walk(const Tensor& index, int64_t dim, const Shape& target_strides, const Shape& other_strides, int64_t dim_size, F f) {
  const Tensor idx = index.contiguous();
  const int64_t* pi = idx.data<int64_t>();
  const Shape shape = index.dim() ? index.shape() : Shape{1};
  const Shape ts = target_strides.empty() ? Shape{1} : target_strides, os = other_strides.empty() ? Shape{1} : other_strides;
  std::vector<int64_t> at(shape.size(), 0);
  for (int64_t k = 0; k < idx.numel(); ++k) {
    const int64_t i = pi[k];
    if (i < 0 || i >= dim_size) throw TensorError(fmt::format("index {} is out of bounds for dimension {} with size {}", i, dim, dim_size));
    int64_t t = 0, o = 0;
    for (size_t d = 0; d < shape.size(); ++d) {
      t += (static_cast<int64_t>(d) == dim ? i : at[d]) * ts[d];
      o += at[d] * os[d];
    }
    f(k, t, o);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0 && ++at[d] == shape[d]; --d) at[d] = 0;
  }
}

}  // namespace

namespace {

int64_t dim_of(const Tensor& self, int64_t dim) { return normalize_dim(dim, std::max<int64_t>(self.dim(), 1)); }
int64_t size_at(const Tensor& t, int64_t dim) { return t.dim() ? t.shape()[dim] : 1; }

template <typename T>
void scatter_into(Tensor& out, int64_t dim, const Tensor& index, const Tensor& src) {
  const Tensor s = src.contiguous();
  T* o = out.data<T>();
  const T* ps = s.data<T>();
  walk(index, dim, out.strides(), s.strides(), size_at(out, dim), [&](int64_t, int64_t t, int64_t j) { o[t] = ps[j]; });
}

template <typename T>
void fill_at(Tensor& out, int64_t dim, const Tensor& index, T value) {
  T* o = out.data<T>();
  walk(index, dim, out.strides(), out.strides(), size_at(out, dim), [&](int64_t, int64_t t, int64_t) { o[t] = value; });
}

Tensor scatter_value(const Tensor& self, int64_t dim, const Tensor& index, double value) {
  Tensor out = self.clone();
  if (out.dtype() == DType::boolean) {
    fill_at<uint8_t>(out, dim, index, value != 0);
  } else if (out.dtype() == DType::float32) {
    fill_at<float>(out, dim, index, static_cast<float>(value));
  } else {   // an integer: the value as an int64, wrapped to the narrower types as torch's cast does
    const int64_t v = static_cast<int64_t>(value);
    visit_element(out.dtype(), [&](auto t) { fill_at<decltype(t)>(out, dim, index, static_cast<decltype(t)>(v)); });
  }
  return out;
}

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = dim_of(self, dim);
  check_index(self, d, index, nullptr, "gather");
  const Tensor x = self.contiguous();
  Tensor out = empty(index.shape(), self.dtype());
  auto copy = [&](auto* o, const auto* px) {
    walk(index, d, x.strides(), out.strides(), size_at(x, d), [&](int64_t, int64_t t, int64_t j) { o[j] = px[t]; });
  };
  visit_element(self.dtype(), [&](auto t) { copy(out.data<decltype(t)>(), x.data<decltype(t)>()); });
  // GatherBackward0: zeros of self's shape, grad added at the gathered places (scatter_add).
  autograd::Backward backward{[index, d, shape = self.shape()](const autograd::Grads& g) {
    Tensor z = zeros(shape);
    const Tensor gc = g[0]->contiguous();
    float* o = z.data<float>();
    const float* pg = gc.data<float>();
    walk(index, d, z.strides(), gc.strides(), size_at(z, d), [&](int64_t, int64_t t, int64_t j) { o[t] += pg[j]; });
    return autograd::Grads{z};
  }, true, {self, index}};   // GatherBackward0 saves self (for its sizes: the version check only) and index
  return autograd::record(std::move(out), {&self}, "GatherBackward0", std::move(backward));
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = dim_of(self, dim);
  check_index(self, d, index, &src, "scatter");
  Tensor out = self.clone();
  visit_element(out.dtype(), [&](auto t) { scatter_into<decltype(t)>(out, d, index, src); });
  autograd::Backward backward{[index, d, need_self = self.requires_grad(), need_src = src.requires_grad()](const autograd::Grads& g) {
    autograd::Grads r(2);
    const Tensor gd = detach(*g[0]);
    if (need_self) r[0] = scatter_value(gd, d, index, 0.0);
    if (need_src) r[1] = detach(gather(gd, d, index));
    return r;
  }, false, {index}};   // ScatterBackward0 saves index
  return autograd::record(std::move(out), {&self, &src}, "ScatterBackward0", std::move(backward));
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, double value) {
  const int64_t d = dim_of(self, dim);
  check_index(self, d, index, nullptr, "scatter");
  Tensor out = scatter_value(self, d, index, value);
  autograd::Backward backward{[index, d](const autograd::Grads& g) {
    return autograd::Grads{scatter_value(detach(*g[0]), d, index, 0.0)};
  }, false};
  return autograd::record(std::move(out), {&self}, "ScatterBackward1", std::move(backward));
}

namespace {

// index_fill_ of a tensor with no elements: ATen restrides self (its storage, offset and strides:
// an empty slice is a view) to index.numel() along dim with stride 0 and checks that against the
// storage (setStorage's error); when that holds and no other dim is empty, it iterates the index,
// whose every entry is out of bounds for the empty dim. `copy`: self's clone (index_fill), its
// strides but a storage of its own, empty, at offset 0.
void fill_no_elements(const Tensor& self, int64_t dim, const Tensor& index, bool copy) {
  if (self.dim() == 0 || index.numel() == 0) return;
  Shape sizes = self.shape(), strides = self.strides();
  sizes[static_cast<size_t>(dim)] = index.numel();
  strides[static_cast<size_t>(dim)] = 0;
  int64_t need = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return;
    need += (sizes[d] - 1) * strides[d];
  }
  const int64_t item = element_size(self.dtype()), have = self.storage() && !copy ? self.storage()->size() * item : 0;
  const int64_t offset = copy ? 0 : self.offset();
  need = (need + offset) * item;
  if (need > have)
    throw TensorError(fmt::format("setStorage: sizes {}, strides {}, storage offset {}, and itemsize {} requiring a storage size of {} are out of bounds for storage of size {}",
                                  shape_str(sizes), shape_str(strides), offset, item, need, have));
  throw TensorError(fmt::format("index {} is out of bounds for dimension {} with size 0", index.ints()[0], dim), "IndexError");
}

// The slices of `out` at `index` along dim set to value, in place (index_fill_kernel).
void fill_slices_into(Tensor& out, int64_t dim, const Tensor& index, double value) {
  if (out.numel() == 0) return fill_no_elements(out, dim, index, false);
  const int64_t n = size_at(out, dim);
  const std::vector<int64_t> ids = index.ints();
  for (int64_t i : ids) {
    if (i < -n || i >= n) throw TensorError(fmt::format("index {} is out of bounds for dimension {} with size {}", i, dim, n), "IndexError");
    if (out.dim() == 0) {
      fill_(out, value);
      continue;
    }
    Tensor slice = make_view(out, [&] { Shape s = out.shape(); s.erase(s.begin() + dim); return s; }(),
                             [&] { Shape s = out.strides(); s.erase(s.begin() + dim); return s; }(),
                             out.offset() + (i < 0 ? i + n : i) * out.strides()[dim]);
    fill_(slice, value);
  }
}

// self with the slices at `index` along dim set to value.
Tensor fill_slices(const Tensor& self, int64_t dim, const Tensor& index, double value) {
  if (self.numel() == 0) {
    fill_no_elements(self, dim, index, true);
    return self.clone();
  }
  Tensor out = self.clone();
  fill_slices_into(out, dim, index, value);
  return out;
}

}  // namespace

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, double value) {
  const int64_t d = dim_of(self, dim);
  if (index.dtype() != DType::int64) throw TensorError("index_fill_(): Expected dtype int64 for index.");
  if (index.dim() > 1) throw TensorError("Index has to be a vector/scalar");
  Tensor out = fill_slices(detach(self), d, index, value);
  autograd::Backward backward{[index, d](const autograd::Grads& g) {
    return autograd::Grads{fill_slices(detach(*g[0]), d, index, 0.0)};
  }, false, {index}};   // IndexFillBackward0 saves index
  return autograd::record(std::move(out), {&self}, "IndexFillBackward0", std::move(backward));
}

void index_fill_overlapping_(Tensor& self, int64_t dim, const Tensor& index, double value) {
  const int64_t d = dim_of(self, dim);
  if (index.dtype() != DType::int64) throw TensorError("index_fill_(): Expected dtype int64 for index.");
  if (index.dim() > 1) throw TensorError("Index has to be a vector/scalar");
  fill_slices_into(self, d, index, value);
}

}  // namespace attn::core
