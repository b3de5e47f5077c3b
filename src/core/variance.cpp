// core/variance.cpp: Tensor.var / Tensor.std with any integer correction, as PyTorch 1.13 computes
// them on the CPU (std_var_out in ReduceOps.cpp; docs/pytorch-numerics.md §19).
//
// What it is: the two algorithms ATen picks between. A result of more than one element: per
// output, Welford in double over the reduced elements in memory order, m2 / max(0, n - correction)
// in double, std its double sqrt, each rounded once to float. A result of exactly one element
// (x.var(), or a dim whose other dims all have size 1): std_var_all_cpu's two passes, the
// float32 x.mean() widened to double, then the sum of squared deviations in double.
// What it is not: var over several dims at once (the binding refuses it), or var_mean.
#include <cmath>

#include "core/grad_fns.h"
#include "core/math_ops.h"

namespace attn::core {

namespace {

double finish(double m2, int64_t n, int64_t correction, bool take_sqrt) {
  const double v = m2 / static_cast<double>(std::max<int64_t>(0, n - correction));
  return take_sqrt ? std::sqrt(v) : v;
}

}  // namespace

Tensor var_std(const Tensor& a, std::optional<int64_t> dim, int64_t correction, bool keepdim, bool take_sqrt) {
  const Tensor x = to_float(a).contiguous();
  const float* in = x.data<float>();
  Shape out_shape;
  int64_t outer = 1, size = x.numel(), inner = 1;
  if (dim) {
    const int64_t d = x.dim() == 0 ? 0 : normalize_dim(*dim, x.dim());
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
    for (int64_t b = 0; b < outer; ++b)
      for (int64_t i = 0; i < inner; ++i) {   // WelfordOps<float, double, int64_t, double>
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
