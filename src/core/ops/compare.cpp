// core/ops/compare.cpp: comparisons, torch.where and torch.equal (ops/compare.h).
//
// What it is: loops over broadcast operands read through their strides (broadcast_strides), no
// arithmetic. where's backward (WhereBackward0, derivatives.yaml): where(c, g, 0) for a and
// where(c, 0, g) for b, which the engine sums down to each input's shape.
// What it is not: NaN / inf tests (ops/unary.cpp) or masks (ops/triangular.cpp, ops/indexing.cpp).
#include "core/ops/compare.h"

#include "core/autograd.h"
#include "core/deadline.h"

namespace attn::core {

// ---- compare ----

namespace {

template <typename T>
bool compare_values(CmpOp op, T x, T y) {
  switch (op) {
    case CmpOp::eq: return x == y;
    case CmpOp::ne: return x != y;
    case CmpOp::lt: return x < y;
    case CmpOp::le: return x <= y;
    case CmpOp::gt: return x > y;
    case CmpOp::ge: return x >= y;
  }
  return false;
}

template <typename T>
void compare_as(CmpOp op, const Tensor& a, const Tensor& b, Tensor& out) {
  const T *x = a.data<T>(), *y = b.data<T>();
  uint8_t* o = out.data<uint8_t>();
  for_each_offset(out.shape(), [&](int64_t k, int64_t i, int64_t j) { o[k] = compare_values(op, x[i], y[j]); },
                  broadcast_strides(a, out.shape()), broadcast_strides(b, out.shape()));
}

}  // namespace

// Both sides in their common type, as PyTorch promotes them (result_type).
Tensor compare(CmpOp op, const Tensor& a, const Tensor& b) { return compare(op, a, b, result_type(a, b)); }

// Both sides cast to `common` first (uint8 == -1 compares with 255), then compared exactly.
Tensor compare(CmpOp op, const Tensor& a, const Tensor& b, DType common) {
  Tensor out = empty(broadcast_shapes(a.shape(), b.shape()), DType::boolean);
  if (common == DType::float32) compare_as<float>(op, to_float(a), to_float(b), out);
  else compare_as<int64_t>(op, to_dtype(to_dtype(a, common), DType::int64), to_dtype(to_dtype(b, common), DType::int64), out);
  return out;
}

// ---- where ----

namespace grad {
namespace {

using autograd::Backward;
using autograd::Grads;

Backward where(const Tensor& cond, bool need_a, bool need_b) {
  return {[c = to_bool(cond), need_a, need_b](const Grads& g) {
            Grads out(2);
            const Tensor z = zeros({});
            if (need_a) out[0] = core::where(c, *g[0], z);
            if (need_b) out[1] = core::where(c, z, *g[0]);
            return out;
          },
          false, {cond}};   // WhereBackward0 saves condition
}

}  // namespace
}  // namespace grad

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b) { return where(cond, a, b, result_type(a, b)); }

// In the integer dtypes and bool: picked as int64, then stored in `common` (no gradient).
Tensor where_int(const Tensor& cond, const Tensor& a, const Tensor& b, const Shape& shape, DType common) {
  const Tensor c = to_bool(cond), ia = to_dtype(a, DType::int64), ib = to_dtype(b, DType::int64);
  Tensor out = empty(shape, DType::int64);
  const uint8_t* pc = c.data<uint8_t>();
  const int64_t *pa = ia.data<int64_t>(), *pb = ib.data<int64_t>();
  int64_t* o = out.data<int64_t>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j, int64_t l) { o[k] = pc[i] != 0 ? pa[j] : pb[l]; },
                  broadcast_strides(c, shape), broadcast_strides(ia, shape), broadcast_strides(ib, shape));
  return to_dtype(out, common);
}

Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b, DType common) {
  const Shape shape = broadcast_shapes(broadcast_shapes(cond.shape(), a.shape()), b.shape());
  if (common != DType::float32) return where_int(cond, a, b, shape, common);
  const Tensor c = to_float(cond), fa = to_float(a), fb = to_float(b);
  Tensor out = empty(shape);
  const float *pc = c.data<float>(), *pa = fa.data<float>(), *pb = fb.data<float>();
  float* o = out.data<float>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j, int64_t l) { o[k] = pc[i] != 0.0f ? pa[j] : pb[l]; },
                  broadcast_strides(c, shape), broadcast_strides(fa, shape), broadcast_strides(fb, shape));
  return autograd::record(std::move(out), {&a, &b}, "WhereBackward0", grad::where(cond, a.requires_grad(), b.requires_grad()));
}

// ---- equal ----

bool equal(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return false;
  DeadlineMeter meter;   // an expand()ed 10^8-element view: stops at the time limit
  for (int64_t k = 0; k < a.numel(); ++k) {
    meter.add(1);
    if (!(a.at(k) == b.at(k))) return false;   // NaN is never equal, as in PyTorch
  }
  return true;
}

}  // namespace attn::core
