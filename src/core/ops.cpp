// core/ops.cpp: reductions, softmax, matrix products, layout changes and indexing.
//
// What it is: the shape logic of these operations (which dims, which batches, which grad_fn
// name PyTorch 1.13 records) around the bit-exact loops in kernels.cpp.
// What it is not: a place for rounding decisions; those belong to kernels.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/gemm.h"
#include "core/kernels.h"
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
    int64_t s = std::accumulate(a.i.begin(), a.i.end(), int64_t{0});
    return from_ints({}, {s});
  }
  Tensor out = scalar(kernels::sum_all(a.f.data(), a.numel()));
  return with_grad(std::move(out), {&a}, "SumBackward0");
}

Tensor sum(const Tensor& a, int64_t dim, bool keepdim) {
  require_float(a, "sum");
  dim = normalize_dim(dim, a.dim());
  Split s = split_at(a.shape, dim);
  Shape shape = a.shape;
  if (keepdim) shape[dim] = 1;
  else shape.erase(shape.begin() + dim);
  Tensor out = empty(shape);
  kernels::sum_dim(a.f.data(), out.f.data(), s.outer, s.size, s.inner);
  return with_grad(std::move(out), {&a}, "SumBackward1");
}

Tensor mean(const Tensor& a, int64_t dim, bool keepdim) {
  Tensor s = sum(a, dim, keepdim);
  float n = static_cast<float>(a.shape[normalize_dim(dim, a.dim())]);
  for (float& v : s.f) v /= n;
  return with_grad(std::move(s), {&a}, "MeanBackward1");
}

Tensor max(const Tensor& a) {
  if (a.numel() == 0) throw TensorError("max(): Expected reduction dim to be specified for input.numel() == 0.");
  Tensor fa = to_float(a);
  float m = *std::max_element(fa.f.begin(), fa.f.end());
  return with_grad(scalar(m), {&a}, "MaxBackward1");
}

Tensor exp(const Tensor& a, CpuKernels cpu) {
  Tensor out = to_float(a);
  for (float& v : out.f) v = kernels::vec_exp(v, cpu);
  return with_grad(std::move(out), {&a}, "ExpBackward0");
}

Tensor softmax(const Tensor& a, int64_t dim, CpuKernels cpu) {
  Tensor fa = to_float(a);
  dim = normalize_dim(dim, fa.dim());
  Tensor out = empty(fa.shape);
  Split s = split_at(fa.shape, dim);
  if (fa.dim() == 0) out.f[0] = 1.0f;
  else if (s.inner == 1) kernels::softmax_lastdim(fa.f.data(), out.f.data(), s.outer, s.size, cpu);
  else kernels::softmax_inner(fa.f.data(), out.f.data(), s.outer, s.size, s.inner, cpu);
  return with_grad(std::move(out), {&a}, "SoftmaxBackward0");
}

// ---- matrix products ----

Tensor dot(const Tensor& a, const Tensor& b) {
  if (a.dim() != 1 || b.dim() != 1)
    throw TensorError(fmt::format("1D tensors expected, but got {}D and {}D tensors", a.dim(), b.dim()));
  if (a.shape[0] != b.shape[0])
    throw TensorError(fmt::format(
        "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got {} and {} elements respectively",
        a.shape[0], b.shape[0], a.shape[0], b.shape[0]));
  require_float(a, "dot");
  Tensor out = scalar(kernels::dot(a.f.data(), b.f.data(), a.shape[0]));
  return with_grad(std::move(out), {&a, &b}, "DotBackward0");
}

