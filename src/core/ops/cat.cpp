// core/ops/cat.cpp: torch.cat, torch.stack and torch.roll, forward and backward (ops/cat.h).
//
// What it is: cat copies each input into its slice of a new tensor (copy_ through a view of the
// output, so any input layout and dtype promotion work); stack is cat of the inputs unsqueezed at
// dim. Their backward (derivatives.yaml) cuts the gradient into the inputs' parts with narrow /
// select: no arithmetic. Inputs all laid out channels-last (4-d or 5-d) give a channels-last result,
// as 1.13's cat_compute_output_memory_format (so stack's view of it too).
// What it is not: views (ops/views.cpp).
#include "core/ops/cat.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/autograd.h"
#include "core/ops/inplace.h"
#include "core/ops/views.h"

namespace attn::core {

namespace grad {
namespace {

using autograd::Backward;
using autograd::Grads;

Backward cat(std::vector<int64_t> sizes, int64_t dim) {
  return {[=](const Grads& g) {
            Grads out;
            int64_t pos = 0;
            for (int64_t n : sizes) {
              if (n < 0) {   // a skipped empty 1-D input
                out.push_back(zeros({0}));
                continue;
              }
              out.push_back(narrow(*g[0], dim, pos, n));
              pos += n;
            }
            return out;
          },
          false};
}

Backward stack(size_t n, int64_t dim) {
  return {[=](const Grads& g) {
            Grads out;
            for (size_t k = 0; k < n; ++k) out.push_back(core::select(*g[0], dim, static_cast<int64_t>(k)));
            return out;
          },
          false};
}

}  // namespace
}  // namespace grad

namespace {

// c10's is_channels_last_strides_2d_s4 / _3d_s5: x's strides follow (N, C, H, W) walked C, W, H, N
// (C, W, H, D, N for 5 dims), ambiguous size-1 cases counting as contiguous.
bool cat_channels_last_like(const Tensor& x) {
  const size_t nd = x.shape().size();
  if ((nd != 4 && nd != 5) || x.strides()[1] == 0) return false;
  const std::vector<size_t> order = nd == 4 ? std::vector<size_t>{1, 3, 2, 0} : std::vector<size_t>{1, 4, 3, 2, 0};
  int64_t min = 0;
  for (size_t d : order) {
    const int64_t size = x.shape()[d], stride = x.strides()[d];
    if (size == 0 || stride < min || (d == 0 && min == x.strides()[1])) return false;
    min = size > 1 ? stride * size : stride;
  }
  return true;
}

// cat_compute_output_memory_format: channels-last strides for `shape` when every input suggests that
// format (suggest_memory_format), else none (the contiguous result).
std::optional<Shape> cat_channels_last(const std::vector<Tensor>& ts, const Shape& shape) {
  for (const Tensor& x : ts)
    if (x.dim() != static_cast<int64_t>(shape.size()) || !cat_channels_last_like(x)) return std::nullopt;
  Shape st(shape.size());   // get_channels_last_strides_2d / _3d: C fastest, then W, H (D), N
  st[1] = 1;
  int64_t acc = shape[1];
  for (size_t d = shape.size() - 1; d >= 2; --d) {
    st[d] = acc;
    acc *= shape[d];
  }
  st[0] = acc;
  return st;
}

}  // namespace

namespace {

// cat, its result channels-last when `keep_format` and every input suggests it (else contiguous).
Tensor cat_laid(const std::vector<Tensor>& ts, int64_t dim, bool keep_format) {
  if (ts.empty()) throw TensorError("torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < ts.size(); ++i)   // ATen's check_cat_no_zero_dim, first (a 0-d shape has no dim to grow)
    if (ts[i].dim() == 0) throw TensorError(fmt::format("zero-dimensional tensor (at position {}) cannot be concatenated", i));
  // 1.13 skips an empty 1-D input (the legacy torch.cat([empty, x]) idiom): its dims are not
  // checked, the first other input sets dim's range; only its dtype counts.
  const auto skipped = [](const Tensor& x) { return x.dim() == 1 && x.shape()[0] == 0; };
  const auto it = std::find_if_not(ts.begin(), ts.end(), skipped);
  DType dtype = ts.front().dtype();   // the inputs' promoted dtype, as torch.cat's result_type
  for (const Tensor& x : ts) dtype = promote_types(dtype, x.dtype());
  std::vector<const Tensor*> inputs;
  if (it == ts.end()) {   // every input skipped
    for (const Tensor& x : ts) inputs.push_back(&x);
    return autograd::record(empty({0}, dtype), inputs, "CatBackward0", grad::cat(std::vector<int64_t>(ts.size(), -1), 0));
  }
  const Tensor& first = *it;
  dim = normalize_dim(dim, first.dim());
  Shape shape = first.shape();
  shape[dim] = 0;
  for (const Tensor& x : ts) {
    if (skipped(x)) continue;
    if (x.dim() != first.dim())
      throw TensorError(fmt::format("Tensors must have same number of dimensions: got {} and {}", first.dim(), x.dim()));
    for (int64_t d = 0; d < x.dim(); ++d)
      if (d != dim && x.shape()[d] != first.shape()[d])
        throw TensorError(fmt::format("Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor number 1 in the list.",
                                      dim, first.shape()[d], x.shape()[d]));
    shape[dim] += x.shape()[dim];
  }
  Tensor out = empty(shape, dtype);
  std::vector<int64_t> sizes;
  int64_t pos = 0;
  for (const Tensor& x : ts) {
    if (skipped(x)) {
      sizes.push_back(-1);
      inputs.push_back(&x);
      continue;
    }
    sizes.push_back(x.shape()[dim]);
    Tensor part = make_view(out, x.shape(), out.strides(), out.offset() + pos * out.strides()[dim]);   // out's slice for x
    copy_(part, x);
    pos += x.shape()[dim];
    inputs.push_back(&x);
  }
  if (const std::optional<Shape> cl = keep_format ? cat_channels_last(ts, shape) : std::nullopt)   // channels-last in, out
    out = relayout(std::move(out), *cl);
  if (out.storage()) out.storage()->forget_own_writes();   // _version 0, as torch.cat's
  return autograd::record(std::move(out), inputs, "CatBackward0", grad::cat(sizes, dim));
}

}  // namespace

Tensor cat(const std::vector<Tensor>& ts, int64_t dim) { return cat_laid(ts, dim, true); }

Tensor stack(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw TensorError("stack expects a non-empty TensorList");
  dim = normalize_dim(dim, ts.front().dim() + 1);
  std::vector<Tensor> parts;
  std::vector<const Tensor*> inputs;
  for (const Tensor& x : ts) {
    if (x.shape() != ts.front().shape())
      throw TensorError(fmt::format("stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
                                    shape_str(ts.front().shape()), shape_str(x.shape()), parts.size()));
    parts.push_back(unsqueeze(x, dim));
    inputs.push_back(&x);
  }
  const bool split = dim < ts.front().dim();   // 1.13: at::cat(tensors, dim).view(sizes), so the inputs' format decides
  Tensor out = cat_laid(parts, dim, !split);    // [.., n at dim, ..], contiguous when split
  if (split) {
    Shape joined = ts.front().shape();
    joined[dim] *= static_cast<int64_t>(ts.size());
    Shape want = contiguous_strides(out.shape());
    if (const std::optional<Shape> cl = cat_channels_last(ts, joined)) {
      want = *cl;
      want.insert(want.begin() + dim, (*cl)[dim] * ts.front().shape()[dim]);
    }
    if (want != out.strides()) out = relayout(std::move(out), std::move(want));
  }
  return autograd::record(std::move(out), inputs, "StackBackward0", grad::stack(ts.size(), dim));
}

// ---- roll ----

namespace {

// roll_cpu for one dim: self.narrow(dim, start, size - start) then self.narrow(dim, 0, start), joined.
Tensor roll_one(const Tensor& a, int64_t shift, int64_t dim) {
  if (a.numel() == 0) return a.clone();
  const int64_t d = normalize_dim(dim, a.dim());
  const int64_t size = a.shape()[static_cast<size_t>(d)];
  int64_t start = (size - shift) % size;
  if (start < 0) start += size;
  return cat({narrow(a, d, start, size - start), narrow(a, d, 0, start)}, d);
}

// roll without recording: roll_common's cases.
Tensor roll_values(const Tensor& a, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims) {
  if (shifts.empty()) throw TensorError("`shifts` required");
  if (dims.empty() && shifts.size() == 1) return reshape(roll_one(reshape(a.contiguous(), {a.numel()}), shifts[0], 0), a.shape());
  if (shifts.size() != dims.size())
    throw TensorError(fmt::format("shifts and dimensions must align. shifts: {}, dims:{}", shifts.size(), dims.size()));
  if (a.dim() == 0)   // ATen's maybe_wrap_dim of a scalar (roll_one would read a dim it has not)
    throw TensorError(fmt::format("Dimension specified as {} but tensor has no dimensions", dims[0]), "IndexError");
  Tensor r = a;
  for (size_t k = 0; k < dims.size(); ++k) r = roll_one(r, shifts[k], dims[k]);
  return r;
}

}  // namespace

Tensor roll(const Tensor& a, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims) {
  Tensor out;
  {
    const autograd::GradModeGuard off(false);
    out = roll_values(a, shifts, dims).contiguous();
  }
  // derivatives.yaml: grad.roll(-shifts reversed, dims reversed).
  std::vector<int64_t> back_shifts(shifts.rbegin(), shifts.rend()), back_dims(dims.rbegin(), dims.rend());
  for (int64_t& s : back_shifts) s = -s;
  autograd::Backward backward{[back_shifts, back_dims](const autograd::Grads& g) {
                                const autograd::GradModeGuard off(false);
                                return autograd::Grads{roll_values(*g[0], back_shifts, back_dims)};
                              },
                              false};
  return autograd::record(std::move(out), {&a}, "RollBackward0", std::move(backward));
}

}  // namespace attn::core
