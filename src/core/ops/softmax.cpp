// core/ops/softmax.cpp: softmax and SoftmaxBackward0 (ops/softmax.h).
//
// What it is: the shape logic (log_softmax and LogSoftmaxBackward0 alike): the input viewed as (outer, dim size, inner) around dim, made
// contiguous (free when it already is), a 0-d input's softmax is 1 (NaN when it is not finite), an empty one has nothing to
// normalise; the last dim and the others take different ATen kernels (kernels/softmax.h). The
// backward reads the saved result y (grad and y made contiguous first), as ATen's
// _softmax_backward_data does; docs/pytorch-numerics.md §12.
// What it is not: a place for rounding decisions (kernels/softmax.cpp).
#include "core/ops/softmax.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/kernels/log_softmax.h"
#include "core/kernels/softmax.h"

namespace attn::core {

namespace {

// grad_in of softmax from the gradient of its result y (same shape), along dim.
Tensor softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim, CpuKernels cpu) {
  const Tensor g = grad.contiguous(), y = result.contiguous();
  Tensor out = uninitialized(y.shape());
  if (y.numel() == 0) return out;
  if (y.dim() == 0) {
    out.data<float>()[0] = (g.float_at(0) - g.float_at(0) * y.float_at(0)) * y.float_at(0);
    return out;
  }
  const detail::DimSplit s = detail::split_at(y.shape(), dim);
  const float *gp = g.data<float>(), *yp = y.data<float>();
  float* o = out.data<float>();
  // ATen picks the kernel by the dim, not the layout: (4, 3, 1) over dim 1 takes the inner one.
  if (dim == y.dim() - 1) kernels::softmax_backward_lastdim(gp, yp, o, s.outer, s.size, cpu);
  else kernels::softmax_backward_inner(gp, yp, o, s.outer, s.size, s.inner, cpu);
  return out;
}

}  // namespace

namespace grad {

Backward softmax(const Tensor& result, int64_t dim, CpuKernels cpu) {
  return autograd::detail::reads({[y = detach(result), dim, cpu](const autograd::Grads& g) {
    return autograd::Grads{softmax_backward(*g[0], y, dim, cpu)};
  }}, {}, true);
}

}  // namespace grad

namespace {

// ATen's softmax kernels take floating types only; an empty input returns before the kernel.
Tensor softmax_of_ints(const Tensor& a, int64_t dim, bool log) {
  const int64_t d = normalize_dim(dim, a.dim());
  if (a.numel() == 0) return a.clone();
  const bool last = a.dim() == 0 || d == a.dim() - 1;
  const char* kernel = !last ? "softmax_kernel_impl" : log ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl";
  throw TensorError(fmt::format("\"{}\" not implemented for '{}'", kernel, dtype_title(a.dtype())));
}

}  // namespace

Tensor softmax(const Tensor& a, int64_t dim, CpuKernels cpu) {
  if (!a.is_float()) return softmax_of_ints(a, dim, false);
  const Tensor fa = to_float(a).contiguous();
  dim = normalize_dim(dim, fa.dim());
  Tensor out = uninitialized(fa.shape());
  const detail::DimSplit s = detail::split_at(fa.shape(), dim);
  if (fa.dim() == 0) out.data<float>()[0] = std::isfinite(fa.data<float>()[0]) ? 1.0f : std::numeric_limits<float>::quiet_NaN();   // exp(x - x)
  else if (fa.numel() == 0) {}  // nothing to normalise
  else if (dim == fa.dim() - 1) kernels::softmax_lastdim(fa.data<float>(), out.data<float>(), s.outer, s.size, cpu);
  else kernels::softmax_inner(fa.data<float>(), out.data<float>(), s.outer, s.size, s.inner, cpu);
  grad::Backward backward = grad::softmax(out, dim, cpu);
  return autograd::record(std::move(out), {&a}, "SoftmaxBackward0", std::move(backward));
}

namespace {

// grad_in of log_softmax from the gradient of its result y, along dim.
Tensor log_softmax_backward(const Tensor& grad, const Tensor& result, int64_t dim, CpuKernels cpu) {
  const Tensor g = grad.contiguous(), y = result.contiguous();
  Tensor out = uninitialized(y.shape());
  if (y.numel() == 0) return out;
  if (y.dim() == 0) {   // one element: g - exp(y) * g
    kernels::log_softmax_backward_lastdim(g.data<float>(), y.data<float>(), out.data<float>(), 1, 1, cpu);
    return out;
  }
  const detail::DimSplit s = detail::split_at(y.shape(), dim);
  if (dim == y.dim() - 1) kernels::log_softmax_backward_lastdim(g.data<float>(), y.data<float>(), out.data<float>(), s.outer, s.size, cpu);
  else kernels::log_softmax_backward_inner(g.data<float>(), y.data<float>(), out.data<float>(), s.outer, s.size, s.inner, cpu);
  return out;
}

}  // namespace

Tensor log_softmax(const Tensor& a, int64_t dim, CpuKernels cpu) {
  if (!a.is_float()) return softmax_of_ints(a, dim, true);
  const Tensor fa = to_float(a).contiguous();
  dim = normalize_dim(dim, fa.dim());
  Tensor out = uninitialized(fa.shape());
  const detail::DimSplit s = fa.dim() == 0 ? detail::DimSplit{1, 1, 1} : detail::split_at(fa.shape(), dim);
  if (fa.numel() == 0) {}  // nothing to normalise
  else if (fa.dim() == 0 || dim == fa.dim() - 1) kernels::log_softmax_lastdim(fa.data<float>(), out.data<float>(), s.outer, s.size, cpu);
  else kernels::log_softmax_inner(fa.data<float>(), out.data<float>(), s.outer, s.size, s.inner, cpu);
  autograd::Backward backward = autograd::detail::reads({[y = detach(out), dim, cpu](const autograd::Grads& g) {
    return autograd::Grads{log_softmax_backward(*g[0], y, dim, cpu)};
  }}, {}, true);
  return autograd::record(std::move(out), {&a}, "LogSoftmaxBackward0", std::move(backward));
}

}  // namespace attn::core
