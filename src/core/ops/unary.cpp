// core/ops/unary.cpp: exp, tanh, sigmoid, reciprocal, log, erf, sin, cos, rsqrt, sqrt, abs, erfinv, isnan, isinf, forward and
// backward (ops/unary.h).
//
// What it is: the elementwise loops of ATen's kernels: vml ops (exp, tanh, log, erf, sqrt) run
// one function over every element, the tail too; cpu_kernel_vec ops take ops/loops.h's split
// between a vectorised body and a scalar tail where the two round differently (none here does).
// The backward formulas (derivatives.yaml, FunctionsManual.cpp), each written with core ops on
// detached tensors so each step rounds as the ATen kernel does (docs/pytorch-numerics.md §12):
//   exp: g * y                      tanh: g * (1 - y*y)                sqrt: g / (2*y)
//   sigmoid: (g * (1 - y)) * y        reciprocal: -g * (y*y)
//   rsqrt: (-0.5*g) * ((y*y)*y)     log: g / x                         abs: g * sgn(x)
//   erf: (fl32(2/sqrt(pi)) * exp(-(x*x))) * g
//   sin: g * cos(x)                 cos: g * -sin(x)     (cos, sin: the forward kernels on x)
// sin and cos are vml kernels over TensorIterator's runs (ops/loops.h's vml_runs), whose 8-lane
// vectors share one Sleef branch (§20).
// A contiguous input of tanh, sigmoid, log, erf and rsqrt goes through kernels/unary.h's buffer kernels
// (eight lanes at a time on a CPU with AVX2 and FMA, the same bits), any other element by element.
// What it is not: the Sleef arithmetic itself (kernels/sleef.cpp), the buffer kernels
// (kernels/unary.cpp), or binding (torch/ops_math.cpp).
#include "core/ops/unary.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/kernels/sleef.h"
#include "core/kernels/unary.h"
#include "core/ops/binary.h"
#include "core/ops/loops.h"

