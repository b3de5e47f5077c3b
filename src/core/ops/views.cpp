// core/ops/views.cpp: views, contiguous and clone, forward and backward (ops/views.h).
//
// What it is: shape and stride arithmetic ported from ATen's TensorShape.cpp, computeStride and
// inferExpandGeometry, and the grad_fn each op records. The backward formulas of
// derivatives.yaml only move elements: the gradient is reshaped, transposed or permuted back; a
// select or slice puts it into a zero tensor of the input's shape (the rest +0); split and unbind
// (one node, several outputs) put their outputs' gradients together again (zeros for an output
// that got none). Expand, clone and alias pass it on unchanged: the engine's sum_to reduces an
// expanded gradient to the input's shape. No arithmetic, so no rounding.
// What it is not: indexing syntax (ops/indexing.cpp) or joins (ops/cat.cpp).
#include "core/ops/views.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/cat.h"
#include "core/ops/inplace.h"
#include "core/ops/select_index.h"

namespace attn::core {

namespace {

// "torch.FloatTensor", as PyTorch's toString names a tensor's type in some messages.
// ATen's toString() of the tensor's type: torch.FloatTensor, torch.LongTensor, ... but CPUBoolType
// for bool (it has no legacy Tensor class name), as the saved-tensor message also names it.
std::string type_str(const Tensor& a) { return a.dtype() == DType::boolean ? "CPUBoolType" : tensor_type_name(a.dtype()); }

// ATen's computeStride (TensorUtils.cpp): strides that let a tensor of `oldshape`/`oldstride`
// be seen as `newshape` without copying, or nullopt when a dim of the new shape would span two
// separately strided chunks of the old one.
std::optional<Shape> compute_stride(const Shape& oldshape, const Shape& oldstride, const Shape& newshape) {
  if (oldshape.empty()) return Shape(newshape.size(), 1);
  const int64_t numel = numel_of(oldshape);
  if (numel == 0 && oldshape == newshape) return oldstride;
  Shape newstride(newshape.size());
  if (numel == 0) {
    for (int64_t d = static_cast<int64_t>(newshape.size()) - 1; d >= 0; --d)
      newstride[d] = d == static_cast<int64_t>(newshape.size()) - 1 ? 1 : std::max<int64_t>(newshape[d + 1], 1) * newstride[d + 1];
    return newstride;
  }
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();  // stride of each subspace in the chunk
  int64_t tensor_numel = 1, view_numel = 1;      // elements in the current chunk
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= oldshape[tensor_d];
    // at the end of a chunk of evenly strided dims, the view's dims must cover it exactly
    if (tensor_d == 0 || (oldshape[tensor_d - 1] != 1 && oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return newstride;
}

// ATen's infer_size: `shape` with its one -1 resolved against numel, with PyTorch's messages.
Shape infer_size(const Shape& shape, int64_t numel) {
  Shape res = shape;
  int64_t newsize = 1;
  bool overflow = false;
  std::optional<size_t> infer_dim;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer_dim) throw TensorError("only one dimension can be inferred");
      infer_dim = d;
    } else if (shape[d] >= 0) {
      overflow |= __builtin_mul_overflow(newsize, shape[d], &newsize);
    } else {
      throw TensorError(fmt::format("invalid shape dimension {}", shape[d]));
    }
  }
  if (!overflow && (numel == newsize || (infer_dim && newsize > 0 && numel % newsize == 0))) {
    if (infer_dim) {
      if (newsize == 0)
        throw TensorError(fmt::format("cannot reshape tensor of 0 elements into shape {} because the unspecified "
                                      "dimension size -1 can be any value and is ambiguous",
                                      shape_str(shape)));
      res[*infer_dim] = numel / newsize;
    }
    return res;
  }
  throw TensorError(fmt::format("shape '{}' is invalid for input of size {}", shape_str(shape), numel));
}

}  // namespace

// ---- backward (derivatives.yaml): no arithmetic ----

