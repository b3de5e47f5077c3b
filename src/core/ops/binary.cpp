// core/ops/binary.cpp: + - * / ** and unary minus, forward and backward (ops/binary.h).
//
// What it is: out-of-place elementwise ops over inputs of any layout. A broadcast operand is read
// through strides (0 along a broadcast dim, broadcast_strides()), never through a table of
// per-element offsets, and inputs that are contiguous and of the output's shape take a flat
// (Eigen-vectorised) loop; tensor (op) number maps are shared among threads when big. Each op
// records PyTorch 1.13's grad_fn. The backward formulas (tools/autograd/derivatives.yaml,
// FunctionsManual.cpp) are core ops on detached tensors, so each rounds as the ATen kernel does:
//   a + b: g, g            a - b: g, -g          a * b: g*b, g*a       a / b: g/b, -g*((a/b)/b)
//   x (op) s: the same with fl32(s)              -x: -g                x ** s: g * (fl32(s) * x**(s-1))
// docs/pytorch-numerics.md §12.
// What it is not: in place (ops/inplace.cpp), or a place for rounding subtleties beyond one IEEE
// operation per element (kernels/ holds those).
#include "core/ops/binary.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/deadline.h"
#include "core/ops/loops.h"
#include "core/ops/views.h"
#include "core/parallel.h"

namespace attn::core {

// ---- tensor (op) tensor ----

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

Tensor binary(BinOp op, const Tensor& a, const Tensor& b) { return binary(op, a, b, result_type(a, b)); }

void check_sub_dtypes(DType a, DType b) {
  if (a == DType::boolean && b == DType::boolean)
    throw TensorError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
  if (a == DType::boolean || b == DType::boolean)
    throw TensorError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

// In `common`, the promoted dtype: bool and the integer dtypes compute + - * in int64 and wrap
// the result into it (the same bits as PyTorch's kernels in that dtype: the ops are modular);
// / and ** and float32 compute in float32.
// Flat loops, Eigen-vectorised, a deadline look between them.
void binary_flat(BinOp op, const float* x, const float* y, float* o, int64_t n) {
  DeadlineMeter meter;   // core/deadline.h: a clock read per kDeadlineStride elements, none for small ops
  for (int64_t at = 0; at < n; at += kDeadlineStride) {
    const int64_t len = std::min(kDeadlineStride, n - at);
    CMapF xs(x + at, len), ys(y + at, len);
    MapF z(o + at, len);
    switch (op) {
      case BinOp::add: z = xs + ys; break;
      case BinOp::sub: z = xs - ys; break;
      case BinOp::mul: z = xs * ys; break;
      case BinOp::div: z = xs / ys; break;
      case BinOp::pow: z = xs.pow(ys); break;
    }
    meter.add(len);
  }
}

namespace {

// One output row of n: x and y each either n contiguous floats (step 1) or one float broadcast
// along the row (step 0); Eigen-vectorised like binary_flat, every element x (op) y, x first.
void binary_row(BinOp op, const float* x, int64_t sx, const float* y, int64_t sy, float* o, int64_t n) {
  MapF z(o, n);
  if (sx == 1 && sy == 1) {
    binary_flat(op, x, y, o, n);
  } else if (sx == 1) {
    const CMapF xs(x, n);
    const float c = *y;
    switch (op) {
      case BinOp::add: z = xs + c; break;
      case BinOp::sub: z = xs - c; break;
      case BinOp::mul: z = xs * c; break;
      case BinOp::div: z = xs / c; break;
      case BinOp::pow: for (int64_t k = 0; k < n; ++k) o[k] = apply(op, x[k], c); break;
    }
  } else {
    const CMapF ys(y, n);
    const float c = *x;
    switch (op) {
      case BinOp::add: z = c + ys; break;
      case BinOp::sub: z = c - ys; break;
      case BinOp::mul: z = c * ys; break;
      case BinOp::div: z = c / ys; break;
      case BinOp::pow: for (int64_t k = 0; k < n; ++k) o[k] = apply(op, c, y[k]); break;
    }
  }
}

// A broadcast whose rows are contiguous or broadcast in each operand ((T, 768) - (T, 1), or
// (T, 768) * (768,), as LayerNorm's steps are): row by row with binary_row. False (nothing
// done) for another layout, or rows too short to gain, or pow (its own loop stays).
bool binary_by_rows(BinOp op, const Tensor& fa, const Tensor& fb, const Shape& shape, float* o) {
  if (shape.empty() || shape.back() < 8 || op == BinOp::pow) return false;
  Shape sa = broadcast_strides(fa, shape), sb = broadcast_strides(fb, shape);
  const int64_t n = shape.back(), ia = sa.back(), ib = sb.back();
  if ((ia != 0 && ia != 1) || (ib != 0 && ib != 1) || (ia == 0 && ib == 0)) return false;
  sa.pop_back();
  sb.pop_back();
  const Shape rows(shape.begin(), shape.end() - 1);
  const float *x = fa.data<float>(), *y = fb.data<float>();
  DeadlineMeter meter;
  for_each_offset(rows, [&](int64_t k, int64_t i, int64_t j) {
    binary_row(op, x + i, ia, y + j, ib, o + k * n, n);
    meter.add(n);
  }, sa, sb);
  return true;
}

}  // namespace

Tensor binary(BinOp op, const Tensor& a, const Tensor& b, DType common) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  const bool exact = op != BinOp::div && op != BinOp::pow;
  if (op == BinOp::sub) check_sub_dtypes(a.dtype(), b.dtype());
  if (common == DType::boolean && exact) {   // bool (op) bool stays bool in PyTorch: + is or, * is and
    return to_dtype(binary_int(op, a, b, shape), DType::boolean);
  }
  if (is_integral(common) && exact) return to_dtype(binary_int(op, a, b, shape), common);
  const Tensor fa = to_float(a), fb = to_float(b);
  Tensor out = uninitialized(shape);
  const float *x = fa.data<float>(), *y = fb.data<float>();
  float* o = out.data<float>();
  if (flat(fa, shape) && flat(fb, shape)) {
    binary_flat(op, x, y, o, out.numel());
  } else if (!binary_by_rows(op, fa, fb, shape, o)) {
    for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = apply(op, x[i], y[j]); },
                    broadcast_strides(fa, shape), broadcast_strides(fb, shape));
  }
  return autograd::record(std::move(out), {&a, &b}, grad_name(op), grad::binary(op, a, b));
}

