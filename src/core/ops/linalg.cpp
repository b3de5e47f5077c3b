// core/ops/linalg.cpp: matmul, dot and baddbmm, forward and backward (ops/linalg.h).
//
// What it is: torch.matmul's dispatch (LinearAlgebra.cpp _matmul_impl) around kernels/gemm.h,
// which is handed the operands' own strides, so `q @ k.T` or a batch of heads sliced from one
// projection is multiplied in place. The backward (derivatives.yaml, FunctionsManual.cpp): for
// each path torch.matmul takes, the products its recorded nodes compute, each a core matmul on
// detached tensors, so each sums in reference-BLAS order as PyTorch's does:
//   a @ b: g @ b^T and a^T @ g, where an N-D @ 2-D product folds a's batch rows into one mm (so
//   the weight's gradient sums over all B*T rows in order) and 2-D @ N-D folds b's (transposed)
//   baddbmm: g (the additive input), g.bmm(b^T), a^T.bmm(g)
// docs/pytorch-numerics.md §12.
// What it is not: a place for rounding decisions (kernels/gemm.h, kernels/linalg.h).
#include "core/ops/linalg.h"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "core/autograd.h"
#include "core/kernels/gemm.h"
#include "core/kernels/linalg.h"
#include "core/ops/binary.h"
#include "core/ops/sum_to.h"
#include "core/ops/views.h"

