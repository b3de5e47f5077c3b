// core/kernels.cpp: plain C++ re-enactments of the PyTorch 1.13.1 CPU kernels (Debian build:
// reference BLAS from libblas3, glibc libm, one OpenMP thread) whose rounding the lessons
// depend on: exp, softmax, matrix products and sums. Both kernel families of core/cpu.h:
//  - CpuKernels::avx2: ATen's AVX2 kernels (Vectorized<float> = vec256_float.h, exp = Sleef);
//  - CpuKernels::scalar: ATen's DEFAULT kernels (ATEN_CPU_CAPABILITY=default; Vectorized<float>
//    = the generic vec_base.h, 8 plain lanes, exp = std::exp, i.e. glibc expf).
// They differ only in Vectorized<float>::exp, in the horizontal step of vec::reduce_all and
// in which NaN vec::maximum returns; sums and matrix products round the same in both.
//
// What it is: plain loops that perform the same float32 operations, in the same order, with the
// same fused multiply-adds, as the ATen / BLAS code named above each function. "Lanes" of a
// Vectorized<float> are written as arrays of 8 floats; a vector operation is a loop over lanes.
// Every claim about order was checked bit for bit against torch, in both families
// (tools/make_kernel_vectors.py writes the evidence, tests/test_kernels.cpp replays it).
// What it is not: fast, vectorised, multi-threaded, or shape-aware (tensor.cpp does shapes),
// except the matrix products, which hand their loops to core/gemm (same order, fast), and
// exp and the last-dim softmax, which run kernels_avx2.cpp (the same instructions on eight
// lanes at once) when the CPU has AVX2 and FMA; the plain loops here
// stay as their definition (reference::softmax_lastdim, vec_exp) and tests compare the two.
// It assumes ATen runs one thread, as it does on the reference machine. With more threads ATen
// splits only big work (measured: sums of more than 32768 elements, and non-last-dim softmax
// when outer*inner > 32768/dim), which then rounds differently; lesson tensors never get there.
//
// The project compiles with -ffp-contract=off, so `a * b + c` is two roundings and only an
// explicit std::fma is fused, exactly as in the kernels being mirrored. Built with FMA allowed
// and contraction on (e.g. -march=native without that flag), matmul and sums would drift.
#include "core/kernels.h"

#include "core/bits.h"
#include "core/cpu.h"
#include "core/deadline.h"
#include "core/gemm.h"
#include "core/kernels_avx2.h"
#include "core/parallel.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace attn::core::kernels {

