// core/kernels/sleef_avx2.h: Sleef 3.5.1's xtanhf, xerff_u1, xlogf_u1 and xpowf
// (Sleef_tanhf8_u10avx2, erff8, logf8, powf8) eight lanes per instruction, with the double-float
// helpers of df.h they need, for the AVX2 kernels of kernels/unary_avx2.cpp (torch.tanh,
// torch.erf, torch.log, torch.pow) and kernels/activation.cpp (the tanh GELU).
//
// What it is: kernels/sleef.cpp's expk2f, tanhf_u10, erff_u10, logf_u10 and powf_u10, operation for operation, on __m256: the
// same float operations in the same order, every std::fma there an _mm256_fmadd_ps (or fmsub /
// fnmadd, which round once the same way) here, nothing else fused (-ffp-contract=off). So each
// lane gives the bits of the one-lane port, which is the definition (tests/core/test_kernels_fast.cpp
// checks every float). Compiled for "avx2,fma" function by function (ATTN_AVX2).
// What it is not: called without avx2::supported(), or the DEFAULT family (glibc tanhf).
#pragma once

#include <limits>

#include "core/kernels/vec_avx2.h"

#ifdef ATTN_KERNELS_AVX2

namespace attn::core::kernels::avx2::detail {

struct Df8 {
  __m256 x, y;   // hi, lo
};

ATTN_AVX2 inline __m256 splat(float v) { return _mm256_set1_ps(v); }

// ---- df.h, ENABLE_FMA_SP (sleef.cpp's namesakes) ----
ATTN_AVX2 inline Df8 df8_neg(Df8 a) {
  const __m256 sign = splat(-0.0f);
  return {_mm256_xor_ps(a.x, sign), _mm256_xor_ps(a.y, sign)};
}
ATTN_AVX2 inline Df8 df8_add_f2_f2(Df8 a, Df8 b) {
  const __m256 s = _mm256_add_ps(a.x, b.x);
  return {s, _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_sub_ps(a.x, s), b.x), a.y), b.y)};
}
ATTN_AVX2 inline Df8 df8_add2_f2_f(Df8 a, __m256 b) {
  const __m256 s = _mm256_add_ps(a.x, b), v = _mm256_sub_ps(s, a.x);
  const __m256 t = _mm256_add_ps(_mm256_sub_ps(a.x, _mm256_sub_ps(s, v)), _mm256_sub_ps(b, v));
  return {s, _mm256_add_ps(t, a.y)};
}
ATTN_AVX2 inline Df8 df8_add2_f2_f2(Df8 a, Df8 b) {
  const __m256 s = _mm256_add_ps(a.x, b.x), v = _mm256_sub_ps(s, a.x);
  const __m256 t = _mm256_add_ps(_mm256_sub_ps(a.x, _mm256_sub_ps(s, v)), _mm256_sub_ps(b.x, v));
  return {s, _mm256_add_ps(t, _mm256_add_ps(a.y, b.y))};
}
ATTN_AVX2 inline Df8 df8_add_f_f2(__m256 a, Df8 b) {
  const __m256 s = _mm256_add_ps(a, b.x);
  return {s, _mm256_add_ps(_mm256_add_ps(_mm256_sub_ps(a, s), b.x), b.y)};
}
ATTN_AVX2 inline Df8 df8_mul_f2_f(Df8 a, __m256 b) {   // fmapn(x, y, s) = x*y - s: vfmsub
  const __m256 s = _mm256_mul_ps(a.x, b);
  return {s, _mm256_fmadd_ps(a.y, b, _mm256_fmsub_ps(a.x, b, s))};
}
ATTN_AVX2 inline Df8 df8_mul_f2_f2(Df8 a, Df8 b) {
  const __m256 s = _mm256_mul_ps(a.x, b.x);
  return {s, _mm256_fmadd_ps(a.x, b.y, _mm256_fmadd_ps(a.y, b.x, _mm256_fmsub_ps(a.x, b.x, s)))};
}
ATTN_AVX2 inline Df8 df8_squ(Df8 a) {
  const __m256 s = _mm256_mul_ps(a.x, a.x);
  return {s, _mm256_fmadd_ps(_mm256_add_ps(a.x, a.x), a.y, _mm256_fmsub_ps(a.x, a.x, s))};
}
ATTN_AVX2 inline Df8 df8_rec(Df8 d) {   // fmanp(x, y, z) = -x*y + z: vfnmadd
  const __m256 s = _mm256_div_ps(splat(1.0f), d.x);
  return {s, _mm256_mul_ps(s, _mm256_fnmadd_ps(d.y, s, _mm256_fnmadd_ps(d.x, s, splat(1.0f))))};
}
ATTN_AVX2 inline Df8 df8_div(Df8 n, Df8 d) {
  const __m256 t = _mm256_div_ps(splat(1.0f), d.x), s = _mm256_mul_ps(n.x, t);
  const __m256 u = _mm256_fmsub_ps(t, n.x, s);
  const __m256 v = _mm256_fnmadd_ps(d.y, t, _mm256_fnmadd_ps(d.x, t, splat(1.0f)));
  return {s, _mm256_fmadd_ps(s, v, _mm256_fmadd_ps(n.y, t, u))};
}

