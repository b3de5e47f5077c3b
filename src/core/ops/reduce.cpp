// core/ops/reduce.cpp: sum, mean, max, amax, argmax, var and std, forward and backward
// (ops/reduce.h).
//
// What it is: the shape logic of each reduction around kernels/reduce.h's cascade sum (sum,
// mean) or a plain loop (max, amax, argmax: no rounding), and var/std as PyTorch 1.13 computes
// them (std_var_out in ReduceOps.cpp; §19): a result of more than one element is, per output,
// Welford in double over the reduced elements in memory order, m2 / max(0, n - correction) in
// double, std its double sqrt, each rounded once to float; a result of exactly one element
// (x.var(), or a dim whose other dims all have size 1) takes std_var_all_cpu's two passes, the
// float32 x.mean() widened to double, then the sum of squared deviations in double. The backward
// formulas (derivatives.yaml, FunctionsManual.cpp) as core ops on detached tensors (§12):
//   x.sum(): g expanded    x.mean(dim): g expanded / fl32(n)
//   var: (fl32(2/(n-c)) * g) * (x - x.mean(dim, keepdim=True))   (g unsqueezed back first)
//   std: var's with g / (2*y), +0 where y == 0
//   amax: (g / count) * mask           max(): zeros with g / count written where x == max
// var/std over several dims at once share the per-output Welford and the one-output two passes.
// What it is not: sums over any dims and strides (ops/sum_to.cpp), or var_mean.
#include "core/ops/reduce.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/kernels/reduce.h"
#include "core/ops/binary.h"
#include "core/ops/compare.h"
#include "core/ops/inplace.h"
#include "core/ops/loops.h"
#include "core/ops/views.h"
#include "core/ops/sum_to.h"

