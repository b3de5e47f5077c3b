// core/ops/select_index.cpp: index_select and masked_select, forward and backward
// (ops/select_index.h).
#include "core/ops/select_index.h"

#include <fmt/format.h>

#include "core/autograd.h"
#include "core/ops/advanced_index.h"
#include "core/ops/cat.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

// zeros(shape).index_add_(dim, idx, g) for float32 g: each slice of g added in index order.
Tensor index_add_into_zeros(const Shape& shape, int64_t dim, const std::vector<int64_t>& idx, const Tensor& g) {
  Tensor out = empty(shape);
  const Tensor gc = g.contiguous();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[static_cast<size_t>(d)];
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t n = shape[static_cast<size_t>(dim)], k = static_cast<int64_t>(idx.size());
  float* o = out.data<float>();
  const float* src = gc.data<float>();
  if (!o || !src) return out;
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t j = 0; j < k; ++j) {
      float* row = o + (a * n + idx[static_cast<size_t>(j)]) * inner;
      const float* from = src + (a * k + j) * inner;
      for (int64_t i = 0; i < inner; ++i) row[i] += from[i];
    }
  return out;
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  if (index.dim() > 1) throw TensorError("index_select(): Index is supposed to be a vector", "IndexError");
  if (index.dtype() != DType::int64 && index.dtype() != DType::int32)
    throw TensorError("index_select(): Expected dtype int32 or int64 for index");
  const int64_t d = self.dim() == 0 ? 0 : normalize_dim(dim, self.dim());
  const int64_t n = self.dim() == 0 ? 1 : self.shape()[static_cast<size_t>(d)];
  std::vector<int64_t> idx = index.ints();
  for (int64_t v : idx) {   // ATen's two CPU loops word it differently: the last dim of a matrix or more, the rest
    if (v >= 0 && v < n) continue;
    if (self.dim() > 1 && d == self.dim() - 1) throw TensorError(fmt::format("INDICES element is out of DATA bounds, id={} axis_dim={}", v, n));
    throw TensorError("index out of range in self", "IndexError");
  }
  if (self.dim() == 0) {
    if (index.numel() != 1) throw TensorError("index_select(): Index to scalar can have only 1 value, got " + std::to_string(index.numel()) + " value(s)", "IndexError");
    return autograd::record(self.clone(), {&self}, "IndexSelectBackward0",
                            {[](const autograd::Grads& g) { return autograd::Grads{g[0]->clone()}; }, false});
  }
  Tensor out;
  {
    const autograd::GradModeGuard off(false);
    TensorIndices ix(static_cast<size_t>(d));
    ix.push_back(from_ints({static_cast<int64_t>(idx.size())}, idx));
    out = core::index(self, ix).contiguous();
  }
  const Shape shape = self.shape();
  autograd::Backward backward{[shape, d, idx](const autograd::Grads& g) {
                                const autograd::GradModeGuard off(false);
                                return autograd::Grads{index_add_into_zeros(shape, d, idx, *g[0])};
                              },
                              true, {index}};   // IndexSelectBackward0 saves index
  return autograd::record(std::move(out), {&self}, "IndexSelectBackward0", std::move(backward));
}

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  if (mask.dtype() == DType::uint8) return masked_select(self, to_dtype(mask, DType::boolean));
  if (mask.dtype() != DType::boolean) throw TensorError("masked_select: expected BoolTensor or ByteTensor for mask");
  const Shape shape = broadcast_shapes(self.shape(), mask.shape());
  const Shape work = shape.empty() ? Shape{1} : shape;   // a 0-dim pair is read as one element
  Tensor out;
  TensorIndices ix;
  {
    const autograd::GradModeGuard off(false);
    const Tensor m = reshape(expand(mask, shape), work), s = reshape(expand(self, shape), work);
    for (const Tensor& t : mask_to_indices(m, s, 0)) ix.emplace_back(t);
    out = core::index(s, ix).contiguous();
  }
  autograd::Backward backward{[shape, work, ix](const autograd::Grads& g) {
                                const autograd::GradModeGuard off(false);
                                Tensor z = empty(work);
                                index_put_(z, ix, *g[0]);
                                return autograd::Grads{reshape(z, shape)};
                              },
                              true, {self, mask}};   // MaskedSelectBackward0 saves self and mask
  return autograd::record(std::move(out), {&self}, "MaskedSelectBackward0", std::move(backward));
}

std::vector<Tensor> split_with_sizes(const Tensor& a, const std::vector<int64_t>& sizes, int64_t dim) {
  if (a.dim() == 0) throw TensorError("split expects at least a 1-dimensional tensor");
  dim = normalize_dim(dim, a.dim());
  const int64_t n = a.shape()[static_cast<size_t>(dim)];
  std::string list;
  int64_t total = 0;
  bool negative = false;
  for (int64_t s : sizes) {
    list += (list.empty() ? "" : ", ") + std::to_string(s);
    negative = negative || s < 0;
    total += s;
  }
  if (negative) throw TensorError(fmt::format("split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[{}]", list));
  if (total != n)
    throw TensorError(fmt::format("split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at dimension {}), but got split_sizes=[{}]", n, dim, list));
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t s : sizes) {
    out.push_back(narrow(a, dim, start, s));
    start += s;
  }
  // The outputs' gradients joined again along dim (zeros for an output that got none).
  const Shape shape = a.shape();
  autograd::Backward backward{[shape, dim, sizes](const autograd::Grads& g) {
                                const autograd::GradModeGuard off(false);
                                std::vector<Tensor> parts;
                                for (size_t k = 0; k < sizes.size(); ++k) {
                                  Shape s = shape;
                                  s[static_cast<size_t>(dim)] = sizes[k];
                                  parts.push_back(k < g.size() && g[k] ? *g[k] : zeros(s));
                                }
                                return autograd::Grads{cat(parts, dim)};
                              },
                              false};
  // views of a made by one multi-output op (as split and unbind): an in-place write to one is refused
  return autograd::record_multi_view(std::move(out), a, "SplitWithSizesBackward0", std::move(backward));
}

}  // namespace attn::core