namespace {

// Vectorized<float>::size(): 8 in both families (AVX2's 256-bit registers; vec_base.h's
// generic Vectorized<T> is 32 bytes wide too).
constexpr int64_t kLanes = 8;
using Lanes = std::array<float, kLanes>;

// true when reproducing ATen's DEFAULT (scalar) kernels, false for its AVX2 ones. The family is
// the caller's (a lesson run's), passed down to every helper whose rounding depends on it.
bool default_kernels(CpuKernels cpu) { return cpu == CpuKernels::scalar; }

// ---- bit helpers for the Sleef port ----

using detail::float_of;

// _mm256_cvtps_epi32 (Sleef vrint_vi2_vf on AVX2): round to nearest even; values that do not
// fit in int32 (and NaN) give the "integer indefinite" value INT32_MIN.
int32_t cvtps_epi32(float x) {
  if (!(std::fabs(x) < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(std::nearbyint(x));  // default rounding mode: to nearest even
}

// Sleef vpow2i_vf_vi2: the float whose bits are (q + 0x7f) << 23, computed with wrap-around.
float pow2i(int32_t q) {
  return float_of((static_cast<uint32_t>(q) + 0x7fu) << 23);
}

// Sleef vldexp2_vf_vf_vi2: d * 2^(e>>1) * 2^(e - (e>>1)), two multiplies (no overflow in between).
float ldexp2k(float d, int32_t e) {
  const int32_t half = e >> 1;  // arithmetic shift, as vsra_vi2_vi2_i
  const int32_t rest = static_cast<int32_t>(static_cast<uint32_t>(e) - static_cast<uint32_t>(half));
  return (d * pow2i(half)) * pow2i(rest);
}

// ---- vector helpers (ATen Vectorized<float>, one lane at a time) ----

// at::vec::maximum<float>. AVX2 (vec256_float.h): _mm256_max_ps(a, b) = (a > b ? a : b), then
// OR with an all-ones mask when either is NaN (all-ones is itself a NaN). DEFAULT (vec_base.h):
// (a > b ? a : b), then a itself if a is NaN. Same values; only the NaN's bits differ.
float vec_maximum(float a, float b, CpuKernels cpu) {
  if (default_kernels(cpu)) return std::isnan(a) ? a : (a > b ? a : b);
  if (std::isnan(a) || std::isnan(b)) return float_of(0xffffffffu);
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

// ---- cascade sum (aten/src/ATen/native/cpu/SumKernel.cpp) ----
// `get(i)` yields element i of the sequence being reduced. ATen runs these on several rows or
// lanes at once; every row/lane does the same operations independently, so one suffices here.

// utils::CeilLog2 (ATen/native/cpu/utils.h): 1 for x <= 2, else floor(log2(x - 1)) + 1.
int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  return 64 - __builtin_clzll(static_cast<unsigned long long>(x - 1));
}

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
  // 1. full blocks of level_step elements into level 0, then carry up the levels
  while (i + level_step <= size) {
    for (int64_t j = 0; j < level_step; ++j, ++i) acc[0] += get(i);
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

// The scalar tail of _vec_softmax calls std::exp on a float: glibc's expf (its FMA variant on
// this CPU, picked by glibc's ifunc for libtorch and for us alike). It is not Sleef: the two
// round differently on about 9% of inputs in [-20, 20].
float glibc_expf(float x) { return std::exp(x); }

// ---- Sleef exp ----

// Sleef 3.5.1 xexpf (src/libm/sleefsimdsp.c) as built for AVX2 with FMA (Sleef_expf8_u10avx2,
// which Vectorized<float>::exp calls through Sleef_expf8_u10); vmla is a true fused multiply-add.
// Checked against Debian's libsleef3 3.5.1 Sleef_expf8_u10avx2 on all 2^32 inputs: same bits,
// NaNs included.
float sleef_expf_u10(float d) {
  constexpr float R_LN2f = 1.442695040888963407359924681001892137426645954152985934135449406931f;
  constexpr float L2Uf = 0.693145751953125f;
  constexpr float L2Lf = 1.428606765330187045e-06f;

  // 1. q = rint(d / ln 2); s = d - q*ln2 with ln 2 split in two parts, each step fused
  const int32_t q = cvtps_epi32(d * R_LN2f);
  const float qf = static_cast<float>(q);  // vcast_vf_vi2 (cvtdq2ps)
  float s = std::fma(qf, -L2Uf, d);
  s = std::fma(qf, -L2Lf, s);

  // 2. Horner polynomial for (e^s - 1 - s) / s^2
  float u = 0.000198527617612853646278381f;
  u = std::fma(u, s, 0.00139304355252534151077271f);
  u = std::fma(u, s, 0.00833336077630519866943359f);
  u = std::fma(u, s, 0.0416664853692054748535156f);
  u = std::fma(u, s, 0.166666671633720397949219f);
  u = std::fma(u, s, 0.5f);

  // 3. e^s = 1 + (s*s*u + s); scale by 2^q
  u = 1.0f + std::fma(s * s, u, s);
  u = ldexp2k(u, q);

  // 4. cut-offs: d < -104 -> +0 (bits cleared), d > 100 -> +inf; NaN passes through
  if (d < -104.0f) u = 0.0f;
  if (100.0f < d) u = std::numeric_limits<float>::infinity();
  return u;
}

// Vectorized<float>::exp: Sleef_expf8_u10 on AVX2 (above); in the DEFAULT build vec_base.h's
// map(std::exp), glibc's expf lane by lane.
float vectorized_exp(float x, CpuKernels cpu) { return default_kernels(cpu) ? glibc_expf(x) : sleef_expf_u10(x); }

}  // namespace

// ---- exp ----

// torch.exp: exp_kernel (UnaryOpsKernel.cpp) -> at::vml::vexp, a vec::map of Vectorized::exp
// over every element, the partial last vector too, so any length is vec_exp: Sleef on AVX2,
// glibc expf in the DEFAULT family.
float vec_exp(float x, CpuKernels cpu) { return vectorized_exp(x, cpu); }

// The same over a buffer: eight lanes at a time where kernels_avx2 can (a CPU with AVX2 and
// FMA: Sleef's, or glibc's FMA expf's, own instructions), else vec_exp element by element.
void exp(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (avx2::supported()) return avx2::exp(in, out, n, cpu);
  for (int64_t i = 0; i < n; ++i) out[i] = vectorized_exp(in[i], cpu);
}

// ---- softmax ----

// Rows are independent, so big softmaxes are cut into blocks of rows for the threads (as ATen
// does with parallel_for); each row is computed the same way whichever thread runs it. Below
// kSoftmaxSplit elements (every lesson's softmax) everything stays on the calling thread.
constexpr int64_t kSoftmaxSplit = int64_t{1} << 16;

void softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  if (!avx2::supported()) return reference::softmax_lastdim(in, out, rows, n, cpu);
  const int threads = rows * n >= kSoftmaxSplit ? parallel::max_threads() : 1;
  const int64_t per_task = std::max<int64_t>(1, rows / (4 * threads));
  parallel::run((rows + per_task - 1) / per_task, threads, [&](int64_t task) {
    check_deadline();   // core/deadline.h: a softmax over 10^9 elements stops near the time limit
    const int64_t end = std::min(rows, (task + 1) * per_task);
    for (int64_t r = task * per_task; r < end; ++r) avx2::softmax_row(in + r * n, out + r * n, n, cpu);
  });
}

// aten/src/ATen/native/cpu/SoftMaxKernel.cpp, _vec_softmax_lastdim<float>, one row at a time,
// one lane at a time: the definition the fast version above keeps.
void reference::softmax_lastdim(const float* in, float* out, int64_t rows, int64_t n, CpuKernels cpu) {
  auto maximum = [cpu](float a, float b) { return vec_maximum(a, b, cpu); };
  for (int64_t r = 0; r < rows; ++r) {
    const float* x = in + r * n;
    float* y = out + r * n;
    // 1. max_input = vec::reduce_all(vec::maximum, x)
    const float max_input = reduce_all(x, n, maximum, cpu);
    // 2. vec::map: y = (x - max).exp(), Vectorized::exp on every element (the tail too)
    for (int64_t i = 0; i < n; ++i) y[i] = vectorized_exp(x[i] - max_input, cpu);
    // 3. tmp_sum = vec::reduce_all(+, y); tmp_sum = 1 / tmp_sum
    const float sum = reduce_all(y, n, [](float a, float b) { return a + b; }, cpu);
    const float inv = 1.0f / sum;
    // 4. vec::map: y = y * tmp_sum (multiply by the reciprocal, not a division)
    for (int64_t i = 0; i < n; ++i) y[i] = y[i] * inv;
  }
}

// aten/src/ATen/native/cpu/SoftMaxKernel.cpp, _vec_softmax<float> with one thread: the flat
// index idx = outer_idx * inner + inner_idx walks [0, outer*inner); while inner_idx + 8 <= inner
// a vector of 8 columns is processed, the remaining inner % 8 columns of each outer block take
// the scalar "tail case". Columns are independent, so this loops column by column.
void softmax_inner(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner, CpuKernels cpu) {
  const int64_t vector_cols = inner - inner % kLanes;  // columns covered by full vectors
  for (int64_t o = 0; o < outer; ++o) {
    check_deadline();   // core/deadline.h
    for (int64_t c = 0; c < inner; ++c) {
      const float* x = in + o * dim_size * inner + c;
      float* y = out + o * dim_size * inner + c;
      const bool vectorised = c < vector_cols;
      // 1. max along dim: vec::maximum (NaN-propagating) / std::max (a < b ? b : a)
      float max_input = x[0];
      for (int64_t d = 1; d < dim_size; ++d)
        max_input = vectorised ? vec_maximum(max_input, x[d * inner], cpu)
                               : std::max(max_input, x[d * inner]);
      // 2. exp(x - max) stored, summed from 0 in dim order; Vec::exp / std::exp (glibc), which
      //    in the DEFAULT family are both glibc
      float sum = 0.0f;
      for (int64_t d = 0; d < dim_size; ++d) {
        const float t = x[d * inner] - max_input;
        y[d * inner] = vectorised ? vectorized_exp(t, cpu) : glibc_expf(t);
        sum = sum + y[d * inner];
      }
      // 3. "unify": divide by the sum (both paths divide; no reciprocal here)
      for (int64_t d = 0; d < dim_size; ++d) y[d * inner] = y[d * inner] / sum;
    }
  }
}

// ---- matrix products (reference BLAS 3.11 via ATen cpublas, and ATen's small bmm loop) ----
// All of these reduce to: acc = +0; for l in 0..k-1: acc = acc + fl(a_l * b_l) (no FMA).
//  - mm, 2-D @ 2-D: at::native::cpublas::gemm -> sgemm_ ('N','N' for contiguous operands:
//    C(:,j) = 0, then C(i,j) = C(i,j) + TEMP*A(i,l) for l = 1..k; 'T','N' for a transposed weight:
//    TEMP = 0, TEMP = TEMP + A(l,i)*B(l,j), C = ALPHA*TEMP). Same order either way.
//  - bmm with k*m*n < 400: baddbmm_cpu_kernel, `acc_value += s2[k] * m1[k][j]` from 0.
//  - addmm (nn.Linear): 'T','N' gives C = 1*TEMP + 1*bias, i.e. the bias is added after the sum.

// The loops that define the order (reference BLAS sgemm / sgemv, one scalar chain per element).
namespace reference {

// C(m,n) = A(m,k) @ B(k,n)
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float acc = 0.0f;  // sgemm: C(i,j) = ZERO (beta == 0)
      for (int64_t l = 0; l < k; ++l) {
        const float prod = a[i * k + l] * b[l * n + j];  // TEMP*A(I,L), rounded on its own
        acc = acc + prod;
      }
      c[i * n + j] = acc;
    }
  }
}