// vldexp2_vf_vf_vi2 (sleef.cpp's ldexp2k): d * 2^(q>>1) * 2^(q - (q>>1)).
ATTN_AVX2 inline __m256 ldexp2k8(__m256 d, __m256i q) {
  const __m256i half = _mm256_srai_epi32(q, 1);
  return _mm256_mul_ps(_mm256_mul_ps(d, pow2i(half)), pow2i(_mm256_sub_epi32(q, half)));
}

// expk2f: e^d for a double-float d, as a double-float (0 where d.x < -104).
ATTN_AVX2 inline Df8 expk2f8(Df8 d) {
  const __m256i q = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_add_ps(d.x, d.y), splat(1.442695040888963407359924681001892137426645954152985934135449406931f)));
  const __m256 qf = _mm256_cvtepi32_ps(q);
  Df8 s = df8_add2_f2_f(d, _mm256_mul_ps(qf, splat(-0.693145751953125f)));
  s = df8_add2_f2_f(s, _mm256_mul_ps(qf, splat(-1.428606765330187045e-06f)));
  __m256 u = splat(0.1980960224e-3f);
  u = _mm256_fmadd_ps(u, s.x, splat(0.1394256484e-2f));
  u = _mm256_fmadd_ps(u, s.x, splat(0.8333456703e-2f));
  u = _mm256_fmadd_ps(u, s.x, splat(0.4166637361e-1f));
  Df8 t = df8_add2_f2_f(df8_mul_f2_f(s, u), splat(0.166666659414234244790680580464e+0f));
  t = df8_add2_f2_f(df8_mul_f2_f2(s, t), splat(0.5f));
  t = df8_add2_f2_f2(s, df8_mul_f2_f2(df8_squ(s), t));
  t = df8_add_f_f2(splat(1.0f), t);
  const __m256 keep = _mm256_cmp_ps(d.x, splat(-104.0f), _CMP_NLT_UQ);   // not (d.x < -104)
  return {_mm256_and_ps(keep, ldexp2k8(t.x, q)), _mm256_and_ps(keep, ldexp2k8(t.y, q))};
}

