// core/ops/triangular.cpp: tril and triu, forward and backward (ops/triangular.h).
//
// What it is: a clone with the elements outside the triangle zeroed, matrix by matrix; the
// backward (derivatives.yaml) is the gradient's own tril/triu with the same diagonal.
// What it is not: arithmetic (nothing here rounds).
#include "core/ops/triangular.h"

#include "core/autograd.h"

namespace attn::core {

namespace grad {
namespace {

using autograd::Backward;
using autograd::Grads;

Backward triangle(int64_t diagonal, bool lower) {
  return {[diagonal, lower](const Grads& g) { return Grads{lower ? tril(*g[0], diagonal) : triu(*g[0], diagonal)}; }, false};
}

}  // namespace
}  // namespace grad

namespace {

// Zero the elements (r, c) of every matrix of the contiguous `out` for which keep(r, c) is false.
template <typename T, typename Keep>
void zero_outside(Tensor& out, Keep keep) {
  const int64_t rows = out.shape()[out.dim() - 2], cols = out.shape()[out.dim() - 1];
  const int64_t mats = rows * cols == 0 ? 0 : out.numel() / (rows * cols);
  T* p = out.data<T>();
  for (int64_t m = 0; m < mats; ++m)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        if (!keep(r, c)) p[(m * rows + r) * cols + c] = T{0};
}

Tensor triangle(const Tensor& a, int64_t diagonal, bool lower, const char* name) {
  if (a.dim() == 0) throw TensorError("Dimension specified as -2 but tensor has no dimensions", "IndexError");   // ATen's wrap of dim -2
  if (a.dim() == 1 && a.numel() == 0) return autograd::record(a.clone(), {&a}, name, grad::triangle(diagonal, lower));   // ATen returns early
  if (a.dim() == 1) throw TensorError("Dimension out of range (expected to be in range of [-1, 0], but got -2)", "IndexError");
  Tensor out = a.clone();
  auto keep = [&](int64_t r, int64_t c) { return lower ? c - r <= diagonal : c - r >= diagonal; };
  visit_element(out.dtype(), [&](auto x) { zero_outside<decltype(x)>(out, keep); });
  return autograd::record(std::move(out), {&a}, name, grad::triangle(diagonal, lower));
}

}  // namespace

namespace {

// checkTrilTriuBatchContiguous(self, allow_zero_stride=true) for a tensor that is not contiguous.
bool batch_contiguous(const Tensor& t) {
  const int64_t dims = t.dim();
  if (dims <= 3) return true;
  int64_t expected = t.shape()[dims - 1] * t.shape()[dims - 2];
  for (int64_t i = dims - 3; i >= 0; --i) {
    if (i == 0 && (t.strides()[0] == 0 || t.shape()[0] == 1)) continue;
    if (expected != t.strides()[i]) return false;
    expected *= t.shape()[i];
  }
  return true;
}

}  // namespace

bool triangle_through_strides_(Tensor& self, int64_t diagonal, bool lower) {
  const int64_t nd = self.dim();
  if (nd < 2 || self.numel() == 0) return false;
  bool overlaps = false;
  for (int64_t d = 0; d < nd; ++d) overlaps = overlaps || (self.strides()[d] == 0 && self.shape()[d] > 1);
  if (!overlaps || !batch_contiguous(self)) return false;
  const int64_t n = self.shape()[nd - 2], m = self.shape()[nd - 1];
  const int64_t rs = self.strides()[nd - 2], cs = self.strides()[nd - 1];
  const int64_t batch_stride = nd > 2 && self.strides()[nd - 3] > 0 ? self.strides()[nd - 3] : 1;
  int64_t batches = 1;   // batchCountTrilTriu: dims of stride 0 not counted
  for (int64_t d = 0; d < nd - 2; ++d)
    if (self.strides()[d] != 0) batches *= self.shape()[d];
  self.mark_written();
  visit_element(self.dtype(), [&](auto x) {
    using T = decltype(x);
    T* p = self.data<T>();
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < m; ++j)
          if (lower ? j - i > diagonal : j - i < diagonal) p[b * batch_stride + i * rs + j * cs] = T{0};
  });
  return true;
}

Tensor tril(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, true, "TrilBackward0"); }
Tensor triu(const Tensor& a, int64_t diagonal) { return triangle(a, diagonal, false, "TriuBackward0"); }

}  // namespace attn::core