namespace {

void check_inner(const Tensor& a, const Tensor& b, int64_t ka, int64_t kb) {
  if (ka != kb)
    throw TensorError(fmt::format("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
                                  a.dim() >= 2 ? a.shape[a.dim() - 2] : 1, ka, kb,
                                  b.dim() >= 2 ? b.shape[b.dim() - 1] : 1));
}

// The batch dims of two operands broadcast together (PyTorch's rule and message: align
// trailing dims; each pair equal or one of them 1).
Shape broadcast_batch(const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t d = 0; d < n; ++d) {
    const int64_t da = d < n - a.size() ? 1 : a[d - (n - a.size())];
    const int64_t db = d < n - b.size() ? 1 : b[d - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw TensorError(fmt::format(
          "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
          da, db, d));
    out[d] = da == 1 ? db : da;
  }
  return out;
}

// For each batch of the broadcast batch shape `out` (row-major), the offset in floats of the
// matching matrix of an operand whose batch dims are `in` and whose matrices are `size` floats.
std::vector<int64_t> batch_offsets(const Shape& in, const Shape& out, int64_t size) {
  const size_t lead = out.size() - in.size();
  Shape stride(out.size(), 0);  // 0 where `in` is broadcast (missing or 1)
  for (int64_t d = static_cast<int64_t>(in.size()) - 1, s = size; d >= 0; s *= in[d], --d)
    if (in[d] != 1) stride[lead + d] = s;
  std::vector<int64_t> offsets(static_cast<size_t>(numel_of(out)));
  Shape idx(out.size(), 0);
  int64_t off = 0;
  for (int64_t& o : offsets) {
    o = off;
    for (int64_t d = static_cast<int64_t>(out.size()) - 1; d >= 0; --d) {  // odometer step
      off += stride[d];
      if (++idx[d] < out[d]) break;
      off -= idx[d] * stride[d];
      idx[d] = 0;
    }
  }
  return offsets;
}

// Batched (..., m, k) @ (..., k, n) with broadcast batch dims; both at least 2-D.
Tensor batched_matmul(const Tensor& a, const Tensor& b) {
  const int64_t m = a.shape[a.dim() - 2], k = a.shape[a.dim() - 1];
  const int64_t kb = b.shape[b.dim() - 2], n = b.shape[b.dim() - 1];
  check_inner(a, b, k, kb);
  const Shape ba(a.shape.begin(), a.shape.end() - 2), bb(b.shape.begin(), b.shape.end() - 2);
  const Shape batch_shape = broadcast_batch(ba, bb);
  const int64_t batch = numel_of(batch_shape);
  Shape shape = batch_shape;  // (batch..., m, n)
  shape.push_back(m);
  shape.push_back(n);
  Tensor out = empty(shape);
  if (bb.empty()) {  // N-D @ 2-D: one (batch*m, k) @ (k, n) product, as PyTorch folds it
    kernels::matmul(a.f.data(), b.f.data(), out.f.data(), batch * m, k, n);
    return out;
  }
  const std::vector<int64_t> oa = batch_offsets(ba, batch_shape, m * k);
  const std::vector<int64_t> ob = batch_offsets(bb, batch_shape, k * n);
  gemm::batched_matmul(batch, m, n, k, {a.f.data(), k, 1}, oa.data(), {b.f.data(), n, 1}, ob.data(),
                       out.f.data());
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
    check_inner(a, b, a.shape[1], b.shape[0]);
    Tensor out = empty({a.shape[0]});
    kernels::matvec(a.f.data(), b.f.data(), out.f.data(), a.shape[0], a.shape[1]);
    return with_grad(std::move(out), {&a, &b}, "MvBackward0");
  }
  if (a.dim() == 1 && b.dim() == 2) {
    check_inner(a, b, a.shape[0], b.shape[0]);
    Tensor out = empty({b.shape[1]});
    kernels::vecmat(a.f.data(), b.f.data(), out.f.data(), b.shape[0], b.shape[1]);
    return with_grad(std::move(out), {&a, &b}, "SqueezeBackward3");
  }
  if (a.dim() == 2 && b.dim() == 2) {
    check_inner(a, b, a.shape[1], b.shape[0]);
    Tensor out = empty({a.shape[0], b.shape[1]});
    kernels::matmul(a.f.data(), b.f.data(), out.f.data(), a.shape[0], a.shape[1], b.shape[1]);
    return with_grad(std::move(out), {&a, &b}, "MmBackward0");
  }
  // Batched: a 1-D operand is unsqueezed and the added dim removed afterwards.
  Tensor a2 = a.dim() == 1 ? unsqueeze(a, 0) : a, b2 = b.dim() == 1 ? unsqueeze(b, 1) : b;
  Tensor out = batched_matmul(a2, b2);
  if (a.dim() == 1) out = squeeze(out, -2);
  if (b.dim() == 1) out = squeeze(out, -1);
  // ND @ 2-D folds into one mm, ND @ ND expands and runs bmm; both end in _unsafe_view.
  return with_grad(std::move(out), {&a, &b}, "UnsafeViewBackward0");
}

// ---- layout ----

Tensor transpose(const Tensor& a, int64_t d0, int64_t d1) {
  int64_t nd = std::max<int64_t>(a.dim(), 1);
  d0 = normalize_dim(d0, nd);
  d1 = normalize_dim(d1, nd);
  if (a.dim() < 2 || d0 == d1) return with_grad(a, {&a}, "TransposeBackward0");
  Shape out_shape = a.shape;
  std::swap(out_shape[d0], out_shape[d1]);
  Tensor out = empty(out_shape, a.dtype);
  Shape idx(a.shape.size(), 0);
  Shape ost(out_shape.size(), 1);
  for (int64_t d = a.dim() - 2; d >= 0; --d) ost[d] = ost[d + 1] * out_shape[d + 1];
  for (int64_t k = 0; k < a.numel(); ++k) {
    Shape j = idx;
    std::swap(j[d0], j[d1]);
    int64_t o = 0;
    for (int64_t d = 0; d < a.dim(); ++d) o += j[d] * ost[d];
    if (a.is_float()) out.f[o] = a.f[k];
    else out.i[o] = a.i[k];
    for (int64_t d = a.dim() - 1; d >= 0; --d) {
      if (++idx[d] < a.shape[d]) break;
      idx[d] = 0;
    }
  }
  return with_grad(std::move(out), {&a}, "TransposeBackward0");
}

