// core/more_ops.cpp: operations the concept lessons use beyond the two walkthroughs:
// repeat_interleave (grouped-query attention), where, argmax, isnan/isinf, sqrt/abs/log, amax,
// equal.
//
// What it is: straightforward loops with PyTorch's semantics, errors and grad_fn names, over
// contiguous inputs (contiguous() copies only a view that is not). Variance is variance.cpp's.
// What it is not: bit-exactness claims beyond those the golden tests check.
#include <fmt/format.h>

#include <cmath>

#include "core/grad_fns.h"
#include "core/tensor.h"

namespace attn::core {

namespace {

// (outer, size, inner) around dim, as in ops.cpp.
void split3(const Shape& s, int64_t dim, int64_t& outer, int64_t& size, int64_t& inner) {
  outer = inner = 1;
  size = s.empty() ? 1 : s[dim];   // a 0-d tensor reduces as one element
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) {
    if (d < dim) outer *= s[d];
    if (d > dim) inner *= s[d];
  }
}

// The shape of a reduction over `dim`: kept as size 1 with keepdim, else removed.
Shape reduced_shape(Shape shape, int64_t dim, bool keepdim) {
  if (shape.empty()) return shape;
  if (keepdim) shape[dim] = 1;
  else shape.erase(shape.begin() + dim);
  return shape;
}

// A float32 copy of `a`, contiguous (a itself when it already is both).
Tensor dense_float(const Tensor& a) { return to_float(a).contiguous(); }

// out[k] = f(a's element k) for the float32 elements of `a`, into a new tensor of `dtype`.
template <typename T, typename F>
Tensor map_to(const Tensor& a, DType dtype, F f) {
  const Tensor x = dense_float(a);
  Tensor out = empty(x.shape(), dtype);
  const float* in = x.data<float>();
  T* o = out.data<T>();
  for (int64_t k = 0; k < x.numel(); ++k) o[k] = f(in[k]);
  return out;
}

}  // namespace

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

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  const Shape shape = broadcast_shapes(broadcast_shapes(cond.shape(), a.shape()), b.shape());
  const Tensor c = to_float(cond), fa = to_float(a), fb = to_float(b);
  Tensor out = empty(shape);
  const float *pc = c.data<float>(), *pa = fa.data<float>(), *pb = fb.data<float>();
  float* o = out.data<float>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j, int64_t l) { o[k] = pc[i] != 0.0f ? pa[j] : pb[l]; },
                  broadcast_strides(c, shape), broadcast_strides(fa, shape), broadcast_strides(fb, shape));
  return autograd::record(std::move(out), {&a, &b}, "WhereBackward0", grad::where(cond, a.requires_grad(), b.requires_grad()));
}

Tensor argmax(const Tensor& a, int64_t dim, bool keepdim) {
  const Tensor f = dense_float(a);
  dim = normalize_dim(dim, f.dim());
  int64_t outer, size, inner;
  split3(f.shape(), dim, outer, size, inner);
  if (size == 0 && f.dim() > 0)
    throw TensorError(fmt::format("argmax(): Expected reduction dim {} to have non-zero size.", dim), "IndexError");
  Tensor out = empty(reduced_shape(f.shape(), dim, keepdim), DType::int64);
  const float* in = f.data<float>();
  int64_t* o = out.data<int64_t>();
  for (int64_t b = 0; b < outer; ++b)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best = 0;
      for (int64_t s = 1; s < size; ++s) {
        float v = in[(b * size + s) * inner + i], m = in[(b * size + best) * inner + i];
        if (v > m || (std::isnan(v) && !std::isnan(m))) best = s;
      }
      o[b * inner + i] = best;
    }
  return out;
}

Tensor argmax(const Tensor& a) {
  if (a.numel() == 0)
    throw TensorError("argmax(): Expected reduction dim to be specified for input.numel() == 0.", "IndexError");
  return argmax(reshape(a, {-1}), 0, false);
}

Tensor isnan(const Tensor& a) {
  if (!a.is_float()) return empty(a.shape(), DType::boolean);   // zero-filled: no int is NaN or inf
  return map_to<uint8_t>(a, DType::boolean, [](float v) { return std::isnan(v); });
}

Tensor isinf(const Tensor& a) {
  if (!a.is_float()) return empty(a.shape(), DType::boolean);   // zero-filled: no int is NaN or inf
  return map_to<uint8_t>(a, DType::boolean, [](float v) { return std::isinf(v); });
}

Tensor unary(const Tensor& a, const char* op) {
  const std::string o = op;
  if (o != "sqrt" && o != "abs") throw TensorError(std::string("unary(): unknown op ") + op);   // log is core::log
  Tensor out = map_to<float>(a, DType::float32, [&](float v) {
    return o == "sqrt" ? std::sqrt(v) : std::fabs(v);
  });
  if (o == "abs") return autograd::record(std::move(out), {&a}, "AbsBackward0", grad::abs(a));
  autograd::Backward backward = grad::sqrt(out);
  return autograd::record(std::move(out), {&a}, "SqrtBackward0", std::move(backward));
}

// ---- amax, equal (scaling lessons) ----

Tensor amax(const Tensor& a, int64_t dim, bool keepdim) {
  const Tensor f = dense_float(a);
  const int64_t given = dim;
  dim = normalize_dim(dim, f.dim());
  int64_t outer, size, inner;
  split3(f.shape(), dim, outer, size, inner);
  if (size == 0 && f.dim() > 0)   // PyTorch names the dim as given, unlike argmax
    throw TensorError(fmt::format("amax(): Expected reduction dim {} to have non-zero size.", given), "IndexError");
  const Shape shape = reduced_shape(f.shape(), dim, keepdim);
  Tensor out = empty(shape);
  const float* in = f.data<float>();
  float* o = out.data<float>();
  for (int64_t b = 0; b < outer; ++b)
    for (int64_t i = 0; i < inner; ++i) {
      float m = in[b * size * inner + i];
      for (int64_t s = 1; s < size && !std::isnan(m); ++s) {
        float v = in[(b * size + s) * inner + i];
        if (std::isnan(v) || v > m) m = v;
      }
      o[b * inner + i] = m;
    }
  if (!a.is_float()) return to_dtype(out, a.dtype());
  autograd::Backward backward = grad::amax(a, out, dim, keepdim);
  return autograd::record(std::move(out), {&a}, "AmaxBackward0", std::move(backward));
}

Tensor amax(const Tensor& a) {
  if (a.numel() == 0)
    throw TensorError("amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
  Tensor out = detach(amax(reshape(a, {-1}), 0, false));
  autograd::Backward backward = grad::amax(a, out, std::nullopt, false);
  return autograd::record(std::move(out), {&a}, "AmaxBackward0", std::move(backward));
}

bool equal(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return false;
  for (int64_t k = 0; k < a.numel(); ++k)
    if (!(a.at(k) == b.at(k))) return false;   // NaN is never equal, as in PyTorch
  return true;
}

}  // namespace attn::core
