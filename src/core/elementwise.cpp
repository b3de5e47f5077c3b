// core/elementwise.cpp: arithmetic, comparisons and masks, element by element, broadcasting as
// PyTorch does.
//
// What it is: out-of-place elementwise ops over inputs of any layout. A broadcast operand is
// read through strides (0 along a broadcast dim, broadcast_strides()), never through a table
// of per-element offsets, and inputs that are contiguous and of the output's shape take a flat
// (Eigen-vectorised) loop. Each op records PyTorch 1.13's grad_fn name.
// What it is not: in place (inplace.cpp), or a place for rounding subtleties beyond one IEEE
// operation per element (kernels.cpp holds those).
#include <Eigen/Core>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/grad_fns.h"
#include "core/parallel.h"
#include "core/tensor.h"

namespace attn::core {

namespace {

using ArrayF = Eigen::Array<float, Eigen::Dynamic, 1>;
using MapF = Eigen::Map<ArrayF>;
using CMapF = Eigen::Map<const ArrayF>;

float apply(BinOp op, float x, float y) {
  switch (op) {
    case BinOp::add: return x + y;
    case BinOp::sub: return x - y;
    case BinOp::mul: return x * y;
    case BinOp::div: return x / y;
    case BinOp::pow: return std::pow(x, y);
  }
  return 0.0f;
}

const char* grad_name(BinOp op) {
  switch (op) {
    case BinOp::add: return "AddBackward0";
    case BinOp::sub: return "SubBackward0";
    case BinOp::mul: return "MulBackward0";
    case BinOp::div: return "DivBackward0";
    case BinOp::pow: return "PowBackward1";
  }
  return "";
}

// Wrap-around integer arithmetic, as PyTorch's int64 kernels (no undefined overflow).
int64_t apply_int(BinOp op, int64_t x, int64_t y) {
  const auto ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  switch (op) {
    case BinOp::add: return static_cast<int64_t>(ux + uy);
    case BinOp::sub: return static_cast<int64_t>(ux - uy);
    default: return static_cast<int64_t>(ux * uy);
  }
}

Tensor binary_int(BinOp op, const Tensor& a, const Tensor& b, const Shape& shape) {
  const Tensor ia = to_dtype(a, DType::int64), ib = to_dtype(b, DType::int64);
  Tensor out = empty(shape, DType::int64);
  const int64_t *x = ia.data<int64_t>(), *y = ib.data<int64_t>();
  int64_t* o = out.data<int64_t>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = apply_int(op, x[i], y[j]); },
                  broadcast_strides(ia, shape), broadcast_strides(ib, shape));
  return out;
}

// True when `t` can be read as a flat array of `shape` (same shape, contiguous).
bool flat(const Tensor& t, const Shape& shape) { return t.shape() == shape && t.is_contiguous(); }

}  // namespace

// PyTorch's broadcast rule: align trailing dims; each pair must be equal or one of them 1.
Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t k = 0; k < n; ++k) {
    const int64_t da = k < n - a.size() ? 1 : a[k - (n - a.size())];
    const int64_t db = k < n - b.size() ? 1 : b[k - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw TensorError(fmt::format(
          "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}", da, db, k));
    out[k] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_strides(const Tensor& t, const Shape& shape) {
  const size_t lead = shape.size() - t.shape().size();
  Shape strides(shape.size(), 0);
  for (size_t d = 0; d < t.shape().size(); ++d)
    if (t.shape()[d] != 1) strides[lead + d] = t.strides()[d];
  return strides;
}

Tensor binary(BinOp op, const Tensor& a, const Tensor& b) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  if (!a.is_float() && !b.is_float() && op != BinOp::div && op != BinOp::pow) return binary_int(op, a, b, shape);
  const Tensor fa = to_float(a), fb = to_float(b);
  Tensor out = empty(shape);
  const float *x = fa.data<float>(), *y = fb.data<float>();
  float* o = out.data<float>();
  if (flat(fa, shape) && flat(fb, shape)) {  // one flat loop, Eigen-vectorised
    CMapF xs(x, out.numel()), ys(y, out.numel());
    MapF z(o, out.numel());
    switch (op) {
      case BinOp::add: z = xs + ys; break;
      case BinOp::sub: z = xs - ys; break;
      case BinOp::mul: z = xs * ys; break;
      case BinOp::div: z = xs / ys; break;
      case BinOp::pow: z = xs.pow(ys); break;
    }
  } else {
    for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = apply(op, x[i], y[j]); },
                    broadcast_strides(fa, shape), broadcast_strides(fb, shape));
  }
  return autograd::record(std::move(out), {&a, &b}, grad_name(op), grad::binary(op, a, b));
}