namespace attn::core {

namespace {

// The shape of a reduction over `dim`: kept as size 1 with keepdim, else removed.
Shape reduced_shape(Shape shape, int64_t dim, bool keepdim) {
  if (shape.empty()) return shape;
  if (keepdim) shape[dim] = 1;
  else shape.erase(shape.begin() + dim);
  return shape;
}

double finish(double m2, int64_t n, int64_t correction, bool take_sqrt) {
  const double v = m2 / static_cast<double>(std::max<int64_t>(0, n - correction));
  return take_sqrt ? std::sqrt(v) : v;
}

}  // namespace

// ---- backward ----

namespace grad {
namespace {

using autograd::Backward;
using autograd::Grads;
using autograd::detail::reads;
using detail::div;
using detail::mul;
using detail::muls;
using detail::zip;

// g expanded back over a reduced dim (keepdim=False removed it).
Tensor expand_back(const Tensor& g, const Shape& shape, int64_t dim, bool keepdim) {
  const Tensor k = keepdim ? g : unsqueeze(g, dim);
  return expand(k, shape);
}

// A reduced gradient (or result) with the reduced dim put back as size 1 (restore_reduced_dims).
Tensor restore(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  if (!dim || keepdim) return t;   // every dim reduced: a 0-d value broadcasts as it is
  return core::unsqueeze(t, *dim);
}

// var_backward (FunctionsManual.cpp) for one dim or every element (dim nullopt).
Tensor var_grad(const Tensor& g, const Tensor& x, std::optional<int64_t> dim, int64_t correction, bool keepdim) {
  if (x.dim() == 0 || !dim) {
    const int64_t n = x.numel();
    if (n == correction) return muls(g, std::numeric_limits<double>::infinity());
    const Tensor centred = core::binary(BinOp::sub, x, mean(x));
    return mul(muls(g, 2.0 / static_cast<double>(n - correction)), centred);
  }
  const Tensor gg = (!keepdim && x.dim() > 1) ? core::unsqueeze(g, *dim) : g;
  const int64_t dof = x.shape()[static_cast<size_t>(*dim)] - correction;
  const Tensor centred = core::binary(BinOp::sub, x, mean(x, *dim, true));
  return mul(muls(gg, 2.0 / static_cast<double>(dof)), centred);
}

Backward sum_all(const Shape& input_shape) {
  return {[input_shape](const Grads& g) { return Grads{expand(*g[0], input_shape)}; }, false};
}

Backward sum_dim(const Shape& input_shape, int64_t dim, bool keepdim) {
  return {[=](const Grads& g) { return Grads{expand_back(*g[0], input_shape, dim, keepdim)}; }, false};
}

Backward mean_dim(const Shape& input_shape, int64_t dim, bool keepdim) {
  const float n = static_cast<float>(input_shape[static_cast<size_t>(dim)]);
  return {[=](const Grads& g) {
            return Grads{core::binary_scalar(BinOp::div, expand_back(*g[0], input_shape, dim, keepdim), n)};
          },
          false};
}

Backward mean_all(const Shape& input_shape) {
  const float n = static_cast<float>(numel_of(input_shape));
  return {[=](const Grads& g) { return Grads{core::binary_scalar(BinOp::div, expand(*g[0], input_shape), n)}; }, false};
}

Backward var_std(const Tensor& input, const Tensor& result, std::optional<int64_t> dim, int64_t correction, bool keepdim,
                 bool take_sqrt) {
  return reads({[x = detach(input), y = detach(result), dim, correction, keepdim, take_sqrt](const Grads& g) {
    Tensor gv = *g[0];
    if (x.dim() > 0 && !dim && x.numel() == correction)   // 1.13's var_backward returns grad * inf, 0-d: the engine refuses it
      throw TensorError(fmt::format("Function {} returned an invalid gradient at index 0 - got [] but expected shape compatible with {}",
                                    take_sqrt ? "StdBackward0" : "VarBackward0", shape_str(x.shape())));
    if (take_sqrt) {   // std_backward: (grad / (result * 2)).masked_fill_(result == 0, 0)
      gv = div(gv, muls(y, 2.0));
      masked_fill_(gv, compare(CmpOp::eq, y, zeros({})), 0.0f);
    }
    return Grads{var_grad(gv, x, dim, correction, keepdim)};
  }}, {input}, take_sqrt);
}

Backward amax(const Tensor& input, const Tensor& result, std::optional<int64_t> dim, bool keepdim) {
  return reads({[x = detach(input), y = detach(result), dim, keepdim](const Grads& g) {
    // scale_grad_by_count(restore(grad), restore(result) == self, dim) = (grad / mask.sum(dim, true)) * mask
    const Tensor r = restore(y, dim, keepdim), gr = restore(*g[0], dim, keepdim);
    const Tensor mask = zip(r, x, [](float rv, float xv) { return rv == xv ? 1.0f : 0.0f; });
    Tensor count = dim ? sum(mask, *dim, true) : reshape(sum(mask), Shape(static_cast<size_t>(x.dim()), 1));
    return Grads{mul(div(gr, count), mask)};
  }}, {input}, true);
}

// amax/amin over the sorted, wrapped `dims`: (restore(grad) / mask.sum(dims, true)) * mask, the
// count summed one dim at a time (whole numbers: exact in any order).
Backward amax_dims(const Tensor& input, const Tensor& result, std::vector<int64_t> dims, bool keepdim) {
  return reads({[x = detach(input), y = detach(result), dims, keepdim](const Grads& g) {
    Tensor r = y, gr = *g[0];
    if (!keepdim)
      for (int64_t d : dims) {
        r = core::unsqueeze(r, d);
        gr = core::unsqueeze(gr, d);
      }
    const Tensor mask = zip(r, x, [](float rv, float xv) { return rv == xv ? 1.0f : 0.0f; });
    Tensor count = mask;
    for (int64_t d : dims) count = sum(count, d, true);
    return Grads{mul(div(gr, count), mask)};
  }}, {input}, true);
}

Backward max_all(const Tensor& input, const Tensor& result) {
  return reads({[x = detach(input), y = detach(result)](const Grads& g) {
    // evenly_distribute_backward: zeros(input).masked_fill_(mask, grad / mask.sum())
    const float m = y.float_at(0);
    const Tensor xc = x.contiguous();
    Tensor out = zeros(x.shape());
    int64_t count = 0;
    for (int64_t k = 0; k < xc.numel(); ++k) count += std::isnan(m) ? std::isnan(xc.data<float>()[k]) : xc.data<float>()[k] == m;
    const float v = g[0]->float_at(0) / static_cast<float>(count);
    for (int64_t k = 0; k < xc.numel(); ++k) {
      const float xv = xc.data<float>()[k];
      if (std::isnan(m) ? std::isnan(xv) : xv == m) out.data<float>()[k] = v;
    }
    return Grads{out};
  }}, {input}, true);
}

}  // namespace
}  // namespace grad

// ---- forward ----

namespace {
// Integer and bool sums and products, in place over any strides (defined below).
Tensor reduce_int_dims(const Tensor& a, const std::vector<bool>& reduced, bool keepdim, bool multiply);
}  // namespace

Tensor sum(const Tensor& a) {
  if (!a.is_float()) return reduce_int_dims(a, std::vector<bool>(a.shape().size(), true), false, false);   // int64, wrapping
  // A view sums in TensorIterator's order (memory order, coalesced; sum_to.h), not row-major.
  Tensor out = a.is_contiguous() ? scalar(kernels::sum_all(a.data<float>(), a.numel())) : autograd::sum_dims(a, {}, false);
  return autograd::record(std::move(out), {&a}, "SumBackward0", grad::sum_all(a.shape()));
}

Tensor sum(const Tensor& a, int64_t dim, bool keepdim) {
  dim = normalize_dim(dim, a.dim());
  if (a.dim() == 0) return sum(reshape(a, {1}), 0, false);   // a 0-d tensor's only dim: 0-d out, keepdim or not
  const detail::DimSplit s = detail::split_at(a.shape(), dim);
  Shape shape = a.shape();
  if (keepdim) shape[dim] = 1;
  else shape.erase(shape.begin() + dim);
  if (!a.is_float()) {
    std::vector<bool> reduced(a.shape().size(), false);
    reduced[static_cast<size_t>(dim)] = true;
    return reduce_int_dims(a, reduced, keepdim, false);
  }
  // A view sums in TensorIterator's order (sum_to.h), without a copy; a contiguous input by rows.
  Tensor out = a.is_contiguous() ? empty(shape) : autograd::sum_dims(a, {dim}, keepdim);
  if (a.is_contiguous()) kernels::sum_dim(a.data<float>(), out.data<float>(), s.outer, s.size, s.inner);
  return autograd::record(std::move(out), {&a}, "SumBackward1", grad::sum_dim(a.shape(), dim, keepdim));
}

Tensor mean(const Tensor& a, int64_t dim, bool keepdim) {
  if (a.dim() == 0) return mean(reshape(a, {1}), normalize_dim(dim, 0), false);   // a 0-d tensor's only dim
  Tensor s = sum(a, dim, keepdim);
  const float n = static_cast<float>(a.shape()[normalize_dim(dim, a.dim())]);
  float* p = s.data<float>();
  for (int64_t k = 0; k < s.numel(); ++k) p[k] /= n;
  autograd::Backward backward = grad::mean_dim(a.shape(), normalize_dim(dim, a.dim()), keepdim);
  backward.saved = {a};   // MeanBackward1 saves self (for its sizes: the version check only)
  return autograd::record(std::move(s), {&a}, "MeanBackward1", std::move(backward));
}

Tensor mean(const Tensor& a) {
  Tensor s = sum(to_float(a));   // sum() / numel, as a 0-d tensor
  s.data<float>()[0] /= static_cast<float>(a.numel());
  return autograd::record(std::move(s), {&a}, "MeanBackward0", grad::mean_all(a.shape()));
}

namespace {

// Vectorized maximum / minimum of two lanes (vec256_float.h, vec_base.h): NaN wins, `b` of two
// equal values (so of -0. and 0. the second).
float lane_extreme(float a, float b, bool is_min) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<float>::quiet_NaN();
  return (is_min ? a < b : a > b) ? a : b;
}

}  // namespace