// xtanhf: (e - 1/e) / (e + 1/e), e = exp|x|; 1 past 8.664339742 or where that is NaN; x's
// sign; the all-ones NaN for a NaN x.
ATTN_AVX2 inline __m256 tanh8(__m256 x) {
  const __m256 sign = splat(-0.0f);
  const __m256 y = _mm256_andnot_ps(sign, x);
  Df8 d = expk2f8({y, _mm256_setzero_ps()});
  const Df8 e = df8_rec(d);
  d = df8_div(df8_add_f2_f2(d, df8_neg(e)), df8_add_f2_f2(d, e));
  __m256 r = _mm256_add_ps(d.x, d.y);
  const __m256 one = _mm256_or_ps(_mm256_cmp_ps(y, splat(8.664339742f), _CMP_GT_OQ), _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
  r = _mm256_blendv_ps(r, splat(1.0f), one);
  r = _mm256_xor_ps(r, _mm256_and_ps(x, sign));
  return _mm256_or_ps(r, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

// ---- xerff_u1 (sleef.cpp's erff_u10) ----

ATTN_AVX2 inline Df8 df8_mul_ff(__m256 a, __m256 b) {
  const __m256 s = _mm256_mul_ps(a, b);
  return {s, _mm256_fmsub_ps(a, b, s)};
}

// o0 ? c0 : o1 ? c1 : c2, lane by lane.
ATTN_AVX2 inline __m256 select3(__m256 o0, __m256 o1, float c0, float c1, float c2) {
  return _mm256_blendv_ps(_mm256_blendv_ps(splat(c2), splat(c1), o1), splat(c0), o0);
}

// df_d(d): d as a float and the float nearest the rest.
struct DfConst {
  float hi, lo;
};
constexpr DfConst df_const(double d) { return {static_cast<float>(d), static_cast<float>(d - static_cast<double>(static_cast<float>(d)))}; }

ATTN_AVX2 inline Df8 select3_df(__m256 o0, __m256 o1, DfConst c0, DfConst c1, DfConst c2) {
  return {select3(o0, o1, c0.hi, c1.hi, c2.hi), select3(o0, o1, c0.lo, c1.lo, c2.lo)};
}

// Three polynomial ranges (|a| < 1.1, < 2.4, < 4, each lane its own), 1 beyond, the sign of a,
// the quiet NaN for a NaN.
ATTN_AVX2 inline __m256 erf8(__m256 s) {
  const __m256 a = _mm256_andnot_ps(splat(-0.0f), s);
  const __m256 o0 = _mm256_cmp_ps(a, splat(1.1f), _CMP_LT_OQ), o1 = _mm256_cmp_ps(a, splat(2.4f), _CMP_LT_OQ);
  const __m256 o2 = _mm256_cmp_ps(a, splat(4.0f), _CMP_LT_OQ);
  const __m256 u = _mm256_blendv_ps(a, _mm256_mul_ps(a, a), o0);
  __m256 t = select3(o0, o1, +0.7089292194e-4f, -0.1792667899e-4f, -0.9495757695e-5f);
  t = _mm256_fmadd_ps(t, u, select3(o0, o1, -0.7768311189e-3f, +0.3937633010e-3f, +0.2481465926e-3f));
  t = _mm256_fmadd_ps(t, u, select3(o0, o1, +0.5159463733e-2f, -0.3949181177e-2f, -0.2918176819e-2f));
  t = _mm256_fmadd_ps(t, u, select3(o0, o1, -0.2683781274e-1f, +0.2445474640e-1f, +0.2059706673e-1f));
  t = _mm256_fmadd_ps(t, u, select3(o0, o1, +0.1128318012e+0f, -0.1070996150e+0f, -0.9901899844e-1f));
  Df8 d = df8_mul_ff(t, u);
  d = df8_add2_f2_f2(d, select3_df(o0, o1, df_const(-0.376125876000657465175213237214e+0), df_const(-0.634588905908410389971210809210e+0),
                                   df_const(-0.643598050547891613081201721633e+0)));
  d = df8_mul_f2_f(d, u);
  d = df8_add2_f2_f2(d, select3_df(o0, o1, df_const(+0.112837916021059138255978217023e+1), df_const(-0.112879855826694507209862753992e+1),
                                   df_const(-0.112461487742845562801052956293e+1)));
  d = df8_mul_f2_f(d, a);
  const Df8 far = df8_add_f_f2(splat(1.0f), df8_neg(expk2f8(d)));
  d = {_mm256_blendv_ps(far.x, d.x, o0), _mm256_blendv_ps(far.y, d.y, o0)};
  __m256 r = _mm256_blendv_ps(splat(1.0f), _mm256_add_ps(d.x, d.y), o2);
  r = _mm256_xor_ps(r, _mm256_and_ps(s, splat(-0.0f)));
  return _mm256_blendv_ps(r, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fc00000)), _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
}

// ---- xlogf_u1 (sleef.cpp's logf_u10) ----

ATTN_AVX2 inline Df8 df8_add2_ff(__m256 a, __m256 b) {
  const __m256 s = _mm256_add_ps(a, b), v = _mm256_sub_ps(s, a);
  return {s, _mm256_add_ps(_mm256_sub_ps(a, _mm256_sub_ps(s, v)), _mm256_sub_ps(b, v))};
}
ATTN_AVX2 inline Df8 df8_add_f2_f(Df8 a, __m256 b) {
  const __m256 s = _mm256_add_ps(a.x, b);
  return {s, _mm256_add_ps(_mm256_add_ps(_mm256_sub_ps(a.x, s), b), a.y)};
}

// ilogb2k: the biased exponent field minus 127 (sign bit dropped).
ATTN_AVX2 inline __m256i ilogb2k8(__m256 d) {
  const __m256i field = _mm256_and_si256(_mm256_srli_epi32(_mm256_castps_si256(d), 23), _mm256_set1_epi32(0xff));
  return _mm256_sub_epi32(field, _mm256_set1_epi32(0x7f));
}
// ldexp3k: d's bits plus q << 23 (integer arithmetic on the pattern).
ATTN_AVX2 inline __m256 ldexp3k8(__m256 d, __m256i q) {
  return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(d), _mm256_slli_epi32(q, 23)));
}