namespace attn::core {

// ---- backward: the gradients of each matmul path ----

namespace grad {
namespace {

// The rows of t folded to (rows, last dim): the product of every dim but the last (reshape(-1, k)
// with -1 spelled out, so that a tensor with no elements folds too).
inline int64_t rows_of(const Tensor& t) { return numel_of(Shape(t.shape().begin(), t.shape().end() - 1)); }

using autograd::Backward;
using autograd::Grads;
using autograd::detail::reads;

Tensor mT(const Tensor& t) { return transpose(t, -2, -1); }

// aten/src/ATen/native/LinearAlgebra.cpp should_fold: an N-D operand (N >= 3) times a 1-D or
// 2-D one is folded into one mm/mv, except a 3-D one whose last two dims are transposed.
bool should_fold(const Tensor& t1, int64_t dim2) {
  if (t1.dim() < 3 || (dim2 != 1 && dim2 != 2)) return false;
  const Shape& s = t1.shape();
  const Shape& st = t1.strides();
  return !(t1.dim() == 3 && dim2 == 2 && st.back() != 1 && st.front() == s[1] * s[2]);
}

// mm_mat2_backward (FunctionsManual.cpp): mat2's gradient mat1^T @ grad, computed as
// (grad^T @ mat1)^T when mat2 is column-major (a Linear's weight.t()), so that the weight's
// gradient arrives contiguous instead of as a transposed view AccumulateGrad must copy
// element by element. Each element is the same sum over mat1's rows in order either way.
Tensor mm_mat2_grad(const Tensor& mat1, const Tensor& mat2, const Tensor& g) {
  const Shape& s = mat2.shape();
  const Shape& st = mat2.strides();
  if (st[0] == 1 && st[1] == s[0]) return t(core::matmul(t(g), mat1));
  return core::matmul(t(mat1), g);
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
    if (need_b) out[1] = mm_mat2_grad(a, b, g);
  } else if (fold == 1) {   // a.reshape(-1, k) @ b: the weight's gradient sums over all rows
    const int64_t k = a.shape().back();
    const Tensor a2 = reshape(a, {rows_of(a), k});
    if (db == 2) {
      const Tensor g2 = reshape(g, {rows_of(g), b.shape()[1]});
      if (need_a) out[0] = reshape(core::matmul(g2, t(b)), a.shape());
      if (need_b) out[1] = mm_mat2_grad(a2, b, g2);
    } else {
      const Tensor g2 = reshape(g, {-1});
      if (need_a) out[0] = reshape(core::binary(BinOp::mul, unsqueeze(g2, 1), unsqueeze(b, 0)), a.shape());
      if (need_b) out[1] = core::matmul(t(a2), g2);
    }
  } else if (fold == 2) {   // (b^T @ a^T)^T with b^T's rows folded: (batch*n, k)
    const int64_t k = b.shape()[b.dim() - 2];
    const Tensor bt2 = reshape(mT(b), {rows_of(mT(b)), k});
    if (da == 2) {
      const Tensor gt2 = reshape(mT(g), {rows_of(mT(g)), a.shape()[0]});   // (batch*n, m)
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

Backward matmul(const Tensor& a, const Tensor& b) {   // every `@` shape
  const int fold = should_fold(a, b.dim()) ? 1 : should_fold(b, a.dim()) ? 2 : 0;
  std::vector<Tensor> saved;   // mm saves self for mat2's gradient and mat2 for self's
  if (b.requires_grad()) saved.push_back(a);
  if (a.requires_grad()) saved.push_back(b);
  return reads({[sa = detach(a), sb = detach(b), fold, need_a = a.requires_grad(), need_b = b.requires_grad()](const Grads& g) {
    return matmul_grads(sa, sb, *g[0], fold, need_a, need_b);
  }}, saved);
}

// BaddbmmBackward0 (beta = alpha = 1).
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

}  // namespace
}  // namespace grad

// ---- forward ----

namespace {
DType check_int_matmul(const Tensor& a, const Tensor& b);
Tensor matmul_ints(const Tensor& a, const Tensor& b, DType dtype);
}  // namespace

Tensor dot(const Tensor& a, const Tensor& b) {
  if (a.dim() != 1 || b.dim() != 1)
    throw TensorError(fmt::format("1D tensors expected, but got {}D and {}D tensors", a.dim(), b.dim()));
  const bool ints = !a.is_float() || !b.is_float();
  const DType dtype = ints ? check_int_matmul(a, b) : DType::float32;   // the dtypes before the sizes, as ATen's dot
  if (a.shape()[0] != b.shape()[0])
    throw TensorError(fmt::format(
        "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
        a.shape()[0], b.shape()[0], a.shape()[0], b.shape()[0]));
  if (ints) return matmul_ints(a, b, dtype);
  const Tensor ca = a.contiguous(), cb = to_float(b).contiguous();
  Tensor out = scalar(kernels::dot(ca.data<float>(), cb.data<float>(), a.shape()[0]));
  return autograd::record(std::move(out), {&a, &b}, "DotBackward0", grad::matmul(a, b));
}

namespace {

void check_inner(const Tensor& a, const Tensor& b, int64_t ka, int64_t kb) {
  if (ka != kb)
    throw TensorError(fmt::format("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                                  a.dim() >= 2 ? a.shape()[a.dim() - 2] : 1, ka, kb,
                                  b.dim() >= 2 ? b.shape()[b.dim() - 1] : 1));
}

// The matrix in the last two dims of `t`, read in place through its strides.
gemm::Operand operand(const Tensor& t) {
  return {t.data<float>(), t.strides()[t.dim() - 2], t.strides()[t.dim() - 1]};
}

// True when the batch dims and the row dim of `a` (..., m, k) step evenly, so the whole
// tensor is one (batch*m, k) matrix with a's row stride, as PyTorch folds N-D @ 2-D into mm.
bool rows_fold(const Tensor& a) {
  int64_t expected = a.strides()[a.dim() - 2] * a.shape()[a.dim() - 2];
  for (int64_t d = a.dim() - 3; d >= 0; --d) {
    if (a.shape()[d] == 1) continue;   // any stride: its only index is 0
    if (a.strides()[d] != expected) return false;
    expected *= a.shape()[d];
  }
  return true;
}

// Batched (..., m, k) @ (..., k, n) with broadcast batch dims; both at least 2-D.
Tensor batched_matmul(const Tensor& a, const Tensor& b) {
  const int64_t m = a.shape()[a.dim() - 2], k = a.shape()[a.dim() - 1];
  const int64_t kb = b.shape()[b.dim() - 2], n = b.shape()[b.dim() - 1];
  check_inner(a, b, k, kb);
  const Shape ba(a.shape().begin(), a.shape().end() - 2), bb(b.shape().begin(), b.shape().end() - 2);
  const Shape batch_shape = broadcast_shapes(ba, bb);
  const int64_t batch = numel_of(batch_shape);
  Shape shape = batch_shape;  // (batch..., m, n)
  shape.push_back(m);
  shape.push_back(n);
  Tensor out = uninitialized(shape);
  if (bb.empty() && rows_fold(a)) {  // N-D @ 2-D: one (batch*m, k) @ (k, n) product
    gemm::matmul(batch * m, n, k, operand(a), operand(b), out.data<float>(), n);
    return out;
  }
  // Each batch's matrix starts at the offset its batch index gives through the batch strides
  // (0 along a broadcast dim): one offset per matrix, none per element.
  const Shape sa(a.strides().begin(), a.strides().end() - 2), sb(b.strides().begin(), b.strides().end() - 2);
  const Tensor va = make_view(a, ba, sa, a.offset()), vb = make_view(b, bb, sb, b.offset());
  std::vector<int64_t> oa(static_cast<size_t>(batch)), ob(static_cast<size_t>(batch));
  for_each_offset(batch_shape, [&](int64_t q, int64_t i, int64_t j) {
                    oa[q] = i;
                    ob[q] = j;
                  },
                  broadcast_strides(va, batch_shape), broadcast_strides(vb, batch_shape));
  gemm::batched_matmul(batch, m, n, k, operand(a), oa.data(), operand(b), ob.data(), out.data<float>());
  return out;
}

// 1.13's should_fold: an N-D (N >= 3) operand against a 1-D or 2-D one is folded into one matrix,
// except a 3-D one whose last two dims are transposed (against a matrix: bmm takes it as it is).
bool aten_folds(const Tensor& t, int64_t other_dim) {
  if (t.dim() < 3 || other_dim > 2) return false;
  const Shape &s = t.shape(), &st = t.strides();
  return !(t.dim() == 3 && other_dim == 2 && st[2] != 1 && st[0] == s[1] * s[2]);
}

std::string mm_message(int64_t r1, int64_t c1, int64_t r2, int64_t c2) {
  return fmt::format("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", r1, c1, r2, c2);
}

std::string mv_message(int64_t rows, int64_t cols, int64_t n) { return fmt::format("size mismatch, got {}, {}x{},{}", rows, rows, cols, n); }

// torch.matmul's error when the inner sizes of a and b differ: that of the ATen op 1.13's
// _matmul_impl reaches with them (mv, mm of a folded operand, or bmm once the batch dims broadcast).
[[noreturn]] void matmul_mismatch(const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  const Shape &sa = a.shape(), &sb = b.shape();
  if (da == 2 && db == 1) throw TensorError(mv_message(sa[0], sa[1], sb[0]));
  if (da <= 2 && db <= 2) throw TensorError(mm_message(da == 1 ? 1 : sa[0], sa.back(), sb[0], sb[1]));
  if (aten_folds(a, db) || aten_folds(b, da)) {
    const bool transpose = db > da;   // (b^T @ a^T)^T: b^T folded is the matrix
    Shape s1 = transpose ? sb : sa;
    if (transpose) std::swap(s1[s1.size() - 1], s1[s1.size() - 2]);
    const Shape s2 = !transpose ? sb : da == 2 ? Shape{sa[1], sa[0]} : sa;
    const int64_t rows = numel_of(Shape(s1.begin(), s1.end() - 1));
    throw TensorError(s2.size() == 2 ? mm_message(rows, s1.back(), s2[0], s2[1]) : mv_message(rows, s1.back(), s2[0]));
  }
  const int64_t batch = numel_of(broadcast_shapes(Shape(sa.begin(), sa.end() - 2), Shape(sb.begin(), sb.end() - 2)));
  throw TensorError(fmt::format("Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", batch,
                                sa.back(), batch, sb[db - 2]));
}

// The dtype checks of the ATen kernel torch.matmul reaches with a and b (dot, addmv, addmm or
// bmm; the transposed fold of 1-D/2-D @ N-D runs it on (b^T, a^T)), in 1.13's words; the
// result's dtype. An empty inner dim skips the kernel: zeros of the first operand's dtype
// (addmm) or the second's (addmv, bmm), whatever the dtypes.
DType check_int_matmul(const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  if (da == 1 && db == 1) {
    if (a.dtype() != b.dtype())
      throw TensorError(fmt::format("dot : expected both vectors to have same dtype, but found {} and {}", dtype_title(a.dtype()),
                                    dtype_title(b.dtype())));
    if (a.dtype() == DType::boolean) throw TensorError("\"dot\" not implemented for 'Bool'");
    return a.dtype();
  }
  const bool transposed = aten_folds(b, da) && da <= 2;
  const Tensor& first = transposed ? b : a;
  const Tensor& second = transposed ? a : b;
  const bool mv = (da == 2 && db == 1) || (da >= 3 && db == 1) || (transposed && da == 1);
  const bool mm = !mv && (db <= 2 || transposed) && (da <= 2 || aten_folds(a, db));
  if (a.shape().back() == 0) return mm ? first.dtype() : second.dtype();
  if (first.dtype() == DType::boolean)
    throw TensorError(fmt::format("\"{}\" not implemented for 'Bool'", mv ? "addmv_impl_cpu" : mm ? "addmm_impl_cpu_" : "bmm"));
  if (a.dtype() != b.dtype())
    throw TensorError(fmt::format("expected scalar type {} but found {}", dtype_title(first.dtype()), dtype_title(second.dtype())));
  return a.dtype();
}

// a @ b for integer tensors of one dtype: exact, wrapping as ATen's integer kernels do
// (summed in uint64, then cast to the dtype). No autograd: integers take no gradient.
Tensor matmul_ints(const Tensor& a, const Tensor& b, DType dtype) {
  const Tensor a2 = to_dtype(a.dim() == 1 ? unsqueeze(a, 0) : a, DType::int64);   // (..., m, k)
  const Tensor b2 = to_dtype(b.dim() == 1 ? unsqueeze(b, 1) : b, DType::int64);   // (..., k, n)
  const int64_t m = a2.shape()[a2.dim() - 2], k = a2.shape()[a2.dim() - 1], n = b2.shape()[b2.dim() - 1];
  const Shape batch_shape = broadcast_shapes(Shape(a2.shape().begin(), a2.shape().end() - 2), Shape(b2.shape().begin(), b2.shape().end() - 2));
  Shape sa = batch_shape, sb = batch_shape, shape = batch_shape;
  sa.insert(sa.end(), {m, k});
  sb.insert(sb.end(), {k, n});
  shape.insert(shape.end(), {m, n});
  const Tensor x = expand(a2, sa).contiguous(), y = expand(b2, sb).contiguous();   // (B..., m, k), (B..., k, n)
  Tensor out = empty(shape, DType::int64);                                         // (B..., m, n)
  const int64_t *px = x.data<int64_t>(), *py = y.data<int64_t>();
  int64_t* o = out.data<int64_t>();
  for (int64_t q = 0; q < numel_of(batch_shape); ++q)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        uint64_t r = 0;
        for (int64_t l = 0; l < k; ++l)
          r += static_cast<uint64_t>(px[(q * m + i) * k + l]) * static_cast<uint64_t>(py[(q * k + l) * n + j]);
        o[(q * m + i) * n + j] = static_cast<int64_t>(r);
      }
  if (a.dim() == 1) out = squeeze(out, -2);
  if (b.dim() == 1) out = squeeze(out, -1);
  return to_dtype(out, dtype);
}

}  // namespace

namespace {
Tensor record_transposed_fold(const Tensor& out, const Tensor& a, const Tensor& b);   // below
}  // namespace

// `a @ b` with torch.matmul's dispatch; grad_fn names as PyTorch 1.13 records them.
Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.dim() == 0 || b.dim() == 0)
    throw TensorError("both arguments to matmul need to be at least 1D, but they are " +
                      fmt::format("{}D and {}D", a.dim(), b.dim()));
  const int64_t kb = b.dim() == 1 ? b.shape()[0] : b.shape()[b.dim() - 2];
  if (a.shape().back() != kb && (a.dim() > 1 || b.dim() > 1)) matmul_mismatch(a, b);   // 1-D @ 1-D: dot's error
  if (a.dim() == 1 && b.dim() == 1) return dot(a, b);
  if (!a.is_float() || !b.is_float()) {
    return matmul_ints(a, b, check_int_matmul(a, b));
  }
  if (a.dim() == 2 && b.dim() == 1) {
    check_inner(a, b, a.shape()[1], b.shape()[0]);
    Tensor out = uninitialized({a.shape()[0]});
    const Tensor ca = a.strides()[1] == 1 ? a : a.contiguous(), x = b.contiguous();   // sgemv 'T' reads rows
    gemm::matvec(a.shape()[0], a.shape()[1], ca.data<float>(), ca.strides()[0], x.data<float>(), out.data<float>());
    return autograd::record(std::move(out), {&a, &b}, "MvBackward0", grad::matmul(a, b));
  }
  if (a.dim() == 1 && b.dim() == 2) {
    check_inner(a, b, a.shape()[0], b.shape()[0]);
    Tensor out = uninitialized({b.shape()[1]});
    gemm::matmul(1, b.shape()[1], b.shape()[0], {a.data<float>(), 0, a.strides()[0]}, operand(b), out.data<float>(),
                 b.shape()[1]);
    out.mark_written();   // ATen's mm(a.unsqueeze(0), b).squeeze_(0): the squeeze_ counts, _version 1
    return autograd::record(std::move(out), {&a, &b}, "SqueezeBackward3", grad::matmul(a, b));
  }
  if (a.dim() == 2 && b.dim() == 2) {
    check_inner(a, b, a.shape()[1], b.shape()[0]);
    Tensor out = uninitialized({a.shape()[0], b.shape()[1]});
    gemm::matmul(a.shape()[0], b.shape()[1], a.shape()[1], operand(a), operand(b), out.data<float>(), b.shape()[1]);
    return autograd::record(std::move(out), {&a, &b}, "MmBackward0", grad::matmul(a, b));
  }
  // Batched: a 1-D operand is unsqueezed and the added dim removed afterwards.
  Tensor a2 = a.dim() == 1 ? unsqueeze(a, 0) : a, b2 = b.dim() == 1 ? unsqueeze(b, 1) : b;
  Tensor out = batched_matmul(a2, b2);
  if (a.dim() == 1) out = squeeze(out, -2);
  if (b.dim() == 1) out = squeeze(out, -1);
  // ND @ 2-D folds into one mm, ND @ ND expands and runs bmm; both end in _unsafe_view.
  // 2-D @ N-D is 1.13's transposed fold: without gradients and with both m, n > 1 its result is a
  // plain contiguous copy, which `out` already is; with m or n = 1 it is a transposed view.
  const bool plain = !autograd::grad_enabled() || !(a.requires_grad() || b.requires_grad());
  if (a.dim() != 2 || !aten_folds(b, a.dim()) || (plain && a.shape()[0] > 1 && b.shape().back() > 1))
    return autograd::record(std::move(out), {&a, &b}, "UnsafeViewBackward0", grad::matmul(a, b));
  return record_transposed_fold(out, a, b);   // with or without grad: its strides where a size is 1
}

