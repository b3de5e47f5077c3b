// core/ops/clamp.cpp: torch.clamp with number or tensor bounds, forward and backward
// (ops/clamp.h).
//
// What it is: ATen 1.13's clamp kernels. Number bounds: clamp_scalar / clamp_min_scalar /
// clamp_max_scalar through cpu_kernel_vec, whose vector body (_mm256_max_ps(lo, x) /
// _mm256_min_ps(hi, x)) and scalar tail (std::max / std::min) agree: of two equal values, or a
// NaN bound, the input (so -0 survives clamp(min=0), checked against Debian's torch in
// tests/torch/fuzz.py); a NaN bound with both bounds given fills NaN. Tensor bounds: clamp_kernel's vector body (vec::clamp,
// _mm256_min_ps(hi, _mm256_max_ps(lo, x))) when the three operands share one contiguous shape,
// else its scalar lambda (a NaN bound gives NaN). Backward as FunctionsManual.cpp's
// clamp_backward (ClampBackward1) and clamp_backward_min_max (ClampBackward0): the gradient
// where the input was kept, +0 elsewhere; a bound gets it where it cut the input.
// Integer tensor bounds of an integer input clamp in the promoted integer dtype.
// What it is not: writing in place (clamp_ is torch/'s).
#include "core/ops/clamp.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/autograd.h"
#include "core/ops/loops.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The gradient where keep(k) holds, +0 elsewhere: where(pred, grad, 0) over g's shape.
template <typename Pred>
Tensor keep_where(const Tensor& g, Pred keep) {
  const Tensor gc = g.contiguous();
  Tensor out = empty(gc.shape());
  const float* pg = gc.data<float>();
  float* o = out.data<float>();
  for (int64_t k = 0; k < gc.numel(); ++k) o[k] = keep(k) ? pg[k] : 0.0f;
  return out;
}

// ClampBackward1: where((x >= lo) & (x <= hi), g, 0), a missing bound always true.
autograd::Backward clamp_scalar_grad(const Tensor& input, std::optional<float> lo, std::optional<float> hi) {
  return autograd::detail::reads({[x = detach(input).contiguous(), lo, hi](const autograd::Grads& g) {
    const float* px = x.data<float>();
    return autograd::Grads{keep_where(*g[0], [&](int64_t k) { return (!lo || px[k] >= *lo) && (!hi || px[k] <= *hi); })};
  }}, {input});
}

Tensor clamp_ints(const Tensor& a, std::optional<double> min, std::optional<double> max) {
  Tensor out = to_dtype(a, DType::int64).clone();
  int64_t* o = out.data<int64_t>();
  for (int64_t k = 0; k < out.numel(); ++k) {
    if (min) o[k] = std::max(o[k], static_cast<int64_t>(*min));
    if (max) o[k] = std::min(o[k], static_cast<int64_t>(*max));
  }
  return out;
}

}  // namespace

Tensor clamp(const Tensor& a, std::optional<double> min, std::optional<double> max, bool ints) {
  if (!min && !max) throw TensorError("torch.clamp: At least one of 'min' or 'max' must not be None");
  if (!a.is_float() && ints) return clamp_ints(a, min, max);
  const std::optional<float> lo = min ? std::optional<float>(static_cast<float>(*min)) : std::nullopt;
  const std::optional<float> hi = max ? std::optional<float>(static_cast<float>(*max)) : std::nullopt;
  const bool nan_bound = lo && hi && (std::isnan(*lo) || std::isnan(*hi));
  Tensor out = detail::map_split(a, [&](float x, bool) {
    if (nan_bound) return kNaN;
    if (lo) x = *lo > x ? *lo : x;   // _mm256_max_ps(lo, x) and std::max(x, lo) alike: of two equal values, or a NaN bound, x
    return hi ? (*hi < x ? *hi : x) : x;
  }, true);
  return autograd::record(std::move(out), {&a}, "ClampBackward1", clamp_scalar_grad(a, lo, hi));
}