// The argument reduction logf and logkf share: d (a denormal scaled by 2^64 first, as sleef.cpp
// does; the scaled d is returned, which the callers' special cases test) = m * 2^e.
struct LogReduced8 {
  __m256 d, m;
  __m256i e;
};
ATTN_AVX2 inline LogReduced8 log_reduce8(__m256 d) {
  const __m256 o = _mm256_cmp_ps(d, splat(1.17549435e-38f), _CMP_LT_OQ);
  d = _mm256_blendv_ps(d, _mm256_mul_ps(d, splat(18446744073709551616.0f)), o);
  __m256i e = ilogb2k8(_mm256_mul_ps(d, splat(1.0f / 0.75f)));
  const __m256 m = ldexp3k8(d, _mm256_sub_epi32(_mm256_setzero_si256(), e));
  e = _mm256_sub_epi32(e, _mm256_and_si256(_mm256_castps_si256(o), _mm256_set1_epi32(64)));
  return {d, m, e};
}

// log d: denormals scaled by 2^64 first; +inf -> +inf, d < 0 or NaN -> the quiet NaN, +-0 -> -inf.
ATTN_AVX2 inline __m256 log8(__m256 d_in) {
  const LogReduced8 red = log_reduce8(d_in);
  const __m256 d = red.d, m = red.m;
  const __m256 ef = _mm256_cvtepi32_ps(red.e);
  Df8 s = df8_mul_f2_f({splat(0.69314718246459960938f), splat(-1.904654323148236017e-09f)}, ef);
  const Df8 x = df8_div(df8_add2_ff(splat(-1.0f), m), df8_add2_ff(splat(1.0f), m));
  const __m256 x2 = _mm256_mul_ps(x.x, x.x);
  __m256 t = splat(0.3027294874e+0f);
  t = _mm256_fmadd_ps(t, x2, splat(0.3996108174e+0f));
  t = _mm256_fmadd_ps(t, x2, splat(0.6666694880e+0f));
  s = df8_add_f2_f2(s, {_mm256_mul_ps(x.x, splat(2.0f)), _mm256_mul_ps(x.y, splat(2.0f))});
  s = df8_add_f2_f(s, _mm256_mul_ps(_mm256_mul_ps(x2, x.x), t));
  __m256 r = _mm256_add_ps(s.x, s.y);
  const __m256 inf = splat(std::numeric_limits<float>::infinity());
  r = _mm256_blendv_ps(r, inf, _mm256_cmp_ps(d, inf, _CMP_EQ_OQ));
  r = _mm256_blendv_ps(r, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fc00000)), _mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_NGE_UQ));
  return _mm256_blendv_ps(r, _mm256_xor_ps(inf, splat(-0.0f)), _mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_EQ_OQ));
}