Tensor add_alpha(const Tensor& a, const Tensor& b, float alpha, CpuKernels cpu) {
  const Tensor bx = b.shape() == a.shape() ? b : expand(b, a.shape());   // [a's shape], 0 strides where broadcast
  const detail::BinaryLoop loop = detail::binary_loop(a, bx);
  const bool fused = cpu == CpuKernels::avx2;
  // The AVX2 build's scalar tail with b broadcast (m elements): GCC runs its first element as a
  // contracted FMA, then 4-wide vectors with alpha*b hoisted (rounded) while 4 are left, the rest fused.
  const int64_t m = loop.run % detail::kVecStep, hoisted = m >= 5 ? 4 * ((m - 1) / 4) : 0;
  Tensor out = uninitialized(a.shape());   // [a's shape], row-major; laid out below
  const float *x = a.data<float>(), *y = bx.data<float>();
  float* o = out.data<float>();
  DeadlineMeter meter;   // core/deadline.h
  for_each_offset(a.shape(), [&](int64_t k, int64_t i, int64_t j) {
    const int64_t place = loop.scalar_b ? loop.tail[static_cast<size_t>(k)] - 1 : -1;   // in the tail, or -1
    const bool two_roundings = !fused || (place >= 1 && place <= hoisted);
    o[k] = two_roundings ? x[i] + alpha * y[j] : std::fma(alpha, y[j], x[i]);
    meter.add(1);
  }, a.strides(), bx.strides());
  if (out.dim() == 0 || out.numel() == 0 || loop.out_strides == out.strides()) return out;
  return relayout(std::move(out), loop.out_strides);
}

// ---- tensor (op) number, -tensor ----

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
  Tensor out = uninitialized(a.shape());
  const float* x = a.data<float>();
  float* o = out.data<float>();
  if (a.is_contiguous()) {
    const int64_t n = a.numel(), block = kParallelElements / 4;
    const int threads = n >= kParallelElements ? parallel::max_threads() : 1;
    parallel::run((n + block - 1) / block, threads, [&](int64_t task) {
      if (task % 4 == 3) check_deadline();   // core/deadline.h: every kDeadlineStride elements, none for small maps
      const int64_t end = std::min(n, (task + 1) * block);
      for (int64_t k = task * block; k < end; ++k) o[k] = f(x[k]);
    });
  } else {
    for_each_offset(a.shape(), [&](int64_t k, int64_t i) { o[k] = f(x[i]); }, a.strides());
  }
  return out;
}

}  // namespace

namespace grad {

using autograd::Grads;

namespace {
Backward neg() {   // NegBackward0
  return {[](const Grads& g) { return Grads{core::neg(*g[0])}; }, false};
}
}  // namespace
}  // namespace grad