namespace {

// 2-D @ N-D with grad: 1.13 computes (b^T folded) @ a^T, views it, and returns .mT().contiguous(),
// so its graph is CloneBackward0 -> TransposeBackward0 -> UnsafeViewBackward0 over `out` [.., m, n]
// (the same values); CloneBackward0 only when the transposed view is not contiguous (m, n > 1).
Tensor record_transposed_fold(const Tensor& out, const Tensor& a, const Tensor& b) {
  autograd::Backward backward = grad::matmul(a, b);
  backward.fn = [f = std::move(backward.fn)](const autograd::Grads& g) { return f(autograd::Grads{transpose(*g[0], -2, -1)}); };
  // Its MmBackward0 saves the views it multiplied: a.t() [k, m] and b^T folded [batch*n, k].
  const int64_t k = b.shape()[static_cast<size_t>(b.dim() - 2)];
  const Tensor bt = transpose(b, -2, -1), bt2 = k == 0 ? b : reshape(bt, {numel_of(bt.shape()) / k, k});   // [batch*n, k]
  backward.saved.clear();
  if (b.requires_grad()) backward.saved.push_back(transpose(a, 0, 1));
  if (a.requires_grad()) backward.saved.push_back(bt2.storage() == b.storage() ? bt2 : b);
  // What mm wrote: out's elements laid out as a contiguous [.., n, m], a variable of its own (not a view).
  const size_t d = static_cast<size_t>(out.dim());
  Shape st = out.shape();
  std::swap(st[d - 1], st[d - 2]);
  st = contiguous_strides(st);
  std::swap(st[d - 1], st[d - 2]);
  Tensor mm_out;   // [.., n, m]
  mm_out.set_data(transpose(relayout(out, st), -2, -1));
  const Tensor folded = autograd::record(std::move(mm_out), {&a, &b}, "UnsafeViewBackward0", std::move(backward));
  return contiguous(transpose(folded, -2, -1));   // [.., m, n]; no copy (TransposeBackward0 on top) when m or n is 1
}

}  // namespace