// max() / min() of float32 values as reduce_all_kernel_vec combines them (vec::reduce_all, one
// thread): fewer than 8 left to right; else 8 lanes, each full chunk of 8 into them lane by lane,
// a partial tail into its low lanes, then the lanes: the AVX2 family by halves
// ((l0,l4),(l2,l6)),((l1,l5),(l3,l7)), the scalar family left to right. Only which of two
// equal zeros wins depends on it.
float reduce_all_extreme(const Tensor& x, bool is_min, CpuKernels cpu) {
  const int64_t n = x.numel();
  constexpr int64_t L = 8;
  float acc[L] = {};
  const float* in = x.data<float>();
  DeadlineMeter meter;   // core/deadline.h: read in place (an expanded view is not copied)
  for_each_offset(x.shape(), [&](int64_t k, int64_t off) {   // element k (row-major) goes to lane k % L
    const float v = in[off];
    if (n < L) acc[0] = k == 0 ? v : lane_extreme(acc[0], v, is_min);   // fewer than L: one running value
    else acc[k % L] = k < L ? v : lane_extreme(acc[k % L], v, is_min);
    meter.add(1);
  }, x.strides());
  if (n < L) return acc[0];
  if (cpu == CpuKernels::scalar) {
    float r = acc[0];
    for (int64_t l = 1; l < L; ++l) r = lane_extreme(r, acc[l], is_min);
    return r;
  }
  auto f = [is_min](float a, float b) { return lane_extreme(a, b, is_min); };
  return f(f(f(acc[0], acc[4]), f(acc[2], acc[6])), f(f(acc[1], acc[5]), f(acc[3], acc[7])));
}

