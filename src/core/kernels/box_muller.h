// core/kernels/box_muller.h: torch's DEFAULT-build normal_fill_16<float> (the scalar family's
// randn / normal_ on >= 16 elements, nn.Embedding's initialiser) eight lanes per instruction,
// with the bits of glibc's logf / sinf / cosf on this machine.
//
// What it is: glibc 2.36's __logf_fma and __sincosf_fma (sysdeps/ieee754/flt-32/e_logf.c,
// s_sincosf.c, s_sincosf.h built with -mfma -mavx2: the variants its ifunc picks on a CPU with
// AVX2 and FMA, for libtorch and for attn alike), four doubles per vector with the fused
// multiply-adds GCC formed when building them (read from this machine's libm disassembly), and
// the Box-Muller block of core/random.cpp's normal_fill_16_scalar around them. Lanes off the
// libm main paths (logf of x <= 0, subnormal, inf, NaN; sincosf of |x| >= 120, inf, NaN) call
// std::log / sincosf themselves. tests/core/test_random_avx2.cpp checks every float the fill
// can hand them against libm.
// What it is not: callable without avx2::supported() (kernels/vec_avx2.h), the AVX2 family's
// Cephes polynomials (core/random.cpp), or a model of other libms.
#pragma once

#include <cstdint>

namespace attn::core::kernels {

// normal_fill_16<float> of torch's DEFAULT build on one block of 16 uniforms, one lane at a
// time with this machine's std::log / std::cos / std::sin: the definition (core/random.cpp),
// used where the CPU lacks AVX2 or FMA.
void normal_fill_16_scalar(float* data, float mean, float std);

}  // namespace attn::core::kernels

namespace attn::core::kernels::avx2 {

// out[i] = logf(in[i]), the bits of this machine's glibc logf.
void glibc_logf(const float* in, float* out, int64_t n);
// s[i], c[i] = sinf(in[i]), cosf(in[i]), the bits of this machine's glibc sincosf.
void glibc_sincosf(const float* in, float* s, float* c, int64_t n);
// normal_fill_16<float> on `blocks` consecutive blocks of 16 uniforms at data, in place: the
// bits of core/random.cpp's normal_fill_16_scalar on each block.
void default_normal_fill_16(float* data, int64_t blocks, float mean, float std);

}  // namespace attn::core::kernels::avx2