namespace {

// tensor ** s: PyTorch special-cases these exponents (pow_tensor_scalar_optimized_kernel).
float pow_scalar(float x, double s) {
  if (s == 0.5) return std::sqrt(x);
  if (s == 2.0) return x * x;
  if (s == 3.0) return x * x * x;
  if (s == -0.5) return 1.0f / std::sqrt(x);
  if (s == -1.0) return 1.0f / x;
  if (s == -2.0) return 1.0f / (x * x);
  return std::pow(x, static_cast<float>(s));
}

// Contiguous maps of at least this many elements (1 MB of floats) are shared among the threads
// in blocks; each element depends on its own input only, so no thread count changes a bit.
constexpr int64_t kParallelElements = int64_t{1} << 18;

// out[k] = f(a's element k) for a float32 `a` of any layout; out is a new contiguous tensor.
template <typename F>
Tensor map_float(const Tensor& a, F f) {
  Tensor out = empty(a.shape());
  const float* x = a.data<float>();
  float* o = out.data<float>();
  if (a.is_contiguous()) {
    const int64_t n = a.numel(), block = kParallelElements / 4;
    const int threads = n >= kParallelElements ? parallel::max_threads() : 1;
    parallel::run((n + block - 1) / block, threads, [&](int64_t task) {
      const int64_t end = std::min(n, (task + 1) * block);
      for (int64_t k = task * block; k < end; ++k) o[k] = f(x[k]);
    });
  } else {
    for_each_offset(a.shape(), [&](int64_t k, int64_t i) { o[k] = f(x[i]); }, a.strides());
  }
  return out;
}

}  // namespace

// tensor (op) python number. The number is rounded to float32 first, as PyTorch's wrapped
// scalars are for a float32 tensor. An int64 tensor with an integer scalar stays int64.
Tensor binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left) {
  const bool int_scalar = s == std::floor(s) && std::fabs(s) < 9223372036854775808.0;
  if (!a.is_float() && int_scalar && (op == BinOp::add || op == BinOp::sub || op == BinOp::mul)) {
    const Tensor b = from_ints({}, {static_cast<int64_t>(s)});
    return scalar_on_left ? binary(op, b, a) : binary(op, a, b);
  }
  const Tensor fa = to_float(a);
  if (op == BinOp::pow && !scalar_on_left)
    return autograd::record(map_float(fa, [s](float x) { return pow_scalar(x, s); }), {&a}, "PowBackward0",
                            grad::binary_scalar(op, a, s, false));
  const float y = static_cast<float>(s);
  Tensor out;  // the op picked once, outside the loop, so the loop vectorises
  switch (op) {
    case BinOp::add: out = scalar_on_left ? map_float(fa, [y](float x) { return y + x; }) : map_float(fa, [y](float x) { return x + y; }); break;
    case BinOp::sub: out = scalar_on_left ? map_float(fa, [y](float x) { return y - x; }) : map_float(fa, [y](float x) { return x - y; }); break;
    case BinOp::mul: out = scalar_on_left ? map_float(fa, [y](float x) { return y * x; }) : map_float(fa, [y](float x) { return x * y; }); break;
    case BinOp::div: out = scalar_on_left ? map_float(fa, [y](float x) { return y / x; }) : map_float(fa, [y](float x) { return x / y; }); break;
    case BinOp::pow: out = map_float(fa, [y](float x) { return apply(BinOp::pow, y, x); }); break;  // s ** tensor
  }
  const char* name = scalar_on_left && op == BinOp::sub ? "RsubBackward1" : grad_name(op);
  return autograd::record(std::move(out), {&a}, name, grad::binary_scalar(op, a, s, scalar_on_left));
}

