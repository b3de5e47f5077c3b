// core/ops/random.cpp: torch.rand, torch.randn and nn.Dropout (ops/random.h), on the generator of
// core/random.cpp. nn.Embedding's and nn.Linear's initialisers are Python (torch/prelude) over
// torch.nn.init, which calls the Generator's fills (torch/nn_init.cpp).
//
// What it is: the ATen-level code of each (_dropout_impl for dropout) over the Generator's fills,
// with the same doubles and float32 roundings.
// What it is not: the draws or their transforms (core/random.cpp).
#include "core/ops/random.h"

#include <charconv>
#include <cmath>
#include <string>

#include "core/autograd.h"
#include "core/ops/binary.h"

namespace attn::core {

namespace {

Tensor float_tensor(const Shape& shape) { return empty(shape); }

}  // namespace

// torch.rand(*shape)
Tensor rand(Generator& g, const Shape& shape) {
  Tensor t = float_tensor(shape);
  g.fill_rand(t.data<float>(), t.numel());
  return t;
}

// torch.randn(*shape)
Tensor randn(Generator& g, const Shape& shape) {
  Tensor t = float_tensor(shape);
  g.fill_normal(t.data<float>(), t.numel(), 0.0, 1.0);
  return t;
}

// nn.Dropout(p) in training mode on CPU: at::native::_dropout_impl (the fused native_dropout is
// CUDA-only). p == 0 returns the input itself; p == 1 multiplies by a zero scalar (no RNG).
// Otherwise noise = bernoulli_(1 - p); noise.div_(1 - p) multiplies by the rounded reciprocal,
// so a kept element is fl32(x * fl32(1 / fl32(1 - p))); then input * noise (MulBackward0), so a
// dropped element is x * 0 (-0.0 for negative x, NaN for inf).
Tensor dropout(Generator& g, const Tensor& x, double p, DropoutRng kind) {
  if (!(p >= 0.0 && p <= 1.0)) {
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, p).ptr;  // shortest, like Python's repr
    throw TensorError("dropout probability has to be between 0 and 1, but got " +
                      std::string(buf, end));
  }
  if (!x.is_float()) throw TensorError("dropout: expected a floating point tensor");
  if (p == 0.0 || x.numel() == 0) return x;
  // The mask is drawn in x's logical (row-major) order whatever its layout, as PyTorch does.
  const Tensor xc = x.contiguous();
  const float* in = xc.data<float>();
  Tensor out = empty(x.shape());
  float* o = out.data<float>();
  const int64_t n = x.numel();
  Tensor noise = zeros({});   // p == 1: input * zeros({})
  if (p == 1.0) {
    for (int64_t k = 0; k < n; ++k) o[k] = in[k] * 0.0f;
  } else {
    const double p_keep = 1.0 - p;
    const float scale = 1.0f / static_cast<float>(p_keep);
    noise = empty(x.shape());
    float* m = noise.data<float>();
    g.fill_bernoulli(m, n, p_keep, kind);  // the keep-mask, then noise.div_(1 - p) as m * scale
    for (int64_t k = 0; k < n; ++k) m[k] = m[k] * scale;
    for (int64_t k = 0; k < n; ++k) o[k] = in[k] * m[k];
  }
  // MulBackward0 of input * noise: grad * noise (dropped positions give g * 0, -0 where g < 0).
  autograd::Backward backward{[noise](const autograd::Grads& gr) { return autograd::Grads{binary(BinOp::mul, *gr[0], noise)}; }};
  return autograd::record(std::move(out), {&x}, "MulBackward0", std::move(backward));
}

}  // namespace attn::core