namespace {

// (.., m, n) fresh and contiguous viewed as `shape` without a view's bookkeeping: at::_unsafe_view.
Tensor unsafe_view(const Tensor& x, const Shape& shape) {
  autograd::Backward backward{[from = x.shape()](const autograd::Grads& g) { return autograd::Grads{reshape(*g[0], from)}; }, false};
  return autograd::record(make_view(x, shape, contiguous_strides(shape), x.offset()), {&x}, "UnsafeViewBackward0", std::move(backward));
}

// a (B, m, k) bmm b (B, k, n): BmmBackward0 over a and b themselves.
Tensor bmm_node(const Tensor& a, const Tensor& b) {
  return autograd::record(batched_matmul(a, b), {&a, &b}, "BmmBackward0", grad::matmul(a, b));
}

// 1.13's _matmul_impl for the paths that compose ops (1-D @ 2-D, a folded operand, batches),
// each op recorded as ATen records it.
Tensor matmul_composed(const Tensor& a, const Tensor& b) {
  const int64_t da = a.dim(), db = b.dim();
  if (da == 1 && db == 2) {   // mm(a.unsqueeze(0), b).squeeze_(0)
    const Tensor row = matmul(unsqueeze(a, 0), b);   // (1, n)
    Tensor out = make_view(row, {row.shape()[1]}, {row.strides()[1]}, row.offset());
    out.mark_written();
    autograd::Backward backward{[](const autograd::Grads& g) { return autograd::Grads{unsqueeze(*g[0], 0)}; }, false};
    return autograd::record(std::move(out), {&row}, "SqueezeBackward3", std::move(backward));
  }
  if (aten_folds(a, db) || aten_folds(b, da)) {   // one mm/mv over the larger operand's rows
    const bool transposed = db > da;
    const Tensor t1 = transposed ? transpose(b, -2, -1) : a;
    const Tensor t2 = !transposed ? b : da == 2 ? t(a) : a;
    Shape shape(t1.shape().begin(), t1.shape().end() - 1);
    const Tensor folded = reshape(t1, {numel_of(shape), t1.shape().back()});
    if (t2.dim() == 2) shape.push_back(t2.shape()[1]);
    const Tensor out = unsafe_view(matmul(folded, t2), shape);
    return transposed && t2.dim() == 2 ? contiguous(transpose(out, -2, -1)) : out;
  }
  // (batch.., n, m1) @ (batch.., m2, p), both at least 2-D here: expand, fold the batches, bmm
  const int64_t n = a.shape()[static_cast<size_t>(da - 2)], m1 = a.shape().back();
  const int64_t m2 = b.shape()[static_cast<size_t>(db - 2)], p = b.shape().back();
  Shape shape = broadcast_shapes(Shape(a.shape().begin(), a.shape().end() - 2), Shape(b.shape().begin(), b.shape().end() - 2));
  const int64_t batch = numel_of(shape);
  Shape sa = shape, sb = shape;
  sa.insert(sa.end(), {n, m1});
  sb.insert(sb.end(), {m2, p});
  const Tensor a3 = reshape(expand(a, sa), {batch, n, m1}), b3 = reshape(expand(b, sb), {batch, m2, p});
  shape.insert(shape.end(), {n, p});
  return unsafe_view(bmm_node(a3, b3), shape);
}

}  // namespace

