// core/ops.cpp: reductions, exp, softmax, matrix products, and the joins cat and stack.
//
// What it is: the shape logic of these operations (which dims, which batches, which grad_fn
// name PyTorch 1.13 records) around the bit-exact loops in kernels.cpp. Reductions and
// softmax take their input contiguous (contiguous() is free when it already is); the matrix
// products hand gemm the operands' own strides, so `q @ k.T` or a batch of heads sliced from
// one projection is multiplied in place, without a copy.
// What it is not: a place for rounding decisions; those belong to kernels.cpp and gemm.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/gemm.h"
#include "core/kernels.h"
#include "core/grad_fns.h"
#include "core/tensor.h"

namespace attn::core {

namespace {

// Split `shape` around `dim` into (outer, size, inner), the layout the kernels take.
struct Split {
  int64_t outer = 1, size = 1, inner = 1;
};
Split split_at(const Shape& shape, int64_t dim) {
  Split s;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (d < dim) s.outer *= shape[d];
    else if (d == dim) s.size = shape[d];
    else s.inner *= shape[d];
  }
  return s;
}

void require_float(const Tensor& a, const char* op) {
  if (!a.is_float())
    throw TensorError(fmt::format("{}: expected a floating point tensor, got an integer one", op));
}

}  // namespace

// ---- reductions ----

Tensor sum(const Tensor& a) {
  if (!a.is_float()) {
    const std::vector<int64_t> v = a.ints();
    uint64_t s = 0;   // wraps as PyTorch's int64 sum does
    for (int64_t x : v) s += static_cast<uint64_t>(x);
    return from_ints({}, {static_cast<int64_t>(s)});
  }
  const Tensor c = a.contiguous();
  Tensor out = scalar(kernels::sum_all(c.data<float>(), c.numel()));
  return autograd::record(std::move(out), {&a}, "SumBackward0", grad::sum_all(a.shape()));
}

Tensor sum(const Tensor& a, int64_t dim, bool keepdim) {
  require_float(a, "sum");
  dim = normalize_dim(dim, a.dim());
  const Tensor c = a.contiguous();
  const Split s = split_at(c.shape(), dim);
  Shape shape = c.shape();
  if (keepdim) shape[dim] = 1;
  else shape.erase(shape.begin() + dim);
  Tensor out = empty(shape);
  kernels::sum_dim(c.data<float>(), out.data<float>(), s.outer, s.size, s.inner);
  return autograd::record(std::move(out), {&a}, "SumBackward1", grad::sum_dim(a.shape(), dim, keepdim));
}

Tensor mean(const Tensor& a, int64_t dim, bool keepdim) {
  Tensor s = sum(a, dim, keepdim);
  const float n = static_cast<float>(a.shape()[normalize_dim(dim, a.dim())]);
  float* p = s.data<float>();
  for (int64_t k = 0; k < s.numel(); ++k) p[k] /= n;
  return autograd::record(std::move(s), {&a}, "MeanBackward1", grad::mean_dim(a.shape(), normalize_dim(dim, a.dim()), keepdim));
}

Tensor mean(const Tensor& a) {
  Tensor s = sum(to_float(a));   // sum() / numel, as a 0-d tensor
  s.data<float>()[0] /= static_cast<float>(a.numel());
  return autograd::record(std::move(s), {&a}, "MeanBackward0", grad::mean_all(a.shape()));
}