// ---- xpowf (sleef.cpp's powf_u10, logkf, expkf, vldexp) ----

ATTN_AVX2 inline Df8 df8_normalize(Df8 t) {
  const __m256 s = _mm256_add_ps(t.x, t.y);
  return {s, _mm256_add_ps(_mm256_sub_ps(t.x, s), t.y)};
}

// log|d| as a double-float.
ATTN_AVX2 inline Df8 logkf8(__m256 d) {
  const LogReduced8 red = log_reduce8(d);
  const __m256 m = red.m;
  const __m256i e = red.e;
  const Df8 x = df8_div(df8_add2_ff(splat(-1.0f), m), df8_add2_ff(splat(1.0f), m));
  const Df8 x2 = df8_squ(x);
  __m256 t = splat(0.240320354700088500976562f);
  t = _mm256_fmadd_ps(t, x2.x, splat(0.285112679004669189453125f));
  t = _mm256_fmadd_ps(t, x2.x, splat(0.400007992982864379882812f));
  const Df8 c = {splat(0.66666662693023681640625f), splat(3.69183861259614332084311e-09f)};
  Df8 s = df8_mul_f2_f({splat(0.69314718246459960938f), splat(-1.904654323148236017e-09f)}, _mm256_cvtepi32_ps(e));
  s = df8_add_f2_f2(s, {_mm256_mul_ps(x.x, splat(2.0f)), _mm256_mul_ps(x.y, splat(2.0f))});
  return df8_add_f2_f2(s, df8_mul_f2_f2(df8_mul_f2_f2(x2, x), df8_add2_f2_f2(df8_mul_f2_f(x2, t), c)));
}

// vldexp_vf_vf_vi2: x * 2^q in steps that cannot overflow early.
ATTN_AVX2 inline __m256 vldexp8(__m256 x, __m256i q) {
  __m256i m = _mm256_srai_epi32(q, 31);
  m = _mm256_slli_epi32(_mm256_sub_epi32(_mm256_srai_epi32(_mm256_add_epi32(m, q), 6), m), 4);
  q = _mm256_sub_epi32(q, _mm256_slli_epi32(m, 2));
  m = _mm256_add_epi32(m, _mm256_set1_epi32(0x7f));
  m = _mm256_min_epi32(_mm256_max_epi32(m, _mm256_setzero_si256()), _mm256_set1_epi32(0xff));
  const __m256 u = _mm256_castsi256_ps(_mm256_slli_epi32(m, 23));
  x = _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(x, u), u), u), u);
  return _mm256_mul_ps(x, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(q, _mm256_set1_epi32(0x7f)), 23)));
}

// e^d for a double-float d, as a float (0 where d.x < -104).
ATTN_AVX2 inline __m256 expkf8(Df8 d) {
  const __m256i q = _mm256_cvtps_epi32(_mm256_mul_ps(_mm256_add_ps(d.x, d.y), splat(1.442695040888963407359924681001892137426645954152985934135449406931f)));
  const __m256 qf = _mm256_cvtepi32_ps(q);
  Df8 s = df8_add2_f2_f(d, _mm256_mul_ps(qf, splat(-0.693145751953125f)));
  s = df8_add2_f2_f(s, _mm256_mul_ps(qf, splat(-1.428606765330187045e-06f)));
  s = df8_normalize(s);
  __m256 u = splat(0.00136324646882712841033936f);
  u = _mm256_fmadd_ps(u, s.x, splat(0.00836596917361021041870117f));
  u = _mm256_fmadd_ps(u, s.x, splat(0.0416710823774337768554688f));
  u = _mm256_fmadd_ps(u, s.x, splat(0.166665524244308471679688f));
  u = _mm256_fmadd_ps(u, s.x, splat(0.499999850988388061523438f));
  Df8 t = df8_add_f2_f2(s, df8_mul_f2_f(df8_squ(s), u));
  t = df8_add_f_f2(splat(1.0f), t);
  u = vldexp8(_mm256_add_ps(t.x, t.y), q);
  return _mm256_andnot_ps(_mm256_cmp_ps(d.x, splat(-104.0f), _CMP_LT_OQ), u);
}

