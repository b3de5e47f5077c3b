// core/ops/random.h: the tensors PyTorch draws from its CPU generator (core/random.h): torch.rand,
// torch.randn, nn.Embedding's and nn.Linear's initial weights, and nn.Dropout, bit for bit
// (docs/pytorch-numerics.md §1, §2, §6).
//
// What it is: new float32 tensors filled in memory order by the Generator's transforms, named
// after what they reproduce; the initialisers return Parameters (requires_grad, "Parameter
// containing:"); dropout records MulBackward0 (input * noise).
// What it is not: the generator (core/random.h) or other distributions.
#pragma once

#include <cstdint>

#include "core/random.h"
#include "core/tensor.h"

namespace attn::core {

Tensor rand(Generator& g, const Shape& shape);                 // torch.rand(*shape)
Tensor randn(Generator& g, const Shape& shape);                // torch.randn(*shape)
Tensor embedding_weight(Generator& g, int64_t num, int64_t dim);  // nn.Embedding(num, dim).weight
struct LinearParams {
  Tensor weight;  // (out, in)
  Tensor bias;    // (out) or empty shape {0} when bias=False
};
LinearParams linear_init(Generator& g, int64_t in, int64_t out, bool bias);  // nn.Linear(in, out)
// nn.Dropout(p) in training mode: keep-mask * fl32(1 / fl32(1 - p)) * x.
Tensor dropout(Generator& g, const Tensor& x, double p, DropoutRng kind);

}  // namespace attn::core
