// core/kernels/softmax.cpp: torch.softmax and SoftmaxBackward0 as PyTorch 1.13.1's CPU kernels
// compute them (aten/src/ATen/native/cpu/SoftMaxKernel.cpp; Debian build: one OpenMP thread),
// in both kernel families of core/cpu.h (kernels/softmax.h).
//
// What it is: plain loops that perform the same float32 operations, in the same order, with the
// same fused multiply-adds, as the ATen code named above each function; a Vectorized<float> is
// kernels/vec.h's 8 lanes. The families differ in Vectorized<float>::exp (Sleef or glibc expf),
// in vec::reduce_all's horizontal step and in which NaN vec::maximum returns. The last-dim
// forward runs softmax_avx2.cpp (the same instructions on eight lanes at once) when the CPU has
// AVX2 and FMA; reference::softmax_lastdim stays as its definition and tests compare the two.
// Every claim about order was checked bit for bit against torch, in both families
// (tools/make_kernel_vectors.py, tests/test_kernels.cpp; the backward: docs/pytorch-numerics.md
// §12, tests/test_autograd.cpp). ATen splits a softmax over threads only when it is big (non-last
// dim: outer*inner > 32768/dim), which then rounds differently; lesson tensors never get there.
// The project compiles with -ffp-contract=off, so `a * b + c` is two roundings and only an
// explicit std::fma is fused, exactly as in the kernels being mirrored.
// What it is not: shape-aware (ops/softmax.cpp), or exp's arithmetic (kernels/unary.h).
#include "core/kernels/softmax.h"

#include <algorithm>
#include <cmath>

#include "core/deadline.h"
#include "core/kernels/unary.h"
#include "core/kernels/vec.h"
#include "core/kernels/vec_avx2.h"
#include "core/parallel.h"

namespace attn::core::kernels {

using detail::kLanes;

// ---- forward ----

// Rows are independent, so big softmaxes are cut into blocks of rows for the threads (as ATen
// does with parallel_for); each row is computed the same way whichever thread runs it. Below
// kSoftmaxSplit elements (every lesson's softmax) everything stays on the calling thread.
constexpr int64_t kSoftmaxSplit = int64_t{1} << 16;

void softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  if (!avx2::supported()) return reference::softmax_lastdim(in, out, rows, n, cpu);
  const int threads = rows * n >= kSoftmaxSplit ? parallel::max_threads() : 1;
  const int64_t per_task = std::max<int64_t>(1, rows / (4 * threads));
  parallel::run((rows + per_task - 1) / per_task, threads, [&](int64_t task) {
    DeadlineMeter meter;   // core/deadline.h: a softmax over 10^9 elements stops near the time limit
    const int64_t end = std::min(rows, (task + 1) * per_task);
    for (int64_t r = task * per_task; r < end; ++r) {
      avx2::softmax_row(in + r * n, out + r * n, n, cpu);
      meter.add(n);
    }
  });
}

// _vec_softmax_lastdim<float>, one row at a time, one lane at a time: the definition the fast
// version above keeps.
void reference::softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  auto maximum = [cpu](float a, float b) { return detail::vec_maximum(a, b, cpu); };
  DeadlineMeter meter;
  for (int64_t r = 0; r < rows; ++r) {
    meter.add(n);
    const float* x = in + r * n;
    float* y = out + r * n;
    // 1. max_input = vec::reduce_all(vec::maximum, x)
    const float max_input = detail::reduce_all(x, n, maximum, cpu);
    // 2. vec::map: y = (x - max).exp(), Vectorized::exp on every element (the tail too)
    for (int64_t i = 0; i < n; ++i) y[i] = vec_exp(x[i] - max_input, cpu);
    // 3. tmp_sum = vec::reduce_all(+, y); tmp_sum = 1 / tmp_sum
    const float sum = detail::reduce_all(y, n, [](float a, float b) { return a + b; }, cpu);
    const float inv = 1.0f / sum;
    // 4. vec::map: y = y * tmp_sum (multiply by the reciprocal, not a division)
    for (int64_t i = 0; i < n; ++i) y[i] = y[i] * inv;
  }
}