namespace grad {
namespace {

using autograd::Backward;
using autograd::Grads;

// A zero tensor of `shape` with `g` copied into the part that `part` selects.
template <typename Part>
Tensor zeros_with(const Shape& shape, const Tensor& g, Part part) {
  Tensor z = zeros(shape);
  Tensor dst = part(z);
  copy_(dst, g);
  return z;
}

Backward reshape_to(const Shape& input_shape) {
  return {[input_shape](const Grads& g) { return Grads{reshape(*g[0], input_shape)}; }, false};
}

Backward identity() {
  return {[](const Grads& g) { return Grads{*g[0]}; }, false};
}

Backward transpose(int64_t d0, int64_t d1) {
  return {[d0, d1](const Grads& g) { return Grads{core::transpose(*g[0], d0, d1)}; }, false};
}

Backward permute(const Shape& dims) {
  Shape inverse(dims.size());
  for (size_t k = 0; k < dims.size(); ++k) inverse[static_cast<size_t>(normalize_dim(dims[k], static_cast<int64_t>(dims.size())))] = static_cast<int64_t>(k);
  return {[inverse](const Grads& g) { return Grads{core::permute(*g[0], inverse)}; }, false};
}

Backward unsqueeze(int64_t dim) {
  return {[dim](const Grads& g) { return Grads{core::squeeze(*g[0], dim)}; }, false};
}

Backward select(const Shape& input_shape, int64_t dim, int64_t index) {
  return {[=](const Grads& g) {
            return Grads{zeros_with(input_shape, *g[0], [&](const Tensor& z) { return core::select(z, dim, index); })};
          },
          false};
}

Backward slice(const Shape& input_shape, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  return {[=](const Grads& g) {
            return Grads{zeros_with(input_shape, *g[0], [&](const Tensor& z) { return core::slice(z, dim, start, stop, step); })};
          },
          false};
}

Backward split(const Shape& input_shape, int64_t dim, std::vector<int64_t> sizes) {
  return {[=](const Grads& g) {
            std::vector<Tensor> parts;
            for (size_t k = 0; k < sizes.size(); ++k) {
              Shape s = input_shape;
              s[static_cast<size_t>(dim)] = sizes[k];
              parts.push_back(k < g.size() && g[k] ? *g[k] : zeros(s));
            }
            return Grads{cat(parts, dim)};
          },
          false};
}

Backward unbind(const Shape& input_shape, int64_t dim) {
  return {[=](const Grads& g) {
            Shape s = input_shape;
            s.erase(s.begin() + dim);
            std::vector<Tensor> parts;
            for (int64_t k = 0; k < input_shape[static_cast<size_t>(dim)]; ++k)
              parts.push_back(static_cast<size_t>(k) < g.size() && g[k] ? *g[k] : zeros(s));
            return Grads{stack(parts, dim)};
          },
          false};
}

}  // namespace
}  // namespace grad

// ---- forward ----

Tensor view(const Tensor& a, const Shape& shape) {
  const Shape target = infer_size(shape, a.numel());
  std::optional<Shape> strides = compute_stride(a.shape(), a.strides(), target);
  if (!strides)
    throw TensorError(
        "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
        "contiguous subspaces). Use .reshape(...) instead.");
  return autograd::record_view(make_view(a, target, *strides, a.offset()), a, "ViewBackward0", grad::reshape_to(a.shape()));
}

Tensor reshape(const Tensor& a, const Shape& shape) {
  const Shape target = infer_size(shape, a.numel());
  if (std::optional<Shape> strides = compute_stride(a.shape(), a.strides(), target))
    return autograd::record_view(make_view(a, target, *strides, a.offset()), a, "ReshapeAliasBackward0", grad::reshape_to(a.shape()));
  const Tensor copy = clone(a);   // _unsafe_view(self.clone(contiguous), shape): CloneBackward0 under UnsafeViewBackward0
  return autograd::record(make_view(copy, target, contiguous_strides(target), 0), {&copy}, "UnsafeViewBackward0", grad::reshape_to(a.shape()));
}

Tensor transpose(const Tensor& a, int64_t d0, int64_t d1) {
  const int64_t nd = std::max<int64_t>(a.dim(), 1);
  d0 = normalize_dim(d0, nd);
  d1 = normalize_dim(d1, nd);
  if (a.dim() < 2 || d0 == d1) return autograd::record_view(make_view(a, a.shape(), a.strides(), a.offset()), a, "TransposeBackward0", grad::identity());
  Shape shape = a.shape(), strides = a.strides();
  std::swap(shape[d0], shape[d1]);
  std::swap(strides[d0], strides[d1]);
  return autograd::record_view(make_view(a, shape, strides, a.offset()), a, "TransposeBackward0", grad::transpose(d0, d1));
}

Tensor t(const Tensor& a) {
  if (a.dim() > 2) throw TensorError(fmt::format("t() expects a tensor with <= 2 dimensions, but self is {}D", a.dim()));
  return autograd::record_view(transpose(a, 0, -1), a, "TBackward0", grad::transpose(0, -1));
}

Tensor T(const Tensor& a) {
  Shape dims;
  for (int64_t d = a.dim() - 1; d >= 0; --d) dims.push_back(d);
  return permute(a, dims);
}

