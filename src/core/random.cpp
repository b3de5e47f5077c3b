// core/random.cpp: PyTorch 1.13's CPU random generator and the transforms built on it, bit for bit,
// for both CPU kernel families (core/cpu.h): AVX2 and the scalar DEFAULT kernels, the one a
// Generator was made with.
//
// What it is: a scalar transcription of the ATen code that turns mt19937 output into numbers:
//   CPUGeneratorImpl (random, random64), uniform_real_distribution / uniform_kernel (rand,
//   uniform_), normal_kernel (the AVX2 16-block path with the Cephes log256_ps / sincos256_ps
//   polynomials, the DEFAULT 16-block path normal_fill_16<float> on glibc logf / cosf / sinf,
//   and the <16 double path with its cached sample), bernoulli_scalar_kernel (the portable
//   53-bit path and MKL's MCG31m1 path). The tensors made from them (torch.rand, randn, the
//   nn.Embedding and nn.Linear initialisers, dropout) are ops/random.cpp's.
// The two families make the same draws in the same order and differ only in arithmetic:
//                       AVX2 (GCC -mfma)           scalar DEFAULT (x86-64 baseline, no FMA)
//   uniform_            x * w + from, one FMA      x * w, then + from: two roundings
//   normal_, >= 16      Cephes polynomials, FMAs   logf / cosf / sinf; theta from a double
//                                                  product; r * cos * std + mean unfused
//   normal_, < 16       val * std + mean, one FMA  val * std, then + mean (double)
//   rand, bernoulli and dropout give the same bits in both (nothing there could fuse).
// Every fused multiply-add that GCC emitted in Debian's AVX2 build of ATen is written here as an
// explicit std::fma; the project compiles with -ffp-contract=off, so nothing else fuses.
// What it is not: hand-written SIMD (the 8-lane loops are plain C++ that the compiler may
// vectorise; the scalar family's 16-blocks go to kernels/box_muller.h's eight-lane copy of
// glibc's logf / sincosf where the CPU has AVX2 and FMA, normal_fill_16_scalar staying the
// one-lane definition), thread-parallel, or a model of other compilers' fusion choices or
// other libms (the scalar family has this machine's logf / cosf / sinf bits, as torch does);
// see docs/pytorch-numerics.md §1, §2 for where those differ.
// Checked against Debian's python3-torch 1.13.1 (AVX2, and ATEN_CPU_CAPABILITY=default for the
// scalar family) by tools/make_vectors.py -> tests/vectors/.
#include "core/random.h"

#include "core/bits.h"

#include "core/cpu.h"
#include "core/deadline.h"
#include "core/kernels/box_muller.h"
#include "core/kernels/vec_avx2.h"

#include <algorithm>
#include <cmath>

