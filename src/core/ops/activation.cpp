// core/ops/activation.cpp: relu and gelu, forward and backward (ops/activation.h).
//
// What it is: relu is clamp_min, ReluBackward0 threshold_backward(g, result, 0). GELU picks its
// kernel as PyTorch 1.13 does: oneDNN's for approximate 'none' on a contiguous input of more
// than one element, else ATen's, which walks the input in memory order with the last n % 16
// elements of each contiguous run in its scalar tail (ops/loops.h scalar_tail). GeluBackward0
// uses the kernel the forward used; ATen's walks dy and x together (ops/loops.h binary_loop),
// so a view's gradient has TensorIterator's layout and tails. A contiguous input (and a
// contiguous dy) is one run: the kernels get its body and its tail apart (by_tail), with no flags
// built per element.
// What it is not: the per-element arithmetic (kernels/activation.cpp).
#include "core/ops/activation.h"

#include <algorithm>
#include <vector>

#include "core/autograd.h"
#include "core/kernels/activation.h"
#include "core/ops/loops.h"

namespace attn::core {

// ---- relu ----

Tensor relu(const Tensor& a) {
  if (a.dtype() == DType::boolean) throw TensorError("Boolean inputs not supported for relu");
  if (!a.is_float()) {   // an integer relu keeps its dtype
    Tensor out = to_dtype(a, DType::int64).clone();
    for (int64_t k = 0; k < out.numel(); ++k) out.data<int64_t>()[k] = std::max<int64_t>(out.data<int64_t>()[k], 0);
    return with_grad(to_dtype(out, a.dtype()), {&a}, "ReluBackward0");
  }
  const Tensor x = a.contiguous();
  Tensor out = uninitialized(x.shape());
  const float* in = x.data<float>();
  float* o = out.data<float>();
  for (int64_t k = 0; k < x.numel(); ++k) o[k] = in[k] < 0 ? 0.0f : in[k];   // keeps -0 and NaN
  // ReluBackward0: threshold_backward(g, result, 0): +0 where result <= 0, else g.
  autograd::Backward backward{[y = detach(out)](const autograd::Grads& g) {
    const Tensor dy = g[0]->contiguous();
    Tensor dx = uninitialized(y.shape());
    for (int64_t k = 0; k < y.numel(); ++k) dx.data<float>()[k] = y.data<float>()[k] <= 0.0f ? 0.0f : dy.data<float>()[k];
    return autograd::Grads{dx};
  }};
  backward.saves_result = true;   // ReluBackward0 saves its result
  return autograd::record(std::move(out), {&a}, "ReluBackward0", std::move(backward));
}

// ---- gelu ----

namespace {

// Runs kernel(k0, count, flags) over a run of n elements in ATen's layout: for a contiguous one
// (tail == nullptr) the body with no flags, then the last n % 16 (the scalar tail) with all
// flags set, so no per-element flags are built for a large tensor; else once, with `tail`'s.
template <typename K>
void by_tail(int64_t n, const std::vector<uint8_t>* tail, K kernel) {
  if (tail != nullptr) return kernel(0, n, tail->data());
  static constexpr uint8_t kAllTail[detail::kVecStep] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const int64_t body = n - n % detail::kVecStep;
  kernel(0, body, nullptr);
  kernel(body, n - body, kAllTail);
}

}  // namespace

namespace grad {
namespace {

using autograd::Backward;

// GeluBackward0: oneDNN's kernel where the forward used it (a contiguous input, 'none'), else
// ATen's over TensorIterator(dy, x): its output layout and scalar tails (ops/loops.h binary_loop).
Backward gelu(const Tensor& input, bool tanh_approximation, CpuKernels cpu) {
  const bool onednn = !tanh_approximation && input.is_contiguous() && input.numel() > 1;
  return {[x = detach(input), tanh_approximation, onednn, cpu](const autograd::Grads& g) {
    const Tensor xs = x.contiguous(), dy = g[0]->contiguous();   // both x's shape, row-major
    Tensor dx = uninitialized(x.shape());                                // x's shape
    const int64_t n = x.numel();
    if (onednn) {
      kernels::gelu_onednn_backward(xs.data<float>(), dy.data<float>(), dx.data<float>(), n);
      return autograd::Grads{dx};
    }
    // Both contiguous: TensorIterator's fast set-up, one run, the output contiguous.
    const bool one_run = g[0]->is_contiguous() && x.is_contiguous();
    const detail::BinaryLoop loop = one_run ? detail::BinaryLoop{} : detail::binary_loop(*g[0], x);
    const float *px = xs.data<float>(), *pdy = dy.data<float>();
    float* pdx = dx.data<float>();
    by_tail(n, one_run ? nullptr : &loop.tail, [&](int64_t k0, int64_t count, const uint8_t* flags) {
      if (tanh_approximation) kernels::gelu_tanh_backward(px + k0, pdy + k0, pdx + k0, count, flags, cpu);
      else kernels::gelu_erf_backward(px + k0, pdy + k0, pdx + k0, count, flags, cpu);
    });
    if (!one_run && dx.dim() > 0 && loop.out_strides != dx.strides()) dx = relayout(std::move(dx), loop.out_strides);
    return autograd::Grads{dx};
  }, true, {input}};
}

}  // namespace
}  // namespace grad

Tensor gelu(const Tensor& a, bool tanh_approximation, CpuKernels cpu) {
  if (!a.is_float()) throw TensorError("\"GeluKernelImpl\" not implemented for 'Long'");
  const bool contiguous = a.is_contiguous();
  const std::vector<uint8_t> tail = contiguous ? std::vector<uint8_t>{} : detail::scalar_tail(a);   // contiguous: by_tail's
  const Tensor x = a.contiguous();
  Tensor out = uninitialized(x.shape());   // a's shape
  const int64_t n = x.numel();
  const bool onednn = !tanh_approximation && contiguous && n > 1;
  const float* px = x.data<float>();
  float* po = out.data<float>();
  if (onednn) kernels::gelu_onednn(px, po, n);
  else by_tail(n, contiguous ? nullptr : &tail, [&](int64_t k0, int64_t count, const uint8_t* flags) {
    kernels::gelu_aten(px + k0, flags, po + k0, count, tanh_approximation, cpu);
  });
  return autograd::record(std::move(out), {&a}, "GeluBackward0", grad::gelu(a, tanh_approximation, cpu));
}

}  // namespace attn::core