namespace {

// ClampBackward0 (clamp_backward_min_max): the input's gradient where lo <= x <= hi, lo's
// where x < lo (and lo < hi), hi's where x > hi (or hi < lo); each in the broadcast shape (the
// engine sums it to its input's).
autograd::Backward clamp_tensor_grad(const Tensor& x, const Tensor* lo, const Tensor* hi, const Shape& shape) {
  const Tensor xb = expand(detach(x), shape).contiguous();
  const Tensor lb = lo ? expand(detach(to_float(*lo)), shape).contiguous() : Tensor();
  const Tensor hb = hi ? expand(detach(to_float(*hi)), shape).contiguous() : Tensor();
  const bool has_lo = lo != nullptr, has_hi = hi != nullptr;
  std::vector<Tensor> saved = {x};
  if (lo) saved.push_back(*lo);
  if (hi) saved.push_back(*hi);
  return autograd::detail::reads({[xb, lb, hb, has_lo, has_hi](const autograd::Grads& g) {
    const float* px = xb.data<float>();
    const float* pl = has_lo ? lb.data<float>() : nullptr;
    const float* ph = has_hi ? hb.data<float>() : nullptr;
    autograd::Grads out(3);   // self, min, max (an absent bound: a None edge)
    out[0] = keep_where(*g[0], [&](int64_t k) { return (!pl || px[k] >= pl[k]) && (!ph || px[k] <= ph[k]); });
    if (pl) out[1] = keep_where(*g[0], [&](int64_t k) { return px[k] < pl[k] && (!ph || pl[k] < ph[k]); });
    if (ph) out[2] = keep_where(*g[0], [&](int64_t k) { return px[k] > ph[k] || (pl && ph[k] < pl[k]); });
    return out;
  }}, saved);
}

}  // namespace

namespace {

// Integer tensor bounds of an integer input: clamp_kernel in the promoted integer dtype (tensors
// with dims decide it; a 0-d bound only lifts a bool to an integer), min(max(x, lo), hi).
Tensor clamp_int_tensors(const Tensor& a, const Tensor* min, const Tensor* max, const Shape& shape) {
  DType r = a.dtype();
  bool first = a.dim() == 0;
  for (const Tensor* b : {min, max})
    if (b && b->dim() > 0) r = first ? b->dtype() : promote_types(r, b->dtype()), first = false;
  for (const Tensor* b : {min, max})
    if (b && (first || (r == DType::boolean && b->dim() == 0))) r = first ? b->dtype() : promote_types(r, b->dtype()), first = false;
  if (first) r = a.dtype();
  const Tensor x = expand(to_dtype(a, DType::int64), shape).contiguous();   // shape
  const Tensor lo = min ? expand(to_dtype(*min, DType::int64), shape).contiguous() : Tensor();   // shape
  const Tensor hi = max ? expand(to_dtype(*max, DType::int64), shape).contiguous() : Tensor();   // shape
  Tensor out = empty(shape, DType::int64);   // shape
  const int64_t* px = x.data<int64_t>();
  int64_t* o = out.data<int64_t>();
  for (int64_t k = 0; k < out.numel(); ++k) {
    int64_t v = px[k];
    if (min) v = std::max(v, lo.data<int64_t>()[k]);
    if (max) v = std::min(v, hi.data<int64_t>()[k]);
    o[k] = v;
  }
  return to_dtype(out, r);
}

}  // namespace

Tensor clamp(const Tensor& a, const Tensor* min, const Tensor* max) {
  if (!min && !max) throw TensorError("torch.clamp: At least one of 'min' or 'max' must not be None");
  Shape shape = a.shape();
  if (min) shape = broadcast_shapes(shape, min->shape());
  if (max) shape = broadcast_shapes(shape, max->shape());
  if (!a.is_float() && (!min || !min->is_float()) && (!max || !max->is_float())) return clamp_int_tensors(a, min, max, shape);
  const Tensor x = expand(detach(to_float(a)), shape).contiguous();
  const Tensor lo = min ? expand(detach(to_float(*min)), shape).contiguous() : Tensor();
  const Tensor hi = max ? expand(detach(to_float(*max)), shape).contiguous() : Tensor();
  // clamp_kernel's vector body only when no operand is broadcast (ops/loops.h's runs of 16).
  const bool same = a.shape() == shape && a.is_contiguous() && (!min || (min->shape() == shape && min->is_contiguous())) &&
                    (!max || (max->shape() == shape && max->is_contiguous()));
  const int64_t n = numel_of(shape), body = same ? n - n % detail::kVecStep : 0;
  Tensor out = empty(shape);
  const float* px = x.data<float>();
  float* o = out.data<float>();
  for (int64_t k = 0; k < n; ++k) {
    const float l = min ? lo.data<float>()[k] : -std::numeric_limits<float>::infinity();
    const float h = max ? hi.data<float>()[k] : std::numeric_limits<float>::infinity();
    if (k < body) o[k] = std::isnan(px[k]) ? px[k] : std::isnan(l) || std::isnan(h) ? px[k] : std::min(h, std::max(l, px[k]));
    else o[k] = std::isnan(l) || std::isnan(h) ? kNaN : std::min(std::max(px[k], l), h);
  }
  const Tensor none;   // an absent bound: a None edge, as PyTorch's next_functions show it
  return autograd::record(std::move(out), {&a, min ? min : &none, max ? max : &none}, "ClampBackward0",
                          clamp_tensor_grad(a, min, max, shape));
}

}  // namespace attn::core
