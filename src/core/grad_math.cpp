// core/grad_math.cpp: backward of the pointwise math, variance, selections and triangles that
// a hand-written GPT block and the concept lessons use (grad_fns.h).
//
// What it is: PyTorch 1.13's formulas (tools/autograd/derivatives.yaml, FunctionsManual.cpp),
// each written with core ops on detached tensors so each step rounds as the ATen kernel does,
// in the formula's evaluation order (docs/pytorch-numerics.md §12):
//   sqrt: g / (2*y)                 rsqrt: (-0.5*g) * ((y*y)*y)        log: g / x
//   abs: g * sgn(x)                 erf: (fl32(2/sqrt(pi)) * exp(-(x*x))) * g
//   var: (fl32(2/(n-c)) * g) * (x - x.mean(dim, keepdim=True))   (g unsqueezed back first)
//   std: var's with g / (2*y), +0 where y == 0
//   pow(x, e tensor): where(e == 0, 0, g * (e * x.pow(e - 1))) and g * where(x == 0 & e >= 0, 0, y * log(x))
//   pow(s, e): g * (y * fl32(log(s)))   where: where(c, g, 0), where(c, 0, g)   tril/triu: g.tril(d)
//   amax: (g / count) * mask           max(): zeros with g / count written where x == max
//   index_select (repeat_interleave): zeros, then index_add_ in index order
//   baddbmm: g (the additive input), g.bmm(b^T), a^T.bmm(g)
// What it is not: the engine (which reduces broadcast gradients with sum_to), or forward ops.
#include <cmath>
#include <limits>

#include "core/grad_fns.h"
#include "core/math_ops.h"

namespace attn::core::grad {

namespace {

using autograd::Grads;

Tensor mul(const Tensor& a, const Tensor& b) { return core::binary(BinOp::mul, a, b); }
Tensor div(const Tensor& a, const Tensor& b) { return core::binary(BinOp::div, a, b); }
Tensor muls(const Tensor& a, double s) { return core::binary_scalar(BinOp::mul, a, s); }

// out[k] = f(a[k], b[k]) over the broadcast shape of a and b (row-major, new tensor).
template <typename F>
Tensor zip(const Tensor& a, const Tensor& b, F f) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  const Tensor fa = to_float(a), fb = to_float(b);
  Tensor out = empty(shape);
  const float *pa = fa.data<float>(), *pb = fb.data<float>();
  float* o = out.data<float>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = f(pa[i], pb[j]); },
                  broadcast_strides(fa, shape), broadcast_strides(fb, shape));
  return out;
}

// A reduced gradient (or result) with the reduced dim put back as size 1 (restore_reduced_dims).
Tensor restore(const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  if (!dim || keepdim) return t;   // every dim reduced: a 0-d value broadcasts as it is
  return core::unsqueeze(t, *dim);
}

// var_backward (FunctionsManual.cpp) for one dim or every element (dim nullopt).
Tensor var_grad(const Tensor& g, const Tensor& x, std::optional<int64_t> dim, int64_t correction, bool keepdim) {
  if (x.dim() == 0 || !dim) {
    const int64_t n = x.numel();
    if (n == correction) return muls(g, std::numeric_limits<double>::infinity());
    const Tensor centred = core::binary(BinOp::sub, x, mean(x));
    return mul(muls(g, 2.0 / static_cast<double>(n - correction)), centred);
  }
  const Tensor gg = (!keepdim && x.dim() > 1) ? core::unsqueeze(g, *dim) : g;
  const int64_t dof = x.shape()[static_cast<size_t>(*dim)] - correction;
  const Tensor centred = core::binary(BinOp::sub, x, mean(x, *dim, true));
  return mul(muls(gg, 2.0 / static_cast<double>(dof)), centred);
}

}  // namespace

Backward sqrt(const Tensor& result) {
  return reads({[y = detach(result)](const Grads& g) { return Grads{div(*g[0], muls(y, 2.0))}; }}, {}, true);
}

Backward rsqrt(const Tensor& result) {
  return reads({[y = detach(result)](const Grads& g) {
    const Tensor y3 = mul(mul(y, y), y);   // result.pow(3): (y*y)*y (PowKernel.cpp)
    return Grads{mul(muls(*g[0], -0.5), y3)};
  }}, {}, true);
}

Backward log(const Tensor& input) {
  return reads({[x = detach(input)](const Grads& g) { return Grads{div(*g[0], x)}; }}, {input});
}

Backward abs(const Tensor& input) {
  return reads({[x = detach(input)](const Grads& g) {
    // sgn(x) for a real tensor is sign(): (0 < x) - (x < 0), so 0 (and NaN) give +0.
    return Grads{zip(*g[0], x, [](float gv, float xv) { return gv * (static_cast<float>(0.0f < xv) - static_cast<float>(xv < 0.0f)); })};
  }}, {input});
}

Backward erf(const Tensor& input, CpuKernels cpu) {
  return reads({[x = detach(input), cpu](const Grads& g) {
    const Tensor e = core::exp(core::neg(mul(x, x)), cpu);                     // exp(-(self.pow(2)))
    return Grads{mul(muls(e, 2.0 / std::sqrt(M_PI)), *g[0])};            // 2/sqrt(pi) * e * grad
  }}, {input});
}

Backward var_std(const Tensor& input, const Tensor& result, std::optional<int64_t> dim, int64_t correction, bool keepdim,
                 bool take_sqrt) {
  return reads({[x = detach(input), y = detach(result), dim, correction, keepdim, take_sqrt](const Grads& g) {
    Tensor gv = *g[0];
    if (take_sqrt) {   // std_backward: (grad / (result * 2)).masked_fill_(result == 0, 0)
      gv = div(gv, muls(y, 2.0));
      masked_fill_(gv, compare(CmpOp::eq, y, zeros({})), 0.0f);
    }
    return Grads{var_grad(gv, x, dim, correction, keepdim)};
  }}, {input}, take_sqrt);
}

