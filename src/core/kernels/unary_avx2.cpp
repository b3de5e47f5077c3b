// core/kernels/unary_avx2.cpp: torch.exp eight lanes per instruction, AVX2 + FMA, both kernel
// families (kernels/unary.h): Sleef_expf8_u10avx2 for AVX2, glibc's __expf_fma for DEFAULT;
// torch.tanh, erf, log and pow (Sleef_tanhf8_u10avx2, erff8, logf8, powf8: kernels/sleef_avx2.h) and
// tanh_backward's 1 - y*y, AVX2 family; rsqrt and sigmoid's vector body, both families.
//
// What it is: vec::map over the buffer, full vectors then a partial one (loadu(p, count) and
// store(p, count)), each lane the bits of kernels::vec_exp (vec_tanh). The lanes' arithmetic is
// kernels/vec_avx2.h's.
// What it is not: called without avx2::supported() (kernels/unary.cpp checks it).
#include "core/kernels/unary.h"

#include <type_traits>

#include "core/kernels/sleef_avx2.h"
#include "core/kernels/vec_avx2.h"

namespace attn::core::kernels::avx2 {

#ifdef ATTN_KERNELS_AVX2

namespace {

using namespace detail;

template <typename Family>
ATTN_AVX2 void exp_all(const float* in, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(out + i, Family::exp(_mm256_loadu_ps(in + i)));
  if (i < n) store_partial(out + i, Family::exp(load_partial(in + i, n - i)), n - i);
}

// out = f(in) eight lanes at a time, the partial last vector padded with zeros.
template <typename F>
ATTN_AVX2 void map8(const float* in, float* out, int64_t n, F f) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(out + i, f(_mm256_loadu_ps(in + i)));
  if (i < n) store_partial(out + i, f(load_partial(in + i, n - i)), n - i);
}

ATTN_AVX2 inline __m256 tanh_grad8(__m256 g, __m256 y) { return _mm256_mul_ps(g, _mm256_fnmadd_ps(y, y, _mm256_set1_ps(1.0f))); }

// out = g * fnmadd(y, y, 1), eight lanes at a time, the partial last vector padded with zeros.
ATTN_AVX2 void tanh_backward8(const float* g, const float* y, float* out, int64_t n) {
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) _mm256_storeu_ps(out + i, tanh_grad8(_mm256_loadu_ps(g + i), _mm256_loadu_ps(y + i)));
  if (i < n) store_partial(out + i, tanh_grad8(load_partial(g + i, n - i), load_partial(y + i, n - i)), n - i);
}

struct Tanh8 {
  ATTN_AVX2 __m256 operator()(__m256 x) const { return tanh8(x); }
};
struct OneMinusSquare8 {
  ATTN_AVX2 __m256 operator()(__m256 y) const { return _mm256_fnmadd_ps(y, y, _mm256_set1_ps(1.0f)); }
};

struct Erf8 {
  ATTN_AVX2 __m256 operator()(__m256 x) const { return erf8(x); }
};
struct Log8 {
  ATTN_AVX2 __m256 operator()(__m256 x) const { return log8(x); }
};
struct Pow8 {
  float e;
  ATTN_AVX2 __m256 operator()(__m256 x) const { return pow8(x, _mm256_set1_ps(e)); }
};
struct Rsqrt8 {
  ATTN_AVX2 __m256 operator()(__m256 x) const { return _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(x)); }
};
// kernels::vec_sigmoid: exp(0 - x) in the AVX2 family, exp(-x) (a sign flip) in DEFAULT.
template <typename Family>
struct Sigmoid8 {
  ATTN_AVX2 __m256 operator()(__m256 x) const {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 minus_x = std::is_same_v<Family, DefaultFamily> ? _mm256_xor_ps(x, _mm256_set1_ps(-0.0f))
                                                                 : _mm256_sub_ps(_mm256_setzero_ps(), x);
    return _mm256_div_ps(one, _mm256_add_ps(one, Family::exp(minus_x)));
  }
};

}  // namespace

void erf(const float* in, float* out, int64_t n) { map8(in, out, n, Erf8{}); }
void log(const float* in, float* out, int64_t n) { map8(in, out, n, Log8{}); }
void pow(const float* in, float* out, int64_t n, float e) { map8(in, out, n, Pow8{e}); }
void rsqrt(const float* in, float* out, int64_t n) { map8(in, out, n, Rsqrt8{}); }
void sigmoid(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::scalar) return map8(in, out, n, Sigmoid8<DefaultFamily>{});
  map8(in, out, n, Sigmoid8<Avx2Family>{});
}

void tanh(const float* in, float* out, int64_t n) { map8(in, out, n, Tanh8{}); }
void one_minus_square(const float* in, float* out, int64_t n) { map8(in, out, n, OneMinusSquare8{}); }
void tanh_backward(const float* g, const float* y, float* out, int64_t n) { tanh_backward8(g, y, out, n); }

void exp(const float* in, float* out, int64_t n, CpuKernels cpu) {
  if (cpu == CpuKernels::scalar) return exp_all<DefaultFamily>(in, out, n);
  exp_all<Avx2Family>(in, out, n);
}

#else  // no AVX2 code in this build: kernels/unary.cpp never calls this

void exp(const float*, float*, int64_t, CpuKernels) {}
void tanh(const float*, float*, int64_t) {}
void one_minus_square(const float*, float*, int64_t) {}
void tanh_backward(const float*, const float*, float*, int64_t) {}
void erf(const float*, float*, int64_t) {}
void log(const float*, float*, int64_t) {}
void pow(const float*, float*, int64_t, float) {}
void rsqrt(const float*, float*, int64_t) {}
void sigmoid(const float*, float*, int64_t, CpuKernels) {}

#endif

}  // namespace attn::core::kernels::avx2
