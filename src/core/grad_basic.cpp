// core/grad_basic.cpp: backward of arithmetic, sums, means and matrix products (grad_fns.h).
//
// What it is: PyTorch 1.13's formulas (tools/autograd/derivatives.yaml, FunctionsManual.cpp),
// each a core op on detached tensors, so each rounds as the ATen kernel it names:
//   a + b: g, g            a - b: g, -g          a * b: g*b, g*a       a / b: g/b, -g*((a/b)/b)
//   x (op) s: the same with fl32(s)              -x: -g                exp(x): g*result
//   tanh(x): g * (1 - y*y), fused to fma(-y, y, 1) in the AVX2 family
//   x.sum(): g expanded    x.mean(dim): g expanded / fl32(n)
//   a @ b: g @ b^T and a^T @ g, where an N-D @ 2-D product folds a's batch rows into one mm (so
//   the weight's gradient sums over all B*T rows in order) and 2-D @ N-D folds b's (transposed).
// docs/pytorch-numerics.md §12.
// What it is not: the engine's broadcast reduction (autograd_engine.cpp does sum_to).
#include <fmt/format.h>

#include <cmath>

#include "core/grad_fns.h"

namespace attn::core::grad {

namespace {

using autograd::Grads;

// g expanded back over a reduced dim (keepdim=False removed it).
Tensor expand_back(const Tensor& g, const Shape& shape, int64_t dim, bool keepdim) {
  const Tensor k = keepdim ? g : unsqueeze(g, dim);
  return expand(k, shape);
}

}  // namespace

Backward binary(BinOp op, const Tensor& a, const Tensor& b) {
  const bool need_a = a.requires_grad(), need_b = b.requires_grad();
  switch (op) {
    case BinOp::add: return {[](const Grads& g) { return Grads{*g[0], *g[0]}; }, false};
    case BinOp::sub: return {[](const Grads& g) { return Grads{*g[0], neg(*g[0])}; }, false};
    case BinOp::mul: {
      Backward bw{[sa = detach(a), sb = detach(b), need_a, need_b](const Grads& g) {
        Grads out(2);
        if (need_a) out[0] = core::binary(BinOp::mul, *g[0], sb);
        if (need_b) out[1] = core::binary(BinOp::mul, *g[0], sa);
        return out;
      }};
      std::vector<Tensor> saved;   // self is saved for other's gradient, other for self's
      if (need_b) saved.push_back(a);
      if (need_a) saved.push_back(b);
      return reads(std::move(bw), saved);
    }
    case BinOp::div:
      return reads({[sa = detach(a), sb = detach(b), need_a, need_b](const Grads& g) {
        Grads out(2);
        if (need_a) out[0] = core::binary(BinOp::div, *g[0], sb);
        if (need_b) {   // -grad * ((self / other) / other)
          const Tensor q = core::binary(BinOp::div, core::binary(BinOp::div, sa, sb), sb);
          out[1] = core::binary(BinOp::mul, core::neg(*g[0]), q);
        }
        return out;
      }}, need_b ? std::vector<Tensor>{a, b} : std::vector<Tensor>{b});
    case BinOp::pow: return {};   // tensor ** tensor: PowBackward1, not implemented
  }
  return {};
}

Backward binary_scalar(BinOp op, const Tensor& a, double s, bool scalar_on_left) {
  const float fs = static_cast<float>(s);   // the wrapped scalar, as float32
  switch (op) {
    case BinOp::add: return {[](const Grads& g) { return Grads{*g[0]}; }, false};
    case BinOp::sub:
      if (scalar_on_left) return {[](const Grads& g) { return Grads{neg(*g[0])}; }, false};   // RsubBackward1
      return {[](const Grads& g) { return Grads{*g[0]}; }, false};
    case BinOp::mul: return {[fs](const Grads& g) { return Grads{core::binary_scalar(BinOp::mul, *g[0], fs)}; }};
    case BinOp::div:
      if (scalar_on_left) return {};   // s / x: not implemented
      return {[fs](const Grads& g) { return Grads{core::binary_scalar(BinOp::div, *g[0], fs)}; }};
    case BinOp::pow:
      if (scalar_on_left) return {};
      // pow_backward: e == 0 -> zeros; else grad * (fl32(e) * self.pow(e - 1)), pow's special cases
      return {[x = detach(a), s, fs](const Grads& g) {
        if (s == 0.0) return Grads{zeros(x.shape())};
        const Tensor d = core::binary_scalar(BinOp::mul, core::binary_scalar(BinOp::pow, x, s - 1.0), fs);
        return Grads{core::binary(BinOp::mul, *g[0], d)};
      }};
  }
  return {};
}

Backward neg() {
  return {[](const Grads& g) { return Grads{core::neg(*g[0])}; }, false};
}

Backward exp(const Tensor& result) {
  return reads({[y = detach(result)](const Grads& g) { return Grads{core::binary(BinOp::mul, *g[0], y)}; }}, {}, true);
}

Backward tanh(const Tensor& result, CpuKernels cpu) {
  // tanh_backward(g, y) = g * (1 - y*y); the AVX2 build fuses 1 - y*y into fma(-y, y, 1).
  return reads({[y = detach(result).contiguous(), cpu](const Grads& g) {
    Tensor d = empty(y.shape());
    const float* py = y.data<float>();
    float* pd = d.data<float>();
    for (int64_t k = 0; k < y.numel(); ++k)
      pd[k] = cpu == CpuKernels::avx2 ? std::fma(-py[k], py[k], 1.0f) : 1.0f - py[k] * py[k];
    return Grads{core::binary(BinOp::mul, *g[0], d)};
  }}, {}, true);
}

Backward sum_all(const Shape& input_shape) {
  return {[input_shape](const Grads& g) { return Grads{expand(*g[0], input_shape)}; }, false};
}

Backward sum_dim(const Shape& input_shape, int64_t dim, bool keepdim) {
  return {[=](const Grads& g) { return Grads{expand_back(*g[0], input_shape, dim, keepdim)}; }, false};
}

Backward mean_dim(const Shape& input_shape, int64_t dim, bool keepdim) {
  const float n = static_cast<float>(input_shape[static_cast<size_t>(dim)]);
  return {[=](const Grads& g) {
            return Grads{core::binary_scalar(BinOp::div, expand_back(*g[0], input_shape, dim, keepdim), n)};
          },
          false};
}

Backward mean_all(const Shape& input_shape) {
  const float n = static_cast<float>(numel_of(input_shape));
  return {[=](const Grads& g) { return Grads{core::binary_scalar(BinOp::div, expand(*g[0], input_shape), n)}; }, false};
}

namespace {

Tensor mT(const Tensor& t) { return transpose(t, -2, -1); }

// aten/src/ATen/native/LinearAlgebra.cpp should_fold: an N-D operand (N >= 3) times a 1-D or
// 2-D one is folded into one mm/mv, except a 3-D one whose last two dims are transposed.
bool should_fold(const Tensor& t1, int64_t dim2) {
  if (t1.dim() < 3 || (dim2 != 1 && dim2 != 2)) return false;
  const Shape& s = t1.shape();
  const Shape& st = t1.strides();
  return !(t1.dim() == 3 && dim2 == 2 && st.back() != 1 && st.front() == s[1] * s[2]);
}

// Gradients of a @ b for each path torch.matmul takes (LinearAlgebra.cpp _matmul_impl), as the
// nodes it records compute them. `fold`: 1 = a's rows folded, 2 = b's (transposed), 0 = neither.
Grads matmul_grads(const Tensor& a, const Tensor& b, const Tensor& g, int fold, bool need_a, bool need_b) {
  Grads out(2);
  const int64_t da = a.dim(), db = b.dim();
  if (da == 1 && db == 1) {   // DotBackward0
    if (need_a) out[0] = core::binary(BinOp::mul, g, b);
    if (need_b) out[1] = core::binary(BinOp::mul, g, a);
  } else if (da == 2 && db == 1) {   // MvBackward0: grad.ger(vec), self^T.mv(grad)
    if (need_a) out[0] = core::binary(BinOp::mul, unsqueeze(g, 1), unsqueeze(b, 0));
    if (need_b) out[1] = core::matmul(t(a), g);
  } else if (da == 1 && db == 2) {   // MmBackward0 of the unsqueezed row
    if (need_a) out[0] = core::matmul(b, g);
    if (need_b) out[1] = core::matmul(unsqueeze(a, 1), unsqueeze(g, 0));
  } else if (da == 2 && db == 2) {   // MmBackward0
    if (need_a) out[0] = core::matmul(g, t(b));
    if (need_b) out[1] = core::matmul(t(a), g);
  } else if (fold == 1) {   // a.reshape(-1, k) @ b: the weight's gradient sums over all rows
    const int64_t k = a.shape().back();
    const Tensor a2 = reshape(a, {-1, k});
    if (db == 2) {
      const Tensor g2 = reshape(g, {-1, b.shape()[1]});
      if (need_a) out[0] = reshape(core::matmul(g2, t(b)), a.shape());
      if (need_b) out[1] = core::matmul(t(a2), g2);
    } else {
      const Tensor g2 = reshape(g, {-1});
      if (need_a) out[0] = reshape(core::binary(BinOp::mul, unsqueeze(g2, 1), unsqueeze(b, 0)), a.shape());
      if (need_b) out[1] = core::matmul(t(a2), g2);
    }
  } else if (fold == 2) {   // (b^T @ a^T)^T with b^T's rows folded: (batch*n, k)
    const int64_t k = b.shape()[b.dim() - 2];
    const Tensor bt2 = reshape(mT(b), {-1, k});
    if (da == 2) {
      const Tensor gt2 = reshape(mT(g), {-1, a.shape()[0]});   // (batch*n, m)
      if (need_a) out[0] = t(core::matmul(t(bt2), gt2));
      if (need_b) out[1] = core::matmul(t(a), g);             // per element: sum over m in order
    } else {
      const Tensor g2 = reshape(g, {-1});                       // (batch*n)
      if (need_a) out[0] = core::matmul(t(bt2), g2);
      if (need_b) out[1] = mT(reshape(core::binary(BinOp::mul, unsqueeze(g2, 1), unsqueeze(a, 0)), mT(b).shape()));
    }
  } else {   // batched (bmm per broadcast batch); 1-D operands unsqueezed
    const Tensor a2 = da == 1 ? unsqueeze(a, 0) : a, b2 = db == 1 ? unsqueeze(b, 1) : b;
    Tensor g2 = da == 1 ? unsqueeze(g, -2) : g;
    if (db == 1) g2 = unsqueeze(g2, -1);
    if (need_a) {
      Tensor ga = core::matmul(g2, mT(b2));
      out[0] = da == 1 ? reshape(autograd::sum_to(ga, a2.shape()), a.shape()) : ga;
    }
    if (need_b) {
      Tensor gb = core::matmul(mT(a2), g2);
      out[1] = db == 1 ? reshape(autograd::sum_to(gb, b2.shape()), b.shape()) : gb;
    }
  }
  return out;
}

}  // namespace

Backward matmul(const Tensor& a, const Tensor& b) {
  const int fold = should_fold(a, b.dim()) ? 1 : should_fold(b, a.dim()) ? 2 : 0;
  std::vector<Tensor> saved;   // mm saves self for mat2's gradient and mat2 for self's
  if (b.requires_grad()) saved.push_back(a);
  if (a.requires_grad()) saved.push_back(b);
  return reads({[sa = detach(a), sb = detach(b), fold, need_a = a.requires_grad(), need_b = b.requires_grad()](const Grads& g) {
    return matmul_grads(sa, sb, *g[0], fold, need_a, need_b);
  }}, saved);
}

}  // namespace attn::core::grad