Tensor bmm(const Tensor& a, const Tensor& b) { return bmm_node(a, b); }

Tensor matmul_op(const Tensor& a, const Tensor& b) {
  const bool recorded = autograd::grad_enabled() && (a.requires_grad() || b.requires_grad());
  if (!recorded || a.dim() == 0 || b.dim() == 0 || !a.is_float() || !b.is_float() || (a.dim() <= 2 && b.dim() <= 2 && !(a.dim() == 1 && b.dim() == 2))) return matmul(a, b);
  const int64_t kb = b.dim() == 1 ? b.shape()[0] : b.shape()[b.dim() - 2];
  if (a.shape().back() != kb) matmul_mismatch(a, b);
  return matmul_composed(a, b);
}

// baddbmm(mask, a, b) for (B, L, hd) @ (B, hd, S): ATen's own loop when hd*L*S < 400 starts each
// sum from the mask value; above that the BLAS sums first and the mask is added after.
Tensor detail::baddbmm(const Tensor& mask, const Tensor& a, const Tensor& b) {
  const int64_t B = a.shape()[0], L = a.shape()[1], hd = a.shape()[2], S = b.shape()[2];
  if (hd * L * S >= 400) return binary(BinOp::add, matmul(a, b), mask);
  const Tensor m = expand(mask, {B, L, S}).contiguous(), x = a.contiguous(), y = b.contiguous();
  Tensor out = uninitialized({B, L, S});
  const float *pm = m.data<float>(), *px = x.data<float>(), *py = y.data<float>();
  float* o = out.data<float>();
  for (int64_t n = 0; n < B; ++n)
    for (int64_t i = 0; i < L; ++i)
      for (int64_t j = 0; j < S; ++j) {
        float r = pm[(n * L + i) * S + j];
        for (int64_t l = 0; l < hd; ++l) r = r + px[(n * L + i) * hd + l] * py[(n * hd + l) * S + j];
        o[(n * L + i) * S + j] = r;
      }
  return autograd::record(std::move(out), {&mask, &a, &b}, "BaddbmmBackward0", grad::baddbmm(a, b, mask.requires_grad()));
}

}  // namespace attn::core