Tensor max(const Tensor& a) {
  if (a.numel() == 0)
    throw TensorError("max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
  const std::vector<float> v = to_float(a).floats();
  const float m = *std::max_element(v.begin(), v.end());
  Tensor out = scalar(m);
  autograd::Backward backward = grad::max_all(a, out);
  return autograd::record(std::move(out), {&a}, "MaxBackward1", std::move(backward));
}

Tensor exp(const Tensor& a, CpuKernels cpu) {
  const Tensor x = to_float(a).contiguous();
  Tensor out = empty(x.shape());  // same shape as a, contiguous
  kernels::exp(x.data<float>(), out.data<float>(), x.numel(), cpu);
  grad::Backward backward = grad::exp(out);
  return autograd::record(std::move(out), {&a}, "ExpBackward0", std::move(backward));
}

Tensor softmax(const Tensor& a, int64_t dim, CpuKernels cpu) {
  const Tensor fa = to_float(a).contiguous();
  dim = normalize_dim(dim, fa.dim());
  Tensor out = empty(fa.shape());
  const Split s = split_at(fa.shape(), dim);
  if (fa.dim() == 0) out.data<float>()[0] = 1.0f;
  else if (fa.numel() == 0) {}  // nothing to normalise
  else if (s.inner == 1) kernels::softmax_lastdim(fa.data<float>(), out.data<float>(), s.outer, s.size, cpu);
  else kernels::softmax_inner(fa.data<float>(), out.data<float>(), s.outer, s.size, s.inner, cpu);
  grad::Backward backward = grad::softmax(out, dim, cpu);
  return autograd::record(std::move(out), {&a}, "SoftmaxBackward0", std::move(backward));
}

// ---- matrix products ----

Tensor dot(const Tensor& a, const Tensor& b) {
  if (a.dim() != 1 || b.dim() != 1)
    throw TensorError(fmt::format("1D tensors expected, but got {}D and {}D tensors", a.dim(), b.dim()));
  if (a.shape()[0] != b.shape()[0])
    throw TensorError(fmt::format(
        "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
        a.shape()[0], b.shape()[0], a.shape()[0], b.shape()[0]));
  require_float(a, "dot");
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
  Tensor out = empty(shape);
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

}  // namespace

// `a @ b` with torch.matmul's dispatch; grad_fn names as PyTorch 1.13 records them.
Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.dim() == 0 || b.dim() == 0)
    throw TensorError("both arguments to matmul need to be at least 1D, but they are " +
                      fmt::format("{}D and {}D", a.dim(), b.dim()));
  require_float(a, "matmul");
  require_float(b, "matmul");
  if (a.dim() == 1 && b.dim() == 1) return dot(a, b);
  if (a.dim() == 2 && b.dim() == 1) {
    check_inner(a, b, a.shape()[1], b.shape()[0]);
    Tensor out = empty({a.shape()[0]});
    const Tensor ca = a.strides()[1] == 1 ? a : a.contiguous(), x = b.contiguous();   // sgemv 'T' reads rows
    gemm::matvec(a.shape()[0], a.shape()[1], ca.data<float>(), ca.strides()[0], x.data<float>(), out.data<float>());
    return autograd::record(std::move(out), {&a, &b}, "MvBackward0", grad::matmul(a, b));
  }
  if (a.dim() == 1 && b.dim() == 2) {
    check_inner(a, b, a.shape()[0], b.shape()[0]);
    Tensor out = empty({b.shape()[1]});
    gemm::matmul(1, b.shape()[1], b.shape()[0], {a.data<float>(), 0, a.strides()[0]}, operand(b), out.data<float>(),
                 b.shape()[1]);
    return autograd::record(std::move(out), {&a, &b}, "SqueezeBackward3", grad::matmul(a, b));
  }
  if (a.dim() == 2 && b.dim() == 2) {
    check_inner(a, b, a.shape()[1], b.shape()[0]);
    Tensor out = empty({a.shape()[0], b.shape()[1]});
    gemm::matmul(a.shape()[0], b.shape()[1], a.shape()[1], operand(a), operand(b), out.data<float>(), b.shape()[1]);
    return autograd::record(std::move(out), {&a, &b}, "MmBackward0", grad::matmul(a, b));
  }
  // Batched: a 1-D operand is unsqueezed and the added dim removed afterwards.
  Tensor a2 = a.dim() == 1 ? unsqueeze(a, 0) : a, b2 = b.dim() == 1 ? unsqueeze(b, 1) : b;
  Tensor out = batched_matmul(a2, b2);
  if (a.dim() == 1) out = squeeze(out, -2);
  if (b.dim() == 1) out = squeeze(out, -1);
  // ND @ 2-D folds into one mm, ND @ ND expands and runs bmm; both end in _unsafe_view.
  return autograd::record(std::move(out), {&a, &b}, "UnsafeViewBackward0", grad::matmul(a, b));
}

// ---- joins (copies) ----

Tensor cat(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw TensorError("torch.cat(): expected a non-empty list of Tensors");
  const Tensor& first = ts.front();
  dim = normalize_dim(dim, first.dim());
  Shape shape = first.shape();
  shape[dim] = 0;
  bool is_float = false;
  for (const Tensor& x : ts) {
    if (x.dim() != first.dim())
      throw TensorError(fmt::format("Tensors must have same number of dimensions: got {} and {}", first.dim(), x.dim()));
    for (int64_t d = 0; d < x.dim(); ++d)
      if (d != dim && x.shape()[d] != first.shape()[d])
        throw TensorError(fmt::format("Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor number 1 in the list.",
                                      dim, first.shape()[d], x.shape()[d]));
    shape[dim] += x.shape()[dim];
    is_float = is_float || x.is_float();
  }
  Tensor out = empty(shape, is_float ? DType::float32 : first.dtype());
  std::vector<const Tensor*> inputs;
  std::vector<int64_t> sizes;
  int64_t pos = 0;
  for (const Tensor& x : ts) {
    sizes.push_back(x.shape()[dim]);
    Tensor part = make_view(out, x.shape(), out.strides(), out.offset() + pos * out.strides()[dim]);   // out's slice for x
    copy_(part, x);
    pos += x.shape()[dim];
    inputs.push_back(&x);
  }
  return autograd::record(std::move(out), inputs, "CatBackward0", grad::cat(sizes, dim));
}

Tensor stack(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw TensorError("stack expects a non-empty TensorList");
  dim = normalize_dim(dim, ts.front().dim() + 1);
  std::vector<Tensor> parts;
  std::vector<const Tensor*> inputs;
  for (const Tensor& x : ts) {
    if (x.shape() != ts.front().shape())
      throw TensorError(fmt::format("stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
                                    shape_str(ts.front().shape()), shape_str(x.shape()), parts.size()));
    parts.push_back(unsqueeze(x, dim));
    inputs.push_back(&x);
  }
  return autograd::record(cat(parts, dim), inputs, "StackBackward0", grad::stack(ts.size(), dim));
}

}  // namespace attn::core
