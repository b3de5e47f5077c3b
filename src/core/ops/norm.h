// core/ops/norm.h: torch.norm / Tensor.norm's vector p-norms (at::norm, NormBackward1).
//
// What it is: the p-norm over every element or over one dim, in ATen 1.13's reduction order
// (norm_kernel_tensor_iterator_impl), and its backward (FunctionsManual.cpp norm_backward).
// What it is not: the Frobenius norm over two dims (torch/ composes it: sqrt(sum(x*x))), matrix
// norms ('nuc', linalg.matrix_norm), or several dims at once.
#pragma once

#include <optional>

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core {

// ||a||_p over `dim` (nullopt: every element); p may be 0, inf, -inf or any number.
Tensor norm(const Tensor& a, double p, std::optional<int64_t> dim, bool keepdim, CpuKernels cpu);

}  // namespace attn::core
