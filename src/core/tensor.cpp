// core/tensor.cpp: construction, shape helpers, elementwise arithmetic and layout operations.
//
// What it is: the plain parts of core::Tensor, written with Eigen maps over the row-major
// buffers. Rounding-sensitive loops (softmax, matmul, sums) live in kernels.cpp and reductions
// in ops.cpp. What it is not: lazy, strided or in-place; every operation returns a new tensor.
#include "core/tensor.h"

#include <Eigen/Core>
#include <cmath>
#include <fmt/format.h>

namespace attn::core {

using ArrayF = Eigen::Array<float, Eigen::Dynamic, 1>;
using MapF = Eigen::Map<ArrayF>;
using CMapF = Eigen::Map<const ArrayF>;

// ---- construction ----

int64_t numel_of(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Tensor empty(const Shape& shape, DType dtype) {
  for (int64_t d : shape)
    if (d < 0) throw TensorError(fmt::format("negative dimension {} in shape {}", d, shape_str(shape)));
  Tensor t;
  t.shape = shape;
  t.dtype = dtype;
  if (dtype == DType::float32)
    t.f.assign(static_cast<size_t>(numel_of(shape)), 0.0f);
  else
    t.i.assign(static_cast<size_t>(numel_of(shape)), 0);
  return t;
}

Tensor zeros(const Shape& shape) { return empty(shape); }
Tensor ones(const Shape& shape) { return full(shape, 1.0f); }

Tensor full(const Shape& shape, float value) {
  Tensor t = empty(shape);
  std::fill(t.f.begin(), t.f.end(), value);
  return t;
}

Tensor scalar(float value) { return from_floats({}, {value}); }

Tensor from_floats(const Shape& shape, std::vector<float> data) {
  if (static_cast<int64_t>(data.size()) != numel_of(shape))
    throw TensorError(fmt::format("{} values do not fill shape {}", data.size(), shape_str(shape)));
  Tensor t;
  t.shape = shape;
  t.f = std::move(data);
  return t;
}

Tensor from_ints(const Shape& shape, std::vector<int64_t> data, DType dtype) {
  if (static_cast<int64_t>(data.size()) != numel_of(shape))
    throw TensorError(fmt::format("{} values do not fill shape {}", data.size(), shape_str(shape)));
  Tensor t;
  t.shape = shape;
  t.dtype = dtype;
  t.i = std::move(data);
  return t;
}

Tensor arange(int64_t n) {
  Tensor t = empty({n}, DType::int64);
  for (int64_t k = 0; k < n; ++k) t.i[k] = k;
  return t;
}

// ---- shape helpers ----

int64_t normalize_dim(int64_t dim, int64_t ndim) {
  int64_t lo = ndim == 0 ? -1 : -ndim, hi = ndim == 0 ? 0 : ndim - 1;
  if (dim < lo || dim > hi)
    throw TensorError(fmt::format(
        "Dimension out of range (expected to be in range of [{}, {}], but got {})", lo, hi, dim));
  return dim < 0 ? dim + std::max<int64_t>(ndim, 1) : dim;
}

std::string shape_str(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

// Row-major strides of a contiguous tensor of this shape.
static Shape strides_of(const Shape& shape) {
  Shape s(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

// ---- autograd bookkeeping ----

Tensor with_grad(Tensor out, const std::vector<const Tensor*>& inputs, const char* grad_fn) {
  out.is_parameter = false;
  out.requires_grad = false;
  out.grad_fn.clear();
  for (const Tensor* in : inputs)
    if (in->requires_grad) out.requires_grad = true;
  if (out.requires_grad && out.dtype == DType::float32) out.grad_fn = grad_fn;
  else out.requires_grad = false;
  return out;
}

Tensor detach(const Tensor& t) {
  Tensor out = t;
  out.requires_grad = false;
  out.is_parameter = false;
  out.grad_fn.clear();
  return out;
}

// ---- dtype conversion ----

Tensor to_float(const Tensor& a) {
  if (a.is_float()) return a;
  Tensor out = empty(a.shape);
  for (size_t k = 0; k < a.i.size(); ++k) out.f[k] = static_cast<float>(a.i[k]);
  return out;
}

Tensor to_bool(const Tensor& a) {
  Tensor out = empty(a.shape, DType::boolean);
  for (int64_t k = 0; k < a.numel(); ++k) out.i[k] = a.at(k) != 0.0 ? 1 : 0;
  return out;
}

// ---- elementwise with broadcasting ----

// PyTorch's broadcast rule: align trailing dims; each pair must be equal or one of them 1.
static Shape broadcast_shape(const Shape& a, const Shape& b) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t k = 0; k < n; ++k) {
    int64_t da = k < n - a.size() ? 1 : a[k - (n - a.size())];
    int64_t db = k < n - b.size() ? 1 : b[k - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw TensorError(fmt::format(
          "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
          da, db, k));
    out[k] = da == 1 ? db : da;
  }
  return out;
}

// For each output element (row-major), the flat offset into a tensor of shape `in` broadcast to `out`.
static std::vector<int64_t> broadcast_offsets(const Shape& in, const Shape& out) {
  Shape st = strides_of(in);
  size_t lead = out.size() - in.size();
  int64_t n = numel_of(out);
  std::vector<int64_t> offs(static_cast<size_t>(n));
  Shape idx(out.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (size_t d = lead; d < out.size(); ++d)
      if (in[d - lead] != 1) off += idx[d] * st[d - lead];
    offs[k] = off;
    for (int64_t d = static_cast<int64_t>(out.size()) - 1; d >= 0; --d) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  return offs;
}

static float apply(BinOp op, float x, float y) {
  switch (op) {
    case BinOp::add: return x + y;
    case BinOp::sub: return x - y;
    case BinOp::mul: return x * y;
    case BinOp::div: return x / y;
    case BinOp::pow: return std::pow(x, y);
  }
  return 0.0f;
}

static const char* grad_name(BinOp op) {
  switch (op) {
    case BinOp::add: return "AddBackward0";
    case BinOp::sub: return "SubBackward0";
    case BinOp::mul: return "MulBackward0";
    case BinOp::div: return "DivBackward0";
    case BinOp::pow: return "PowBackward1";
  }
  return "";
}

static Tensor binary_int(BinOp op, const Tensor& a, const Tensor& b, const Shape& shape) {
  Tensor out = empty(shape, DType::int64);
  auto oa = broadcast_offsets(a.shape, shape), ob = broadcast_offsets(b.shape, shape);
  for (size_t k = 0; k < oa.size(); ++k) {
    int64_t x = a.i[oa[k]], y = b.i[ob[k]];
    out.i[k] = op == BinOp::add ? x + y : op == BinOp::sub ? x - y : x * y;
  }
  return out;
}

Tensor binary(BinOp op, const Tensor& a, const Tensor& b) {
  Shape shape = broadcast_shape(a.shape, b.shape);
  if (!a.is_float() && !b.is_float() && op != BinOp::div && op != BinOp::pow)
    return binary_int(op, a, b, shape);
  Tensor fa = to_float(a), fb = to_float(b);
  Tensor out = empty(shape);
  if (fa.shape == fb.shape) {  // fast path: same shape, Eigen does the loop
    CMapF x(fa.f.data(), fa.numel()), y(fb.f.data(), fb.numel());
    MapF z(out.f.data(), out.numel());
    switch (op) {
      case BinOp::add: z = x + y; break;
      case BinOp::sub: z = x - y; break;
      case BinOp::mul: z = x * y; break;
      case BinOp::div: z = x / y; break;
      case BinOp::pow: z = x.pow(y); break;
    }
  } else {
    auto oa = broadcast_offsets(fa.shape, shape), ob = broadcast_offsets(fb.shape, shape);
    for (size_t k = 0; k < oa.size(); ++k) out.f[k] = apply(op, fa.f[oa[k]], fb.f[ob[k]]);
  }
  return with_grad(std::move(out), {&a, &b}, grad_name(op));
}

// tensor ** s: PyTorch special-cases these exponents (pow_tensor_scalar_optimized_kernel).
static float pow_scalar(float x, double s) {
  if (s == 0.5) return std::sqrt(x);
  if (s == 2.0) return x * x;
  if (s == 3.0) return x * x * x;
  if (s == -0.5) return 1.0f / std::sqrt(x);
  if (s == -1.0) return 1.0f / x;
  if (s == -2.0) return 1.0f / (x * x);
  return std::pow(x, static_cast<float>(s));
}

// tensor (op) python number. The number is rounded to float32 first, as PyTorch's wrapped
// scalars are for a float32 tensor. An int64 tensor with an integer scalar stays int64.
Tensor binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left) {
  if (!a.is_float() && s == std::floor(s) && (op == BinOp::add || op == BinOp::sub || op == BinOp::mul)) {
    Tensor b = from_ints({}, {static_cast<int64_t>(s)});
    return scalar_on_left ? binary(op, b, a) : binary(op, a, b);
  }
  Tensor fa = to_float(a);
  Tensor out = empty(fa.shape);
  if (op == BinOp::pow && !scalar_on_left) {
    for (size_t k = 0; k < fa.f.size(); ++k) out.f[k] = pow_scalar(fa.f[k], s);
    return with_grad(std::move(out), {&a}, "PowBackward0");
  }
  float y = static_cast<float>(s);
  for (size_t k = 0; k < fa.f.size(); ++k)
    out.f[k] = scalar_on_left ? apply(op, y, fa.f[k]) : apply(op, fa.f[k], y);
  const char* name = scalar_on_left && op == BinOp::sub ? "RsubBackward1" : grad_name(op);
  return with_grad(std::move(out), {&a}, name);
}

Tensor neg(const Tensor& a) {
  if (!a.is_float()) return binary_scalar(BinOp::mul, a, -1.0);
  Tensor out = a;
  MapF(out.f.data(), out.numel()) = -CMapF(a.f.data(), a.numel());
  return with_grad(std::move(out), {&a}, "NegBackward0");
}

Tensor compare(CmpOp op, const Tensor& a, const Tensor& b) {
  Shape shape = broadcast_shape(a.shape, b.shape);
  Tensor out = empty(shape, DType::boolean);
  auto oa = broadcast_offsets(a.shape, shape), ob = broadcast_offsets(b.shape, shape);
  for (size_t k = 0; k < oa.size(); ++k) {
    double x = a.at(oa[k]), y = b.at(ob[k]);
    bool r = false;
    switch (op) {
      case CmpOp::eq: r = x == y; break;
      case CmpOp::ne: r = x != y; break;
      case CmpOp::lt: r = x < y; break;
      case CmpOp::le: r = x <= y; break;
      case CmpOp::gt: r = x > y; break;
      case CmpOp::ge: r = x >= y; break;
    }
    out.i[k] = r;
  }
  return out;
}

// ---- masks ----

static Tensor triangle(const Tensor& a, int64_t diagonal, bool lower, const char* name) {
  if (a.dim() < 2) throw TensorError("tril/triu: input tensor must have at least 2 dimensions");
  Tensor out = a;
  int64_t rows = a.shape[a.dim() - 2], cols = a.shape[a.dim() - 1];
  int64_t mats = a.numel() / std::max<int64_t>(rows * cols, 1);
  for (int64_t m = 0; m < mats; ++m)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        bool keep = lower ? c - r <= diagonal : c - r >= diagonal;
        if (keep) continue;
        int64_t k = (m * rows + r) * cols + c;
        if (out.is_float()) out.f[k] = 0.0f;
        else out.i[k] = 0;
      }
  return with_grad(std::move(out), {&a}, name);
}

Tensor tril(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, true, "TrilBackward0"); }
Tensor triu(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, false, "TriuBackward0"); }

Tensor masked_fill(const Tensor& a, const Tensor& mask, float value) {
  if (mask.dtype != DType::boolean)
    throw TensorError("masked_fill_ only supports boolean masks, but got mask with dtype " +
                      std::string(mask.dtype == DType::int64 ? "long int" : "float"));
  Shape shape = broadcast_shape(a.shape, mask.shape);
  if (shape != a.shape)
    throw TensorError(fmt::format("masked_fill: mask of shape {} does not broadcast to {}",
                                  shape_str(mask.shape), shape_str(a.shape)));
  Tensor out = to_float(a);
  auto om = broadcast_offsets(mask.shape, shape);
  for (size_t k = 0; k < om.size(); ++k)
    if (mask.i[om[k]]) out.f[k] = value;
  return with_grad(std::move(out), {&a}, "MaskedFillBackward0");
}

// ---- scalar extraction ----

double item(const Tensor& a) {
  if (a.numel() != 1)
    throw TensorError(fmt::format("a Tensor with {} elements cannot be converted to Scalar", a.numel()));
  return a.at(0);
}

}  // namespace attn::core
