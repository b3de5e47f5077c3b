// core/kernels/transpose.cpp: transpose_plane32 (kernels/transpose.h): 8 x 8 blocks loaded as
// eight rows of 8 consecutive i, transposed in registers (unpack, shuffle, permute2f128: moves
// only), stored as eight rows of 8 consecutive j; the edges (rows % 8, cols % 8) one by one.
// Blocks are walked in 64 x 64 tiles so the eight read streams and eight write streams of a
// tile stay in L1. Without AVX2 (or off x86-64) the 16 x 16 scalar tiles do it all.
// What it is not: aware of tensors or dtypes (tensor.cpp), or arithmetic.
#include "core/kernels/transpose.h"

#include <algorithm>

#include "core/deadline.h"
#include "core/kernels/transpose8_avx2.h"

namespace attn::core::kernels {

namespace {

// The elements (i, j) for i in [i0, i1), j in [j0, j1), one at a time.
void copy_block(const uint32_t* in, int64_t in_col, uint32_t* out, int64_t out_row, int64_t i0, int64_t i1, int64_t j0,
                int64_t j1) {
  for (int64_t i = i0; i < i1; ++i)
    for (int64_t j = j0; j < j1; ++j) out[i * out_row + j] = in[i + j * in_col];
}

#ifdef ATTN_TRANSPOSE8_AVX2
// One 8 x 8 block at (i, j): r[jj] = in(i..i+7, j+jj), transposed so r[ii] = out(i+ii, j..j+7).
__attribute__((target("avx2"))) void block8(const uint32_t* in, int64_t in_col, uint32_t* out, int64_t out_row, int64_t i,
                                            int64_t j) {
  __m256 r[8];
  for (int k = 0; k < 8; ++k) r[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(in + i + (j + k) * in_col));
  transpose8(r);
  for (int k = 0; k < 8; ++k) _mm256_storeu_ps(reinterpret_cast<float*>(out + (i + k) * out_row + j), r[k]);
}

__attribute__((target("avx2"))) void plane_avx2(const uint32_t* in, int64_t in_col, uint32_t* out, int64_t out_row,
                                                int64_t rows, int64_t cols) {
  constexpr int64_t kTile = 64;
  const int64_t rows8 = rows - rows % 8, cols8 = cols - cols % 8;
  for (int64_t i0 = 0; i0 < rows8; i0 += kTile, check_deadline()) {
    const int64_t i1 = std::min(rows8, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols8; j0 += kTile) {
      const int64_t j1 = std::min(cols8, j0 + kTile);
      for (int64_t i = i0; i < i1; i += 8)
        for (int64_t j = j0; j < j1; j += 8) block8(in, in_col, out, out_row, i, j);
    }
  }
  copy_block(in, in_col, out, out_row, 0, rows8, cols8, cols);   // the last cols % 8 columns
  copy_block(in, in_col, out, out_row, rows8, rows, 0, cols);     // the last rows % 8 rows
}
#endif

}  // namespace

void transpose_plane32_tiles(const uint32_t* in, int64_t in_col, uint32_t* out, int64_t out_row, int64_t rows,
                             int64_t cols) {
  constexpr int64_t kTile = 16;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile, check_deadline())
    for (int64_t j0 = 0; j0 < cols; j0 += kTile)
      copy_block(in, in_col, out, out_row, i0, std::min(rows, i0 + kTile), j0, std::min(cols, j0 + kTile));
}

void transpose_plane32(const uint32_t* in, int64_t in_col, uint32_t* out, int64_t out_row, int64_t rows, int64_t cols) {
#ifdef ATTN_TRANSPOSE8_AVX2
  if (__builtin_cpu_supports("avx2")) return plane_avx2(in, in_col, out, out_row, rows, cols);
#endif
  transpose_plane32_tiles(in, in_col, out, out_row, rows, cols);
}

}  // namespace attn::core::kernels
