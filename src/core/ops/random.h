// core/ops/random.h: the tensors PyTorch draws from its CPU generator (core/random.h): torch.rand,
// torch.randn and nn.Dropout, bit for bit (docs/pytorch-numerics.md §1, §2, §6).
//
// What it is: new float32 tensors filled in memory order by the Generator's transforms, named
// after what they reproduce; dropout records MulBackward0 (input * noise).
// What it is not: the generator (core/random.h), other distributions, or the nn initialisers
// (torch.nn.init in torch/nn_init.cpp; nn.Linear and nn.Embedding in the torch prelude).
#pragma once

#include <cstdint>

#include "core/random.h"
#include "core/tensor.h"

namespace attn::core {

Tensor rand(Generator& g, const Shape& shape);                 // torch.rand(*shape)
Tensor randn(Generator& g, const Shape& shape);                // torch.randn(*shape)
// nn.Dropout(p) in training mode: keep-mask * fl32(1 / fl32(1 - p)) * x.
Tensor dropout(Generator& g, const Tensor& x, double p, DropoutRng kind);

}  // namespace attn::core
