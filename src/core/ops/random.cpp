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
#include <vector>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/reduce.h"
#include "core/ops/sort.h"
#include "core/ops/binary.h"
#include "core/ops/inplace.h"

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
  if (p == 0.0 || (x.numel() == 0 && x.is_float())) return x;
  if (!x.is_float()) {   // an integer or bool input: x * zeros({}) in x's dtype, or the mask drawn and noise.div_(1 - p) refused
    if (p == 1.0) return binary(BinOp::mul, x, empty({}, x.dtype()));
    std::vector<float> mask(static_cast<size_t>(x.numel()));
    g.fill_bernoulli(mask.data(), x.numel(), 1.0 - p, kind);
    throw TensorError(fmt::format("result type Float can't be cast to the desired output type {}", dtype_title(x.dtype())));
  }
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
  DeadlineMeter meter;
  for (int64_t k = 0; k < out.numel(); ++k) {
    meter.add(1);
    const uint64_t v = range >= (uint64_t{1} << 32) ? g.random64() : g.random();
    o[k] = static_cast<int64_t>(v % range + static_cast<uint64_t>(low));
  }
  return out;
}

Tensor randperm(Generator& g, int64_t n) {
  if (n < 0) throw TensorError(fmt::format("Trying to create tensor with negative dimension {}: [{}]", n, n));
  Tensor out = empty({n}, DType::int64);
  int64_t* r = out.data<int64_t>();
  DeadlineMeter meter;
  for (int64_t i = 0; i < n; ++i) {
    r[i] = i;
    meter.add(1);
  }
  const bool small = n < static_cast<int64_t>(std::numeric_limits<uint32_t>::max() / 20);
  for (int64_t i = 0; i + 1 < n; ++i) {
    meter.add(1);
    const uint64_t v = small ? g.random() : g.random64();
    const int64_t z = static_cast<int64_t>(v % static_cast<uint64_t>(n - i));
    std::swap(r[i], r[z + i]);
  }
  return out;
}

namespace {

// draw() for each element in order, as self's dtype, written through self's strides (copy_);
// no vector of all the draws first (random_ on 10^9 elements), and the clock looked at as it goes.
template <typename Draw>
void write_draws(Tensor& self, Draw draw) {
  Tensor drawn = empty(self.shape(), self.dtype());
  DeadlineMeter meter;
  for (int64_t k = 0; k < drawn.numel(); ++k) {
    meter.add(1);
    const int64_t v = draw();
    if (self.dtype() == DType::int64) drawn.data<int64_t>()[k] = v;
    else if (self.dtype() == DType::float32) drawn.data<float>()[k] = static_cast<float>(v);
    else drawn.data<uint8_t>()[k] = v != 0;
  }
  copy_(self, drawn);
}

}  // namespace

void random_(Generator& g, Tensor& self) {
  write_draws(self, [&]() -> int64_t {   // uniform_int_distribution<scalar_t> and transformation::uniform_int
    if (self.dtype() == DType::int64) return static_cast<int64_t>(g.random64() % (uint64_t{1} << 63));
    if (self.dtype() == DType::float32) return g.random() % ((uint32_t{1} << 24) + 1);
    return g.random() & 1;
  });
}

void random_(Generator& g, Tensor& self, int64_t from, std::optional<int64_t> to) {
  const bool full64 = !to && self.dtype() == DType::int64 && from == std::numeric_limits<int64_t>::min();
  if (to && from >= *to) throw TensorError(fmt::format("random_ expects 'from' to be less than 'to', but got from={} >= to={}", from, *to));
  const int64_t to_inc = to ? *to - 1 : self.dtype() == DType::int64 ? std::numeric_limits<int64_t>::max()
                                      : self.dtype() == DType::float32 ? int64_t{1} << 24 : 1;
  if (!to && from > to_inc) throw TensorError(fmt::format("random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, but got from={} > to_inc={}", from, to_inc));
  const uint64_t range = static_cast<uint64_t>(to_inc) - static_cast<uint64_t>(from) + 1;
  write_draws(self, [&]() -> int64_t {
    if (full64) return static_cast<int64_t>(g.random64());
    const uint64_t r = range >= (uint64_t{1} << 32) ? g.random64() : g.random();
    return static_cast<int64_t>(r % range + static_cast<uint64_t>(from));
  });
}

Tensor normal(Generator& g, double mean, double std, const Shape& shape) {
  if (std < 0) throw TensorError(fmt::format("normal expects std >= 0.0, but found std {}", std));
  Tensor out = empty(shape);
  g.fill_normal(out.data<float>(), out.numel(), mean, std);
  return out;
}

