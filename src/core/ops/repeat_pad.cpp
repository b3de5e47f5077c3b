// core/ops/repeat_pad.cpp: Tensor.repeat and constant_pad_nd, forward and backward
// (ops/repeat_pad.h).
//
// What it is: repeat copies element out[i] = a[i mod a.shape] (a's shape padded with leading
// 1s); RepeatBackward0 is 1.13's repeat_backward: the leading new dims summed away one at a
// time, then every repeated dim d seen as (repeat, size) and summed over its repeat axis (one dim
// at a time, in dim order). constant_pad fills with value and copies the overlap of the input;
// its backward is constant_pad_nd_backward, the gradient padded by the negated pad.
// What it is not: repeat's backward summed over several dims at once when torch's single
// multi-dim sum rounds differently (tests/vectors/opinfo.txt holds the cases checked).
#include "core/ops/repeat_pad.h"

#include <fmt/format.h>

#include "core/autograd.h"
#include "core/ops/inplace.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

// repeat_backward(grad, repeats, input_shape).
Tensor repeat_grad(Tensor g, const std::vector<int64_t>& repeats, const Shape& in) {
  for (int64_t r : repeats)
    if (r == 0) return zeros(in);
  const int64_t extra = static_cast<int64_t>(repeats.size() - in.size());
  for (int64_t k = 0; k < extra; ++k) g = sum(g, 0, false);
  Shape split;
  std::vector<int64_t> sum_dims;
  for (size_t d = 0; d < in.size(); ++d) {
    const int64_t r = repeats[d + extra];
    if (r != 1) {
      split.push_back(r);
      sum_dims.push_back(static_cast<int64_t>(split.size()) - 1);
    }
    split.push_back(in[d]);
  }
  if (sum_dims.empty()) return g;
  g = reshape(g, split);
  for (auto it = sum_dims.rbegin(); it != sum_dims.rend(); ++it) g = sum(g, *it, false);
  return g;
}

}  // namespace

Tensor repeat(const Tensor& a, const std::vector<int64_t>& repeats) {
  if (static_cast<int64_t>(repeats.size()) < a.dim())
    throw TensorError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const size_t extra = repeats.size() - static_cast<size_t>(a.dim());
  Shape padded(extra, 1), out_shape;
  padded.insert(padded.end(), a.shape().begin(), a.shape().end());
  for (size_t d = 0; d < repeats.size(); ++d) {
    if (repeats[d] < 0) throw TensorError(fmt::format("Trying to create tensor with negative dimension {}: {}", padded[d] * repeats[d], shape_str(repeats)));
    out_shape.push_back(padded[d] * repeats[d]);
  }
  const Tensor x = view(detach(a).contiguous(), padded);
  Tensor out = empty(out_shape, a.dtype());
  // out viewed as (r0, s0, r1, s1, ...) with the repeat axes' stride 0 over x: one copy_.
  Shape shape, strides;
  for (size_t d = 0; d < padded.size(); ++d) {
    shape.push_back(repeats[d]);
    shape.push_back(padded[d]);
    strides.push_back(0);
    strides.push_back(x.strides()[d]);
  }
  Tensor dst = view(out, shape);
  copy_(dst, make_view(detach(x), shape, strides, x.offset()));
  if (out.storage()) out.storage()->forget_own_writes();   // _version 0, as torch's repeat
  autograd::Backward backward{[repeats, in = a.shape()](const autograd::Grads& g) {
    return autograd::Grads{repeat_grad(detach(*g[0]), repeats, in)};
  }, false};
  return autograd::record(std::move(out), {&a}, "RepeatBackward0", std::move(backward));
}

Tensor constant_pad(const Tensor& a, const std::vector<int64_t>& pad, double value) {
  if (pad.size() % 2 != 0) throw TensorError("Padding length must be divisible by 2");
  const int64_t pairs = static_cast<int64_t>(pad.size() / 2);
  if (pairs > a.dim()) throw TensorError("Padding length too large");
  Shape shape = a.shape();
  Tensor src = detach(a);
  for (int64_t k = 0; k < pairs; ++k) {
    const int64_t d = a.dim() - 1 - k, lo = pad[2 * k], hi = pad[2 * k + 1];
    const int64_t size = shape[d] + lo + hi;
    if (size < 0)
      throw TensorError(fmt::format("The input size {}, plus negative padding {} and {} resulted in a negative output size, which is invalid. Check dimension {} of your input.",
                                    shape[d], lo, hi, d));
    shape[d] = size;
    src = narrow(src, d, std::max<int64_t>(-lo, 0), std::max<int64_t>(a.shape()[d] + std::min<int64_t>(lo, 0) + std::min<int64_t>(hi, 0), 0));
  }
  Tensor out = empty(shape, a.dtype());
  fill_(out, value);
  Tensor dst = detach(out);
  for (int64_t k = 0; k < pairs; ++k) {
    const int64_t d = a.dim() - 1 - k;
    dst = narrow(dst, d, std::max<int64_t>(pad[2 * k], 0), src.shape()[d]);
  }
  copy_(dst, src);
  std::vector<int64_t> negated;
  for (int64_t p : pad) negated.push_back(-p);
  autograd::Backward backward{[negated](const autograd::Grads& g) { return autograd::Grads{constant_pad(detach(*g[0]), negated, 0.0)}; }, false};
  return autograd::record(std::move(out), {&a}, "ConstantPadNdBackward0", std::move(backward));
}

}  // namespace attn::core