// x ** y: exp(y log|x|), then the sign, infinity, NaN, y == 0 and x == 1 rules in sleef.cpp's order.
ATTN_AVX2 inline __m256 pow8(__m256 x, __m256 y) {
  const __m256 sign = splat(-0.0f), one = splat(1.0f), inf = splat(std::numeric_limits<float>::infinity());
  const __m256 nan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fc00000));
  const __m256 ax = _mm256_andnot_ps(sign, x), ay = _mm256_andnot_ps(sign, y);
  const __m256 yisint = _mm256_or_ps(_mm256_cmp_ps(_mm256_round_ps(y, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), y, _CMP_EQ_OQ),
                                     _mm256_cmp_ps(ay, splat(16777216.0f), _CMP_GT_OQ));
  const __m256i odd = _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_cvttps_epi32(y), _mm256_set1_epi32(1)), _mm256_set1_epi32(1));
  const __m256 yisodd = _mm256_and_ps(_mm256_and_ps(_mm256_castsi256_ps(odd), yisint), _mm256_cmp_ps(ay, splat(16777216.0f), _CMP_LT_OQ));
  __m256 result = expkf8(df8_mul_f2_f(logkf8(ax), y));
  result = _mm256_blendv_ps(result, inf, _mm256_cmp_ps(result, result, _CMP_UNORD_Q));
  const __m256 factor = _mm256_blendv_ps(_mm256_blendv_ps(nan, _mm256_blendv_ps(one, splat(-1.0f), yisodd), yisint), one,
                                         _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ));
  result = _mm256_mul_ps(result, factor);
  const __m256 efx = _mm256_xor_ps(_mm256_sub_ps(ax, one), _mm256_and_ps(y, sign));
  const __m256 at_inf = _mm256_blendv_ps(_mm256_blendv_ps(inf, one, _mm256_cmp_ps(efx, _mm256_setzero_ps(), _CMP_EQ_OQ)),
                                         _mm256_setzero_ps(), _mm256_cmp_ps(efx, _mm256_setzero_ps(), _CMP_LT_OQ));
  result = _mm256_blendv_ps(result, at_inf, _mm256_cmp_ps(ay, inf, _CMP_EQ_OQ));
  const __m256 x_zero = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ);
  const __m256 sgn = _mm256_blendv_ps(one, _mm256_or_ps(one, _mm256_and_ps(x, sign)), yisodd);
  const __m256 z = _mm256_andnot_ps(_mm256_cmp_ps(_mm256_blendv_ps(y, _mm256_xor_ps(y, sign), x_zero), _mm256_setzero_ps(), _CMP_LT_OQ), inf);
  result = _mm256_blendv_ps(result, _mm256_mul_ps(sgn, z), _mm256_or_ps(_mm256_cmp_ps(ax, inf, _CMP_EQ_OQ), x_zero));
  result = _mm256_blendv_ps(result, nan, _mm256_cmp_ps(x, y, _CMP_UNORD_Q));
  return _mm256_blendv_ps(result, one, _mm256_or_ps(_mm256_cmp_ps(y, _mm256_setzero_ps(), _CMP_EQ_OQ), _mm256_cmp_ps(x, one, _CMP_EQ_OQ)));
}

}  // namespace attn::core::kernels::avx2::detail

#endif  // ATTN_KERNELS_AVX2