namespace {

// 1.13's checks of a multinomial's arguments (Distributions.cpp multinomial_out).
void check_multinomial(int64_t categories, int64_t n, bool replacement) {
  if (n <= 0) throw TensorError("cannot sample n_sample <= 0 samples");
  if (!replacement && n > categories) throw TensorError("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  if (categories > (int64_t{1} << 24)) throw TensorError("number of categories cannot exceed 2^24");
}

template <typename T>
void check_rows(const std::vector<T>& v, int64_t rows, int64_t categories) {
  bool valid = true;
  for (T x : v) valid = valid && x < std::numeric_limits<T>::infinity() && x >= 0;   // NaN fails x >= 0
  if (!valid) throw TensorError("probability tensor contains either `inf`, `nan` or element < 0");
  for (int64_t r = 0; r < rows; ++r) {
    T s = 0;
    for (int64_t c = 0; c < categories; ++c) s += v[static_cast<size_t>(r * categories + c)];
    if (s == 0) throw TensorError("invalid multinomial distribution (sum of probabilities <= 0)");
  }
}

double uniform53(Generator& g) {
  return static_cast<double>(g.random64() & ((uint64_t{1} << 53) - 1)) * std::ldexp(1.0, -53);
}

// The fast path (no replacement): q = p / Exp(1) in T, then argmax or topk's indices
// per row, as ATen's topk_impl_loop orders them (partial_sort when k * 64 <= n, else nth_element
// and a sort of the first k - 1).
template <typename T>
std::vector<int64_t> gumbel_rows(Generator& g, const std::vector<T>& p, int64_t rows, int64_t categories, int64_t n) {
  check_rows(p, rows, categories);
  std::vector<T> q(p.size());
  DeadlineMeter meter;
  for (size_t k = 0; k < q.size(); ++k) {
    q[k] = p[k] / static_cast<T>(-1.0 * std::log(1.0 - uniform53(g)));
    meter.add(1);
  }
  std::vector<int64_t> out;
  auto greater = [](const std::pair<T, int64_t>& x, const std::pair<T, int64_t>& y) { return x.first > y.first; };
  for (int64_t r = 0; r < rows; ++r) {
    meter.add(categories);
    std::vector<std::pair<T, int64_t>> row;
    for (int64_t c = 0; c < categories; ++c) row.emplace_back(q[static_cast<size_t>(r * categories + c)], c);
    if (n == 1) {
      int64_t best = 0;
      for (int64_t c = 1; c < categories; ++c) best = row[static_cast<size_t>(c)].first > row[static_cast<size_t>(best)].first ? c : best;
      out.push_back(best);
      continue;
    }
    if (n * 64 <= categories) {
      std::partial_sort(row.begin(), row.begin() + n, row.end(), greater);
    } else {
      std::nth_element(row.begin(), row.begin() + n - 1, row.end(), greater);
      std::sort(row.begin(), row.begin() + n - 1, greater);
    }
    for (int64_t k = 0; k < n; ++k) out.push_back(row[static_cast<size_t>(k)].second);
  }
  return out;
}

// multinomial_with_replacement_apply (native/cpu/MultinomialKernel.cpp), the sums in T.
template <typename T>
std::vector<int64_t> with_replacement_rows(Generator& g, const std::vector<T>& p, int64_t rows, int64_t categories, int64_t n) {
  std::vector<int64_t> out;
  std::vector<T> cum(static_cast<size_t>(categories));
  DeadlineMeter meter;   // multinomial(p, 10**9, True) stops near the time limit
  for (int64_t r = 0; r < rows; ++r) {
    meter.add(categories);
    T sum = 0;
    for (int64_t c = 0; c < categories; ++c) {
      const T v = p[static_cast<size_t>(r * categories + c)];
      if (!(v >= 0)) throw TensorError("invalid multinomial distribution (encountering probability entry < 0)");
      if (!std::isfinite(v)) throw TensorError("invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      sum += v;
      cum[static_cast<size_t>(c)] = sum;
    }
    if (!(sum > 0)) throw TensorError("invalid multinomial distribution (sum of probabilities <= 0)");
    for (T& c : cum) c /= sum;
    for (int64_t k = 0; k < n; ++k) {
      meter.add(1);
      const double u = uniform53(g);
      cum.back() = 1;
      int64_t left = 0, right = categories;
      while (right - left > 0) {
        const int64_t mid = left + (right - left) / 2;
        if (cum[static_cast<size_t>(mid)] < u) left = mid + 1;
        else right = mid;
      }
      out.push_back(left);
    }
  }
  return out;
}

template <typename T>
Tensor multinomial_of(Generator& g, const std::vector<T>& p, int64_t rows, int64_t categories, int64_t n, bool replacement, bool one_row) {
  check_multinomial(categories, n, replacement);
  // 1.13.1 takes the fast path only without replacement (later versions also for one sample with
  // replacement: multinomial(p, 1, True) draws differently there).
  const std::vector<int64_t> idx = !replacement ? gumbel_rows(g, p, rows, categories, n)
                                                : with_replacement_rows(g, p, rows, categories, n);
  return from_ints(one_row ? Shape{n} : Shape{rows, n}, idx);
}

}  // namespace

Tensor multinomial(Generator& g, const Tensor& probs, int64_t n, bool replacement) {
  if (probs.dim() < 1 || probs.dim() > 2) throw TensorError("prob_dist must be 1 or 2 dim");
  if (!probs.is_float()) throw TensorError("multinomial only supports floating-point dtypes for input, got: Long");
  const int64_t categories = probs.shape().back();
  const int64_t rows = probs.dim() == 1 ? 1 : probs.shape()[0];
  return multinomial_of(g, probs.contiguous().floats(), rows, categories, n, replacement, probs.dim() == 1);
}

Tensor multinomial(Generator& g, const std::vector<double>& probs, int64_t n, bool replacement) {
  return multinomial_of(g, probs, 1, static_cast<int64_t>(probs.size()), n, replacement, true);
}

}  // namespace attn::core
