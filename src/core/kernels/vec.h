// core/kernels/vec.h: ATen's Vectorized<float> one lane at a time (vec_base.h, vec256_float.h,
// functional_base.h), in both kernel families of core/cpu.h: the steps the plain-loop kernels
// (softmax, sums, LayerNorm) share, each in the order ATen performs it.
//
// What it is: a Vectorized<float> is 8 lanes in both families (AVX2's 256-bit registers;
// vec_base.h's generic Vectorized<T> is 32 bytes wide too), written as an array of 8 floats; a
// vector operation is a loop over lanes. The families differ in which NaN vec::maximum returns,
// in reduce_all's horizontal step, and in whether a multiply-add inside a vectorised lambda is
// fused (GCC contracted it in the AVX2 build). Internal to core (namespace detail).
// What it is not: SIMD (kernels/vec_avx2.h runs these operations eight lanes per instruction)
// or exp (kernels/unary.h, vec_exp).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "core/bits.h"
#include "core/cpu.h"

namespace attn::core::kernels::detail {

constexpr int64_t kLanes = 8;   // Vectorized<float>::size()
using Lanes = std::array<float, kLanes>;

// true when reproducing ATen's DEFAULT (scalar) kernels, false for its AVX2 ones. The family is
// the caller's (a lesson run's), passed down to every helper whose rounding depends on it.
inline bool default_kernels(CpuKernels cpu) { return cpu == CpuKernels::scalar; }

// utils::CeilLog2 (ATen/native/cpu/utils.h): 1 for x <= 2, else floor(log2(x - 1)) + 1.
inline int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  return 64 - __builtin_clzll(static_cast<unsigned long long>(x - 1));
}

// at::vec::maximum<float>. AVX2 (vec256_float.h): _mm256_max_ps(a, b) = (a > b ? a : b), then
// OR with an all-ones mask when either is NaN (all-ones is itself a NaN). DEFAULT (vec_base.h):
// (a > b ? a : b), then a itself if a is NaN. Same values; only the NaN's bits differ.
inline float vec_maximum(float a, float b, CpuKernels cpu) {
  if (default_kernels(cpu)) return std::isnan(a) ? a : (a > b ? a : b);
  if (std::isnan(a) || std::isnan(b)) return core::detail::float_of(0xffffffffu);
  return a > b ? a : b;
}

// at::vec::VecReduceAllSIMD<float> (functional_base.h, AVX2): permute2f128, shuffle 0x4E,
// shuffle 0xB1; lane 0 ends up as ((l0 op l4) op (l2 op l6)) op ((l1 op l5) op (l3 op l7)).
template <typename Op>
float reduce_lanes_avx2(const Lanes& l, Op op) {
  return op(op(op(l[0], l[4]), op(l[2], l[6])), op(op(l[1], l[5]), op(l[3], l[7])));
}

// The generic VecReduceAllSIMD (DEFAULT): vec_reduce_all(op, acc, 8) folds lane i into lane 0
// for i = 1..7, i.e. left to right: (((l0 op l1) op l2) ... op l7).
template <typename Op>
float reduce_lanes_default(const Lanes& l, Op op) {
  float acc = l[0];
  for (int64_t i = 1; i < kLanes; ++i) acc = op(acc, l[i]);
  return acc;
}

template <typename Op>
float reduce_lanes(const Lanes& l, Op op, CpuKernels cpu) {
  return default_kernels(cpu) ? reduce_lanes_default(l, op) : reduce_lanes_avx2(l, op);
}

// at::vec::reduce_all (functional_base.h) over `size` contiguous floats with a lane-wise op:
//  - size < 8: vec_reduce_all(op, loadu(data, size), size), i.e. left to right from data[0];
//  - else: lanes = first 8; each further full chunk of 8 combined lane by lane; a partial tail
//    combined into its low lanes only (Vec::set); then the horizontal reduction above
//    (the family's own). Same in both families except that last step.
template <typename Op>
float reduce_all(const float* data, int64_t size, Op op, CpuKernels cpu) {
  if (size < kLanes) {
    float acc = data[0];
    for (int64_t i = 1; i < size; ++i) acc = op(acc, data[i]);
    return acc;
  }
  Lanes acc;
  for (int64_t l = 0; l < kLanes; ++l) acc[l] = data[l];
  int64_t d = kLanes;
  for (; d < size - (size % kLanes); d += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) acc[l] = op(acc[l], data[d + l]);
  for (int64_t l = 0; d + l < size; ++l) acc[l] = op(acc[l], data[d + l]);
  return reduce_lanes(acc, op, cpu);
}

// acc + a * b inside a vectorised lambda: one fused multiply-add in the AVX2 build (GCC
// contracted it), a rounded product then a rounded sum in the DEFAULT build.
inline float mul_add(float a, float b, float acc, CpuKernels cpu) {
  return cpu == CpuKernels::avx2 ? std::fma(a, b, acc) : acc + a * b;
}

// vec::map2_reduce_all(x * y, +) over n >= 1 contiguous pairs (SoftmaxBackward's and
// LayerNorm backward's sums): for n < 8 the rounded products added left to right; else
// acc = x[0:8] * y[0:8], each further chunk of 8 (and the partial tail, into the low lanes)
// acc = mul_add(x, y, acc), then the 8 lanes reduced as reduce_lanes does.
inline float dot_row(const float* x, const float* y, int64_t n, CpuKernels cpu) {
  if (n < kLanes) {
    float acc = x[0] * y[0];
    for (int64_t k = 1; k < n; ++k) acc = acc + x[k] * y[k];
    return acc;
  }
  Lanes lane;
  for (int64_t l = 0; l < kLanes; ++l) lane[l] = x[l] * y[l];
  int64_t d = kLanes;
  for (; d + kLanes <= n; d += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) lane[l] = mul_add(x[d + l], y[d + l], lane[l], cpu);
  for (int64_t l = 0; d + l < n; ++l) lane[l] = mul_add(x[d + l], y[d + l], lane[l], cpu);
  if (cpu == CpuKernels::avx2)
    return ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
  float acc = lane[0];
  for (int64_t l = 1; l < kLanes; ++l) acc = acc + lane[l];
  return acc;
}

}  // namespace attn::core::kernels::detail
