// core/ops/random.h: the tensors PyTorch draws from its CPU generator (core/random.h): torch.rand,
// torch.randn, randint, randperm, normal and nn.Dropout, bit for bit (docs/pytorch-numerics.md §1, §2, §6).
//
// What it is: new float32 tensors filled in memory order by the Generator's transforms, named
// after what they reproduce; dropout records MulBackward0 (input * noise).
// What it is not: the generator (core/random.h), other distributions, or the nn initialisers
// (torch.nn.init in torch/nn_init.cpp; nn.Linear and nn.Embedding in the torch prelude).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/random.h"
#include "core/tensor.h"

namespace attn::core {

Tensor rand(Generator& g, const Shape& shape);                 // torch.rand(*shape)
Tensor randn(Generator& g, const Shape& shape);                // torch.randn(*shape)
// torch.randint(low, high, shape): int64, per element in memory order random() % (high - low)
// + low, or random64() when high - low >= 2^32 (random_from_to_kernel).
Tensor randint(Generator& g, int64_t low, int64_t high, const Shape& shape);
// torch.randperm(n): 0..n-1, then for i < n-1 swap i with i + random() % (n - i) (randperm_cpu).
Tensor randperm(Generator& g, int64_t n);
// Tensor.random_() (uniform_int_distribution): int64 random64() % 2^63, float32 random() % (2^24 + 1),
// bool random() & 1, per element in memory order, written into self (any strides).
void random_(Generator& g, Tensor& self);
// Tensor.random_(from, to) (random_from_to_kernel): from + v % (to - from), v one random() or,
// when to - from >= 2^32, one random64(). to = nullopt: up to the dtype's largest value (int64
// max, 2^24 for float32, 1 for bool); int64 with from = -2^63: all 64 bits of random64().
void random_(Generator& g, Tensor& self, int64_t from, std::optional<int64_t> to);
// torch.normal(mean, std, shape): normal_(mean, std) on a new tensor (randn's paths, §1).
Tensor normal(Generator& g, double mean, double std, const Shape& shape);
// torch.multinomial(probs, n) without replacement: 1.13's Gumbel trick,
// q = probs / Exp(1) draws (exponential_distribution<double>: -log(1 - u), u a 53-bit uniform from
// random64(), cast to float), then argmax(q, -1, keepdim) for n == 1, else topk(q, n) indices.
// With replacement and n > 1: 1.13's multinomial_with_replacement kernel (a cumulative sum in the
// input's type, divided by the sum, the last bucket set to 1; per sample one 53-bit uniform from
// random64(), binary search for the first bucket not below it). probs is (C,) or (B, C); int64
// (n,) or (B, n).
Tensor multinomial(Generator& g, const Tensor& probs, int64_t n, bool replacement);
// The same over float64 probabilities (one row), in double throughout: WeightedRandomSampler's
// torch.as_tensor(weights, dtype=torch.double), which attn's tensors cannot hold.
Tensor multinomial(Generator& g, const std::vector<double>& probs, int64_t n, bool replacement);
// nn.Dropout(p) in training mode: keep-mask * fl32(1 / fl32(1 - p)) * x.
Tensor dropout(Generator& g, const Tensor& x, double p, DropoutRng kind);

}  // namespace attn::core