namespace attn::core {

namespace {

// ---- constants ----

constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // c10::detail::default_rng_seed_val
constexpr double kPi = 3.14159265358979323846;        // c10::pi<double>

// GCC and Clang compile std::fma to one instruction only when FMA is enabled for the function;
// on x86-64 without -mfma it is a libm call (same bits, ~5x slower here). The 16-block normal
// transform is the hot loop (nn.Embedding(50000, 3) runs it 9375 times), so on x86-64 ELF it
// gets an FMA clone picked by ifunc at load time. Both clones give the same bits: std::fma is
// exact either way, and -ffp-contract=off still forbids any fusion we did not write.
#if defined(__x86_64__) && defined(__ELF__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define ATTN_FMA_CLONES __attribute__((target_clones("fma", "default")))
#endif
#endif
#ifndef ATTN_FMA_CLONES
#define ATTN_FMA_CLONES
#endif
// The mt19937 loops (twist, tempering, scaling to floats) are integer work the compiler
// vectorises: eight 32-bit lanes with AVX2 instead of SSE2's four, the same words either way.
#if defined(__x86_64__) && defined(__ELF__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define ATTN_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef ATTN_AVX2_CLONES
#define ATTN_AVX2_CLONES
#endif
// The lane helpers must be inlined into each clone, or the FMA clone would call the default ones.
#if defined(__GNUC__)
#define ATTN_INLINE inline __attribute__((always_inline))
#else
#define ATTN_INLINE inline
#endif

// ---- float bit helpers (the _mm256_and/or/xor_ps tricks, one lane at a time) ----

using detail::bits_of;
using detail::float_of;

// _PS256_CONST(name, v) stores a *double* literal into a float array: write each constant as
// the double literal from avx_mathfun.h rounded to float, never as a float literal.
constexpr float f32(double v) { return static_cast<float>(v); }

// ---- uniform draws (aten/src/ATen/core/TransformationHelper.h: uniform_real) ----

// uniform_real<float>(random()): 24 random bits scaled by 2^-24, in [0, 1).
ATTN_INLINE float uniform24(uint32_t r) { return static_cast<float>(r & 0xFFFFFFu) * 0x1p-24f; }

// uniform_real<double>(random64()): 53 random bits scaled by 2^-53, in [0, 1).
inline double uniform53(uint64_t r) {
  return static_cast<double>(r & ((uint64_t{1} << 53) - 1)) * 0x1p-53;
}

// uniform_real<float>(r, from, to) = x * (to - from) + from: the AVX2 build contracts it into
// one FMA (one rounding), the DEFAULT build rounds the product and then the sum.
ATTN_INLINE float uniform_from_to(uint32_t r, float lo, float width, bool fused) {
  const float x = uniform24(r);
  if (fused) return std::fma(x, width, lo);
  const float scaled = x * width;
  return scaled + lo;
}

// transformation::normal(val, mean, std) = val * std + mean in double: one FMA in the AVX2
// build, two roundings in the DEFAULT build.
inline double normal_from_standard(double val, double mean, double std, bool fused) {
  if (fused) return std::fma(val, std, mean);
  const double scaled = val * std;
  return scaled + mean;
}

// ---- log256_ps (aten/src/ATen/native/cpu/avx_mathfun.h), one lane ----

constexpr float kMinNormPos = 0x1p-126f;  // _ps256_min_norm_pos: bits 0x00800000
constexpr float kSqrtHalf = f32(0.707106781186547524);
constexpr float kLogP0 = f32(7.0376836292E-2), kLogP1 = f32(-1.1514610310E-1),
                kLogP2 = f32(1.1676998740E-1), kLogP3 = f32(-1.2420140846E-1),
                kLogP4 = f32(+1.4249322787E-1), kLogP5 = f32(-1.6668057665E-1),
                kLogP6 = f32(+2.0000714765E-1), kLogP7 = f32(-2.4999993993E-1),
                kLogP8 = f32(+3.3333331174E-1);
constexpr float kLogQ1 = f32(-2.12194440e-4);
constexpr float kLogQ2 = f32(0.693359375);

// Natural log of x > 0 (the caller passes 1 - u with u in [0, 1), so x is in [2^-24, 1]).
// Comparisons become all-ones / all-zero bit masks, as _mm256_cmp_ps gives, so the lane code
// stays branch-free and each line is one intrinsic of the original.
ATTN_INLINE float log256_lane(float x) {
  const uint32_t invalid = x <= 0.0f ? ~0u : 0u;  // _CMP_LE_OS; ORed in at the end gives NaN
  // 1. split x = m * 2^e with m in [0.5, 1)
  const uint32_t normal = x > kMinNormPos ? ~0u : 0u;  // _mm256_max_ps: cut off denormals
  x = float_of((bits_of(x) & normal) | (bits_of(kMinNormPos) & ~normal));
  const int32_t imm0 = static_cast<int32_t>(bits_of(x) >> 23);
  x = float_of((bits_of(x) & ~0x7f800000u) | bits_of(0.5f));
  float e = static_cast<float>(imm0 - 0x7f);
  e = e + 1.0f;
  // 2. if m < sqrt(1/2): e -= 1, x = m + m - 1; else x = m - 1
  const uint32_t small = x < kSqrtHalf ? ~0u : 0u;
  float tmp = float_of(bits_of(x) & small);
  x = x - 1.0f;
  e = e - float_of(bits_of(1.0f) & small);
  x = x + tmp;
  // 3. polynomial; GCC fused every Horner step
  const float z = x * x;
  float y = std::fma(kLogP0, x, kLogP1);
  y = std::fma(y, x, kLogP2);
  y = std::fma(y, x, kLogP3);
  y = std::fma(y, x, kLogP4);
  y = std::fma(y, x, kLogP5);
  y = std::fma(y, x, kLogP6);
  y = std::fma(y, x, kLogP7);
  y = std::fma(y, x, kLogP8);
  y = y * x;
  // 4. y*z + e*q1 fused (e*q1 rounded first), minus z/2, then x + y + e*q2 with e*q2 fused
  tmp = e * kLogQ1;
  y = std::fma(y, z, tmp);
  tmp = z * 0.5f;
  y = y - tmp;
  x = x + y;
  x = std::fma(e, kLogQ2, x);
  return float_of(bits_of(x) | invalid);
}

// ---- sincos256_ps (avx_mathfun.h), one lane ----

constexpr float kMinusDP1 = f32(-0.78515625);
constexpr float kMinusDP2 = f32(-2.4187564849853515625e-4);
constexpr float kMinusDP3 = f32(-3.77489497744594108e-8);
constexpr float kSinP0 = f32(-1.9515295891E-4), kSinP1 = f32(8.3321608736E-3),
                kSinP2 = f32(-1.6666654611E-1);
constexpr float kCosP0 = f32(2.443315711809948E-005), kCosP1 = f32(-1.388731625493765E-003),
                kCosP2 = f32(4.166664568298827E-002);
constexpr float kFourOverPi = f32(1.27323954473516);

// sine and cosine of x; here x = theta is in [0, 2 pi), so the _mm256_cvttps_epi32 below never
// sees an out-of-range value and a plain truncating cast is exact.
ATTN_INLINE void sincos256_lane(float x, float* s, float* c) {
  // 1. |x|, sign of the sine, octant j = (int(|x| * 4/pi) + 1) & ~1
  uint32_t sign_sin = bits_of(x) & 0x80000000u;
  x = float_of(bits_of(x) & 0x7fffffffu);
  float y = x * kFourOverPi;
  int32_t j = static_cast<int32_t>(y);
  j = static_cast<int32_t>((static_cast<uint32_t>(j) + 1u) & ~1u);
  y = static_cast<float>(j);
  const uint32_t swap_sign_sin = (static_cast<uint32_t>(j) & 4u) << 29;
  const uint32_t poly_mask = (j & 2) == 0 ? ~0u : 0u;  // set: sine from the sine polynomial
  // 2. extended-precision reduction x - j*pi/4, each step fused
  x = std::fma(y, kMinusDP1, x);
  x = std::fma(y, kMinusDP2, x);
  x = std::fma(y, kMinusDP3, x);
  const uint32_t sign_cos = (~(static_cast<uint32_t>(j) - 2u) & 4u) << 29;
  sign_sin ^= swap_sign_sin;
  // 3. cosine polynomial: Horner fused, then (y*z)*z - z/2 fused, + 1
  const float z = x * x;
  float yc = std::fma(kCosP0, z, kCosP1);
  yc = std::fma(yc, z, kCosP2);
  yc = yc * z;
  yc = std::fma(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;
  // 4. sine polynomial: Horner fused, then (y2*z)*x + x fused
  float ys = std::fma(kSinP0, z, kSinP1);
  ys = std::fma(ys, z, kSinP2);
  ys = ys * z;
  ys = std::fma(ys, x, x);
  // 5. select with and/andnot masks, apply signs
  const float ysin2 = float_of(poly_mask & bits_of(ys));   // _mm256_and_ps
  const float ysin1 = float_of(~poly_mask & bits_of(yc));  // _mm256_andnot_ps
  ys = ys - ysin2;
  yc = yc - ysin1;
  *s = float_of(bits_of(ysin1 + ysin2) ^ sign_sin);
  *c = float_of(bits_of(yc + ys) ^ sign_cos);
}

// ---- normal_fill_16_AVX2 (aten/src/ATen/native/cpu/DistributionTemplates.h) ----

// data[0..15] holds 16 uniforms; lanes j and j+8 become r*cos and r*sin of one Box-Muller pair.
// Written as loops over the 8 lanes of one __m256 so the FMA clone can vectorise them.
ATTN_FMA_CLONES void normal_fill_16_avx2(float* data, float mean, float std) {
  const float two_pi = static_cast<float>(2.0f * kPi);  // _mm256_set1_ps(2.0f * c10::pi<double>)
  float radius[8], sin_t[8], cos_t[8];
  // 1. radius = sqrt(-2 * log(1 - u[j])): [0, 1) -> (0, 1] for log
  for (int j = 0; j < 8; ++j) radius[j] = -2.0f * log256_lane(1.0f - data[j]);
  for (int j = 0; j < 8; ++j) radius[j] = std::sqrt(radius[j]);  // _mm256_sqrt_ps
  // 2. theta = fl32(2 pi) * u[j+8], then its sine and cosine
  for (int j = 0; j < 8; ++j) sincos256_lane(two_pi * data[j + 8], &sin_t[j], &cos_t[j]);
  // 3. out = fmadd(radius * cos, std, mean) and fmadd(radius * sin, std, mean)
  for (int j = 0; j < 8; ++j) {
    data[j] = std::fma(radius[j] * cos_t[j], std, mean);
    data[j + 8] = std::fma(radius[j] * sin_t[j], std, mean);
  }
}

}  // namespace

// ---- normal_fill_16<float> (DistributionTemplates.h), the DEFAULT build ----

// The same Box-Muller pairs in plain float: std::log / std::cos / std::sin on float are glibc's
// logf / cosf / sinf, as in torch's DEFAULT kernel; nothing is fused (no FMA in that build).
// GCC may merge the cos and sin calls into one sincosf; glibc's sincosf gives the same bits as
// sinf and cosf for every theta this can see (all 2^24 values of u2 checked).
void kernels::normal_fill_16_scalar(float* data, float mean, float std) {
  for (int j = 0; j < 8; ++j) {
    const float u1 = 1.0f - data[j];  // [0, 1) -> (0, 1] for log
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * std::log(u1));
    // 2.0f * c10::pi<double> * u2: a double product, rounded once to float
    const float theta = static_cast<float>(2.0 * kPi * static_cast<double>(u2));
    // radius * cos * std + mean: three float operations, each rounded
    data[j] = radius * std::cos(theta) * std + mean;
    data[j + 8] = radius * std::sin(theta) * std + mean;
  }
}

namespace {

using kernels::normal_fill_16_scalar;

// `blocks` consecutive 16-blocks through one of the two kernels above.
template <void (*Fill16)(float*, float, float)>
void fill_blocks(float* data, int64_t blocks, float mean, float std) {
  for (int64_t b = 0; b < blocks; ++b) Fill16(data + 16 * b, mean, std);
}

// ---- MKL's VSL_BRNG_MCG31 + viRngBernoulli(ICDF), as bernoulli_scalar_kernel uses it ----

constexpr uint64_t kMcg31Modulus = 2147483647u;  // 2^31 - 1
constexpr uint64_t kMcg31Multiplier = 1132489760u;

}  // namespace

// ---- Generator::Mt19937: at::mt19937_engine (aten/src/ATen/core/MT19937RNGEngine.h) ----

// init_with_uint32: state[0] = seed, state[j] = 1812433253 * (s ^ (s >> 30)) + j.
void Generator::Mt19937::seed(uint32_t s) {
  state[0] = s;
  for (uint32_t j = 1; j < 624; ++j) {
    state[j] = 1812433253u * (state[j - 1] ^ (state[j - 1] >> 30)) + j;
  }
  next = 624;
}

// next_state: regenerate all 624 words (M = 397, MATRIX_A = 0x9908b0df).
ATTN_AVX2_CLONES void Generator::Mt19937::twist() {
  auto mix = [](uint32_t u, uint32_t v) {
    const uint32_t y = (u & 0x80000000u) | (v & 0x7fffffffu);
    return (y >> 1) ^ ((v & 1u) ? 0x9908b0dfu : 0u);
  };
  int k = 0;
  for (; k < 624 - 397; ++k) state[k] = state[k + 397] ^ mix(state[k], state[k + 1]);
  for (; k < 623; ++k) state[k] = state[k + 397 - 624] ^ mix(state[k], state[k + 1]);
  state[623] = state[396] ^ mix(state[623], state[0]);
  next = 0;
}

namespace {
// MT19937's tempering of one state word.
ATTN_INLINE uint32_t temper(uint32_t y) {
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

ATTN_AVX2_CLONES void temper_run(const uint32_t* state, uint32_t* out, int n) {
  for (int k = 0; k < n; ++k) out[k] = temper(state[k]);
}

ATTN_AVX2_CLONES void uniform24_run(const uint32_t* r, float* out, int64_t n) {
  for (int64_t k = 0; k < n; ++k) out[k] = uniform24(r[k]);
}
}  // namespace

// operator(): temper the next word.
uint32_t Generator::Mt19937::operator()() {
  if (next >= 624) twist();
  return temper(state[next++]);
}

// The same words as n calls of operator(), a run of the state at a time: the tempering loop
// has no branch and no call, so the compiler runs it several words per instruction.
void Generator::Mt19937::fill(uint32_t* out, int64_t n) {
  while (n > 0) {
    if (next >= 624) twist();
    const int m = static_cast<int>(std::min<int64_t>(n, 624 - next));
    temper_run(state.data() + next, out, m);
    next += m;
    out += m;
    n -= m;
  }
}

// ---- Generator: at::CPUGeneratorImpl ----

Generator::Generator(CpuKernels cpu) : cpu_(cpu) { manual_seed(kDefaultSeed); }

// CPUGeneratorImpl::set_current_seed: a new mt19937 (init_with_uint32 keeps the low 32 bits of
// the seed) and both cached normal samples cleared.
void Generator::manual_seed(uint64_t seed) {
  engine_.seed(static_cast<uint32_t>(seed & 0xffffffffu));
  next_double_normal_.reset();
}

// CPUGeneratorImpl::random: one 32-bit output.
uint32_t Generator::random() { return engine_(); }

// CPUGeneratorImpl::random64: make64BitsFrom32Bits(first, second) = (first << 32) | second.
uint64_t Generator::random64() {
  const uint64_t hi = random();
  const uint64_t lo = random();
  return (hi << 32) | lo;
}

// ---- uniform: uniform_kernel / uniform_real_distribution<float> ----

// torch.rand = uniform_(0, 1): x * 1 + 0 == x exactly, so just the 24-bit draw.
void Generator::fill_rand(float* out, int64_t n) { fill_uniform24(out, n); }

// Every fill looks at the clock as it goes: torch.rand(10**9) stops near the time limit. The
// words come a block at a time (Mt19937::fill), then one loop scales the block.
template <class Map>
void Generator::fill_words(float* out, int64_t n, Map map) {
  constexpr int64_t kBlock = 256;
  uint32_t r[kBlock];
  DeadlineMeter meter;
  for (int64_t k0 = 0; k0 < n; k0 += kBlock) {
    const int64_t m = std::min(kBlock, n - k0);
    engine_.fill(r, m);
    map(r, out + k0, m);
    meter.add(m);
  }
}

void Generator::fill_uniform24(float* out, int64_t n) {
  fill_words(out, n, [](const uint32_t* r, float* o, int64_t m) { uniform24_run(r, o, m); });
}

// Tensor.uniform_(from, to): from and to cast to float, then x * (to - from) + from per element
// in memory order, fused or not by kernel family (uniform_from_to).
// The draws come in blocks (the engine is sequential), then one loop maps a block; with its FMA
// clone that loop is one fused instruction per element instead of a libm fmaf call (nn.Linear's
// 2.4M weights at GPT-2 size spent most of their time there). Same bits either way.
namespace {
ATTN_FMA_CLONES void uniform_block(const uint32_t* r, float* out, int64_t n, float lo, float width, bool fused) {
  for (int64_t k = 0; k < n; ++k) out[k] = uniform_from_to(r[k], lo, width, fused);
}
}  // namespace

void Generator::fill_uniform(float* out, int64_t n, double from, double to) {
  const float lo = static_cast<float>(from);
  const float width = static_cast<float>(to) - lo;
  const bool fused = cpu_ == CpuKernels::avx2;
  fill_words(out, n, [&](const uint32_t* r, float* o, int64_t m) { uniform_block(r, o, m, lo, width, fused); });
}

// ---- normal: normal_kernel ----

// at::normal_distribution<double>: return the cached sample if any; else two 53-bit uniforms,
// u1 the angle and u2 the radius, cache r*sin and return r*cos. Then val * std + mean in double
// (transformation::normal) for both the fresh and the cached sample: one FMA in the AVX2 build,
// two roundings in the DEFAULT build (both pinned by the normal_fma_probe_* vectors).
double Generator::normal_double(double mean, double std) {
  const bool fused = cpu_ == CpuKernels::avx2;
  if (next_double_normal_) {
    const double cached = *next_double_normal_;
    next_double_normal_.reset();
    return normal_from_standard(cached, mean, std, fused);
  }
  const double u1 = uniform53(random64());
  const double u2 = uniform53(random64());
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * kPi * u1;
  next_double_normal_ = r * std::sin(theta);
  return normal_from_standard(r * std::cos(theta), mean, std, fused);
}

// float32 normal_: >= 16 elements take normal_fill_AVX2 or, in the DEFAULT build,
// normal_fill<float> (both ignore the cache); fewer take the element-wise double path.
void Generator::fill_normal(float* out, int64_t n, double mean, double std) {
  if (n < 16) {
    for (int64_t k = 0; k < n; ++k) out[k] = static_cast<float>(normal_double(mean, std));
    return;
  }
  // normal_fill_AVX2 / normal_fill: 1. n uniforms in order; 2. every full 16-block transformed
  // in place; 3. a partial tail re-draws 16 fresh uniforms into out[n-16 .. n-1] and
  // transforms those.
  // The scalar family's blocks run eight lanes at a time where the CPU has AVX2 and FMA
  // (kernels/box_muller.h: the same bits as normal_fill_16_scalar, the one-lane definition).
  using Fill = void (*)(float*, int64_t, float, float);
  const Fill fill = cpu_ == CpuKernels::avx2  ? fill_blocks<normal_fill_16_avx2>
                    : kernels::avx2::supported() ? kernels::avx2::default_normal_fill_16
                                                 : fill_blocks<normal_fill_16_scalar>;
  const float mean_f = static_cast<float>(mean), std_f = static_cast<float>(std);
  fill_uniform24(out, n);
  DeadlineMeter meter;
  constexpr int64_t kChunk = 256;  // blocks between two looks at the clock
  for (int64_t b = 0; b < n / 16; b += kChunk) {
    const int64_t m = std::min(kChunk, n / 16 - b);
    fill(out + 16 * b, m, mean_f, std_f);
    meter.add(16 * m);
  }
  if (n % 16 != 0) {
    float* tail = out + n - 16;
    fill_uniform24(tail, 16);
    fill(tail, 1, mean_f, std_f);
  }
}

// ---- bernoulli: bernoulli_scalar_kernel ----

void Generator::fill_bernoulli(float* out, int64_t n, double p_keep, DropoutRng kind) {
  if (kind == DropoutRng::portable) {
    // bernoulli_distribution<double>: one random64() per element, keep if u53 < p.
    DeadlineMeter meter;
    for (int64_t k = 0; k < n; ++k) {
      out[k] = uniform53(random64()) < p_keep ? 1.0f : 0.0f;
      meter.add(1);
    }
    return;
  }
  // MKL: one random() seeds MCG31m1; x_0 = seed mod (2^31-1), 0 -> 1; element i uses
  // u_i = x_i / (2^31-1) (x_0 first; vslSkipAheadStream keeps this order across threads), and
  // viRngBernoulli's ICDF gives 1 when u_i < p.
  uint64_t x = random() % kMcg31Modulus;
  if (x == 0) x = 1;
  DeadlineMeter meter;
  for (int64_t k = 0; k < n; ++k) {
    meter.add(1);
    const double u = static_cast<double>(x) / static_cast<double>(kMcg31Modulus);
    out[k] = u < p_keep ? 1.0f : 0.0f;
    x = (x * kMcg31Multiplier) % kMcg31Modulus;
  }
}

}  // namespace attn::core
