// core/grad_views.cpp: backward of views, joins and copies (grad_fns.h).
//
// What it is: the formulas of derivatives.yaml for ops that only move elements: the gradient
// is reshaped, transposed or permuted back; a select or slice puts it into a zero tensor of
// the input's shape (the rest +0); split and unbind (one node, several outputs) put their
// outputs' gradients together again (zeros for an output that got none); cat and stack cut the
// gradient into the inputs' parts. Expand, clone and alias pass it on unchanged: the engine's
// sum_to reduces an expanded gradient to the input's shape. No arithmetic, so no rounding.
// What it is not: index_select / embedding / index with tensors (their backward adds).
#include <numeric>

#include "core/grad_fns.h"

namespace attn::core::grad {

namespace {
using autograd::Grads;

// A zero tensor of `shape` with `g` copied into the part that `part` selects.
template <typename Part>
Tensor zeros_with(const Shape& shape, const Tensor& g, Part part) {
  Tensor z = zeros(shape);
  Tensor dst = part(z);
  copy_(dst, g);
  return z;
}
}  // namespace

Backward reshape_to(const Shape& input_shape) {
  return {[input_shape](const Grads& g) { return Grads{reshape(*g[0], input_shape)}; }, false};
}

Backward identity() {
  return {[](const Grads& g) { return Grads{*g[0]}; }, false};
}

Backward transpose(int64_t d0, int64_t d1) {
  return {[d0, d1](const Grads& g) { return Grads{core::transpose(*g[0], d0, d1)}; }, false};
}

Backward permute(const Shape& dims) {
  Shape inverse(dims.size());
  for (size_t k = 0; k < dims.size(); ++k) inverse[static_cast<size_t>(normalize_dim(dims[k], static_cast<int64_t>(dims.size())))] = static_cast<int64_t>(k);
  return {[inverse](const Grads& g) { return Grads{core::permute(*g[0], inverse)}; }, false};
}

Backward unsqueeze(int64_t dim) {
  return {[dim](const Grads& g) { return Grads{core::squeeze(*g[0], dim)}; }, false};
}

Backward select(const Shape& input_shape, int64_t dim, int64_t index) {
  return {[=](const Grads& g) {
            return Grads{zeros_with(input_shape, *g[0], [&](const Tensor& z) { return core::select(z, dim, index); })};
          },
          false};
}

Backward slice(const Shape& input_shape, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  return {[=](const Grads& g) {
            return Grads{zeros_with(input_shape, *g[0], [&](const Tensor& z) { return core::slice(z, dim, start, stop, step); })};
          },
          false};
}

Backward split(const Shape& input_shape, int64_t dim, std::vector<int64_t> sizes) {
  return {[=](const Grads& g) {
            std::vector<Tensor> parts;
            for (size_t k = 0; k < sizes.size(); ++k) {
              Shape s = input_shape;
              s[static_cast<size_t>(dim)] = sizes[k];
              parts.push_back(k < g.size() && g[k] ? *g[k] : zeros(s));
            }
            return Grads{cat(parts, dim)};
          },
          false};
}

Backward unbind(const Shape& input_shape, int64_t dim) {
  return {[=](const Grads& g) {
            Shape s = input_shape;
            s.erase(s.begin() + dim);
            std::vector<Tensor> parts;
            for (int64_t k = 0; k < input_shape[static_cast<size_t>(dim)]; ++k)
              parts.push_back(static_cast<size_t>(k) < g.size() && g[k] ? *g[k] : zeros(s));
            return Grads{stack(parts, dim)};
          },
          false};
}

Backward cat(std::vector<int64_t> sizes, int64_t dim) {
  return {[=](const Grads& g) {
            Grads out;
            int64_t pos = 0;
            for (int64_t n : sizes) {
              out.push_back(narrow(*g[0], dim, pos, n));
              pos += n;
            }
            return out;
          },
          false};
}

Backward stack(size_t n, int64_t dim) {
  return {[=](const Grads& g) {
            Grads out;
            for (size_t k = 0; k < n; ++k) out.push_back(core::select(*g[0], dim, static_cast<int64_t>(k)));
            return out;
          },
          false};
}

Backward embedding(const Tensor& ids, int64_t num_weights, int64_t padding_idx) {
  // embedding_dense_backward_cpu: grad_weight = zeros(V, C); for each index in row-major order,
  // skipping padding_idx, grad_weight[k] = grad_weight[k] + g[i]: repeated ids add in order.
  return {[ids = ids.contiguous(), num_weights, padding_idx](const Grads& g) {
    const Tensor gc = g[0]->contiguous();
    const int64_t width = gc.shape().back();
    Tensor out = zeros({num_weights, width});
    const int64_t* id = ids.data<int64_t>();
    const float* src = gc.data<float>();
    float* o = out.data<float>();
    for (int64_t i = 0; i < ids.numel(); ++i) {
      if (id[i] == padding_idx) continue;
      for (int64_t c = 0; c < width; ++c) o[id[i] * width + c] = o[id[i] * width + c] + src[i * width + c];
    }
    return Grads{out};
  }};
}

}  // namespace attn::core::grad
