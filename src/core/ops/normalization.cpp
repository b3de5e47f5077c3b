// core/ops/normalization.cpp: layer_norm and NativeLayerNormBackward0 (ops/normalization.h).
//
// What it is: the shape logic: the input viewed as M rows of N (the normalized dims), weight and
// bias made contiguous, the per-row mean and rstd the forward computes kept for the backward;
// the arithmetic is kernels/normalization.cpp's. A bias without a weight records the node for
// its name only (its backward is not established).
// What it is not: the loops (kernels/normalization.cpp).
#include "core/ops/normalization.h"

#include <algorithm>

#include "core/kernels/normalization.h"

namespace attn::core {

namespace grad {

Backward layer_norm(const Tensor& input, const Tensor* weight, std::vector<float> mean, std::vector<float> rstd,
                    CpuKernels cpu) {
  const Tensor x = detach(to_float(input)).contiguous();
  const Tensor w = weight ? detach(*weight).contiguous() : Tensor();
  const bool affine = weight != nullptr;
  return {[x, w, affine, mean = std::move(mean), rstd = std::move(rstd), cpu](const autograd::Grads& g) {
    const int64_t M = static_cast<int64_t>(mean.size()), N = M == 0 ? 0 : x.numel() / M;
    const Tensor dyt = g[0]->contiguous();
    std::vector<float> gamma(static_cast<size_t>(N), 1.0f);
    if (affine) std::copy_n(w.data<float>(), N, gamma.begin());
    Tensor dx = empty(x.shape());
    std::vector<float> dgamma(static_cast<size_t>(N)), dbeta(static_cast<size_t>(N));
    kernels::layer_norm_backward(dyt.data<float>(), x.data<float>(), mean.data(), rstd.data(), gamma.data(),
                                 dx.data<float>(), dgamma.data(), dbeta.data(), M, N, cpu);
    autograd::Grads out{dx};
    if (affine) {
      Tensor gw = empty(w.shape()), gb = empty(w.shape());   // normalized_shape, as the weight
      for (int64_t j = 0; j < N; ++j) {
        gw.data<float>()[j] = 0.0f + dgamma[j];
        gb.data<float>()[j] = 0.0f + dbeta[j];
      }
      out.push_back(gw);
      out.push_back(gb);
    }
    return out;
  }};
}

}  // namespace grad

Tensor layer_norm(const Tensor& input, int64_t normalized_dims, const Tensor* weight, const Tensor* bias, double eps,
                  CpuKernels cpu) {
  const Tensor x = to_float(input).contiguous();
  if (normalized_dims < 1 || normalized_dims > x.dim())
    throw TensorError("layer_norm: normalized_shape does not match the input's last dimensions");
  int64_t N = 1;
  for (int64_t d = x.dim() - normalized_dims; d < x.dim(); ++d) N *= x.shape()[d];
  const int64_t M = N == 0 ? 0 : x.numel() / N;
  const Tensor w = weight ? to_float(*weight).contiguous() : Tensor(), b = bias ? to_float(*bias).contiguous() : Tensor();
  Tensor out = empty(x.shape());
  std::vector<float> means(static_cast<size_t>(M)), rstds(static_cast<size_t>(M));   // saved for backward
  kernels::layer_norm(x.data<float>(), weight ? w.data<float>() : nullptr, bias ? b.data<float>() : nullptr,
                      out.data<float>(), means.data(), rstds.data(), M, N, static_cast<float>(eps), cpu);
  std::vector<const Tensor*> inputs{&input};
  if (weight) inputs.push_back(weight);
  if (bias) inputs.push_back(bias);
  if (!weight && bias) return with_grad(std::move(out), inputs, "NativeLayerNormBackward0");   // not implemented
  autograd::Backward backward = grad::layer_norm(input, weight, std::move(means), std::move(rstds), cpu);
  backward.saved = {input};   // NativeLayerNormBackward0 saves input, weight and bias
  if (weight) backward.saved.push_back(*weight);
  if (bias) backward.saved.push_back(*bias);
  const Tensor none;   // an absent weight or bias: a None edge, as in PyTorch's next_functions
  while (inputs.size() < 3) inputs.push_back(&none);
  return autograd::record(std::move(out), inputs, "NativeLayerNormBackward0", std::move(backward));
}

}  // namespace attn::core