// tensor (op) python number. The number is rounded to float32 first, as PyTorch's wrapped
// scalars are for a float32 tensor. An int64 tensor with an integer scalar stays int64.
Tensor binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left, std::optional<DType> number) {
  const bool int_scalar = s == std::floor(s) && std::fabs(s) < 9223372036854775808.0;
  const DType category = number ? *number : int_scalar ? DType::int64 : DType::float32;
  const DType common = result_type(a, category);
  if (op == BinOp::sub) check_sub_dtypes(a.dtype(), category);
  if (common != DType::float32 && (op == BinOp::add || op == BinOp::sub || op == BinOp::mul)) {
    const Tensor b = from_ints({}, {float_to_int(s, DType::int64)});
    return scalar_on_left ? binary(op, b, a, common) : binary(op, a, b, common);
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
  if (a.dtype() == DType::boolean)
    throw TensorError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
  if (!a.is_float()) return binary_scalar(BinOp::mul, a, -1.0);
  return autograd::record(map_float(a, [](float x) { return -x; }), {&a}, "NegBackward0", grad::neg());
}

// ---- // and % ----

namespace {

// Python's floor division and modulo of int64 values (ATen's div_floor and remainder kernels for
// integers); y != 0. INT64_MIN // -1 wraps, as the hardware would, instead of overflowing.
int64_t floor_div_int(int64_t x, int64_t y) {
  if (y == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
  const int64_t q = x / y;
  return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
}

int64_t mod_int(int64_t x, int64_t y) {
  if (y == -1) return 0;
  const int64_t r = x % y;
  return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}

// ATen 1.13's div_floor_floating: the quotient of fmod, floored, rounded to the nearer integer.
float floor_div_float(float a, float b) {
  if (b == 0) return a / b;
  const float mod = std::fmod(a, b);
  float div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1.0f;
  if (div == 0) return std::copysign(0.0f, a / b);
  float floordiv = std::floor(div);
  if (div - floordiv > 0.5f) floordiv += 1.0f;
  return floordiv;
}

float mod_float(float a, float b) {
  float mod = std::fmod(a, b);
  if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
  return mod;
}

}  // namespace

Tensor floor_divide_or_remainder(bool remainder, const Tensor& a, const Tensor& b, DType common) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  if (common == DType::boolean) throw TensorError(remainder ? "\"remainder_cpu\" not implemented for 'Bool'" : "\"div_floor_cpu\" not implemented for 'Bool'");
  if (common == DType::float32) {
    const Tensor fa = to_float(a), fb = to_float(b);
    Tensor out = uninitialized(shape);
    const float *x = fa.data<float>(), *y = fb.data<float>();
    float* o = out.data<float>();
    for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = remainder ? mod_float(x[i], y[j]) : floor_div_float(x[i], y[j]); },
                    broadcast_strides(fa, shape), broadcast_strides(fb, shape));
    return with_grad(std::move(out), {&a, &b}, remainder ? "RemainderBackward0" : "DivBackward0");
  }
  // in `common` first (uint8 // -1 divides by 255), then exactly in int64
  const Tensor ia = to_dtype(to_dtype(a, common), DType::int64), ib = to_dtype(to_dtype(b, common), DType::int64);
  const std::vector<int64_t> ys = ib.ints();
  if (numel_of(shape) > 0)   // nothing divided when the result is empty
    for (int64_t y : ys)
      if (y == 0) throw TensorError("ZeroDivisionError");
  Tensor out = empty(shape, DType::int64);
  const int64_t *x = ia.data<int64_t>(), *y = ib.data<int64_t>();
  int64_t* o = out.data<int64_t>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = remainder ? mod_int(x[i], y[j]) : floor_div_int(x[i], y[j]); },
                  broadcast_strides(ia, shape), broadcast_strides(ib, shape));
  return to_dtype(out, common);
}

Tensor fmod(const Tensor& a, const Tensor& b, DType common) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  if (common == DType::boolean) throw TensorError("\"fmod_cpu\" not implemented for 'Bool'");
  if (common == DType::float32) {
    const Tensor fa = to_float(a), fb = to_float(b);
    Tensor out = empty(shape);
    const float *x = fa.data<float>(), *y = fb.data<float>();
    float* o = out.data<float>();
    for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = std::fmod(x[i], y[j]); },
                    broadcast_strides(fa, shape), broadcast_strides(fb, shape));
    return out;
  }
  const Tensor ia = to_dtype(to_dtype(a, common), DType::int64), ib = to_dtype(to_dtype(b, common), DType::int64);
  if (numel_of(shape) > 0)
    for (int64_t y : ib.ints())
      if (y == 0) throw TensorError("ZeroDivisionError");
  Tensor out = empty(shape, DType::int64);
  const int64_t *x = ia.data<int64_t>(), *y = ib.data<int64_t>();
  int64_t* o = out.data<int64_t>();
  // x % -1 is 0 (INT64_MIN % -1 traps in C; PyTorch's int64 kernel would, its narrower ones give 0)
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = y[j] == -1 ? 0 : x[i] % y[j]; },
                  broadcast_strides(ia, shape), broadcast_strides(ib, shape));
  return to_dtype(out, common);
}

