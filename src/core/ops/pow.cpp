// core/ops/pow.cpp: pow with a tensor on either side, forward and backward (ops/pow.h).
//
// What it is: pow_tensor_scalar (0 fills ones, 1 copies; 0.5, -0.5, -1 are the vml sqrt / rsqrt /
// reciprocal kernels; 2, 3, -2 multiply) and pow_tensor_tensor_kernel, each with ATen's vector
// body and scalar tail (ops/loops.h). The backward formulas (derivatives.yaml,
// FunctionsManual.cpp) as core ops on detached tensors (docs/pytorch-numerics.md §12):
//   x ** e: e == 0 -> zeros, else g * (fl32(e) * x.pow(e - 1))
//   x ** e tensor: where(e == 0, 0, g * (e * x.pow(e - 1))) and g * where(x == 0 & e >= 0, 0, y * log(x))
//   s ** e: g * (y * fl32(log(s)))
// What it is not: the Sleef arithmetic (kernels/sleef.cpp).
#include "core/ops/pow.h"

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/autograd.h"
#include "core/kernels/sleef.h"
#include "core/kernels/unary.h"
#include "core/ops/binary.h"
#include "core/ops/loops.h"
#include "core/ops/unary.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

using detail::avx2;
using detail::kVecStep;
using detail::map_split;

// base ** e in int64's wrap-around arithmetic, by squaring (ATen's powi): a negative e gives 1 for
// base 1, +-1 for base -1 and 0 for any other base.
int64_t int_power(int64_t base, int64_t e) {
  if (e < 0) return base == 1 ? 1 : base == -1 ? (e % 2 == 0 ? 1 : -1) : 0;
  uint64_t r = 1, b = static_cast<uint64_t>(base);
  for (uint64_t n = static_cast<uint64_t>(e); n != 0; n >>= 1) {
    if (n & 1) r *= b;
    b *= b;
  }
  return static_cast<int64_t>(r);
}

// Integer tensor ** integer tensor, in their promoted integer dtype (no gradient: integers have none).
Tensor pow_ints(const Tensor& base, const Tensor& e) {
  const Shape shape = broadcast_shapes(base.shape(), e.shape());
  if (base.dtype() == DType::boolean && e.dtype() == DType::boolean) throw TensorError("\"pow\" not implemented for 'Bool'");
  const std::vector<int64_t> b = expand(base, shape).ints(), x = expand(e, shape).ints();
  std::vector<int64_t> out(b.size());
  for (size_t k = 0; k < b.size(); ++k) out[k] = int_power(b[k], x[k]);
  const DType common = result_type(base, e);
  return from_ints(shape, out, common == DType::boolean ? DType::int64 : common);
}

}  // namespace

// ---- tensor ** number ----

namespace {

// out[k] = f(a's element k) for an f that is the same in body and tail, the exponent chosen once.
template <typename F>
Tensor map_all(const Tensor& a, F f) {
  return map_split(a, [f](float x, bool) { return f(x); }, false);
}

// pow_tensor_scalar's values: the special exponents, else Sleef's powf (AVX2 family; glibc's
// in DEFAULT) in the vector body, eight lanes at a time for a contiguous input (kernels::pow),
// and double pow in the scalar tail.
Tensor power(const Tensor& a, double e, CpuKernels cpu) {
  if (e == 0) return map_all(a, [](float) { return 1.0f; });
  if (e == 1) return map_all(a, [](float x) { return x; });
  if (e == 0.5) return map_all(a, [](float x) { return std::sqrt(x); });
  if (e == -0.5) return map_all(a, [](float x) { return 1.0f / std::sqrt(x); });
  if (e == -1) return map_all(a, [](float x) { return 1.0f / x; });
  if (e == 2) return map_all(a, [](float x) { return x * x; });
  if (e == 3) return map_all(a, [](float x) { return (x * x) * x; });
  if (e == -2) return map_all(a, [](float x) { return 1.0f / (x * x); });
  const float ef = static_cast<float>(e);
  return detail::map_fast(a, [ef, cpu](const float* in, float* o, int64_t n) { kernels::pow(in, o, n, ef, cpu); },
                          [ef, e, cpu](float x, bool tail) {
                            return tail ? static_cast<float>(std::pow(static_cast<double>(x), e)) : kernels::vec_pow(x, ef, cpu);
                          }, true);
}

}  // namespace

// pow_tensor_scalar (Pow.cpp, PowKernel.cpp): 0 fills ones, 1 copies; 0.5, -0.5, -1 are the vml
// sqrt / rsqrt / reciprocal kernels; 2, 3, -2 multiply; other exponents call powf(x, fl32(e)) in
// the vector body and std::pow(float, double), i.e. double pow, in the scalar tail.
Tensor pow(const Tensor& a, double e, CpuKernels cpu) {
  if (!a.is_float() && e == std::floor(e) && e >= 0) {   // integer ** non-negative int keeps the dtype
    const Tensor x = to_dtype(a, DType::int64).contiguous();
    Tensor out = empty(x.shape(), DType::int64);
    const int64_t* in = x.data<int64_t>();
    int64_t* o = out.data<int64_t>();
    for (int64_t k = 0; k < x.numel(); ++k) o[k] = int_power(in[k], e >= 0x1p62 ? int64_t{1} << 62 : static_cast<int64_t>(e));   // by squaring: 2 ** 10**15 is at once
    return a.dtype() == DType::boolean ? out : to_dtype(out, a.dtype());
  }
  const float ef = static_cast<float>(e);
  Tensor out = power(a, e, cpu);
  // PowBackward0 (pow_backward): e == 0 -> zeros, else g * (fl32(e) * x.pow(e - 1)).
  autograd::Backward backward = autograd::detail::reads({[x = detach(a), e, ef, cpu](const autograd::Grads& g) {
    if (e == 0) return autograd::Grads{zeros(x.shape())};
    const Tensor d = binary_scalar(BinOp::mul, pow(x, e - 1.0, cpu), ef);
    return autograd::Grads{binary(BinOp::mul, *g[0], d)};
  }}, {a});
  return autograd::record(std::move(out), {&a}, "PowBackward0", std::move(backward));
}

