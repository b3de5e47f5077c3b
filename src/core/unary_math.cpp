// core/unary_math.cpp: torch.tanh, torch.log, torch.pow and the float ranges (linspace,
// arange) as PyTorch 1.13's CPU kernels compute them (docs/pytorch-numerics.md §13, §14).
//
// What it is: the elementwise loops with ATen's split between a vectorised body and a scalar
// tail where the two round differently (cpu_kernel_vec: the last n % 16 elements of a
// contiguous run take the scalar lambda). vml ops (tanh, log, sqrt) have no tail.
// What it is not: the Sleef arithmetic itself (sleef.cpp) or binding (py/ops_math.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/grad_fns.h"
#include "core/kernels.h"
#include "core/math_ops.h"
#include "core/sleef.h"

namespace attn::core {

namespace {

bool avx2(CpuKernels cpu) { return cpu == CpuKernels::avx2; }

// cpu_kernel_vec / cpu_serial_kernel_vec: 2 vectors of 8 floats per step, the rest scalar.
constexpr int64_t kVecStep = 16;

}  // namespace

// TensorIterator's view of an elementwise op's input: dims sorted by stride (memory order), size-1
// dims dropped, neighbours coalesced where contiguous. Each run of the innermost coalesced dim
// (stride 1) goes to the vectorised loop, whose last `run % 16` elements take the scalar lambda;
// an innermost stride other than 1 runs everything scalar. A contiguous tensor is one run.
std::vector<uint8_t> scalar_tail(const Tensor& x) {
  const int64_t n = x.numel();
  std::vector<uint8_t> tail(static_cast<size_t>(n), 0);
  if (x.is_contiguous()) {   // one run
    std::fill(tail.begin() + (n - n % kVecStep), tail.end(), 1);
    return tail;
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (x.shape()[d] > 1) dims.push_back(d);
  std::stable_sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return x.strides()[a] < x.strides()[b]; });
  size_t group = dims.empty() ? 0 : 1;   // dims[0..group) coalesce into the innermost run
  int64_t run = dims.empty() ? 1 : x.shape()[dims[0]];
  while (group < dims.size() && x.strides()[dims[group]] == x.strides()[dims[group - 1]] * x.shape()[dims[group - 1]]) {
    run *= x.shape()[dims[group]];
    ++group;
  }
  const bool vectorised = dims.empty() || x.strides()[dims[0]] == 1;
  const int64_t body = run - run % kVecStep;
  for_each_offset(x.shape(), [&](int64_t k, int64_t) {
    if (!vectorised) {
      tail[k] = 1;
      return;
    }
    int64_t rest = k, pos = 0;   // the element's place in its run: its index along the coalesced dims
    for (int64_t d = x.dim() - 1; d >= 0; --d) {
      const int64_t i = rest % x.shape()[d];
      rest /= x.shape()[d];
      if (std::find(dims.begin(), dims.begin() + group, d) != dims.begin() + group) pos += i * x.strides()[d];
    }
    tail[k] = pos >= body;
  }, x.strides());
  return tail;
}

namespace {

// out[k] = f(a's element k, whether ATen computes it in the scalar tail), row-major (§13).
template <typename F>
Tensor map_split(const Tensor& a, F f, bool has_tail) {
  const Tensor x = to_float(a);
  Tensor out = empty(x.shape());
  float* o = out.data<float>();
  const float* in = x.data<float>();
  const int64_t n = x.numel();
  if (x.is_contiguous()) {
    const int64_t body = has_tail ? n - n % kVecStep : n;
    for (int64_t k = 0; k < n; ++k) o[k] = f(in[k], k >= body);
  } else {
    const std::vector<uint8_t> tail = has_tail ? scalar_tail(x) : std::vector<uint8_t>(static_cast<size_t>(n), 0);
    for_each_offset(x.shape(), [&](int64_t k, int64_t off) { o[k] = f(in[off], tail[k] != 0); }, x.strides());
  }
  return out;
}

}  // namespace

Tensor tanh(const Tensor& a, CpuKernels cpu) {
  Tensor out = map_split(a, [cpu](float v, bool) { return avx2(cpu) ? sleef::tanhf_u10(v) : ::tanhf(v); }, false);
  autograd::Backward backward = grad::tanh(out, cpu);
  return autograd::record(std::move(out), {&a}, "TanhBackward0", std::move(backward));
}

Tensor log(const Tensor& a, CpuKernels cpu) {
  Tensor out = map_split(a, [cpu](float v, bool) { return avx2(cpu) ? sleef::logf_u10(v) : ::logf(v); }, false);
  return autograd::record(std::move(out), {&a}, "LogBackward0", grad::log(a));
}

Tensor erf(const Tensor& a, CpuKernels cpu) {
  Tensor out = map_split(a, [cpu](float v, bool) { return avx2(cpu) ? sleef::erff_u10(v) : ::erff(v); }, false);
  return autograd::record(std::move(out), {&a}, "ErfBackward0", grad::erf(a, cpu));
}