// y(m) = A(m,k) @ x(k): at::native::cpublas::gemv -> sgemv_('T'): TEMP = 0; TEMP += A(i,j)*X(i);
// Y = 0 + ALPHA*TEMP.
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k) {
  for (int64_t i = 0; i < m; ++i) {
    float acc = 0.0f;
    for (int64_t l = 0; l < k; ++l) {
      const float prod = a[i * k + l] * x[l];
      acc = acc + prod;
    }
    y[i] = acc;
  }
}

// y(n) = x(k) @ B(k,n): at::matmul does x.unsqueeze(0).mm(B).squeeze(0), i.e. sgemm with m = 1.
void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n) {
  matmul(x, b, y, 1, k, n);
}

}  // namespace reference

// The fast versions: the same per-element operations, blocked, vectorised across output
// elements and threaded by core/gemm (see gemm.h for why the bits cannot change).
void matmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  gemm::matmul(m, n, k, {a, k, 1}, {b, n, 1}, c, n);
}

// sgemv 'T' is one dot product per row in l order; gemm::matvec runs 8 rows per vector.
void matvec(const float* a, const float* x, float* y, int64_t m, int64_t k) { gemm::matvec(m, k, a, k, x, y); }

void vecmat(const float* x, const float* b, float* y, int64_t k, int64_t n) {
  gemm::matmul(1, n, k, {x, k, 1}, {b, n, 1}, y, n);
}

