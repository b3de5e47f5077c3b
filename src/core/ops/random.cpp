// core/ops/random.cpp: torch.rand, torch.randn and nn.Dropout (ops/random.h), on the generator of
// core/random.cpp. nn.Embedding's and nn.Linear's initialisers are Python (torch/prelude) over
// torch.nn.init, which calls the Generator's fills (torch/nn_init.cpp).
//
// What it is: the ATen-level code of each (_dropout_impl for dropout) over the Generator's fills,
// with the same doubles and float32 roundings.
// What it is not: the draws or their transforms (core/random.cpp).
#include "core/ops/random.h"

#include <fmt/format.h>

#include <limits>
#include <utility>

#include <charconv>
#include <cmath>
#include <string>

#include "core/autograd.h"
#include "core/ops/reduce.h"
#include "core/ops/sort.h"
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

Tensor randint(Generator& g, int64_t low, int64_t high, const Shape& shape) {
  if (low >= high) throw TensorError(fmt::format("random_ expects 'from' to be less than 'to', but got from={} >= to={}", low, high));
  Tensor out = empty(shape, DType::int64);
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  int64_t* o = out.data<int64_t>();
  for (int64_t k = 0; k < out.numel(); ++k) {
    const uint64_t v = range >= (uint64_t{1} << 32) ? g.random64() : g.random();
    o[k] = static_cast<int64_t>(v % range + static_cast<uint64_t>(low));
  }
  return out;
}

Tensor randperm(Generator& g, int64_t n) {
  if (n < 0) throw TensorError(fmt::format("n must be non-negative, got{}", n));
  Tensor out = empty({n}, DType::int64);
  int64_t* r = out.data<int64_t>();
  for (int64_t i = 0; i < n; ++i) r[i] = i;
  const bool small = n < static_cast<int64_t>(std::numeric_limits<uint32_t>::max() / 20);
  for (int64_t i = 0; i + 1 < n; ++i) {
    const uint64_t v = small ? g.random() : g.random64();
    const int64_t z = static_cast<int64_t>(v % static_cast<uint64_t>(n - i));
    std::swap(r[i], r[z + i]);
  }
  return out;
}

Tensor normal(Generator& g, double mean, double std, const Shape& shape) {
  if (std < 0) throw TensorError(fmt::format("normal expects std >= 0.0, but found std {}", std));
  Tensor out = empty(shape);
  g.fill_normal(out.data<float>(), out.numel(), mean, std);
  return out;
}

Tensor multinomial(Generator& g, const Tensor& probs, int64_t n, bool replacement) {
  if (probs.dim() < 1 || probs.dim() > 2) throw TensorError("prob_dist must be 1 or 2 dim");
  if (!probs.is_float()) throw TensorError("multinomial only supports floating-point dtypes for input, got: Long");
  if (n <= 0) throw TensorError("cannot sample n_sample <= 0 samples");
  const int64_t categories = probs.shape().back();
  if (!replacement && n > categories) throw TensorError("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  if (replacement && n > 1)
    throw TensorError("attn draws torch.multinomial with replacement only for one sample (num_samples=1)", "NotImplementedError");
  const Tensor p = probs.contiguous();
  const std::vector<float> v = p.floats();
  bool valid = true;
  for (float x : v) valid = valid && x < std::numeric_limits<float>::infinity() && x >= 0;   // NaN fails x >= 0
  if (!valid) throw TensorError("probability tensor contains either `inf`, `nan` or element < 0");
  const int64_t rows = p.dim() == 1 ? 1 : p.shape()[0];
  for (int64_t r = 0; r < rows; ++r) {
    float s = 0;
    for (int64_t c = 0; c < categories; ++c) s += v[static_cast<size_t>(r * categories + c)];
    if (s == 0) throw TensorError("invalid multinomial distribution (sum of probabilities <= 0)");
  }
  // q = empty_like(self).exponential_(1) in memory order, then q = self / q.
  Tensor q = empty(p.shape());
  float* pq = q.data<float>();
  for (int64_t k = 0; k < q.numel(); ++k) {
    const double u = static_cast<double>(g.random64() & ((uint64_t{1} << 53) - 1)) * std::ldexp(1.0, -53);
    pq[k] = v[static_cast<size_t>(k)] / static_cast<float>(-1.0 * std::log(1.0 - u));
  }
  if (n == 1) return argmax(q, -1, true);
  return topk(q, n, -1, true, true).second;
}

}  // namespace attn::core