Tensor permute(const Tensor& a, const Shape& dims) {
  if (static_cast<int64_t>(dims.size()) != a.dim())
    throw TensorError(fmt::format("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
                                  a.dim(), dims.size()));
  Shape shape, strides;
  std::vector<bool> seen(dims.size(), false);
  for (int64_t d : dims) {
    const int64_t n = normalize_dim(d, a.dim());
    if (seen[n]) throw TensorError("permute(): duplicate dims are not allowed.");
    seen[n] = true;
    shape.push_back(a.shape()[n]);
    strides.push_back(a.strides()[n]);
  }
  return autograd::record_view(make_view(a, shape, strides, a.offset()), a, "PermuteBackward0", grad::permute(dims));
}

Tensor unsqueeze(const Tensor& a, int64_t dim) {
  dim = normalize_dim(dim, a.dim() + 1);
  Shape shape = a.shape(), strides = a.strides();
  const int64_t stride = dim >= a.dim() ? 1 : shape[dim] * strides[dim];
  shape.insert(shape.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return autograd::record_view(make_view(a, shape, strides, a.offset()), a, "UnsqueezeBackward0", grad::unsqueeze(dim));
}

Tensor squeeze(const Tensor& a, int64_t dim) {
  dim = normalize_dim(dim, a.dim());
  Shape shape = a.shape(), strides = a.strides();
  if (a.dim() > 0 && shape[dim] == 1) {
    shape.erase(shape.begin() + dim);
    strides.erase(strides.begin() + dim);
  }
  return autograd::record_view(make_view(a, shape, strides, a.offset()), a, "SqueezeBackward1", grad::reshape_to(a.shape()));
}

Tensor squeeze(const Tensor& a) {
  Shape shape, strides;
  for (int64_t d = 0; d < a.dim(); ++d)
    if (a.shape()[d] != 1) {
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
  return autograd::record_view(make_view(a, shape, strides, a.offset()), a, "SqueezeBackward0", grad::reshape_to(a.shape()));
}

// ATen's inferExpandGeometry: a dim of size 1 (or a new leading one) gets stride 0.
Tensor expand(const Tensor& a, const Shape& sizes) {
  const int64_t nd = static_cast<int64_t>(sizes.size());
  if (nd < a.dim())
    throw TensorError(fmt::format("expand({}{{{}}}, size={}): the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                                  type_str(a), shape_str(a.shape()), shape_str(sizes), nd, a.dim()));
  Shape shape(nd), strides(nd);
  for (int64_t i = nd - 1; i >= 0; --i) {
    const int64_t dim = a.dim() - 1 - (nd - 1 - i);
    int64_t size = dim >= 0 ? a.shape()[dim] : 1;
    int64_t stride = dim >= 0 ? a.strides()[dim] : (i + 1 < nd ? shape[i + 1] * strides[i + 1] : 1);
    int64_t target = sizes[i];
    if (target == -1) {
      if (dim < 0)
        throw TensorError(fmt::format("The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension {}", i));
      target = size;
    }
    if (size != target) {
      if (size != 1)
        throw TensorError(fmt::format("The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
                                      target, size, i, shape_str(sizes), shape_str(a.shape())));
      size = target;
      stride = 0;
    }
    shape[i] = size;
    strides[i] = stride;
  }
  return autograd::record_view(make_view(a, shape, strides, a.offset()), a, "ExpandBackward0", grad::identity());
}

Tensor select(const Tensor& a, int64_t dim, int64_t index) {
  if (a.dim() == 0) throw TensorError("select() cannot be applied to a 0-dim tensor.", "IndexError");
  dim = normalize_dim(dim, a.dim());
  const int64_t n = a.shape()[dim];
  if (index < -n || index >= n)
    throw TensorError(fmt::format("select(): index {} out of range for tensor of size {} at dimension {}", index,
                                  shape_str(a.shape()), dim),
                      "IndexError");
  if (index < 0) index += n;
  Shape shape = a.shape(), strides = a.strides();
  const int64_t offset = a.offset() + index * strides[dim];
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  return autograd::record_view(make_view(a, shape, strides, offset), a, "SelectBackward0", grad::select(a.shape(), dim, index));
}

Tensor slice(const Tensor& a, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  if (a.dim() == 0) throw TensorError("slice() cannot be applied to a 0-dim tensor.", "IndexError");
  dim = normalize_dim(dim, a.dim());
  if (step <= 0) throw TensorError("slice step must be positive");
  const int64_t n = a.shape()[dim];
  // ATen's slice: negative bounds count from the end, then both are clamped to [0, n].
  if (start < 0) start += n;
  if (stop < 0) stop += n;
  start = std::clamp<int64_t>(start, 0, n);
  stop = std::clamp<int64_t>(stop, start, n);
  Shape shape = a.shape(), strides = a.strides();
  const int64_t offset = a.offset() + start * strides[dim];
  shape[dim] = stop == start ? 0 : (stop - start - 1) / step + 1;   // no overflow for a huge step
  strides[dim] *= step;
  return autograd::record_view(make_view(a, shape, strides, offset), a, "SliceBackward0", grad::slice(a.shape(), dim, start, stop, step));
}

Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length) {
  if (a.dim() == 0) throw TensorError("narrow() cannot be applied to a 0-dim tensor.");
  dim = normalize_dim(dim, a.dim());
  const int64_t n = a.shape()[dim];
  if (start < -n || start > n)
    throw TensorError(fmt::format("start out of range (expected to be in range of [{}, {}], but got {})", -n, n, start), "IndexError");
  if (start < 0) start += n;
  if (length < 0 || start > n - length)
    throw TensorError(fmt::format("start ({}) + length ({}) exceeds dimension size ({}).", start, length, n));
  return slice(a, dim, start, start + length, 1);
}

// unbind, split and chunk make one view a piece, as ATen does (about 1 KB each with their autograd
// record): at most as many as a Python list may hold (py's limits::kMaxItems, which core cannot
// see), with the cell's time limit checked while they are made (review 28 #8: 3,000,000 pieces of
// a 12 MB tensor took 3 GB and 4-8 s of CPU past a 1 s limit).
namespace {

constexpr int64_t kMaxViewPieces = 10'000'000;

void check_view_pieces(const char* op, int64_t pieces) {
  if (pieces > kMaxViewPieces)
    throw TensorError(fmt::format("{} would make {} views, more than attn's limit of 10,000,000 items (limits::kMaxItems)", op, pieces),
                      "MemoryError");
}

}  // namespace

std::vector<Tensor> unbind(const Tensor& a, int64_t dim) {
  if (a.dim() == 0) throw TensorError("Dimension specified as 0 but tensor has no dimensions", "IndexError");
  dim = normalize_dim(dim, a.dim());
  check_view_pieces("unbind", a.shape()[dim]);
  std::vector<Tensor> out;
  DeadlineMeter meter;
  for (int64_t k = 0; k < a.shape()[dim]; ++k) {
    out.push_back(select(a, dim, k));
    meter.add(1024);   // a view's worth of work: the clock every 256 pieces
  }
  return autograd::record_multi_view(std::move(out), a, "UnbindBackward0", grad::unbind(a.shape(), dim));
}

std::vector<Tensor> split(const Tensor& a, int64_t size, int64_t dim) {
  if (a.dim() == 0) throw TensorError("split expects at least a 1-dimensional tensor");
  dim = normalize_dim(dim, a.dim());
  if (size < 0) throw TensorError(fmt::format("split expects split_size be non-negative, but got split_size={}", size));
  const int64_t n = a.shape()[dim];
  if (size == 0 && n != 0)
    throw TensorError(fmt::format("split_size can only be 0 if dimension size is 0, but got dimension size of {}", n));
  // ATen: max(ceil(n / size), 1) pieces; the last may be shorter.
  const int64_t pieces = size == 0 ? 1 : std::max<int64_t>((n + size - 1) / size, 1);
  check_view_pieces("split", pieces);
  std::vector<Tensor> out;
  std::vector<int64_t> sizes;
  DeadlineMeter meter;
  for (int64_t p = 0; p < pieces; ++p) {
    const int64_t start = p * size, length = std::min(size, n - start);
    out.push_back(narrow(a, dim, start, length));
    sizes.push_back(length);
    meter.add(1024);
  }
  return autograd::record_multi_view(std::move(out), a, "SplitBackward0", grad::split(a.shape(), dim, sizes));
}

std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim) {
  if (a.dim() == 0) throw TensorError("chunk expects at least a 1-dimensional tensor");
  if (chunks <= 0) throw TensorError(fmt::format("chunk expects `chunks` to be greater than 0, got: {}", chunks));
  dim = normalize_dim(dim, a.dim());
  const int64_t n = a.shape()[dim];
  const int64_t size = (n + chunks - 1) / chunks;
  if (size == 0 && n == 0) {   // every chunk is the empty tensor: ATen's split_with_sizes of zeros, with its backward
    check_view_pieces("chunk", chunks);
    return split_with_sizes(a, std::vector<int64_t>(static_cast<size_t>(chunks), 0), dim);
  }
  return split(a, size, dim);
}

Tensor contiguous(const Tensor& a) {
  if (a.is_contiguous()) return a;
  return autograd::record(a.clone(), {&a}, "CloneBackward0", grad::identity());
}

Tensor clone(const Tensor& a) { return autograd::record(a.clone(), {&a}, "CloneBackward0", grad::identity()); }

}  // namespace attn::core
