// core/bits.h: a float32 seen as its IEEE-754 bits and back, for the ports of vector code that
// work on bit patterns (Sleef's ldexp and sign tricks, avx_mathfun's masks, oneDNN's GELU
// constants written as hex, the all-ones NaN of _mm256_max_ps).
//
// What it is: the one std::bit_cast pair core uses, in `detail` (nothing outside core needs it).
// What it is not: an integer conversion (bits_of(1.0f) is 0x3f800000, not 1) or a place for the
// integer arithmetic done on the bits (each port does its own, in the integer width it mirrors).
#pragma once

#include <bit>
#include <cstdint>

namespace attn::core::detail {

constexpr uint32_t bits_of(float x) { return std::bit_cast<uint32_t>(x); }   // 1.0f -> 0x3f800000
constexpr float float_of(uint32_t bits) { return std::bit_cast<float>(bits); }   // 0x3f800000 -> 1.0f

}  // namespace attn::core::detail