// _vec_softmax<float> with one thread: the flat index idx = outer_idx * inner + inner_idx walks
// [0, outer*inner); while inner_idx + 8 <= inner a vector of 8 columns is processed, the
// remaining inner % 8 columns of each outer block take the scalar "tail case". Columns are
// independent, so this loops column by column.
void softmax_inner(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner, CpuKernels cpu) {
  const int64_t vector_cols = inner - inner % kLanes;  // columns covered by full vectors
  DeadlineMeter meter;   // core/deadline.h
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < inner; ++c) {
      meter.add(dim_size);
      const float* x = in + o * dim_size * inner + c;
      float* y = out + o * dim_size * inner + c;
      const bool vectorised = c < vector_cols;
      // 1. max along dim: vec::maximum (NaN-propagating) / std::max (a < b ? b : a)
      float max_input = x[0];
      for (int64_t d = 1; d < dim_size; ++d)
        max_input = vectorised ? detail::vec_maximum(max_input, x[d * inner], cpu)
                               : std::max(max_input, x[d * inner]);
      // 2. exp(x - max) stored, summed from 0 in dim order; Vec::exp / std::exp (glibc), which
      //    in the DEFAULT family are both glibc. The scalar tail's std::exp on a float is glibc's
      //    expf (its FMA variant on this CPU, picked by glibc's ifunc for libtorch and for us
      //    alike), not Sleef: the two round differently on about 9% of inputs in [-20, 20].
      float sum = 0.0f;
      for (int64_t d = 0; d < dim_size; ++d) {
        const float t = x[d * inner] - max_input;
        y[d * inner] = vectorised ? vec_exp(t, cpu) : std::exp(t);
        sum = sum + y[d * inner];
      }
      // 3. "unify": divide by the sum (both paths divide; no reciprocal here)
      for (int64_t d = 0; d < dim_size; ++d) y[d * inner] = y[d * inner] / sum;
    }
  }
}

// ---- backward: SoftmaxBackward0 from the saved result y (_softmax_backward_data) ----
// Last dim, per row of n: s = map2_reduce_all(g * y, +) (kernels/vec.h dot_row: for n < 8 the
// rounded products left to right, else 8 lanes with later chunks fused in the AVX2 family, GCC
// having contracted the lambda, and unfused in the scalar one), then grad_in = (g - s) * y.
// Another dim, per column: s = fma(g, y, s) over the dim in order (AVX2; scalar: unfused), then
// grad_in = y * (g - s). docs/pytorch-numerics.md §12.

void softmax_backward_lastdim(const float* g, const float* y, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  if (!avx2::supported()) return reference::softmax_backward_lastdim(g, y, out, rows, n, cpu);
  DeadlineMeter meter;
  for (int64_t r = 0; r < rows; ++r) {
    meter.add(n);
    avx2::softmax_backward_row(g + r * n, y + r * n, out + r * n, n, cpu);
  }
}

// The definition the AVX2 rows keep: one lane at a time (dot_row's libm fma in the AVX2 family).
void reference::softmax_backward_lastdim(const float* g, const float* y, float* out, int64_t rows, int64_t n,
                                         CpuKernels cpu) {
  DeadlineMeter meter;
  for (int64_t r = 0; r < rows; ++r) {
    meter.add(n);
    const float* gr = g + r * n;
    const float* yr = y + r * n;
    const float s = detail::dot_row(gr, yr, n, cpu);
    for (int64_t k = 0; k < n; ++k) out[r * n + k] = (gr[k] - s) * yr[k];
  }
}

void softmax_backward_inner(const float* g, const float* y, float* out, int64_t outer, int64_t dim_size,
                            int64_t inner, CpuKernels cpu) {
  DeadlineMeter meter;
  for (int64_t r = 0; r < outer; ++r)
    for (int64_t c = 0; c < inner; ++c) {
      meter.add(dim_size);
      const int64_t base = r * dim_size * inner + c;
      float s = 0.0f;
      for (int64_t d = 0; d < dim_size; ++d) s = detail::mul_add(g[base + d * inner], y[base + d * inner], s, cpu);
      for (int64_t d = 0; d < dim_size; ++d) out[base + d * inner] = y[base + d * inner] * (g[base + d * inner] - s);
    }
}

}  // namespace attn::core::kernels