Tensor rsqrt(const Tensor& a) {
  Tensor out = map_split(a, [](float v, bool) { return 1.0f / std::sqrt(v); }, false);
  autograd::Backward backward = grad::rsqrt(out);
  return autograd::record(std::move(out), {&a}, "RsqrtBackward0", std::move(backward));
}

// pow_tensor_scalar (Pow.cpp, PowKernel.cpp): 0 fills ones, 1 copies; 0.5, -0.5, -1 are the vml
// sqrt / rsqrt / reciprocal kernels; 2, 3, -2 multiply; other exponents call powf(x, fl32(e)) in
// the vector body and std::pow(float, double), i.e. double pow, in the scalar tail.
Tensor pow(const Tensor& a, double e, CpuKernels cpu) {
  if (!a.is_float() && e == std::floor(e) && e >= 0) {   // int64 ** non-negative int stays int64
    const Tensor x = to_dtype(a, DType::int64).contiguous();
    Tensor out = empty(x.shape(), DType::int64);
    const int64_t* in = x.data<int64_t>();
    int64_t* o = out.data<int64_t>();
    for (int64_t k = 0; k < x.numel(); ++k) {
      uint64_t r = 1;
      for (int64_t j = 0; j < static_cast<int64_t>(e); ++j) r *= static_cast<uint64_t>(in[k]);
      o[k] = static_cast<int64_t>(r);
    }
    return out;
  }
  const float ef = static_cast<float>(e);
  Tensor out = map_split(a, [&](float x, bool tail) -> float {
    if (e == 0) return 1.0f;
    if (e == 1) return x;
    if (e == 0.5) return std::sqrt(x);
    if (e == -0.5) return 1.0f / std::sqrt(x);
    if (e == -1) return 1.0f / x;
    if (e == 2) return x * x;
    if (e == 3) return (x * x) * x;
    if (e == -2) return 1.0f / (x * x);
    if (tail) return static_cast<float>(std::pow(static_cast<double>(x), e));
    return avx2(cpu) ? sleef::powf_u10(x, ef) : ::powf(x, ef);
  }, true);
  // PowBackward0 (pow_backward): e == 0 -> zeros, else g * (fl32(e) * x.pow(e - 1)).
  autograd::Backward backward = grad::reads({[x = detach(a), e, ef, cpu](const autograd::Grads& g) {
    if (e == 0) return autograd::Grads{zeros(x.shape())};
    const Tensor d = binary_scalar(BinOp::mul, pow(x, e - 1.0, cpu), ef);
    return autograd::Grads{binary(BinOp::mul, *g[0], d)};
  }}, {a});
  return autograd::record(std::move(out), {&a}, "PowBackward0", std::move(backward));
}

namespace {

// calc_erfinv<float> (ATen/native/Math.h), a scalar cpu_kernel.
float calc_erfinv(float y, CpuKernels cpu) {
  const auto ma = [cpu](float a, float b, float c) { return avx2(cpu) ? std::fma(a, b, c) : a * b + c; };
  static constexpr float a[4] = {0.886226899f, -1.645349621f, 0.914624893f, -0.140543331f};
  static constexpr float b[4] = {-2.118377725f, 1.442710462f, -0.329097515f, 0.012229801f};
  static constexpr float c[4] = {-1.970840454f, -1.624906493f, 3.429567803f, 1.641345311f};
  static constexpr float d[2] = {3.543889200f, 1.637067800f};
  const float y_abs = std::fabs(y);
  if (y_abs > 1.0f) return std::numeric_limits<float>::quiet_NaN();
  if (y_abs == 1.0f) return std::copysign(std::numeric_limits<float>::infinity(), y);
  float x;
  if (y_abs <= 0.7f) {
    const float z = y * y;
    const float num = ma(ma(ma(a[3], z, a[2]), z, a[1]), z, a[0]);
    const float dem = ma(ma(ma(ma(b[3], z, b[2]), z, b[1]), z, b[0]), z, 1.0f);
    x = (y * num) / dem;
  } else {
    const float z = std::sqrt(-::logf((1.0f - y_abs) / 2.0f));
    const float num = ma(ma(ma(c[3], z, c[2]), z, c[1]), z, c[0]);
    const float dem = ma(ma(d[1], z, d[0]), z, 1.0f);
    x = std::copysign(num, y) / dem;
  }
  const float k = 2.0f / static_cast<float>(std::sqrt(M_PI));
  for (int step = 0; step < 2; ++step) x = x - (::erff(x) - y) / (k * ::expf(-x * x));
  return x;
}

// pow_tensor_tensor_kernel: powf on the vector body (Sleef or glibc), glibc powf on the tail.
// Operands of the output's shape and contiguous, or a single broadcast value, form one
// contiguous run; any other broadcast is walked element by element (all scalar).
Tensor pow_tt(const Tensor& base, const Tensor& e, CpuKernels cpu) {
  const Shape shape = broadcast_shapes(base.shape(), e.shape());
  const Tensor x = to_float(base), y = to_float(e);
  Tensor out = empty(shape);
  float* o = out.data<float>();
  const float *px = x.data<float>(), *py = y.data<float>();
  const Shape sx = broadcast_strides(x, shape), sy = broadcast_strides(y, shape), so = out.strides();
  // TensorIterator's inner loop: the trailing dims that coalesce for all three operands form one
  // run; it is vectorised when every operand is contiguous along it, or one input is a single
  // broadcast value (stride 0) and the rest contiguous (VectorizedLoop2d); else all scalar.
  int64_t run = 1;
  int64_t d = static_cast<int64_t>(shape.size()) - 1;   // the innermost dim of size > 1
  while (d >= 0 && shape[d] == 1) --d;
  bool vec = true;
  if (d >= 0) {
    const auto unit = [&](const Shape& s) { return s[d] == 1; };
    vec = (unit(sx) && unit(sy)) || (sx[d] == 0 && unit(sy)) || (unit(sx) && sy[d] == 0);
    run = shape[d];
    for (int64_t e = d - 1; e >= 0; --e) {
      if (shape[e] == 1) continue;
      bool joins = true;
      for (const Shape* s : {&sx, &sy, &so}) joins = joins && (*s)[e] == (*s)[d] * run;
      if (!joins) break;
      run *= shape[e];
    }
  }
  const int64_t body = vec ? run - run % kVecStep : 0;
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) {
    o[k] = (k % run < body && avx2(cpu)) ? sleef::powf_u10(px[i], py[j]) : ::powf(px[i], py[j]);
  }, sx, sy);
  return out;
}

}  // namespace