Tensor max(const Tensor& a, CpuKernels cpu) {
  if (a.numel() == 0)
    throw TensorError("max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
  if (!a.is_float()) {   // exact, in a's dtype
    const std::vector<int64_t> iv = a.ints();
    return from_ints({}, {*std::max_element(iv.begin(), iv.end())}, a.dtype());
  }
  Tensor out = scalar(reduce_all_extreme(to_float(a), false, cpu));
  autograd::Backward backward = grad::max_all(a, out);
  return autograd::record(std::move(out), {&a}, "MaxBackward1", std::move(backward));
}

namespace {

// amax (most) or amin (!most) along dim, NaN winning; AmaxBackward0 / AminBackward0 save the
// input and the result (the gradient goes to every element equal to it).
Tensor extreme(const Tensor& a, int64_t dim, bool keepdim, bool most) {
  const char* op = most ? "amax" : "amin";
  const Tensor f = to_float(a);   // any strides: read in place (an expanded view is not copied)
  const int64_t given = dim;
  dim = normalize_dim(dim, f.dim());
  const int64_t size = f.dim() > 0 ? f.shape()[dim] : 1;
  if (size == 0 && f.dim() > 0)   // PyTorch names the dim as given, unlike argmax
    throw TensorError(fmt::format("{}(): Expected reduction dim {} to have non-zero size.", op, given), "IndexError");
  const Shape shape = reduced_shape(f.shape(), dim, keepdim);   // [.., 1 or nothing at dim, ..]
  Shape each = f.shape();   // one step per output (row-major), dim walked inside
  if (f.dim() > 0) each[dim] = 1;
  // float32 (NaN wins), or an integer tensor exactly in int64 (2**40 + 1 stays odd)
  const Tensor src = a.is_float() ? f : to_dtype(a, DType::int64);   // its own strides (a copy's need not be f's)
  const int64_t step = src.dim() > 0 ? src.strides()[dim] : 0;
  Tensor out = empty(shape, src.dtype());
  DeadlineMeter meter;   // core/deadline.h
  const auto walk = [&](const auto* in, auto* o) {
    if (src.numel() > 0)
      for_each_offset(each, [&](int64_t k, int64_t off) {
        meter.add(size);
        auto m = in[off];
        for (int64_t s = 1; s < size && !std::isnan(static_cast<double>(m)); ++s) {
          const auto v = in[off + s * step];
          if (std::isnan(static_cast<double>(v)) || (most ? v > m : v < m)) m = v;
        }
        o[k] = m;
      }, src.strides());
  };
  if (!a.is_float()) {
    walk(src.data<int64_t>(), out.data<int64_t>());
    return to_dtype(out, a.dtype());
  }
  walk(src.data<float>(), out.data<float>());
  autograd::Backward backward = grad::amax(a, out, dim, keepdim);
  return autograd::record(std::move(out), {&a}, most ? "AmaxBackward0" : "AminBackward0", std::move(backward));
}

// amax / amin over every element: a 0-d result.
Tensor extreme_all(const Tensor& a, bool most) {
  if (a.numel() == 0)
    throw TensorError(fmt::format("{}(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                  "reduction dim with the 'dim' argument.", most ? "amax" : "amin"));
  if (!a.is_float()) return extreme(reshape(a.contiguous(), {a.numel()}), 0, false, most);   // integers: exact, in int64
  const Tensor f = to_float(a);   // row-major over any strides, in place (an expanded view is not copied)
  const float* in = f.data<float>();
  float m = 0.0f;
  DeadlineMeter meter;   // core/deadline.h
  for_each_offset(f.shape(), [&](int64_t k, int64_t off) {
    const float v = in[off];
    if (k == 0 || (!std::isnan(m) && (std::isnan(v) || (most ? v > m : v < m)))) m = v;   // NaN wins
    meter.add(1);
  }, f.strides());
  Tensor out = a.is_float() ? scalar(m) : to_dtype(scalar(m), a.dtype());   // []
  autograd::Backward backward = grad::amax(a, out, std::nullopt, false);
  return autograd::record(std::move(out), {&a}, most ? "AmaxBackward0" : "AminBackward0", std::move(backward));
}

}  // namespace

// amax/amin over several dims (ATen's amax meta: the empty-input checks on the dims as given,
// then each dim wrapped and checked against repeats); the forward one dim at a time, exact.
Tensor extreme_dims(const Tensor& a, const std::vector<int64_t>& given, bool keepdim, bool most) {
  const char* op = most ? "amax()" : "amin()";
  if (a.numel() == 0) {
    if (given.empty())
      throw TensorError(fmt::format("{}: Expected reduction dim to be specified for input.numel() == 0. Specify the "
                                    "reduction dim with the 'dim' argument.", op));
    for (int64_t d : given) {
      if (a.dim() == 0) continue;
      if (a.shape()[static_cast<size_t>(normalize_dim(d, a.dim()))] == 0)
        throw TensorError(fmt::format("{}: Expected reduction dim {} to have non-zero size.", op, d), "IndexError");
    }
  }
  std::vector<int64_t> dims;
  for (int64_t d : given) {
    const int64_t w = normalize_dim(d, a.dim());
    if (std::find(dims.begin(), dims.end(), w) != dims.end()) throw TensorError(fmt::format("dim {} appears multiple times in the list of dims", w));
    dims.push_back(w);
  }
  if (given.empty())
    for (int64_t d = 0; d < a.dim(); ++d) dims.push_back(d);
  std::sort(dims.begin(), dims.end());
  Tensor out = detach(a);
  for (int64_t d : dims) out = detach(extreme(out, d, true, most));
  if (a.dim() == 0) out = reshape(out, {});
  if (!keepdim) {
    Shape kept;
    for (int64_t d = 0; d < a.dim(); ++d)
      if (!std::binary_search(dims.begin(), dims.end(), d)) kept.push_back(a.shape()[static_cast<size_t>(d)]);
    out = reshape(out, kept).contiguous();
  }
  out = out.contiguous();
  if (!a.is_float()) return out;
  if (a.dim() == 0) dims.clear();
  autograd::Backward backward = grad::amax_dims(a, out, dims, keepdim);
  return autograd::record(std::move(out), {&a}, most ? "AmaxBackward0" : "AminBackward0", std::move(backward));
}

Tensor amax(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) { return extreme_dims(a, dims, keepdim, true); }
Tensor amin(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) { return extreme_dims(a, dims, keepdim, false); }

Tensor amax(const Tensor& a, int64_t dim, bool keepdim) { return extreme(a, dim, keepdim, true); }
Tensor amax(const Tensor& a) { return extreme_all(a, true); }
Tensor amin(const Tensor& a, int64_t dim, bool keepdim) { return extreme(a, dim, keepdim, false); }
Tensor amin(const Tensor& a) { return extreme_all(a, false); }

Tensor argmax(const Tensor& a, int64_t dim, bool keepdim) {
  const Tensor f = to_float(a);   // any strides: read in place (an expanded view is not copied)
  dim = normalize_dim(dim, f.dim());
  const int64_t size = f.dim() > 0 ? f.shape()[dim] : 1, step = f.dim() > 0 ? f.strides()[dim] : 0;
  if (size == 0 && f.dim() > 0)
    throw TensorError(fmt::format("argmax(): Expected reduction dim {} to have non-zero size.", dim), "IndexError");
  Tensor out = empty(reduced_shape(f.shape(), dim, keepdim), DType::int64);
  const float* in = f.data<float>();
  int64_t* o = out.data<int64_t>();
  Shape each = f.shape();   // one step per output (row-major), dim walked inside
  if (f.dim() > 0) each[dim] = 1;
  DeadlineMeter meter;   // core/deadline.h
  if (f.numel() > 0)
    for_each_offset(each, [&](int64_t k, int64_t off) {
      meter.add(size);
      int64_t best = 0;
      for (int64_t s = 1; s < size; ++s) {
        const float v = in[off + s * step], m = in[off + best * step];
        if (v > m || (std::isnan(v) && !std::isnan(m))) best = s;
      }
      o[k] = best;
    }, f.strides());
  return out;
}

Tensor argmax(const Tensor& a) {
  if (a.numel() == 0)
    throw TensorError("argmax(): Expected reduction dim to be specified for input.numel() == 0.", "IndexError");
  const Tensor f = to_float(a);   // row-major over any strides, in place
  const float* in = f.data<float>();
  int64_t best = 0;
  float m = 0.0f;
  DeadlineMeter meter;   // core/deadline.h
  for_each_offset(f.shape(), [&](int64_t k, int64_t off) {
    const float v = in[off];
    if (k == 0 || v > m || (std::isnan(v) && !std::isnan(m))) {
      best = k;
      m = v;
    }
    meter.add(1);
  }, f.strides());
  return from_ints({}, {best}, DType::int64);
}

Tensor var_std(const Tensor& a, std::optional<int64_t> dim, int64_t correction, bool keepdim, bool take_sqrt) {
  if (!a.is_float()) throw TensorError("std and var only support floating point and complex dtypes");
  const Tensor x = to_float(a).contiguous();
  const float* in = x.data<float>();
  Shape out_shape;
  int64_t outer = 1, size = x.numel(), inner = 1;
  if (dim) {
    const int64_t d = normalize_dim(*dim, x.dim());   // a 0-d tensor takes dim 0 or -1 only, as ATen's wrap
    out_shape = x.shape();
    if (x.dim() > 0) {
      size = x.shape()[d];
      for (int64_t k = 0; k < x.dim(); ++k) (k < d ? outer : k > d ? inner : size) *= (k == d ? 1 : x.shape()[k]);
      if (keepdim) out_shape[d] = 1;
      else out_shape.erase(out_shape.begin() + d);
    }
  } else if (keepdim) {
    out_shape = Shape(x.shape().size(), 1);
  }
  Tensor out = empty(out_shape);
  float* o = out.data<float>();
  if (outer * inner == 1) {   // one output: two passes around the float32 mean
    const double mean = x.numel() ? static_cast<double>(sum(x).float_at(0) / static_cast<float>(x.numel())) : NAN;
    double s = 0.0;
    for (int64_t k = 0; k < x.numel(); ++k) s += (static_cast<double>(in[k]) - mean) * (static_cast<double>(in[k]) - mean);
    o[0] = static_cast<float>(finish(s, x.numel(), correction, take_sqrt));
  } else {
    DeadlineMeter meter;   // core/deadline.h
    for (int64_t b = 0; b < outer; ++b)
      for (int64_t i = 0; i < inner; ++i) {   // WelfordOps<float, double, int64_t, double>
        meter.add(size);
        double mean = 0.0, m2 = 0.0;
        for (int64_t k = 0; k < size; ++k) {
          const double v = in[(b * size + k) * inner + i], delta = v - mean;
          mean += delta / static_cast<double>(k + 1);
          m2 += delta * (v - mean);
        }
        o[b * inner + i] = static_cast<float>(finish(m2, size, correction, take_sqrt));
      }
  }
  std::optional<int64_t> gdim;   // var_backward's dim: none for a 0-d input or every element
  if (dim && x.dim() > 0) gdim = normalize_dim(*dim, x.dim());
  autograd::Backward backward = grad::var_std(a, out, gdim, correction, keepdim, take_sqrt);
  return autograd::record(std::move(out), {&a}, take_sqrt ? "StdBackward0" : "VarBackward0", std::move(backward));
}

}  // namespace attn::core

// ---- several dims at once, and prod ----

namespace attn::core {

namespace {

// dims wrapped to a rank-nd tensor, each at most once (dim_list_to_bitset's message).
std::vector<int64_t> wrap_dims(const std::vector<int64_t>& dims, int64_t nd) {
  std::vector<int64_t> out;
  for (int64_t d : dims) {
    const int64_t w = normalize_dim(d, nd);
    if (std::find(out.begin(), out.end(), w) != out.end())
      throw TensorError(fmt::format("dim {} appears multiple times in the list of dims", w));
    out.push_back(w);
  }
  return out;
}

// The shape of a reduction over the dims marked in `reduced`: size 1 there with keepdim, else removed.
Shape reduced_shape_of(const Shape& shape, const std::vector<bool>& reduced, bool keepdim) {
  Shape out;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!reduced[d] || keepdim) out.push_back(reduced[d] ? 1 : shape[d]);
  return out;
}

// sum (or product) over the dims marked in `reduced` of bool or integer elements: int64, wrapping
// as ATen's int64 loops do (the order cannot change the result). Reads a in place (any strides).
Tensor reduce_int_dims(const Tensor& a, const std::vector<bool>& reduced, bool keepdim, bool multiply) {
  const Shape& shape = a.shape();
  Shape ostr(shape.size(), 0);   // the output's element strides, 0 along a reduced dim
  int64_t n = 1;
  for (size_t d = shape.size(); d-- > 0;)
    if (!reduced[d]) {
      ostr[d] = n;
      n *= shape[d];
    }
  std::vector<uint64_t> acc(static_cast<size_t>(n), multiply ? 1 : 0);
  Shape idx(shape.size(), 0);
  DeadlineMeter meter;   // core/deadline.h
  for (int64_t k = 0; k < a.numel(); ++k) {
    meter.add(1);
    int64_t o = 0, in = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      o += idx[d] * ostr[d];
      in += idx[d] * a.strides()[d];
    }
    const uint64_t x = static_cast<uint64_t>(a.int_at_offset(in));
    uint64_t& r = acc[static_cast<size_t>(o)];
    r = multiply ? r * x : r + x;
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return from_ints(reduced_shape_of(shape, reduced, keepdim), std::vector<int64_t>(acc.begin(), acc.end()));
}

std::vector<bool> marks(const std::vector<int64_t>& dims, int64_t nd) {
  std::vector<bool> reduced(static_cast<size_t>(nd), dims.empty());
  for (int64_t d : dims) reduced[static_cast<size_t>(d)] = true;
  return reduced;
}

// SumBackward1 / MeanBackward1 over several dims (sum_backward): g with the reduced dims put
// back in increasing order, expanded, divided by fl32(n) for mean (n 0: a sum).
autograd::Backward several_grad(const Shape& input_shape, const std::vector<bool>& reduced, bool keepdim, float n) {
  return {[=](const autograd::Grads& g) {
            Tensor k = *g[0];
            for (size_t d = 0; d < reduced.size() && !keepdim; ++d)
              if (reduced[d]) k = unsqueeze(k, static_cast<int64_t>(d));
            const Tensor e = expand(k, input_shape);
            return autograd::Grads{n == 0.0f ? e : binary_scalar(BinOp::div, e, n)};
          },
          false};
}

}  // namespace

Tensor sum(const Tensor& a, const std::vector<int64_t>& dims_in, bool keepdim) {
  const std::vector<int64_t> dims = wrap_dims(dims_in, a.dim());
  if (dims.size() == 1) return sum(a, dims[0], keepdim);
  const std::vector<bool> reduced = marks(dims, a.dim());
  if (!a.is_float()) return reduce_int_dims(a, reduced, keepdim, false);
  Tensor out = autograd::sum_dims(a, dims, keepdim);   // one TensorIterator reduction, as ATen's
  return autograd::record(std::move(out), {&a}, "SumBackward1", several_grad(a.shape(), reduced, keepdim, 0.0f));
}

Tensor mean(const Tensor& a, const std::vector<int64_t>& dims_in, bool keepdim) {
  const std::vector<int64_t> dims = wrap_dims(dims_in, a.dim());
  if (dims.size() == 1) return mean(a, dims[0], keepdim);
  const std::vector<bool> reduced = marks(dims, a.dim());
  int64_t n = 1;
  for (int64_t d : dims) n *= a.shape()[static_cast<size_t>(d)];
  Tensor s = autograd::sum_dims(to_float(a), dims, keepdim);   // sum_out(...).div_(dim_prod)
  float* p = s.data<float>();
  for (int64_t k = 0; k < s.numel(); ++k) p[k] /= static_cast<float>(n);
  autograd::Backward backward = several_grad(a.shape(), reduced, keepdim, static_cast<float>(n));
  backward.saved = {a};   // MeanBackward1 saves self (for its sizes: the version check only)
  return autograd::record(std::move(s), {&a}, "MeanBackward1", std::move(backward));
}

namespace {

// prod's contiguous inner reduction into *dst (vectorized_inner_reduction): blocks of 32 into 4 x 8
// lanes, the lanes combined as (a0 a1)(a2 a3), then left to right; the rest one by one.
void prod_inner(const float* x, int64_t n, float* dst) {
  constexpr int64_t B = 32, L = 8;
  const int64_t count = n / B;
  if (count > 0) {
    float acc[B];
    std::copy(x, x + B, acc);
    for (int64_t i = 1; i < count; ++i)
      for (int64_t k = 0; k < B; ++k) acc[k] *= x[i * B + k];
    float b = 0.0f;
    for (int64_t l = 0; l < L; ++l) {
      const float lane = (acc[l] * acc[L + l]) * (acc[2 * L + l] * acc[3 * L + l]);
      b = l == 0 ? lane : b * lane;
    }
    *dst = *dst * b;
  }
  for (int64_t i = count * B; i < n; ++i) *dst = *dst * x[i];
}

// prod's 2-D loop, binary_kernel_reduce_vec (native/cpu/Reduce.h) with a * b: a reduced dim 0
// of stride 1 per output as prod_inner; a reduced dim 0 with outputs and inputs contiguous along
// dim 1 (vectorized_outer_reduction) multiplies each column's elements in turn, the first
// size1 - size1 % 32 columns then into the output, the rest from it; any other layout from it.
void prod_loop2d(const float* x, int64_t size0, int64_t size1, int64_t si0, int64_t si1, int64_t so0, int64_t so1,
                 float* out) {
  const bool inner = so0 == 0 && si0 == 1, outer = !inner && so0 == 0 && so1 == 1 && si1 == 1;
  const int64_t vec_cols = outer ? size1 - size1 % 32 : 0;
  DeadlineMeter meter;   // core/deadline.h
  for (int64_t j = 0; j < size1; ++j) {
    meter.add(size0);
    const float* col = x + j * si1;
    float* o = out + j * so1;
    if (inner) {
      prod_inner(col, size0, o);
    } else if (j < vec_cols) {
      float acc = col[0];
      for (int64_t i = 1; i < size0; ++i) acc *= col[i * si0];
      *o = acc * *o;
    } else {
      for (int64_t i = 0; i < size0; ++i) o[i * so0] = o[i * so0] * col[i * si0];
    }
  }
}

// prod_safe_zeros_backward along dim of x: g times the product of the elements before and the
// product of those after (each a cumprod: a double running product rounded at every step).
Tensor prod_safe_zeros(const Tensor& g, const Tensor& x, int64_t dim) {
  if (x.numel() == 0) return expand(g, x.shape());
  if (x.shape()[static_cast<size_t>(dim)] == 1) return g;
  const std::vector<float> v = x.floats();
  const detail::DimSplit s = detail::split_at(x.shape(), dim);
  std::vector<float> w(v.size());   // [x's shape]
  for (int64_t b = 0; b < s.outer; ++b)
    for (int64_t i = 0; i < s.inner; ++i) {
      auto at = [&](int64_t k) { return static_cast<size_t>((b * s.size + k) * s.inner + i); };
      std::vector<float> before(static_cast<size_t>(s.size)), after(static_cast<size_t>(s.size));
      double p = 1.0;
      for (int64_t k = 0; k < s.size; ++k) {
        before[static_cast<size_t>(k)] = static_cast<float>(p);
        p *= v[at(k)];
      }
      p = 1.0;
      for (int64_t k = s.size; k-- > 0;) {
        after[static_cast<size_t>(k)] = static_cast<float>(p);
        p *= v[at(k)];
      }
      for (int64_t k = 0; k < s.size; ++k) w[at(k)] = before[static_cast<size_t>(k)] * after[static_cast<size_t>(k)];
    }
  return detail::mul(g, from_floats(x.shape(), w));
}

int64_t count_zeros(const Tensor& x) {
  int64_t n = 0;
  for (float v : x.floats()) n += v == 0.0f;
  return n;
}

// ProdBackward0 / ProdBackward1 (prod_backward, FunctionsManual.cpp; dim nullopt: every element):
// g * (result / x) without zeros; with zeros the safe product of the others (over the flattened
// input for prod(); there two or more zeros give zeros, as backward runs without grad mode).
autograd::Backward prod_grad(const Tensor& input, const Tensor& result, std::optional<int64_t> dim, bool keepdim) {
  return autograd::detail::reads({[x = detach(input), y = detach(result), dim, keepdim](const autograd::Grads& gs) {
    if (x.dim() == 0) return autograd::Grads{*gs[0]};
    Tensor g = *gs[0], r = y;
    if (dim && !keepdim) {
      g = unsqueeze(g, *dim);
      r = unsqueeze(r, *dim);
    }
    const int64_t zeros_in = count_zeros(x);
    if (zeros_in == 0) return autograd::Grads{detail::mul(g, detail::div(r, x))};
    if (dim) return autograd::Grads{prod_safe_zeros(g, x.contiguous(), *dim)};
    if (zeros_in > 1) return autograd::Grads{zeros(x.shape())};
    return autograd::Grads{reshape(prod_safe_zeros(g, reshape(x, {-1}), 0), x.shape())};
  }}, {input}, true);
}

Tensor prod_impl(const Tensor& a, std::optional<int64_t> dim, bool keepdim) {
  if (a.dim() == 0 && dim) {   // a 0-d tensor's only dim: a 0-d result
    normalize_dim(*dim, 0);
    Tensor r = prod_impl(a, std::nullopt, false);
    autograd::rename(r, "ProdBackward1");
    return r;
  }
  const std::vector<int64_t> dims = dim ? std::vector<int64_t>{normalize_dim(*dim, a.dim())} : std::vector<int64_t>{};
  if (!a.is_float()) return reduce_int_dims(a, marks(dims, a.dim()), keepdim, true);
  Tensor out = autograd::reduce_dims(a, dims, keepdim, 1.0f, prod_loop2d);   // [a's shape without dim]
  autograd::Backward backward = prod_grad(a, out, dims.empty() ? std::nullopt : std::optional<int64_t>(dims[0]), keepdim);
  return autograd::record(std::move(out), {&a}, dim ? "ProdBackward1" : "ProdBackward0", std::move(backward));
}

}  // namespace

Tensor prod(const Tensor& a) { return prod_impl(a, std::nullopt, false); }
Tensor prod(const Tensor& a, int64_t dim, bool keepdim) { return prod_impl(a, dim, keepdim); }

}  // namespace attn::core

// ---- var / std over several dims ----

namespace attn::core {

namespace {

// VarBackward0 / StdBackward0 over several dims: std_backward's (g / (2*y)), +0 where y == 0, then
// var_backward: g with the dims put back (unsqueeze_multiple), (fl32(2/dof) * g) * (x - x.mean(dims, true)).
autograd::Backward var_std_dims_grad(const Tensor& input, const Tensor& result, const std::vector<int64_t>& dims,
                                     const std::vector<bool>& reduced, int64_t dof, bool keepdim, bool take_sqrt) {
  return autograd::detail::reads({[x = detach(input), y = detach(result), dims, reduced, dof, keepdim, take_sqrt](const autograd::Grads& g) {
    Tensor gv = *g[0];
    if (take_sqrt) {
      gv = detail::div(gv, detail::muls(y, 2.0));
      masked_fill_(gv, compare(CmpOp::eq, y, zeros({})), 0.0f);
    }
    for (size_t d = 0; d < reduced.size() && !keepdim && x.dim() > 1; ++d)
      if (reduced[d]) gv = unsqueeze(gv, static_cast<int64_t>(d));
    const double scale = dof == 0 ? std::numeric_limits<double>::infinity() : 2.0 / static_cast<double>(dof);
    const Tensor centred = binary(BinOp::sub, x, mean(x, dims, true));
    return autograd::Grads{detail::mul(detail::muls(gv, scale), centred)};
  }}, {input}, take_sqrt);
}

// The element offsets of a row-major walk over the dims marked (or, with `marked` false, not marked)
// in `reduced`, of a contiguous tensor of `shape`.
std::vector<int64_t> walk_offsets(const Shape& shape, const std::vector<bool>& reduced, bool marked) {
  std::vector<int64_t> offs{0};
  const Shape strides = contiguous_strides(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (reduced[d] != marked) continue;
    std::vector<int64_t> next;
    next.reserve(offs.size() * static_cast<size_t>(shape[d]));
    for (int64_t o : offs)
      for (int64_t i = 0; i < shape[d]; ++i) next.push_back(o + i * strides[d]);
    offs.swap(next);
  }
  return offs;
}

}  // namespace

Tensor var_std(const Tensor& a, const std::vector<int64_t>& dims_in, int64_t correction, bool keepdim, bool take_sqrt) {
  if (!a.is_float()) throw TensorError("std and var only support floating point and complex dtypes");
  const std::vector<int64_t> dims = wrap_dims(dims_in, std::max<int64_t>(a.dim(), 1));
  if (dims.size() <= 1 || a.dim() <= 1)
    return var_std(a, dims.empty() ? std::nullopt : std::optional<int64_t>(dims[0]), correction, keepdim, take_sqrt);
  const std::vector<bool> reduced = marks(dims, a.dim());
  const Tensor x = to_float(a).contiguous();   // [a's shape]
  const float* in = x.data<float>();
  const std::vector<int64_t> outs = walk_offsets(x.shape(), reduced, false), elems = walk_offsets(x.shape(), reduced, true);
  const int64_t n = static_cast<int64_t>(elems.size());
  Tensor out = empty(reduced_shape_of(x.shape(), reduced, keepdim));   // [kept dims, 1 where reduced with keepdim]
  float* o = out.data<float>();
  if (outs.size() == 1 && n > 0) {   // one output: std_var_all_cpu's two passes around the float32 mean
    const double m = static_cast<double>(sum(x).float_at(0) / static_cast<float>(n));
    double s = 0.0;
    for (int64_t k = 0; k < n; ++k) s += (static_cast<double>(in[k]) - m) * (static_cast<double>(in[k]) - m);
    o[0] = static_cast<float>(finish(s, n, correction, take_sqrt));
  } else if (x.numel() > 0 || n == 0) {
    DeadlineMeter meter;   // core/deadline.h
    for (size_t j = 0; j < outs.size(); ++j) {   // WelfordOps<float, double, int64_t, double>, reduced dims in memory order
      meter.add(n);
      double mean_ = 0.0, m2 = 0.0;
      for (int64_t k = 0; k < n; ++k) {
        const double v = in[outs[j] + elems[static_cast<size_t>(k)]], delta = v - mean_;
        mean_ += delta / static_cast<double>(k + 1);
        m2 += delta * (v - mean_);
      }
      o[j] = static_cast<float>(finish(m2, n, correction, take_sqrt));
    }
  }
  autograd::Backward backward = var_std_dims_grad(a, out, dims, reduced, n - correction, keepdim, take_sqrt);
  return autograd::record(std::move(out), {&a}, take_sqrt ? "StdBackward0" : "VarBackward0", std::move(backward));
}

}  // namespace attn::core