Tensor t(const Tensor& a) {
  if (a.dim() > 2) throw TensorError(fmt::format("t() expects a tensor with <= 2 dimensions, but self is {}D", a.dim()));
  return with_grad(transpose(a, 0, -1), {&a}, "TBackward0");
}

Tensor T(const Tensor& a) {
  Tensor out = a;
  for (int64_t lo = 0, hi = a.dim() - 1; lo < hi; ++lo, --hi) out = transpose(out, lo, hi);
  return with_grad(std::move(out), {&a}, "PermuteBackward0");
}

Tensor view(const Tensor& a, Shape shape) {
  int64_t known = 1, infer = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (infer >= 0) throw TensorError("only one dimension can be inferred");
      infer = static_cast<int64_t>(d);
    } else {
      known *= shape[d];
    }
  }
  if (infer >= 0 && known != 0 && a.numel() % known == 0) shape[infer] = a.numel() / known;
  if (numel_of(shape) != a.numel() || (infer >= 0 && known == 0))
    throw TensorError(fmt::format("shape '{}' is invalid for input of size {}", shape_str(shape), a.numel()));
  Tensor out = a;
  out.shape = shape;
  return with_grad(std::move(out), {&a}, "ViewBackward0");
}

Tensor contiguous(const Tensor& a) { return a; }

Tensor unsqueeze(const Tensor& a, int64_t dim) {
  dim = normalize_dim(dim, a.dim() + 1);
  Tensor out = a;
  out.shape.insert(out.shape.begin() + dim, 1);
  return with_grad(std::move(out), {&a}, "UnsqueezeBackward0");
}

Tensor squeeze(const Tensor& a, int64_t dim) {
  dim = normalize_dim(dim, a.dim());
  Tensor out = a;
  if (a.dim() > 0 && a.shape[dim] == 1) out.shape.erase(out.shape.begin() + dim);
  return with_grad(std::move(out), {&a}, "SqueezeBackward1");
}

Tensor cat(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw TensorError("torch.cat(): expected a non-empty list of Tensors");
  const Tensor& first = ts.front();
  dim = normalize_dim(dim, first.dim());
  Shape shape = first.shape;
  shape[dim] = 0;
  bool is_float = false;
  for (const Tensor& x : ts) {
    if (x.dim() != first.dim())
      throw TensorError(fmt::format("Tensors must have same number of dimensions: got {} and {}", first.dim(), x.dim()));
    for (int64_t d = 0; d < x.dim(); ++d)
      if (d != dim && x.shape[d] != first.shape[d])
        throw TensorError(fmt::format("Sizes of tensors must match except in dimension {}. Expected size {} but got size {} for tensor number 1 in the list.",
                                      dim, first.shape[d], x.shape[d]));
    shape[dim] += x.shape[dim];
    is_float = is_float || x.is_float();
  }
  Tensor out = empty(shape, is_float ? DType::float32 : first.dtype);
  int64_t outer = split_at(shape, dim).outer, pos = 0;
  int64_t row = numel_of(shape) / std::max<int64_t>(outer, 1);
  std::vector<const Tensor*> inputs;
  for (const Tensor& x : ts) {
    Tensor fx = is_float ? to_float(x) : x;
    int64_t chunk = fx.numel() / std::max<int64_t>(outer, 1);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < chunk; ++c) {
        if (is_float) out.f[o * row + pos + c] = fx.f[o * chunk + c];
        else out.i[o * row + pos + c] = fx.i[o * chunk + c];
      }
    pos += chunk;
    inputs.push_back(&x);
  }
  return with_grad(std::move(out), inputs, "CatBackward0");
}

Tensor stack(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw TensorError("stack expects a non-empty TensorList");
  dim = normalize_dim(dim, ts.front().dim() + 1);
  std::vector<Tensor> parts;
  for (const Tensor& x : ts) {
    if (x.shape != ts.front().shape)
      throw TensorError(fmt::format("stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}",
                                    shape_str(ts.front().shape), shape_str(x.shape), parts.size()));
    parts.push_back(unsqueeze(x, dim));
  }
  return with_grad(cat(parts, dim), [&] {
    std::vector<const Tensor*> in;
    for (const Tensor& x : ts) in.push_back(&x);
    return in;
  }(), "StackBackward0");
}

}  // namespace attn::core