// ---- tensor ** tensor, number ** tensor ----

namespace grad {
namespace {

using autograd::Backward;
using autograd::Grads;
using detail::mul;
using detail::muls;
using detail::zip;

Backward pow_tensor(const Tensor& base, const Tensor& exponent, const Tensor& result, CpuKernels cpu) {
  const bool need_x = base.requires_grad(), need_e = exponent.requires_grad();
  return {[x = detach(base), e = detach(exponent), y = detach(result), need_x, need_e, cpu](const Grads& g) {
    Grads out(2);
    if (need_x) {   // pow_backward_self: where(exponent == 0, 0, grad * (exponent * self.pow(exponent - 1)))
      // exponent - 1 keeps exponent's layout (TensorIterator's output), so the pow below walks
      // x and it in PyTorch's order, Sleef or glibc per element as there
      const Tensor p = core::pow(x, preserve_layout(core::binary_scalar(BinOp::sub, e, 1.0).contiguous(), e), cpu);
      const Tensor d = mul(*g[0], mul(e, p));
      out[0] = zip(e, d, [](float ev, float dv) { return ev == 0.0f ? 0.0f : dv; });
    }
    if (need_e) {   // pow_backward_exponent: grad * where(self == 0 & exponent >= 0, 0, result * self.log())
      const Tensor rl = mul(y, core::log(x, cpu));
      const Tensor zero_x = zip(x, e, [](float xv, float ev) { return (xv == 0.0f && ev >= 0.0f) ? 1.0f : 0.0f; });
      out[1] = mul(*g[0], zip(zero_x, rl, [](float c, float v) { return c != 0.0f ? 0.0f : v; }));
    }
    return out;
  }, true, {base, exponent}, true};   // PowBackward1 saves self, exponent and result
}

Backward pow_scalar_base(double base, const Tensor& exponent, const Tensor& result) {
  return {[base, e = detach(exponent), y = detach(result)](const Grads& g) {
    Tensor d = muls(y, std::log(base));   // (result * base.log()), the log in double
    if (base == 0.0) d = zip(e, d, [](float ev, float dv) { return ev >= 0.0f ? 0.0f : dv; });
    return Grads{mul(*g[0], d)};
  }, true, {exponent}, true};   // PowBackward2 saves exponent and result
}

}  // namespace
}  // namespace grad

namespace {

// pow_tensor_tensor_kernel: powf on the vector body (Sleef or glibc), glibc powf on the tail.
// Operands of the output's shape and contiguous, or a single broadcast value, form one
// contiguous run; any other broadcast is walked element by element (all scalar).
Tensor pow_tt(const Tensor& base, const Tensor& e, CpuKernels cpu) {
  const Shape shape = broadcast_shapes(base.shape(), e.shape());
  // an integer operand cast as TensorIterator casts it (.to(float), its layout kept)
  const auto cast = [](const Tensor& t) { return t.is_float() ? t : preserve_layout(to_float(t), t); };
  const Tensor x = expand(cast(base), shape), y = expand(cast(e), shape);   // [shape], views
  Tensor out = empty(shape);
  float* o = out.data<float>();
  const float *px = x.data<float>(), *py = y.data<float>();
  // TensorIterator's loop: dims sorted by the operands' strides and coalesced (a permuted dense
  // layout is one run), vectorised (Sleef) when every operand is contiguous along the inner run
  // or one input is a single broadcast value there; the tail of each run, or every element of a
  // scalar loop, takes glibc's powf (ops/loops.h binary_loop).
  const std::vector<uint8_t> tail = shape.empty() ? std::vector<uint8_t>{1} : detail::binary_loop(x, y).tail;
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) {
    o[k] = (tail[static_cast<size_t>(k)] == 0 && avx2(cpu)) ? sleef::powf_u10(px[i], py[j]) : ::powf(px[i], py[j]);
  }, x.strides(), y.strides());
  return out;
}

}  // namespace

Tensor pow(const Tensor& a, const Tensor& exponent, CpuKernels cpu) {
  if (!a.is_float() && !exponent.is_float()) return pow_ints(a, exponent);
  Tensor out = pow_tt(a, exponent, cpu);
  autograd::Backward backward = grad::pow_tensor(a, exponent, out, cpu);
  return autograd::record(std::move(out), {&a, &exponent}, "PowBackward1", std::move(backward));
}

// pow(Scalar, Tensor): the base becomes a wrapped 0-d tensor, rounded to float32.
Tensor pow(double base, const Tensor& exponent, CpuKernels cpu) {
  const Tensor b = scalar(static_cast<float>(base));
  Tensor out = pow_tt(b, exponent, cpu);
  autograd::Backward backward = grad::pow_scalar_base(base, exponent, out);
  return autograd::record(std::move(out), {&exponent}, "PowBackward2", std::move(backward));
}

}  // namespace attn::core
