// core/kernels/transpose.h: a transposed plane of 4-byte elements (x.t() of a float32 matrix)
// copied into row-major order, 8 x 8 blocks transposed in AVX2 registers when the CPU has AVX2.
//
// What it is: the inner step of Tensor::contiguous() for a layout whose stride-1 dim is not the
// last (tensor.cpp, transposed_copy). Elements are moved as 32-bit patterns: no arithmetic, so a
// NaN's payload and a -0.0f come through unchanged.
// What it is not: a general permute (tensor.cpp walks the other dims) or 8-byte elements (tensor.cpp's tiles).
#pragma once

#include <cstdint>

namespace attn::core::kernels {

// out[i * out_row + j] = in[i + j * in_col] for i < rows, j < cols.
void transpose_plane32(const uint32_t* in, int64_t in_col, uint32_t* out, int64_t out_row, int64_t rows, int64_t cols);

// The same one element at a time in 16 x 16 tiles: the definition the AVX2 path keeps (tests compare).
void transpose_plane32_tiles(const uint32_t* in, int64_t in_col, uint32_t* out, int64_t out_row, int64_t rows, int64_t cols);

}  // namespace attn::core::kernels