Tensor pow(const Tensor& a, const Tensor& exponent, CpuKernels cpu) {
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

Tensor erfinv(const Tensor& a, CpuKernels cpu) {
  Tensor out = map_split(a, [cpu](float v, bool) { return calc_erfinv(v, cpu); }, false);
  return with_grad(std::move(out), {&a}, "ErfinvBackward0");
}

// linspace_kernel (RangeFactoriesKernel.cpp) through cpu_serial_kernel_vec: each 8-element
// vector is Vectorized::arange(base, step) = base + fl32(k*step) from one base, chosen once
// per vector from the first or second half; the last steps % 16 elements one by one. The AVX2
// build fuses `start + step*idx` and `end - step*(steps-idx-1)` (GCC contraction), DEFAULT does not.
Tensor linspace(double start, double end, int64_t steps, CpuKernels cpu) {
  if (steps < 0) throw TensorError("number of steps must be non-negative");
  Tensor out = empty({steps});
  if (steps == 0) return out;
  float* o = out.data<float>();
  const float s = static_cast<float>(start), e = static_cast<float>(end);
  if (steps == 1) {
    o[0] = s;
    return out;
  }
  const float step = (e - s) / static_cast<float>(steps - 1);
  const int64_t halfway = steps / 2;
  const auto first = [&](int64_t i) {
    return avx2(cpu) ? std::fma(step, static_cast<float>(i), s) : s + step * static_cast<float>(i);
  };
  const auto second = [&](int64_t i) {
    const float r = static_cast<float>(steps - i - 1);
    return avx2(cpu) ? std::fma(-step, r, e) : e - step * r;
  };
  const int64_t n_vec = steps - steps % kVecStep;
  for (int64_t idx = 0; idx < n_vec; idx += 8) {
    const float base = idx < halfway ? first(idx) : second(idx);
    o[idx] = base;
    for (int64_t k = 1; k < 8; ++k) o[idx + k] = base + static_cast<float>(k) * step;
  }
  for (int64_t i = n_vec; i < steps; ++i) o[i] = i < halfway ? first(i) : second(i);
  return out;
}

// arange_kernel with a float32 result: start and step stay doubles (accscalar_t); a vector's
// base is fl32(start + step*idx), its elements fl32(double(base) + k*step); the tail
// fl32(start + step*idx). Same in both families.
Tensor arange_float(double start, double end, double step) {
  if (step == 0) throw TensorError("step must be nonzero");
  if (!std::isfinite(start) || !std::isfinite(end))
    throw TensorError(fmt::format("unsupported range: {} -> {}", start, end));
  if ((step > 0 && end < start) || (step < 0 && end > start))
    throw TensorError("upper bound and larger bound inconsistent with step sign");
  const double size = std::ceil((end - start) / step);
  Tensor out = empty({static_cast<int64_t>(size)});
  float* o = out.data<float>();
  const int64_t n = out.numel(), n_vec = n - n % kVecStep;
  for (int64_t idx = 0; idx < n_vec; idx += 8) {
    const float base = static_cast<float>(start + step * static_cast<double>(idx));
    for (int64_t k = 0; k < 8; ++k) o[idx + k] = static_cast<float>(static_cast<double>(base) + static_cast<double>(k) * step);
  }
  for (int64_t i = n_vec; i < n; ++i) o[i] = static_cast<float>(start + step * static_cast<double>(i));
  return out;
}

}  // namespace attn::core
