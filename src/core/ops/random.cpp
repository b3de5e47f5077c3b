// core/ops/random.cpp: torch.rand, torch.randn, nn.Embedding's and nn.Linear's initialisation,
// and nn.Dropout (ops/random.h), on the generator of core/random.cpp.
//
// What it is: the Python-level code of each (torch/nn/init.py, Linear.reset_parameters,
// _dropout_impl) over the Generator's fills, with the same doubles and float32 roundings.
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

Tensor parameter(Tensor t) {
  t.set_requires_grad(true);
  t.set_parameter(true);
  return t;
}

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

// nn.Embedding(num, dim): torch.empty (no RNG), then reset_parameters -> init.normal_(weight),
// i.e. normal_(0, 1) over all num*dim values at once.
Tensor embedding_weight(Generator& g, int64_t num, int64_t dim) {
  Tensor w = float_tensor({num, dim});
  g.fill_normal(w.data<float>(), w.numel(), 0.0, 1.0);
  return parameter(std::move(w));
}

// nn.Linear(in, out): Linear.reset_parameters.
//   1. init.kaiming_uniform_(weight, a=sqrt(5)): fan_in = in, gain = sqrt(2 / (1 + a^2)),
//      bound = sqrt(3) * (gain / sqrt(fan_in)), all Python floats (double), then uniform_.
//   2. bias: bound = 1 / sqrt(fan_in) (0 when fan_in == 0), then uniform_.
LinearParams linear_init(Generator& g, int64_t in, int64_t out, bool bias) {
  LinearParams p;
  p.weight = float_tensor({out, in});
  const double a = std::sqrt(5.0);
  const double gain = std::sqrt(2.0 / (1.0 + a * a));  // calculate_gain('leaky_relu', a)
  const double fan_in = static_cast<double>(in);
  const double w_bound = std::sqrt(3.0) * (gain / std::sqrt(fan_in));
  g.fill_uniform(p.weight.data<float>(), p.weight.numel(), -w_bound, w_bound);
  p.weight = parameter(std::move(p.weight));
  if (!bias) {
    p.bias = float_tensor({0});
    return p;
  }
  p.bias = float_tensor({out});
  const double b_bound = in > 0 ? 1.0 / std::sqrt(fan_in) : 0.0;
  g.fill_uniform(p.bias.data<float>(), out, -b_bound, b_bound);
  p.bias = parameter(std::move(p.bias));
  return p;
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