Backward pow_tensor(const Tensor& base, const Tensor& exponent, const Tensor& result, CpuKernels cpu) {
  const bool need_x = base.requires_grad(), need_e = exponent.requires_grad();
  return {[x = detach(base), e = detach(exponent), y = detach(result), need_x, need_e, cpu](const Grads& g) {
    Grads out(2);
    if (need_x) {   // pow_backward_self: where(exponent == 0, 0, grad * (exponent * self.pow(exponent - 1)))
      const Tensor p = core::pow(x, core::binary_scalar(BinOp::sub, e, 1.0), cpu);
      const Tensor d = mul(*g[0], mul(e, p));
      out[0] = zip(e, d, [](float ev, float dv) { return ev == 0.0f ? 0.0f : dv; });
    }
    if (need_e) {   // pow_backward_exponent: grad * where(self == 0 & exponent >= 0, 0, result * self.log())
      const Tensor rl = mul(y, core::log(x, cpu));
      const Tensor zero_x = zip(x, e, [](float xv, float ev) { return (xv == 0.0f && ev >= 0.0f) ? 1.0f : 0.0f; });
      out[1] = mul(*g[0], zip(zero_x, rl, [](float c, float v) { return c != 0.0f ? 0.0f : v; }));
    }
    return out;
  }};
}

Backward pow_scalar_base(double base, const Tensor& exponent, const Tensor& result) {
  return {[base, e = detach(exponent), y = detach(result)](const Grads& g) {
    Tensor d = muls(y, std::log(base));   // (result * base.log()), the log in double
    if (base == 0.0) d = zip(e, d, [](float ev, float dv) { return ev >= 0.0f ? 0.0f : dv; });
    return Grads{mul(*g[0], d)};
  }};
}

Backward where(const Tensor& cond, bool need_a, bool need_b) {
  return {[c = to_bool(cond), need_a, need_b](const Grads& g) {
            Grads out(2);
            const Tensor z = zeros({});
            if (need_a) out[0] = core::where(c, *g[0], z);
            if (need_b) out[1] = core::where(c, z, *g[0]);
            return out;
          },
          false};
}

Backward triangle(int64_t diagonal, bool lower) {
  return {[diagonal, lower](const Grads& g) { return Grads{lower ? tril(*g[0], diagonal) : triu(*g[0], diagonal)}; }, false};
}

Backward amax(const Tensor& input, const Tensor& result, std::optional<int64_t> dim, bool keepdim) {
  return {[x = detach(input), y = detach(result), dim, keepdim](const Grads& g) {
    // scale_grad_by_count(restore(grad), restore(result) == self, dim) = (grad / mask.sum(dim, true)) * mask
    const Tensor r = restore(y, dim, keepdim), gr = restore(*g[0], dim, keepdim);
    const Tensor mask = zip(r, x, [](float rv, float xv) { return rv == xv ? 1.0f : 0.0f; });
    Tensor count = dim ? sum(mask, *dim, true) : reshape(sum(mask), Shape(static_cast<size_t>(x.dim()), 1));
    return Grads{mul(div(gr, count), mask)};
  }};
}

Backward max_all(const Tensor& input, const Tensor& result) {
  return {[x = detach(input), y = detach(result)](const Grads& g) {
    // evenly_distribute_backward: zeros(input).masked_fill_(mask, grad / mask.sum())
    const float m = y.float_at(0);
    const Tensor xc = x.contiguous();
    Tensor out = zeros(x.shape());
    int64_t count = 0;
    for (int64_t k = 0; k < xc.numel(); ++k) count += std::isnan(m) ? std::isnan(xc.data<float>()[k]) : xc.data<float>()[k] == m;
    const float v = g[0]->float_at(0) / static_cast<float>(count);
    for (int64_t k = 0; k < xc.numel(); ++k) {
      const float xv = xc.data<float>()[k];
      if (std::isnan(m) ? std::isnan(xv) : xv == m) out.data<float>()[k] = v;
    }
    return Grads{out};
  }};
}

Backward index_select(const Shape& input_shape, int64_t dim, std::vector<int64_t> index) {
  return {[input_shape, dim, index = std::move(index)](const Grads& g) {
            // index_select_backward: zeros(self_sizes).index_add_(dim, index, grad): for each i in
            // order, out.select(dim, index[i]).add_(grad.select(dim, i))
            Tensor out = zeros(input_shape);
            for (size_t i = 0; i < index.size(); ++i) {
              Tensor dst = core::select(out, dim, index[i]);
              binary_(BinOp::add, dst, core::select(*g[0], dim, static_cast<int64_t>(i)));
            }
            return Grads{out};
          },
          false};
}

Backward baddbmm(const Tensor& batch1, const Tensor& batch2, bool need_self) {
  const bool need_a = batch1.requires_grad(), need_b = batch2.requires_grad();
  return {[a = detach(batch1), b = detach(batch2), need_self, need_a, need_b](const Grads& g) {
    Grads out(3);
    if (need_self) out[0] = *g[0];   // beta = 1: the engine sums it down to self's shape
    if (need_a) out[1] = core::matmul(*g[0], core::transpose(b, 1, 2));
    if (need_b) out[2] = core::matmul(core::transpose(a, 1, 2), *g[0]);
    return out;
  }};
}

}  // namespace attn::core::grad
