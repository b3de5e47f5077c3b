// core/ops/loops.h: what ATen's elementwise loops (native/cpu/Loops.h, TensorIterator) decide that
// changes a float: which elements a vectorised kernel computes in its scalar tail. For the
// pointwise ops of ops/unary.cpp, ops/pow.cpp and ops/activation.cpp. Internal to core (detail).
//
// What it is: cpu_kernel_vec / cpu_serial_kernel_vec run 2 vectors of 8 floats per step and the
// last `run % 16` elements of each contiguous run through the scalar lambda, which may round
// differently (Sleef in the body, glibc in the tail); an innermost stride other than 1 runs
// everything scalar (docs/pytorch-numerics.md §13); vml_runs, the runs of a vml kernel (§20).
// map_split and zip are the element loops built on that; map_buffer and map_fast hand a
// contiguous run to a buffer kernel; avx2() names the family whose vector body differs.
// What it is not: threads or SIMD (plain loops; the buffer kernels are kernels/unary.h's), or a
// place for the arithmetic (the callers' f).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/cpu.h"
#include "core/tensor.h"

namespace attn::core::detail {

// cpu_kernel_vec / cpu_serial_kernel_vec: 2 vectors of 8 floats per step, the rest scalar.
constexpr int64_t kVecStep = 16;

// The AVX2 kernel family (core/cpu.h): Sleef in the vector body, GCC's fused multiply-adds.
inline bool avx2(CpuKernels cpu) { return cpu == CpuKernels::avx2; }

// For each row-major element of x: 1 when ATen's cpu_kernel_vec computes it in the scalar tail
// (memory order, one tail per contiguous run; §13). Used by pow and GELU.
std::vector<uint8_t> scalar_tail(const Tensor& x);

// A binary elementwise op over two operands of one shape (GeluBackward0's dy and x), as
// TensorIterator lays it out: the output's strides, and for each row-major element 1 when
// cpu_kernel_vec computes it in the scalar tail (fast set-up, else reorder_dimensions and
// coalesce_dimensions, then a vectorised inner loop when every operand's inner stride is 1 or
// one input's is 0, a scalar one otherwise; §13).
struct BinaryLoop {
  Shape out_strides;
  std::vector<uint8_t> tail;   // 0 in the vector body, else 1 + the element's place in its run's tail
  bool scalar_b = false;       // the inner loop is is_contiguous_scalar<2> (b's inner stride 0)
  int64_t run = 0;             // the inner run's length (when scalar_b)
};
// step: the elements of one vector step (2 vectors of 32 bytes: 16 floats, 8 int64s, 64 bytes).
BinaryLoop binary_loop(const Tensor& a, const Tensor& b, int64_t step = kVecStep);

// The runs TensorIterator hands a vml kernel (UnaryOpsKernel.cpp's IMPLEMENT_ITERATOR_LAMBDA,
// docs/pytorch-numerics.md §20): x's elements run by run, each run in memory order; every run has
// `run` elements. `offset[i]` is the storage offset (in elements) of the i-th element so listed,
// `index[i]` its row-major index. A vml kernel's 8-lane vectors start at each run's first element.
struct VmlRuns {
  int64_t run = 0;
  std::vector<int64_t> offset, index;
};
VmlRuns vml_runs(const Tensor& x);

// kernel(in + k0, out + k0, k1 - k0) over [0, n) in pieces of kDeadlineStride, looking at the
// deadline between pieces (core/deadline.h): a buffer kernel that cannot stop by itself.
template <typename K>
void map_buffer(const float* in, float* out, int64_t n, K kernel) {
  DeadlineMeter meter;
  for (int64_t k0 = 0; k0 < n; k0 += kDeadlineStride) {
    const int64_t k1 = std::min(n, k0 + kDeadlineStride);
    kernel(in + k0, out + k0, k1 - k0);
    meter.add(k1 - k0);
  }
}

// out[k] = f(a's element k, whether ATen computes it in the scalar tail), row-major, a new
// contiguous float32 tensor of a's shape (§13). has_tail false: no element is in a tail (vml ops).
template <typename F>
Tensor map_split(const Tensor& a, F f, bool has_tail) {
  const Tensor x = to_float(a);
  Tensor out = uninitialized(x.shape());
  float* o = out.data<float>();
  const float* in = x.data<float>();
  const int64_t n = x.numel();
  if (x.is_contiguous()) {
    const int64_t body = has_tail ? n - n % kVecStep : n;
    DeadlineMeter meter;   // core/deadline.h
    for (int64_t k0 = 0; k0 < n; k0 += kDeadlineStride) {
      const int64_t k1 = std::min(n, k0 + kDeadlineStride);
      for (int64_t k = k0; k < k1; ++k) o[k] = f(in[k], k >= body);
      meter.add(k1 - k0);
    }
  } else {
    const std::vector<uint8_t> tail = has_tail ? scalar_tail(x) : std::vector<uint8_t>(static_cast<size_t>(n), 0);
    for_each_offset(x.shape(), [&](int64_t k, int64_t off) { o[k] = f(in[off], tail[k] != 0); }, x.strides());
  }
  return out;
}

// map_split(a, f, has_tail) with a contiguous input's vector body through the buffer kernel
// kernel(in, out, count) (kernels/unary.h: eight lanes at a time where it can, the same bits as f):
// its first n - n % 16 elements with has_tail, else all; the rest, and any other layout, by f.
template <typename K, typename F>
Tensor map_fast(const Tensor& a, K kernel, F f, bool has_tail) {
  const Tensor x = to_float(a);
  if (!x.is_contiguous()) return map_split(x, f, has_tail);
  Tensor out = uninitialized(x.shape());   // a's shape
  const int64_t n = x.numel(), body = has_tail ? n - n % kVecStep : n;
  const float* in = x.data<float>();
  float* o = out.data<float>();
  map_buffer(in, o, body, kernel);
  for (int64_t k = body; k < n; ++k) o[k] = f(in[k], true);
  return out;
}

// out[k] = f(a[k], b[k]) over the broadcast shape of a and b (row-major, new float32 tensor).
template <typename F>
Tensor zip(const Tensor& a, const Tensor& b, F f) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  const Tensor fa = to_float(a), fb = to_float(b);
  Tensor out = uninitialized(shape);
  const float *pa = fa.data<float>(), *pb = fb.data<float>();
  float* o = out.data<float>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = f(pa[i], pb[j]); },
                  broadcast_strides(fa, shape), broadcast_strides(fb, shape));
  return out;
}

}  // namespace attn::core::detail
