// core/kernels/sleef.h: the Sleef 3.5.1 single-precision functions PyTorch 1.13's AVX2 kernels
// call (Sleef_expf8_u10, Sleef_tanhf8_u10, Sleef_logf8_u10, Sleef_powf8_u10, Sleef_erff8_u10,
// Sleef_sinf8_u10, Sleef_cosf8_u10), one element at a time.
//
// What it is: scalar C++ ports of xexpf, xtanhf, xlogf_u1, xpowf, xerff_u1, xsinf_u1 and
// xcosf_u1 of sleef 3.5.1 (src/libm/sleefsimdsp.c and df.h) as built for AVX2 with FMA: every float operation of the
// original, in its order, with its fused multiply-adds as std::fma (the project builds with
// -ffp-contract=off, so nothing else is fused). docs/pytorch-numerics.md §13 has the evidence:
// the port equals Debian's libsleef.so.3 on 4 million values per function (sin and cos: 69.5
// million lanes each, §20) and torch's outputs on the committed vectors (tests/vectors/fwd_*.txt).
// What it is not: the DEFAULT kernel family, which calls glibc (expf, tanhf, logf, powf, erff, sinf, cosf)
// instead; the callers (kernels/unary.cpp's vec_exp, ops/unary.cpp, kernels/activation.cpp)
// choose between the two by CpuKernels. Nor vectorised: kernels/vec_avx2.h has exp for 8 lanes.
#pragma once

namespace attn::core::sleef {

float expf_u10(float x);   // Sleef_expf8_u10 (Vectorized<float>::exp on AVX2); cut-offs -104 and 100
float tanhf_u10(float x);
float logf_u10(float x);
float powf_u10(float x, float y);
float erff_u10(float x);

// Sleef_sinf8_u10 / Sleef_cosf8_u10 (xsinf_u1, xcosf_u1), one lane. The vector takes one branch
// for all 8 lanes: Cody-Waite when every lane is below 125 in magnitude, else Payne-Hanek
// (rempif) for every lane, which rounds some small lanes differently. `wide` is that choice:
// trig_wide(l) for any lane l of the vector (a partial vector's padding lanes are 0).
inline bool trig_wide(float x) { return !(x < 125.0f && x > -125.0f); }   // NaN too
float sinf_u10(float x, bool wide);
float cosf_u10(float x, bool wide);

}  // namespace attn::core::sleef