// torch.dot: at::native::dot_impl<float> -> sdot_ (reference BLAS unrolls by 5 but keeps the
// left-to-right order: STEMP = STEMP + SX(I)*SY(I) + SX(I+1)*SY(I+1) + ...).
float dot(const float* a, const float* b, int64_t n) {
  float acc = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float prod = a[i] * b[i];
    acc = acc + prod;
  }
  return acc;
}

// ---- sums (aten/src/ATen/native/cpu/SumKernel.cpp, cascade_sum<false, float>) ----

// TensorIterator puts the reduced dimension first; cascade_sum then picks a loop by layout:
//  - inner == 1 (contiguous reduction): vectorized_inner_sum if dim_size >= 8, else row_sum;
//  - inner >= 8: vectorized_outer_sum: column blocks of 32 use multi_row_sum, then blocks of 8
//    use row_sum (ILP over the reduced dim), then single columns use row_sum;
//  - 2 <= inner < 8: scalar_outer_sum: blocks of 4 columns use multi_row_sum, the rest row_sum.
// The output starts at 0 and the result is accumulated into it (CastStoreAccumulate): 0 + s.
void sum_dim(const float* in, float* out, int64_t outer, int64_t dim_size, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o) {
    const float* block = in + o * dim_size * inner;
    if (inner == 1) {
      out[o] = 0.0f + contiguous_row_sum(block, dim_size);
      continue;
    }
    const int64_t multi_cols = inner >= kLanes ? inner - inner % (4 * kLanes) : inner - inner % 4;
    for (int64_t c = 0; c < inner; ++c) {
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