Tensor neg(const Tensor& a) {
  if (!a.is_float()) return binary_scalar(BinOp::mul, a, -1.0);
  return autograd::record(map_float(a, [](float x) { return -x; }), {&a}, "NegBackward0", grad::neg());
}

namespace {

template <typename T>
bool compare_values(CmpOp op, T x, T y) {
  switch (op) {
    case CmpOp::eq: return x == y;
    case CmpOp::ne: return x != y;
    case CmpOp::lt: return x < y;
    case CmpOp::le: return x <= y;
    case CmpOp::gt: return x > y;
    case CmpOp::ge: return x >= y;
  }
  return false;
}

template <typename T>
void compare_as(CmpOp op, const Tensor& a, const Tensor& b, Tensor& out) {
  const T *x = a.data<T>(), *y = b.data<T>();
  uint8_t* o = out.data<uint8_t>();
  for_each_offset(out.shape(), [&](int64_t k, int64_t i, int64_t j) { o[k] = compare_values(op, x[i], y[j]); },
                  broadcast_strides(a, out.shape()), broadcast_strides(b, out.shape()));
}

}  // namespace

// Both sides in their common type, as PyTorch promotes them: float32 if either is, else int64.
Tensor compare(CmpOp op, const Tensor& a, const Tensor& b) {
  Tensor out = empty(broadcast_shapes(a.shape(), b.shape()), DType::boolean);
  if (a.is_float() || b.is_float()) compare_as<float>(op, to_float(a), to_float(b), out);
  else compare_as<int64_t>(op, to_dtype(a, DType::int64), to_dtype(b, DType::int64), out);
  return out;
}

// ---- masks ----

namespace {

// Zero the elements (r, c) of every matrix of the contiguous `out` for which keep(r, c) is false.
template <typename T, typename Keep>
void zero_outside(Tensor& out, Keep keep) {
  const int64_t rows = out.shape()[out.dim() - 2], cols = out.shape()[out.dim() - 1];
  const int64_t mats = rows * cols == 0 ? 0 : out.numel() / (rows * cols);
  T* p = out.data<T>();
  for (int64_t m = 0; m < mats; ++m)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        if (!keep(r, c)) p[(m * rows + r) * cols + c] = T{0};
}

Tensor triangle(const Tensor& a, int64_t diagonal, bool lower, const char* name) {
  if (a.dim() < 2) throw TensorError("tril/triu: input tensor must have at least 2 dimensions");
  Tensor out = a.clone();
  auto keep = [&](int64_t r, int64_t c) { return lower ? c - r <= diagonal : c - r >= diagonal; };
  switch (out.dtype()) {
    case DType::float32: zero_outside<float>(out, keep); break;
    case DType::int64: zero_outside<int64_t>(out, keep); break;
    case DType::boolean: zero_outside<uint8_t>(out, keep); break;
  }
  return autograd::record(std::move(out), {&a}, name, grad::triangle(diagonal, lower));
}

}  // namespace

Tensor tril(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, true, "TrilBackward0"); }
Tensor triu(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, false, "TriuBackward0"); }

// Out of place: self broadcast with the mask (as PyTorch's expand_outplace), copied, filled.
Tensor masked_fill(const Tensor& a, const Tensor& mask, float value) {
  const Shape shape = broadcast_shapes(a.shape(), mask.shape());
  if (mask.dtype() != DType::boolean)
    throw TensorError("masked_fill_ only supports boolean masks, but got mask with dtype " +
                      std::string(mask.dtype() == DType::int64 ? "long int" : "float"));
  Tensor out = (shape == a.shape() ? a : make_view(a, shape, broadcast_strides(a, shape), a.offset())).clone();
  masked_fill_(out, mask, value);
  return autograd::record(std::move(out), {&a}, "MaskedFillBackward0", grad::masked_fill(mask));
}

}  // namespace attn::core
