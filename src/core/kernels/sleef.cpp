// core/kernels/sleef.cpp: Sleef 3.5.1's expf, tanhf, logf, powf, erff, sinf and cosf (AVX2 + FMA
// build), line by line.
//
// What it is: the functions of sleef.h. Names follow sleefsimdsp.c and df.h: a "float2" (Df) is
// an unevaluated sum hi + lo; df_* are the double-float helpers in their ENABLE_FMA_SP forms;
// every std::fma is one that Sleef's vmla/vfma performs. The research port these were written
// from (scratch/fwd/sleef_port.py) matched libsleef.so.3 on 4,000,032 values per function; sinf
// and cosf (with rempif and its table, kernels/sleef_rempitab.h) were checked against
// Sleef_sinf8_u10avx2 / Sleef_cosf8_u10avx2 directly (docs/pytorch-numerics.md §20).
// What it is not: glibc's functions (the DEFAULT family), or Sleef's double-precision code.
#include "core/kernels/sleef.h"

#include "core/bits.h"
#include "core/kernels/sleef_rempitab.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace attn::core::sleef {

namespace {

struct Df {
  float x, y;   // hi, lo
};

// Sleef's integer lanes (vint2) are signed; the bit operations below give the same 32 bits on
// the unsigned pattern, and an int32 argument of float_of converts to the same 32 bits.
using detail::bits_of;
using detail::float_of;
int32_t wrap(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// x with its sign flipped where y's sign bit is set (vmulsign_vf_vf_vf).
float mulsign(float x, float y) { return float_of(bits_of(x) ^ (bits_of(y) & std::numeric_limits<int32_t>::min())); }

// _mm256_cvtps_epi32 / _mm256_cvttps_epi32: out of range and NaN give INT32_MIN.
int32_t vrint(float x) {
  if (!(std::fabs(x) < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(std::nearbyint(x));
}
int32_t vtruncate(float x) {
  if (!(std::fabs(x) < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(std::trunc(x));
}

float pow2i(int32_t q) { return float_of(wrap((static_cast<int64_t>(q) + 0x7f) << 23)); }
float ldexp2k(float d, int32_t e) {
  const int32_t h = e >> 1;
  return (d * pow2i(h)) * pow2i(wrap(static_cast<int64_t>(e) - h));
}
float ldexp3k(float d, int32_t q) { return float_of(wrap(static_cast<int64_t>(bits_of(d)) + (static_cast<int64_t>(q) << 23))); }
int32_t ilogb2k(float d) { return ((bits_of(d) >> 23) & 0xff) - 0x7f; }

// vldexp_vf_vf_vi2 (expkf's scaling by 2^q in steps that cannot overflow early).
float vldexp(float x, int32_t q) {
  int32_t m = q >> 31;
  m = wrap(static_cast<int64_t>(wrap(static_cast<int64_t>(m) + q) >> 6) - m) * 16;
  q = wrap(static_cast<int64_t>(q) - static_cast<int64_t>(m) * 4);
  m = m + 0x7f;
  m = m > 0 ? m : 0;
  m = m > 0xff ? 0xff : m;
  float u = float_of(m << 23);
  x = (((x * u) * u) * u) * u;
  u = float_of(wrap((static_cast<int64_t>(q) + 0x7f) << 23));
  return x * u;
}

// ---- df.h, ENABLE_FMA_SP ----
Df df_d(double d) {
  const float h = static_cast<float>(d);
  return {h, static_cast<float>(d - static_cast<double>(h))};
}
Df dfneg(Df x) { return {-x.x, -x.y}; }
Df dfnormalize(Df t) {
  const float s = t.x + t.y;
  return {s, (t.x - s) + t.y};
}
Df dfscale(Df d, float s) { return {d.x * s, d.y * s}; }
Df dfadd2_ff(float x, float y) {
  const float s = x + y, v = s - x;
  return {s, (x - (s - v)) + (y - v)};
}
Df dfadd_f2_f(Df x, float y) {
  const float s = x.x + y;
  return {s, ((x.x - s) + y) + x.y};
}
Df dfadd_ff(float x, float y) {
  const float s = x + y;
  return {s, (x - s) + y};
}
Df dfadd2_f2_f(Df x, float y) {
  const float s = x.x + y, v = s - x.x;
  const float t = (x.x - (s - v)) + (y - v);
  return {s, t + x.y};
}
Df dfadd_f_f2(float x, Df y) {
  const float s = x + y.x;
  return {s, ((x - s) + y.x) + y.y};
}
Df dfadd_f2_f2(Df x, Df y) {
  const float s = x.x + y.x;
  return {s, (((x.x - s) + y.x) + x.y) + y.y};
}
Df dfadd2_f2_f2(Df x, Df y) {
  const float s = x.x + y.x, v = s - x.x;
  const float t = (x.x - (s - v)) + (y.x - v);
  return {s, t + (x.y + y.y)};
}
float fmapn(float x, float y, float z) { return std::fma(x, y, -z); }   // x*y - z
float fmanp(float x, float y, float z) { return std::fma(-x, y, z); }   // -x*y + z
Df dfdiv(Df n, Df d) {
  const float t = 1.0f / d.x, s = n.x * t;
  const float u = fmapn(t, n.x, s);
  const float v = fmanp(d.y, t, fmanp(d.x, t, 1.0f));
  return {s, std::fma(s, v, std::fma(n.y, t, u))};
}
Df dfmul_ff(float x, float y) {
  const float s = x * y;
  return {s, fmapn(x, y, s)};
}
Df dfsqu(Df x) {
  const float s = x.x * x.x;
  return {s, std::fma(x.x + x.x, x.y, fmapn(x.x, x.x, s))};
}
Df dfmul_f2_f2(Df x, Df y) {
  const float s = x.x * y.x;
  return {s, std::fma(x.x, y.y, std::fma(x.y, y.x, fmapn(x.x, y.x, s)))};
}
float dfmul_f_f2_f2(Df x, Df y) { return std::fma(x.x, y.x, std::fma(x.y, y.x, x.x * y.y)); }
Df dfmul_f2_f(Df x, float y) {
  const float s = x.x * y;
  return {s, std::fma(x.y, y, fmapn(x.x, y, s))};
}
Df dfrec_f2(Df d) {
  const float s = 1.0f / d.x;
  return {s, s * fmanp(d.y, s, fmanp(d.x, s, 1.0f))};
}

constexpr float R_LN2f = 1.442695040888963407359924681001892137426645954152985934135449406931f;
constexpr float L2Uf = 0.693145751953125f;
constexpr float L2Lf = 1.428606765330187045e-06f;
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kFltMin = 1.17549435e-38f;
const Df kLn2 = {0.69314718246459960938f, -1.904654323148236017e-09f};

// e^d for a float2 d, as a float2 (tanh, erf).
Df expk2f(Df d) {
  float u = (d.x + d.y) * R_LN2f;
  const int32_t q = vrint(u);
  const float qf = static_cast<float>(q);
  Df s = dfadd2_f2_f(d, qf * -L2Uf);
  s = dfadd2_f2_f(s, qf * -L2Lf);
  u = 0.1980960224e-3f;
  u = std::fma(u, s.x, 0.1394256484e-2f);
  u = std::fma(u, s.x, 0.8333456703e-2f);
  u = std::fma(u, s.x, 0.4166637361e-1f);
  Df t = dfadd2_f2_f(dfmul_f2_f(s, u), 0.166666659414234244790680580464e+0f);
  t = dfadd2_f2_f(dfmul_f2_f2(s, t), 0.5f);
  t = dfadd2_f2_f2(s, dfmul_f2_f2(dfsqu(s), t));
  t = dfadd_f_f2(1.0f, t);
  if (d.x < -104.0f) return {0.0f, 0.0f};
  return {ldexp2k(t.x, q), ldexp2k(t.y, q)};
}

// log|d| as a float2 (pow).
Df logkf(float d) {
  const bool o = d < kFltMin;
  if (o) d = d * 18446744073709551616.0f;   // 2^64
  int32_t e = ilogb2k(d * (1.0f / 0.75f));
  const float m = ldexp3k(d, -e);
  if (o) e -= 64;
  const Df x = dfdiv(dfadd2_ff(-1.0f, m), dfadd2_ff(1.0f, m));
  const Df x2 = dfsqu(x);
  float t = 0.240320354700088500976562f;
  t = std::fma(t, x2.x, 0.285112679004669189453125f);
  t = std::fma(t, x2.x, 0.400007992982864379882812f);
  const Df c = {0.66666662693023681640625f, 3.69183861259614332084311e-09f};
  Df s = dfmul_f2_f(kLn2, static_cast<float>(e));
  s = dfadd_f2_f2(s, dfscale(x, 2.0f));
  return dfadd_f2_f2(s, dfmul_f2_f2(dfmul_f2_f2(x2, x), dfadd2_f2_f2(dfmul_f2_f(x2, t), c)));
}

// e^d for a float2 d, as a float (pow).
float expkf(Df d) {
  float u = (d.x + d.y) * R_LN2f;
  const int32_t q = vrint(u);
  const float qf = static_cast<float>(q);
  Df s = dfadd2_f2_f(d, qf * -L2Uf);
  s = dfadd2_f2_f(s, qf * -L2Lf);
  s = dfnormalize(s);
  u = 0.00136324646882712841033936f;
  u = std::fma(u, s.x, 0.00836596917361021041870117f);
  u = std::fma(u, s.x, 0.0416710823774337768554688f);
  u = std::fma(u, s.x, 0.166665524244308471679688f);
  u = std::fma(u, s.x, 0.499999850988388061523438f);
  Df t = dfadd_f2_f2(s, dfmul_f2_f(dfsqu(s), u));
  t = dfadd_f_f2(1.0f, t);
  u = vldexp(t.x + t.y, q);
  return d.x < -104.0f ? 0.0f : u;
}

// ---- sinf / cosf (xsinf_u1, xcosf_u1) ----

// Sleef's float constants for the trig reductions (misc.h).
constexpr float kPiA2 = 3.1414794921875f;
constexpr float kPiB2 = 0.00011315941810607910156f;
constexpr float kPiC2 = 1.9841872589410058936e-09f;
constexpr float kOneOverPi = static_cast<float>(0.318309886183790671537767526745028724);   // (float)M_1_PI

// Row 103 of rempif's table, read by an infinite or NaN lane (exponent 128): Sleef's table has
// rows 0..102, and the vgather reads the 16 bytes that follow it in libsleef.so.3 3.5.1 (Debian
// 3.5.1-3, .rodata at 0x1c4a80 + 1648): 1e9, 0, 0, 0. The lane's value is NaN either way; the
// row decides q and so the NaN's sign bit.
constexpr float kRempitabPastEnd[4] = {1000000000.0f, 0.0f, 0.0f, 0.0f};

float rempitab(int32_t index) {
  constexpr int32_t kSize = sizeof(kRempitab) / sizeof(float);
  return index < kSize ? kRempitab[index] : kRempitabPastEnd[index - kSize];
}

struct Fi {
  float d;
  int32_t i;
};
struct Dfi {
  Df df;
  int32_t i;
};

// rempisubf, FULL_FP_ROUNDING (AVX2): x - rint(4x)/4 and the quadrant count it removed.
Fi rempisubf(float x) {
  const float y = std::nearbyint(x * 4.0f);
  const int32_t vi = vtruncate(y - std::nearbyint(x) * 4.0f);
  return {x - y * 0.25f, vi};
}

// rempif: a reduced modulo pi/2 in double-float, Payne-Hanek with kRempitab (any finite a).
Dfi rempif(float a) {
  int32_t ex = ilogb2k(a) - 25;
  const int32_t q0 = ex > 90 - 25 ? -64 : 0;
  a = ldexp3k(a, q0);
  ex = ex < 0 ? 0 : ex;
  ex = ex * 4;
  Df x = dfmul_ff(a, rempitab(ex));
  Fi di = rempisubf(x.x);
  int32_t q = di.i;
  x.x = di.d;
  x = dfnormalize(x);
  Df y = dfmul_ff(a, rempitab(ex + 1));
  x = dfadd2_f2_f2(x, y);
  di = rempisubf(x.x);
  q = q + di.i;
  x.x = di.d;
  x = dfnormalize(x);
  y = dfmul_f2_f({rempitab(ex + 2), rempitab(ex + 3)}, a);
  x = dfadd2_f2_f2(x, y);
  x = dfnormalize(x);
  x = dfmul_f2_f2(x, {3.1415927410125732422f * 2, -8.7422776573475857731e-08f * 2});
  if (std::fabs(a) < 0.7f) x = {a, 0.0f};
  return {x, q};
}

// The large-argument branch's last step, shared by sin and cos: an infinite or NaN d makes s.x
// the all-ones NaN (vor with the mask).
Df nan_if_not_finite(Df s, float d) {
  if (std::isinf(d) || std::isnan(d)) s.x = float_of(0xffffffffu);
  return s;
}

// The polynomial both share: t * (1 + s2 * (-1/6 + s2 * poly(s2))) with s2 = t*t, in double-float.
float sincos_poly(Df t) {
  const Df s = dfsqu(t);
  float u = 2.6083159809786593541503e-06f;
  u = std::fma(u, s.x, -0.0001981069071916863322258f);
  u = std::fma(u, s.x, 0.00833307858556509017944336f);
  const Df x = dfadd_f_f2(1.0f, dfmul_f2_f2(dfadd_ff(-0.166666597127914428710938f, u * s.x), s));
  return dfmul_f_f2_f2(t, x);
}

float flip_sign_if(float u, bool flip) { return flip ? float_of(bits_of(u) ^ 0x80000000u) : u; }

}  // namespace

// xexpf (src/libm/sleefsimdsp.c) as built for AVX2 with FMA (Sleef_expf8_u10avx2, which
// Vectorized<float>::exp calls through Sleef_expf8_u10); vmla is a true fused multiply-add.
// Checked against Debian's libsleef3 3.5.1 Sleef_expf8_u10avx2 on all 2^32 inputs: same bits,
// NaNs included.
float expf_u10(float d) {
  // 1. q = rint(d / ln 2); s = d - q*ln2 with ln 2 split in two parts, each step fused
  const int32_t q = vrint(d * R_LN2f);   // _mm256_cvtps_epi32
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
  if (100.0f < d) u = kInf;
  return u;
}

// xtanhf: tanh|x| = (e - 1/e) / (e + 1/e), e = exp|x| in double-float.
float tanhf_u10(float x) {
  const float y = std::fabs(x);
  Df d = expk2f({y, 0.0f});
  const Df e = dfrec_f2(d);
  d = dfdiv(dfadd_f2_f2(d, dfneg(e)), dfadd_f2_f2(d, e));
  float r = d.x + d.y;
  if (std::fabs(x) > 8.664339742f || std::isnan(r)) r = 1.0f;
  r = mulsign(r, x);
  return std::isnan(x) ? float_of(-1) : r;   // vor with all ones: the NaN 0xffffffff
}

// xlogf_u1.
float logf_u10(float d) {
  const bool o = d < kFltMin;
  if (o) d = d * 18446744073709551616.0f;   // 2^64
  int32_t e = ilogb2k(d * (1.0f / 0.75f));
  const float m = ldexp3k(d, -e);
  if (o) e -= 64;
  Df s = dfmul_f2_f(kLn2, static_cast<float>(e));
  const Df x = dfdiv(dfadd2_ff(-1.0f, m), dfadd2_ff(1.0f, m));
  const float x2 = x.x * x.x;
  float t = 0.3027294874e+0f;
  t = std::fma(t, x2, 0.3996108174e+0f);
  t = std::fma(t, x2, 0.6666694880e+0f);
  s = dfadd_f2_f2(s, dfscale(x, 2.0f));
  s = dfadd_f2_f(s, (x2 * x.x) * t);
  float r = s.x + s.y;
  if (std::isinf(d) && d > 0) r = kInf;
  if (d < 0 || std::isnan(d)) r = kNan;
  if (d == 0) r = -kInf;
  return r;
}

// xpowf: exp(y * log|x|) in double-float, then the sign, infinity, NaN, y == 0 and x == 1 rules.
float powf_u10(float x, float y) {
  const bool yisint = std::trunc(y) == y || std::fabs(y) > 16777216.0f;
  const bool yisodd = (vtruncate(y) & 1) == 1 && yisint && std::fabs(y) < 16777216.0f;
  float result = expkf(dfmul_f2_f(logkf(std::fabs(x)), y));
  if (std::isnan(result)) result = kInf;
  result = result * (x > 0 ? 1.0f : !yisint ? kNan : yisodd ? -1.0f : 1.0f);
  const float efx = mulsign(std::fabs(x) - 1.0f, y);
  if (std::isinf(y)) result = efx < 0 ? 0.0f : efx == 0 ? 1.0f : kInf;
  if (std::isinf(x) || x == 0) {
    const float sgn = yisodd ? float_of(0x3f800000 | (bits_of(x) & std::numeric_limits<int32_t>::min())) : 1.0f;
    const float z = (x == 0 ? -y : y) < 0 ? 0.0f : kInf;
    result = sgn * z;
  }
  if (std::isnan(x) || std::isnan(y)) result = kNan;
  if (y == 0 || x == 1) result = 1.0f;
  return result;
}

// xerff_u1: three polynomial ranges (|a| < 1.1, < 2.4, < 4), 1 beyond.
float erff_u10(float a) {
  const float s = a;
  a = std::fabs(a);
  const bool o0 = a < 1.1f, o1 = a < 2.4f, o2 = a < 4.0f;
  const auto sel = [&](float c0, float c1, float c2) { return o0 ? c0 : o1 ? c1 : c2; };
  const auto sel_d = [&](double d0, double d1, double d2) { return df_d(o0 ? d0 : o1 ? d1 : d2); };
  const float u = o0 ? a * a : a;
  float t = sel(+0.7089292194e-4f, -0.1792667899e-4f, -0.9495757695e-5f);
  t = std::fma(t, u, sel(-0.7768311189e-3f, +0.3937633010e-3f, +0.2481465926e-3f));
  t = std::fma(t, u, sel(+0.5159463733e-2f, -0.3949181177e-2f, -0.2918176819e-2f));
  t = std::fma(t, u, sel(-0.2683781274e-1f, +0.2445474640e-1f, +0.2059706673e-1f));
  t = std::fma(t, u, sel(+0.1128318012e+0f, -0.1070996150e+0f, -0.9901899844e-1f));
  Df d = dfmul_ff(t, u);
  d = dfadd2_f2_f2(d, sel_d(-0.376125876000657465175213237214e+0, -0.634588905908410389971210809210e+0,
                            -0.643598050547891613081201721633e+0));
  d = dfmul_f2_f(d, u);
  d = dfadd2_f2_f2(d, sel_d(+0.112837916021059138255978217023e+1, -0.112879855826694507209862753992e+1,
                            -0.112461487742845562801052956293e+1));
  d = dfmul_f2_f(d, a);
  if (!o0) d = dfadd_f_f2(1.0f, dfneg(expk2f(d)));
  const float r = mulsign(o2 ? d.x + d.y : 1.0f, s);
  return std::isnan(a) ? kNan : r;
}

// xsinf_u1. `wide`: the vector's branch (trig_wide of any lane); Cody-Waite with pi in three
// parts when no lane needs more, else rempif for every lane.
float sinf_u10(float d, bool wide) {
  Df s;
  int32_t q;
  if (!wide) {
    const float u = std::nearbyint(d * kOneOverPi);
    q = vrint(u);
    const float v = std::fma(u, -kPiA2, d);
    s = dfadd2_ff(v, u * -kPiB2);
    s = dfadd_f2_f(s, u * -kPiC2);
  } else {
    const Dfi dfi = rempif(d);
    q = dfi.i & 3;
    q = (q + q) + (dfi.df.x > 0 ? 2 : 1);
    q = q >> 2;
    const bool o = (dfi.i & 1) == 1;
    Df x = {mulsign(3.1415927410125732422f * -0.5f, dfi.df.x), mulsign(-8.7422776573475857731e-08f * -0.5f, dfi.df.x)};
    x = dfadd2_f2_f2(dfi.df, x);
    s = nan_if_not_finite(dfnormalize(o ? x : dfi.df), d);
  }
  const float u = flip_sign_if(sincos_poly(s), (q & 1) == 1);
  return bits_of(d) == 0x80000000u ? d : u;   // -0 stays -0
}

// xcosf_u1, the same two branches around the odd multiples of pi/2.
float cosf_u10(float d, bool wide) {
  Df s;
  int32_t q;
  if (!wide) {
    const float dq = std::fma(std::nearbyint(std::fma(d, kOneOverPi, -0.5f)), 2.0f, 1.0f);
    q = vrint(dq);
    s = dfadd2_ff(d, dq * (-kPiA2 * 0.5f));
    s = dfadd2_f2_f(s, dq * (-kPiB2 * 0.5f));
    s = dfadd2_f2_f(s, dq * (-kPiC2 * 0.5f));
  } else {
    const Dfi dfi = rempif(d);
    q = dfi.i & 3;
    q = (q + q) + (dfi.df.x > 0 ? 8 : 7);
    q = q >> 1;
    const bool o = (dfi.i & 1) == 0;
    const float y = dfi.df.x > 0 ? 0.0f : -1.0f;
    Df x = {mulsign(3.1415927410125732422f * -0.5f, y), mulsign(-8.7422776573475857731e-08f * -0.5f, y)};
    x = dfadd2_f2_f2(dfi.df, x);
    s = nan_if_not_finite(dfnormalize(o ? x : dfi.df), d);
  }
  return flip_sign_if(sincos_poly(s), (q & 2) == 0);
}

}  // namespace attn::core::sleef