// ---- backward ----

namespace grad {

using autograd::detail::reads;

// A gradient `first (op) second` in the layout ATen's TensorIterator gives it (derivatives.yaml's
// operand order), so the engine's sum_to adds in PyTorch's order (docs/pytorch-numerics.md §12).
Tensor binary_grad_layout(Tensor r, const Tensor& first, const Tensor& second) {
  return keep_layout(std::move(r), {&first, &second});
}

Backward binary(BinOp op, const Tensor& a, const Tensor& b) {
  const bool need_a = a.requires_grad(), need_b = b.requires_grad();
  switch (op) {
    case BinOp::add: return {[](const Grads& g) { return Grads{*g[0], *g[0]}; }, false};
    case BinOp::sub: return {[](const Grads& g) { return Grads{*g[0], keep_layout(neg(*g[0]), {&*g[0]})}; }, false};
    case BinOp::mul: {
      Backward bw{[sa = detach(a), sb = detach(b), need_a, need_b](const Grads& g) {
        Grads out(2);
        if (need_a) out[0] = binary_grad_layout(core::binary(BinOp::mul, *g[0], sb), *g[0], sb);
        if (need_b) out[1] = binary_grad_layout(core::binary(BinOp::mul, *g[0], sa), *g[0], sa);
        return out;
      }};
      std::vector<Tensor> saved;   // self is saved for other's gradient, other for self's
      if (need_b) saved.push_back(a);
      if (need_a) saved.push_back(b);
      return reads(std::move(bw), saved);
    }
    case BinOp::div:
      return reads({[sa = detach(a), sb = detach(b), need_a, need_b](const Grads& g) {
        Grads out(2);
        if (need_a) out[0] = binary_grad_layout(core::binary(BinOp::div, *g[0], sb), *g[0], sb);
        if (need_b) {   // -grad * ((self / other) / other)
          const Tensor q = keep_layout(core::binary(BinOp::div, core::binary(BinOp::div, sa, sb), sb), {&sa, &sb});
          const Tensor ng = keep_layout(core::neg(*g[0]), {&*g[0]});   // -grad, in grad's memory order
          out[1] = binary_grad_layout(core::binary(BinOp::mul, ng, q), ng, q);
        }
        return out;
      }}, need_b ? std::vector<Tensor>{a, b} : std::vector<Tensor>{b});
    case BinOp::pow: return {};   // tensor ** tensor: PowBackward1, not implemented
  }
  return {};
}

Backward binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left) {
  const float fs = static_cast<float>(s);   // the wrapped scalar, as float32
  switch (op) {
    case BinOp::add: return {[](const Grads& g) { return Grads{*g[0]}; }, false};
    case BinOp::sub:
      if (scalar_on_left) return {[](const Grads& g) { return Grads{keep_layout(neg(*g[0]), {&*g[0]})}; }, false};   // RsubBackward1
      return {[](const Grads& g) { return Grads{*g[0]}; }, false};
    case BinOp::mul: return {[fs](const Grads& g) { return Grads{keep_layout(core::binary_scalar(BinOp::mul, *g[0], fs), {&*g[0]}, true)}; }};
    case BinOp::div:
      if (scalar_on_left) return {};   // s / x: not implemented
      return {[fs](const Grads& g) { return Grads{keep_layout(core::binary_scalar(BinOp::div, *g[0], fs), {&*g[0]}, true)}; }};
    case BinOp::pow:
      if (scalar_on_left) return {};
      // pow_backward: e == 0 -> zeros; else grad * (fl32(e) * self.pow(e - 1)), pow's special cases
      return {[x = detach(a), s, fs](const Grads& g) {
        if (s == 0.0) return Grads{zeros(x.shape())};
        const Tensor d = core::binary_scalar(BinOp::mul, core::binary_scalar(BinOp::pow, x, s - 1.0), fs);
        return Grads{core::binary(BinOp::mul, *g[0], d)};
      }};
  }
  return {};
}

}  // namespace grad

}  // namespace attn::core
