// core/more_ops.cpp: operations the concept lessons use beyond the two walkthroughs: variance,
// repeat_interleave (grouped-query attention), where, expand, argmax, isnan/isinf, sqrt/abs/log,
// permute (seq-first vs batch-first layouts), amax, equal.
//
// What it is: straightforward loops with PyTorch's semantics and grad_fn names. var accumulates
// in double as ATen's Welford reduction does, then rounds once to float32.
// What it is not: bit-exactness claims beyond those the golden tests check.
#include <fmt/format.h>

#include <cmath>

#include "core/tensor.h"

namespace attn::core {

namespace {

// (outer, size, inner) around dim, as in ops.cpp.
void split3(const Shape& s, int64_t dim, int64_t& outer, int64_t& size, int64_t& inner) {
  outer = inner = 1;
  size = s[dim];
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) {
    if (d < dim) outer *= s[d];
    if (d > dim) inner *= s[d];
  }
}

// The shape of a reduction over `dim`: kept as size 1 with keepdim, else removed.
Shape reduced_shape(Shape shape, int64_t dim, bool keepdim) {
  if (keepdim) shape[dim] = 1;
  else shape.erase(shape.begin() + dim);
  return shape;
}

// Welford's running mean and M2 in double (ATen WelfordOps with acc_type double).
double welford_var(const float* x, int64_t n, int64_t stride, bool unbiased) {
  double mean = 0.0, m2 = 0.0;
  for (int64_t k = 0; k < n; ++k) {
    double v = x[k * stride], delta = v - mean;
    mean += delta / static_cast<double>(k + 1);
    m2 += delta * (v - mean);
  }
  int64_t dof = n - (unbiased ? 1 : 0);
  return dof > 0 ? m2 / static_cast<double>(dof) : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

Tensor var(const Tensor& a, bool unbiased) {
  Tensor f = to_float(a);
  return with_grad(scalar(static_cast<float>(welford_var(f.f.data(), f.numel(), 1, unbiased))), {&a}, "VarBackward0");
}

Tensor var(const Tensor& a, int64_t dim, bool unbiased, bool keepdim) {
  Tensor f = to_float(a);
  dim = normalize_dim(dim, f.dim());
  int64_t outer, size, inner;
  split3(f.shape, dim, outer, size, inner);
  Shape shape = reduced_shape(f.shape, dim, keepdim);
  Tensor out = empty(shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      out.f[o * inner + i] = static_cast<float>(welford_var(f.f.data() + o * size * inner + i, size, inner, unbiased));
  return with_grad(std::move(out), {&a}, "VarBackward0");
}

Tensor repeat_interleave(const Tensor& a, int64_t repeats, int64_t dim) {
  if (repeats < 0) throw TensorError("repeats can not be negative");
  dim = normalize_dim(dim, a.dim());
  int64_t outer, size, inner;
  split3(a.shape, dim, outer, size, inner);
  Shape shape = a.shape;
  shape[dim] *= repeats;
  Tensor out = empty(shape, a.dtype);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t s = 0; s < size * repeats; ++s)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t src = (o * size + s / repeats) * inner + i, dst = (o * size * repeats + s) * inner + i;
        if (a.is_float()) out.f[dst] = a.f[src];
        else out.i[dst] = a.i[src];
      }
  return with_grad(std::move(out), {&a}, "IndexSelectBackward0");
}

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  // Broadcast all three by adding zeros shaped like the others.
  Tensor c = to_float(cond), fa = to_float(a), fb = to_float(b);
  Tensor zero = binary(BinOp::mul, binary(BinOp::mul, c, fa), binary(BinOp::mul, fb, scalar(0.0f)));
  for (float& v : zero.f) v = 0.0f;
  Tensor cc = binary(BinOp::add, zero, c), xa = binary(BinOp::add, zero, fa), xb = binary(BinOp::add, zero, fb);
  Tensor out = empty(zero.shape);
  for (int64_t k = 0; k < out.numel(); ++k) out.f[k] = cc.f[k] != 0.0f ? xa.f[k] : xb.f[k];
  return with_grad(std::move(out), {&a, &b}, "WhereBackward0");
}

Tensor expand(const Tensor& a, const Shape& shape) {
  if (shape.size() < a.shape.size())
    throw TensorError(fmt::format("expand: the number of sizes provided ({}) must be greater or equal to the number of dimensions in the tensor ({})",
                                  shape.size(), a.dim()));
  Shape target = shape;
  size_t lead = shape.size() - a.shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t have = d < lead ? 1 : a.shape[d - lead];
    if (target[d] == -1) target[d] = have;
    if (have != 1 && have != target[d])
      throw TensorError(fmt::format("The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension {}.  Target sizes: {}.  Tensor sizes: {}",
                                    target[d], have, d, shape_str(shape), shape_str(a.shape)));
  }
  Tensor zero = zeros(target);
  Tensor out = binary(BinOp::add, zero, to_float(a));
  if (!a.is_float()) out = from_ints(target, std::vector<int64_t>(out.f.begin(), out.f.end()), a.dtype);
  return with_grad(std::move(out), {&a}, "ExpandBackward0");
}

