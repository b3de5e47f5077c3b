// core/kernels/reduce.cpp: the cascade sum of kernels/reduce.h, as ATen's SumKernel.cpp adds
// (cascade_sum<false, float>, one thread), checked bit for bit against torch
// (tools/make_kernel_vectors.py, tests/test_kernels.cpp; sums over any dims: §12).
//
// What it is: ATen runs these on several rows or lanes at once; every row/lane does the same
// operations independently, so one suffices here. `get(i)` yields element i of the sequence
// being reduced. With more threads ATen splits only sums of more than 32768 elements, which
// then round differently; lesson tensors never get there.
// What it is not: strided or shape-aware (ops/reduce.cpp, ops/sum_to.cpp).
#include "core/kernels/reduce.h"

#include <algorithm>

#include "core/deadline.h"
#include "core/kernels/vec.h"

namespace attn::core::kernels {

namespace {

using detail::ceil_log2;
using detail::kLanes;
using detail::Lanes;

// multi_row_sum: four accumulator levels; level 0 takes 2^p elements at a time (p >= 4), then
// carries upward, stopping at the first level whose block is not yet complete.
template <typename Get>
float multi_row_sum(Get get, int64_t size) {
  constexpr int64_t num_levels = 4;
  const int64_t level_power = std::max(int64_t{4}, ceil_log2(size) / num_levels);
  const int64_t level_step = int64_t{1} << level_power;
  const int64_t level_mask = level_step - 1;
  float acc[num_levels] = {0.0f, 0.0f, 0.0f, 0.0f};

  int64_t i = 0;
  DeadlineMeter meter;   // core/deadline.h: a sum of 10^9 strided elements stops near the time limit
  // 1. full blocks of level_step elements into level 0, then carry up the levels
  while (i + level_step <= size) {
    for (int64_t j = 0; j < level_step; ++j, ++i) acc[0] += get(i);
    meter.add(level_step);
    for (int64_t j = 1; j < num_levels; ++j) {
      acc[j] += acc[j - 1];
      acc[j - 1] = 0.0f;
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  // 2. the remaining elements into level 0
  for (; i < size; ++i) acc[0] += get(i);
  // 3. fold the levels: ((acc0 + acc1) + acc2) + acc3
  for (int64_t j = 1; j < num_levels; ++j) acc[0] += acc[j];
  return acc[0];
}

// row_sum: the sequence viewed as (size/4, 4); four interleaved multi_row_sums, the leftover
// (size % 4) elements added to the first, then partial0 += partial1, += partial2, += partial3.
template <typename Get>
float row_sum(Get get, int64_t size) {
  constexpr int64_t ilp = 4;
  const int64_t size_ilp = size / ilp;
  float partial[ilp];
  for (int64_t k = 0; k < ilp; ++k)
    partial[k] = multi_row_sum([&](int64_t i) { return get(i * ilp + k); }, size_ilp);
  for (int64_t i = size_ilp * ilp; i < size; ++i) partial[0] += get(i);
  for (int64_t k = 1; k < ilp; ++k) partial[0] += partial[k];
  return partial[0];
}

// vectorized_inner_sum, one contiguous row of n >= 8: per lane, a row_sum over the n/8 full
// vectors; then final = 0 + the scalar tail left to right, + lane 0, + lane 1, ..., + lane 7.
float vectorized_inner_row(const float* x, int64_t n) {
  const int64_t vec_size = n / kLanes;
  Lanes lane;
  for (int64_t l = 0; l < kLanes; ++l)
    lane[l] = row_sum([&](int64_t v) { return x[v * kLanes + l]; }, vec_size);
  float final_acc = 0.0f;
  for (int64_t k = vec_size * kLanes; k < n; ++k) final_acc += x[k];
  for (int64_t l = 0; l < kLanes; ++l) final_acc += lane[l];
  return final_acc;
}

// cascade_sum's choice for a contiguous row reduction: vectorized_inner_sum if n >= 8, else
// scalar_inner_sum / scalar_outer_sum's single-row case, both of which are row_sum.
float contiguous_row_sum(const float* x, int64_t n) {
  if (n >= kLanes) return vectorized_inner_row(x, n);
  return row_sum([&](int64_t i) { return x[i]; }, n);
}

}  // namespace

// ---- sums (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum<false, float>) ----

// TensorIterator puts the reduced dimension first; cascade_sum then picks a loop by layout:
//  - inner == 1 (contiguous reduction): vectorized_inner_sum if dim_size >= 8, else row_sum;
//  - inner >= 8: vectorized_outer_sum: column blocks of 32 use multi_row_sum, then blocks of 8
//    use row_sum (ILP over the reduced dim), then single columns use row_sum;
//  - 2 <= inner < 8: scalar_outer_sum: blocks of 4 columns use multi_row_sum, the rest row_sum.
// The output starts at 0 and the result is accumulated into it (CastStoreAccumulate): 0 + s.
void sum_dim(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner) {
  DeadlineMeter meter;   // core/deadline.h: one look per kDeadlineStride elements summed
  for (int64_t o = 0; o < outer; ++o) {
    const float* block = in + o * dim_size * inner;
    if (inner == 1) {
      meter.add(dim_size);
      out[o] = 0.0f + contiguous_row_sum(block, dim_size);
      continue;
    }
    const int64_t multi_cols = inner >= kLanes ? inner - inner % (4 * kLanes) : inner - inner % 4;
    for (int64_t c = 0; c < inner; ++c) {
      meter.add(dim_size);
      auto get = [&](int64_t d) { return block[d * inner + c]; };
      const float s = c < multi_cols ? multi_row_sum(get, dim_size) : row_sum(get, dim_size);
      out[o * inner + c] = 0.0f + s;
    }
  }
}

// tensor.sum(): the contiguous input is coalesced to one dimension of n elements.
float sum_all(const float* in, int64_t n) {
  return 0.0f + contiguous_row_sum(in, n);
}

float strided_multi_row_sum(const float* x, int64_t n, int64_t stride) {
  return multi_row_sum([&](int64_t i) { return x[i * stride]; }, n);
}

float strided_row_sum(const float* x, int64_t n, int64_t stride) {
  return row_sum([&](int64_t i) { return x[i * stride]; }, n);
}

float inner_row_sum(const float* x, int64_t n) { return vectorized_inner_row(x, n); }

}  // namespace attn::core::kernels