namespace attn::core {

namespace {

using detail::avx2;
using detail::map_fast;
using detail::map_split;

}  // namespace

// ---- backward ----

namespace grad {

using autograd::Grads;
using autograd::detail::reads;

// A backward formula's result in the layout ATen's TensorIterator gives `first (op) second`
// (grad and a saved tensor, in derivatives.yaml's order): the engine's sum_to and the next
// node's reductions then add in PyTorch's order (docs/pytorch-numerics.md §12).
Tensor unary_grad_layout(Tensor r, const Tensor& first, const Tensor& second) {
  return keep_layout(std::move(r), {&first, &second});
}

Backward tanh(const Tensor& result, CpuKernels cpu) {
  // tanh_backward(g, y) = g * (1 - y*y); the AVX2 build fuses 1 - y*y into fma(-y, y, 1).
  // One pass for a float32 contiguous g of y's shape when y is contiguous too (TensorIterator's
  // fast set-up: a contiguous result), else 1 - y*y then the product, in the layout ATen's
  // tanh_backward(g, y) gives (so sum_to adds in PyTorch's order).
  return reads({[yl = detach(result), cpu](const Grads& g) {
    const Tensor& dy = *g[0];   // y's shape, or one that broadcasts to it
    const Tensor y = yl.contiguous();
    const bool one_pass = dy.dtype() == DType::float32 && dy.is_contiguous() && yl.is_contiguous() && dy.shape() == y.shape();
    Tensor d = uninitialized(y.shape());   // y's shape
    const float* pg = one_pass ? dy.data<float>() : nullptr;
    detail::map_buffer(y.data<float>(), d.data<float>(), y.numel(), [cpu, pg, &y](const float* in, float* out, int64_t n) {
      if (pg == nullptr) return kernels::one_minus_square(in, out, n, cpu);
      kernels::tanh_backward(pg + (in - y.data<float>()), in, out, n, cpu);
    });
    if (one_pass) return Grads{d};
    return Grads{unary_grad_layout(core::binary(BinOp::mul, dy, d), dy, yl)};
  }}, {}, true);
}

Backward sigmoid(const Tensor& result) {
  // sigmoid_backward_kernel: (g * (1 - y)) * y, the same three roundings in both families.
  return reads({[y = detach(result)](const Grads& g) {
    return Grads{unary_grad_layout(detail::zip(*g[0], y, [](float gv, float yv) { return gv * (1.0f - yv) * yv; }), *g[0], y)};
  }}, {}, true);
}

Backward reciprocal(const Tensor& result) {
  // derivatives.yaml: -grad * (result * result).
  return reads({[y = detach(result)](const Grads& g) {
    const Tensor y2 = unary_grad_layout(detail::mul(y, y), y, y);
    const Tensor ng = keep_layout(core::neg(*g[0]), {&*g[0]});   // -grad: a new tensor in grad's memory order
    return Grads{unary_grad_layout(detail::mul(ng, y2), ng, y2)};
  }}, {}, true);
}

namespace {

using detail::div;
using detail::mul;
using detail::muls;
using detail::zip;

Backward exp(const Tensor& result) {
  return reads({[y = detach(result)](const Grads& g) { return Grads{unary_grad_layout(core::binary(BinOp::mul, *g[0], y), *g[0], y)}; }}, {}, true);
}

Backward sqrt(const Tensor& result) {
  return reads({[y = detach(result)](const Grads& g) { return Grads{unary_grad_layout(div(*g[0], muls(y, 2.0)), *g[0], y)}; }}, {}, true);
}

Backward rsqrt(const Tensor& result) {
  return reads({[y = detach(result)](const Grads& g) {
    const Tensor y3 = mul(mul(y, y), y);   // result.pow(3): (y*y)*y (PowKernel.cpp)
    const Tensor gs = keep_layout(muls(*g[0], -0.5), {&*g[0]}, true);
    return Grads{unary_grad_layout(mul(gs, y3), gs, y)};
  }}, {}, true);
}

Backward log(const Tensor& input) {
  return reads({[x = detach(input)](const Grads& g) { return Grads{unary_grad_layout(div(*g[0], x), *g[0], x)}; }}, {input});
}

Backward abs(const Tensor& input) {
  return reads({[x = detach(input)](const Grads& g) {
    // sgn(x) for a real tensor is sign(): (0 < x) - (x < 0), so 0 (and NaN) give +0.
    const Tensor r = zip(*g[0], x, [](float gv, float xv) { return gv * (static_cast<float>(0.0f < xv) - static_cast<float>(xv < 0.0f)); });
    return Grads{unary_grad_layout(r, *g[0], x)};
  }}, {input});
}

Backward erf(const Tensor& input, CpuKernels cpu) {
  return reads({[x = detach(input), cpu](const Grads& g) {
    const Tensor e = core::exp(core::neg(mul(x, x)), cpu);                     // exp(-(self.pow(2)))
    return Grads{unary_grad_layout(mul(muls(e, 2.0 / std::sqrt(M_PI)), *g[0]), x, *g[0])};   // 2/sqrt(pi) * e * grad
  }}, {input});
}

Backward sin(const Tensor& input, CpuKernels cpu) {
  return reads({[x = detach(input), cpu](const Grads& g) { return Grads{unary_grad_layout(mul(*g[0], core::cos(x, cpu)), *g[0], x)}; }}, {input});
}

Backward cos(const Tensor& input, CpuKernels cpu) {
  return reads({[x = detach(input), cpu](const Grads& g) {
    const Tensor s = keep_layout(core::neg(core::sin(x, cpu)), {&x});   // -sin(x), in x's memory order
    return Grads{unary_grad_layout(mul(*g[0], s), *g[0], s)};
  }}, {input});
}

}  // namespace
}  // namespace grad

// ---- forward ----

Tensor exp(const Tensor& a, CpuKernels cpu) {
  const Tensor x = to_float(a).contiguous();
  Tensor out = uninitialized(x.shape());  // same shape as a, contiguous
  kernels::exp(x.data<float>(), out.data<float>(), x.numel(), cpu);
  out = keep_layout(std::move(out), {&a});   // the result the backward saves, laid out as PyTorch's
  grad::Backward backward = grad::exp(out);
  return autograd::record(std::move(out), {&a}, "ExpBackward0", std::move(backward));
}

Tensor tanh(const Tensor& a, CpuKernels cpu) {
  // vml vtanh: every element the same function; the result in the input's layout, as ATen's.
  Tensor out = keep_layout(map_fast(a, [cpu](const float* in, float* o, int64_t n) { kernels::tanh(in, o, n, cpu); },
                                    [cpu](float v, bool) { return kernels::vec_tanh(v, cpu); }, false),
                           {&a});
  autograd::Backward backward = grad::tanh(out, cpu);
  return autograd::record(std::move(out), {&a}, "TanhBackward0", std::move(backward));
}

Tensor sigmoid(const Tensor& a, CpuKernels cpu) {
  // sigmoid_kernel (UnaryOpsKernel.cpp), cpu_kernel_vec: the vector body is
  // ((0 - x).exp() + 1).reciprocal(), Sleef's expf in the AVX2 family; the scalar tail (and the
  // whole DEFAULT family) is 1 / (1 + std::exp(-x)) with glibc's expf.
  Tensor out = map_fast(a, [cpu](const float* in, float* o, int64_t n) { kernels::sigmoid(in, o, n, cpu); }, [cpu](float v, bool tail) {
    return kernels::vec_sigmoid(v, tail ? CpuKernels::scalar : cpu);
  }, true);
  out = keep_layout(std::move(out), {&a});
  autograd::Backward backward = grad::sigmoid(out);
  return autograd::record(std::move(out), {&a}, "SigmoidBackward0", std::move(backward));
}

Tensor reciprocal(const Tensor& a) {
  // reciprocal_kernel: 1 / x, one correctly rounded division in both families (ints to float32 first).
  Tensor out = keep_layout(map_split(a, [](float v, bool) { return 1.0f / v; }, false), {&a});
  autograd::Backward backward = grad::reciprocal(out);
  return autograd::record(std::move(out), {&a}, "ReciprocalBackward0", std::move(backward));
}

Tensor log(const Tensor& a, CpuKernels cpu) {
  Tensor out = map_fast(a, [cpu](const float* in, float* o, int64_t n) { kernels::log(in, o, n, cpu); },
                        [cpu](float v, bool) { return kernels::vec_log(v, cpu); }, false);
  return autograd::record(std::move(out), {&a}, "LogBackward0", grad::log(a));
}

Tensor erf(const Tensor& a, CpuKernels cpu) {
  Tensor out = map_fast(a, [cpu](const float* in, float* o, int64_t n) { kernels::erf(in, o, n, cpu); },
                        [cpu](float v, bool) { return kernels::vec_erf(v, cpu); }, false);
  return autograd::record(std::move(out), {&a}, "ErfBackward0", grad::erf(a, cpu));
}

namespace {

using VmlKernel = void (*)(const float*, float*, int64_t, CpuKernels);

// A vml op over a: one run when a is contiguous, else TensorIterator's runs, each gathered into a
// buffer as IMPLEMENT_ITERATOR_LAMBDA does (or read in place: the same lanes either way).
Tensor map_vml(const Tensor& a, VmlKernel kernel, CpuKernels cpu) {
  const Tensor x = to_float(a);
  Tensor out = uninitialized(x.shape());
  float* o = out.data<float>();
  const float* in = x.data<float>();
  if (x.is_contiguous()) {
    kernel(in, o, x.numel(), cpu);
    return out;
  }
  const detail::VmlRuns runs = detail::vml_runs(x);
  std::vector<float> src(static_cast<size_t>(runs.run)), dst(src.size());
  for (size_t start = 0; start < runs.offset.size(); start += src.size()) {
    for (size_t i = 0; i < src.size(); ++i) src[i] = in[runs.offset[start + i]];
    kernel(src.data(), dst.data(), runs.run, cpu);
    for (size_t i = 0; i < src.size(); ++i) o[runs.index[start + i]] = dst[i];
  }
  return out;
}

}  // namespace

Tensor sin(const Tensor& a, CpuKernels cpu) {
  return autograd::record(map_vml(a, kernels::sin, cpu), {&a}, "SinBackward0", grad::sin(a, cpu));
}

Tensor cos(const Tensor& a, CpuKernels cpu) {
  return autograd::record(map_vml(a, kernels::cos, cpu), {&a}, "CosBackward0", grad::cos(a, cpu));
}

Tensor rsqrt(const Tensor& a) {
  Tensor out = keep_layout(map_fast(a, [](const float* in, float* o, int64_t n) { kernels::rsqrt(in, o, n); },
                                    [](float v, bool) { return kernels::vec_rsqrt(v); }, false),
                           {&a});
  autograd::Backward backward = grad::rsqrt(out);
  return autograd::record(std::move(out), {&a}, "RsqrtBackward0", std::move(backward));
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

}  // namespace

Tensor erfinv(const Tensor& a, CpuKernels cpu) {
  Tensor out = map_split(a, [cpu](float v, bool) { return calc_erfinv(v, cpu); }, false);
  return with_grad(std::move(out), {&a}, "ErfinvBackward0");
}

namespace {

// out[k] = f(a's element k) for the float32 elements of `a`, into a new tensor of `dtype`.
template <typename T, typename F>
Tensor map_to(const Tensor& a, DType dtype, F f) {
  const Tensor x = to_float(a).contiguous();
  Tensor out = uninitialized(x.shape(), dtype);
  const float* in = x.data<float>();
  T* o = out.data<T>();
  for (int64_t k = 0; k < x.numel(); ++k) o[k] = f(in[k]);
  return out;
}

}  // namespace

Tensor isnan(const Tensor& a) {
  if (!a.is_float()) return empty(a.shape(), DType::boolean);   // zero-filled: no int is NaN or inf
  return map_to<uint8_t>(a, DType::boolean, [](float v) { return std::isnan(v); });
}

Tensor isinf(const Tensor& a) {
  if (!a.is_float()) return empty(a.shape(), DType::boolean);   // zero-filled: no int is NaN or inf
  return map_to<uint8_t>(a, DType::boolean, [](float v) { return std::isinf(v); });
}

namespace {

// abs of an integer tensor, in its dtype as ATen computes it (the most negative value stays itself,
// uint8 is unchanged); bool has no abs.
Tensor abs_of_ints(const Tensor& a) {
  if (a.dtype() == DType::boolean) throw TensorError("\"abs_cpu\" not implemented for 'Bool'");
  std::vector<int64_t> v = a.ints();   // row-major
  for (int64_t& x : v) x = x < 0 ? static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(x)) : x;
  return from_ints(a.shape(), v, a.dtype());
}

}  // namespace

Tensor unary(const Tensor& a, const char* op) {
  const std::string o = op;
  if (o != "sqrt" && o != "abs") throw TensorError(std::string("unary(): unknown op ") + op);   // log is core::log
  if (o == "abs" && !a.is_float()) return abs_of_ints(a);   // an int tensor cannot require grad
  Tensor out = map_to<float>(a, DType::float32, [&](float v) {
    return o == "sqrt" ? std::sqrt(v) : std::fabs(v);
  });
  if (o == "abs") return autograd::record(std::move(out), {&a}, "AbsBackward0", grad::abs(a));
  out = keep_layout(std::move(out), {&a});
  autograd::Backward backward = grad::sqrt(out);
  return autograd::record(std::move(out), {&a}, "SqrtBackward0", std::move(backward));
}

}  // namespace attn::core