Tensor argmax(const Tensor& a, int64_t dim, bool keepdim) {
  Tensor f = to_float(a);
  dim = normalize_dim(dim, f.dim());
  int64_t outer, size, inner;
  split3(f.shape, dim, outer, size, inner);
  Shape shape = reduced_shape(f.shape, dim, keepdim);
  Tensor out = empty(shape, DType::int64);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t best = 0;
      for (int64_t s = 1; s < size; ++s) {
        float v = f.f[(o * size + s) * inner + i], b = f.f[(o * size + best) * inner + i];
        if (v > b || (std::isnan(v) && !std::isnan(b))) best = s;
      }
      out.i[o * inner + i] = best;
    }
  return out;
}

static Tensor classify(const Tensor& a, bool (*pred)(float)) {
  Tensor out = empty(a.shape, DType::boolean);
  for (int64_t k = 0; k < a.numel(); ++k) out.i[k] = a.is_float() && pred(a.f[k]);
  return out;
}

Tensor isnan(const Tensor& a) { return classify(a, [](float v) { return std::isnan(v); }); }
Tensor isinf(const Tensor& a) { return classify(a, [](float v) { return std::isinf(v); }); }

Tensor unary(const Tensor& a, const char* op) {
  Tensor out = to_float(a);
  std::string o = op;
  for (float& v : out.f) v = o == "sqrt" ? std::sqrt(v) : o == "abs" ? std::fabs(v) : o == "log" ? std::log(v) : v;
  const char* name = o == "sqrt" ? "SqrtBackward0" : o == "abs" ? "AbsBackward0" : "LogBackward0";
  return with_grad(std::move(out), {&a}, name);
}

// ---- permute, amax, equal (layout and scaling lessons) ----

Tensor permute(const Tensor& a, const Shape& dims) {
  if (static_cast<int64_t>(dims.size()) != a.dim())
    throw TensorError(fmt::format("permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = {} is not equal to len(dims) = {}",
                                  a.dim(), dims.size()));
  Shape order, out_shape;
  std::vector<bool> seen(dims.size(), false);
  for (int64_t d : dims) {
    int64_t n = normalize_dim(d, a.dim());
    if (seen[n]) throw TensorError("permute(): duplicate dims are not allowed.");
    seen[n] = true;
    order.push_back(n);
    out_shape.push_back(a.shape[n]);
  }
  // Input strides; output element k reads the input at sum(idx[d] * stride[order[d]]).
  Shape stride(a.shape.size(), 1);
  for (int64_t d = a.dim() - 2; d >= 0; --d) stride[d] = stride[d + 1] * a.shape[d + 1];
  Tensor out = empty(out_shape, a.dtype);
  Shape idx(out_shape.size(), 0);
  for (int64_t k = 0; k < out.numel(); ++k) {
    int64_t src = 0;
    for (size_t d = 0; d < idx.size(); ++d) src += idx[d] * stride[order[d]];
    if (a.is_float()) out.f[k] = a.f[src];
    else out.i[k] = a.i[src];
    for (int64_t d = static_cast<int64_t>(idx.size()) - 1; d >= 0; --d) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return with_grad(std::move(out), {&a}, "PermuteBackward0");
}

Tensor amax(const Tensor& a, int64_t dim, bool keepdim) {
  Tensor f = to_float(a);
  dim = normalize_dim(dim, f.dim());
  int64_t outer, size, inner;
  split3(f.shape, dim, outer, size, inner);
  if (size == 0) throw TensorError("amax(): Expected reduction dim " + std::to_string(dim) + " to have non-zero size.");
  Shape shape = reduced_shape(f.shape, dim, keepdim);
  Tensor out = empty(shape);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      float m = f.f[o * size * inner + i];
      for (int64_t s = 1; s < size && !std::isnan(m); ++s) {
        float v = f.f[(o * size + s) * inner + i];
        if (std::isnan(v) || v > m) m = v;
      }
      out.f[o * inner + i] = m;
    }
  if (!a.is_float()) out = from_ints(shape, std::vector<int64_t>(out.f.begin(), out.f.end()), a.dtype);
  return with_grad(std::move(out), {&a}, "AmaxBackward0");
}

bool equal(const Tensor& a, const Tensor& b) {
  if (a.shape != b.shape) return false;
  for (int64_t k = 0; k < a.numel(); ++k)
    if (!(a.at(k) == b.at(k))) return false;   // NaN is never equal, as in PyTorch
  return true;
}

}  // namespace attn::core
