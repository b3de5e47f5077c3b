// core/kernels/gemm.cpp: the blocked, threaded driver behind kernels/gemm.h.
//
// Loop nest (as in GotoBLAS/BLIS), for one tile of C owned by one task:
//   jc: columns in blocks of kNC
//     pc: k in blocks of kKC, in increasing order   -> pack B(pc.., jc..) into kNR-wide panels
//       ic: rows in blocks of kMC                    -> pack A(ic.., pc..) into kMR-tall panels
//         jr, ir: micro-tiles of kMR x kNR           -> micro-kernel (gemm_micro.h)
// The first k block starts every element at +0.0f; later blocks continue from the value
// stored in C, so each element still sees acc = acc + fl(A(i,l) * B(l,j)) for l = 0, 1, ...
// exactly once each, in order. Packing copies floats (no arithmetic). Columns of a partial
// panel are padded with zeros and computed into a scratch tile that is never stored.
// A tile of at most kMR rows (vecmat) reads B in place instead (short_tile); matvec has its
// own kernel that runs 8 rows' dot products in the 8 lanes (gemm::matvec).
//
// Threads: a product big enough (Config::split.min_macs) is cut into tiles of C (and batches),
// handed out by core/parallel; every tile is computed as a single-threaded product would be.
// Nothing here is process-wide: the path, split and thread count come in each call's Config.
// What it is not: rounding logic beyond the above (the micro-kernels hold the arithmetic).
#include "core/kernels/gemm.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "core/deadline.h"
#include "core/kernels/gemm_micro.h"
#include "core/parallel.h"

namespace attn::core::gemm {

namespace {

using detail::kMR;
using detail::kNR;
using detail::MicroKernel;

// One instruction set's routines: the micro-kernels and the full-panel packers.
struct Kit {
  const MicroKernel* micro;
  detail::PackA pack_a;
  detail::PackB pack_b;
};

// Block sizes, measured on a Zen 4 (32 KB L1d, 1 MB L2 per core; tools/bench_gemm.cpp): a
// long k block halves the passes over C (which at 3000^2 no longer fits in L3) and was the
// biggest win; the others matter little within a factor of 2.
constexpr int64_t kKC = 512;   // k block: a kKC x kNR panel of B is 32 KB, read from L1/L2
constexpr int64_t kMC = 96;    // row block: a kMC x kKC block of A (192 KB) stays in L2
constexpr int64_t kNC = 1024;  // column block: a kKC x kNC panel of B (2 MB) stays in L3
// Split{}.min_macs (gemm.h): products with fewer multiply-adds (some 20 us of work for one
// core) run on the calling thread alone, so lesson-sized products never touch the pool.

// ---- path (AVX2 or portable) ----

bool cpu_has_avx2() {
#if defined(__x86_64__) && defined(__GNUC__)
  return detail::kAvx2Kernels != nullptr && __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

Kit kit_of(const Config& cfg) {
  if (resolve(cfg.path) == Path::avx2) return {detail::kAvx2Kernels, detail::kAvx2PackA, detail::kAvx2PackB};
  return {detail::kPortableKernels, detail::kPortablePackA, detail::kPortablePackB};
}

int threads_of(const Config& cfg) { return cfg.threads > 0 ? cfg.threads : parallel::max_threads(); }

// ---- packing ----

int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

// A(i, l) for i < mc, l < kc into panels of kMR rows: panel p holds rows p*kMR.., laid out
// l-major (out[p*kc*kMR + l*kMR + r]). Rows past mc in the last panel are left unset (the
// micro-kernel for R rows reads only R). A full panel of a row-major A goes through the kit's
// packer (8 l at a time, transposed in registers on AVX2).
void pack_a(const Kit& kit, const float* a, int64_t rs, int64_t cs, int64_t mc, int64_t kc, float* out) {
  for (int64_t i0 = 0; i0 < mc; i0 += kMR, out += kc * kMR) {
    const int64_t rows = std::min<int64_t>(kMR, mc - i0);
    const float* src = a + i0 * rs;
    if (rows == kMR && cs == 1) {
      kit.pack_a(src, rs, kc, out);
      continue;
    }
    if (rows == kMR) {  // l outer: six read streams, contiguous writes
      for (int64_t l = 0; l < kc; ++l)
        for (int64_t r = 0; r < kMR; ++r) out[l * kMR + r] = src[r * rs + l * cs];
      continue;
    }
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t l = 0; l < kc; ++l) out[l * kMR + r] = src[r * rs + l * cs];
  }
}

// B(l, j) for l < kc, j < nc into panels of kNR columns, l-major (out[p*kc*kNR + l*kNR + j]);
// columns past nc are zero. A full panel of a transposed B (Linear's weight.t(), read in place)
// goes through the kit's packer.
void pack_b(const Kit& kit, const float* b, int64_t rs, int64_t cs, int64_t kc, int64_t nc, float* out) {
  for (int64_t j0 = 0; j0 < nc; j0 += kNR, out += kc * kNR) {
    const int64_t cols = std::min<int64_t>(kNR, nc - j0);
    if (cs == 1 && cols == kNR) {  // row-major B: 16 contiguous floats per l
      for (int64_t l = 0; l < kc; ++l) std::copy_n(b + l * rs + j0, kNR, out + l * kNR);
      continue;
    }
    if (rs == 1 && cols == kNR) {
      kit.pack_b(b + j0 * cs, cs, kc, out);
      continue;
    }
    for (int64_t j = 0; j < kNR; ++j) {
      const float* src = b + (j0 + j) * cs;
      for (int64_t l = 0; l < kc; ++l) out[l * kNR + j] = j < cols ? src[l * rs] : 0.0f;
    }
  }
}

// A buffer of at least n floats, 64-byte aligned, reused by this thread.
float* scratch(std::vector<float>& buf, int64_t n) {
  if (static_cast<int64_t>(buf.size()) < n + 16) buf.resize(static_cast<size_t>(n + 16));
  auto p = reinterpret_cast<uintptr_t>(buf.data());
  return reinterpret_cast<float*>((p + 63) & ~uintptr_t{63});
}

// ---- one tile, one thread ----

struct Tile {
  const float* a;  // A(i0, 0)
  const float* b;  // B(0, j0)
  float* c;        // C(i0, j0)
  int64_t m, n;    // rows and columns of the tile
};

// The micro-tile at (ir, jr) of the current block: full tiles go straight to C; a partial one
// (fewer than kNR columns) goes through a scratch tile holding C's values.
void micro_tile(const MicroKernel* kern, int64_t kc, const float* ap, const float* bp, int64_t ldb, float* c,
                int64_t ldc, int64_t rows, int64_t cols, bool first) {
  const MicroKernel k = kern[rows - 1];
  if (cols == kNR) return k(kc, ap, bp, ldb, c, ldc, first);
  float tmp[kMR * kNR];
  if (!first)
    for (int64_t r = 0; r < rows; ++r) std::copy_n(c + r * ldc, cols, tmp + r * kNR);
  k(kc, ap, bp, ldb, tmp, kNR, first);
  for (int64_t r = 0; r < rows; ++r) std::copy_n(tmp + r * kNR, cols, c + r * ldc);
}

// A tile of at most kMR rows with a row-major B (vecmat, decoding one token): every element of
// B is used once, so B is read in place instead of packed (only a last partial panel is), in
// k blocks of 8 rows: the micro-kernel then walks 8 rows of B at once, 64 bytes of each per
// call, which the prefetchers follow (with kKC rows, 512 pages at once, it ran 4x slower).
void short_tile(const Tile& t, int64_t k, Operand a, Operand b, int64_t ldc, const Kit& kit) {
  const MicroKernel* kern = kit.micro;
  constexpr int64_t kShortKC = 8;
  alignas(64) float ap[kShortKC * kMR];
  alignas(64) float edge[kShortKC * kNR];
  for (int64_t pc = 0; pc < k; pc += kShortKC) {
    const int64_t kc = std::min(kShortKC, k - pc);
    pack_a(kit, t.a + pc * a.col_stride, a.row_stride, a.col_stride, t.m, kc, ap);
    const float* bk = t.b + pc * b.row_stride;
    for (int64_t jr = 0; jr < t.n; jr += kNR) {
      const int64_t cols = std::min<int64_t>(kNR, t.n - jr);
      if (cols == kNR) {
        micro_tile(kern, kc, ap, bk + jr, b.row_stride, t.c + jr, ldc, t.m, cols, pc == 0);
      } else {
        pack_b(kit, bk + jr, b.row_stride, 1, kc, cols, edge);
        micro_tile(kern, kc, ap, edge, kNR, t.c + jr, ldc, t.m, cols, pc == 0);
      }
    }
  }
}

void tile_product(const Tile& t, int64_t k, Operand a, Operand b, int64_t ldc, const Kit& kit) {
  const MicroKernel* kern = kit.micro;
  thread_local std::vector<float> a_buf, b_buf;
  if (k == 0) {  // an empty sum: +0.0f everywhere
    for (int64_t i = 0; i < t.m; ++i) std::fill_n(t.c + i * ldc, t.n, 0.0f);
    return;
  }
  if (t.m <= kMR && b.col_stride == 1) return short_tile(t, k, a, b, ldc, kit);
  float* bp = scratch(b_buf, kKC * round_up(std::min(kNC, t.n), kNR));
  float* ap = scratch(a_buf, kKC * round_up(std::min(kMC, t.m), kMR));
  for (int64_t jc = 0; jc < t.n; jc += kNC) {
    const int64_t nc = std::min(kNC, t.n - jc);
    for (int64_t pc = 0; pc < k; pc += kKC) {
      check_deadline();   // a block is milliseconds of work: a huge product stops near the time limit
      const int64_t kc = std::min(kKC, k - pc);
      pack_b(kit, t.b + pc * b.row_stride + jc * b.col_stride, b.row_stride, b.col_stride, kc, nc, bp);
      for (int64_t ic = 0; ic < t.m; ic += kMC) {
        const int64_t mc = std::min(kMC, t.m - ic);
        pack_a(kit, t.a + ic * a.row_stride + pc * a.col_stride, a.row_stride, a.col_stride, mc, kc, ap);
        for (int64_t jr = 0; jr < nc; jr += kNR)
          for (int64_t ir = 0; ir < mc; ir += kMR)
            micro_tile(kern, kc, ap + ir * kc, bp + jr * kc, kNR, t.c + (ic + ir) * ldc + jc + jr, ldc,
                       std::min<int64_t>(kMR, mc - ir), std::min<int64_t>(kNR, nc - jr), pc == 0);
      }
    }
  }
}

// ---- cutting the work into tasks ----

struct Plan {
  int threads = 1;
  int64_t tile_m, tile_n, tiles_m = 1, tiles_n = 1;
};

// Halve the longer side of the tile until there are about 4 tasks per thread (so a core busy
// with something else costs little), keeping tiles big enough that packing stays cheap.
Plan plan(int64_t batch, int64_t m, int64_t n, int64_t k, const Config& cfg) {
  Plan p;
  p.tile_m = m;
  p.tile_n = n;
  const int64_t macs = batch * m * n * std::max<int64_t>(k, 1);
  if (macs < cfg.split.min_macs) return p;
  p.threads = threads_of(cfg);
  if (p.threads <= 1) return p;   // one thread: one tile, so each operand is packed once
  const int64_t min_rows = round_up(std::max<int64_t>(cfg.split.min_rows, 1), kMR);
  const int64_t min_cols = round_up(std::max<int64_t>(cfg.split.min_cols, 1), kNR);
  while (batch * p.tiles_m * p.tiles_n < 4 * p.threads) {
    const bool rows_can = p.tile_m >= 2 * min_rows, cols_can = p.tile_n >= 2 * min_cols;
    if (rows_can && (p.tile_m >= p.tile_n || !cols_can)) p.tile_m = round_up((p.tile_m + 1) / 2, kMR);
    else if (cols_can) p.tile_n = round_up((p.tile_n + 1) / 2, kNR);
    else break;
    p.tiles_m = (m + p.tile_m - 1) / p.tile_m;
    p.tiles_n = (n + p.tile_n - 1) / p.tile_n;
  }
  return p;
}

}  // namespace

void batched_matmul(int64_t batch, int64_t m, int64_t n, int64_t k, Operand a, const int64_t* a_offset,
                    Operand b, const int64_t* b_offset, float* c, const Config& cfg) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  if (k <= 0) {   // an empty sum: +0.0f; the operands may be empty (null data: no offsets into them)
    std::fill_n(c, batch * m * n, 0.0f);
    return;
  }
  const Kit kit = kit_of(cfg);
  const Plan p = plan(batch, m, n, k, cfg);
  const int64_t per_batch = p.tiles_m * p.tiles_n;
  if (batch == 1 && per_batch == 1) {  // small: no std::function, no pool
    tile_product({a.data + a_offset[0], b.data + b_offset[0], c, m, n}, k, a, b, n, kit);
    return;
  }
  parallel::run(batch * per_batch, p.threads, [&](int64_t task) {
    const int64_t q = task / per_batch, tm = task % per_batch / p.tiles_n, tn = task % p.tiles_n;
    const int64_t i0 = tm * p.tile_m, j0 = tn * p.tile_n;
    const Tile t{a.data + a_offset[q] + i0 * a.row_stride, b.data + b_offset[q] + j0 * b.col_stride,
                 c + q * m * n + i0 * n + j0, std::min(p.tile_m, m - i0), std::min(p.tile_n, n - j0)};
    tile_product(t, k, a, b, n, kit);
  });
}

void matmul(int64_t m, int64_t n, int64_t k, Operand a, Operand b, float* c, int64_t ldc, const Config& cfg) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {   // an empty sum: +0.0f; the operands may be empty (null data: no tile offsets into them)
    for (int64_t i = 0; i < m; ++i) std::fill_n(c + i * ldc, n, 0.0f);
    return;
  }
  const Kit kit = kit_of(cfg);
  const Plan p = plan(1, m, n, k, cfg);
  if (p.tiles_m * p.tiles_n == 1) return tile_product({a.data, b.data, c, m, n}, k, a, b, ldc, kit);
  parallel::run(p.tiles_m * p.tiles_n, p.threads, [&](int64_t task) {
    const int64_t i0 = task / p.tiles_n * p.tile_m, j0 = task % p.tiles_n * p.tile_n;
    const Tile t{a.data + i0 * a.row_stride, b.data + j0 * b.col_stride, c + i0 * ldc + j0,
                 std::min(p.tile_m, m - i0), std::min(p.tile_n, n - j0)};
    tile_product(t, k, a, b, ldc, kit);
  });
}

void matvec(int64_t m, int64_t k, const float* a, int64_t lda, const float* x, float* y, const Config& cfg) {
  using detail::kRowDots;
  const detail::RowDots dots = resolve(cfg.path) == Path::avx2 ? detail::kAvx2RowDots : detail::kPortableRowDots;
  const int64_t groups = m / kRowDots;  // full groups of 8 rows; the rest one row at a time
  const int threads = m * k >= cfg.split.min_macs ? threads_of(cfg) : 1;
  const int64_t per_task = std::max<int64_t>(1, groups / (4 * threads));
  parallel::run((groups + per_task - 1) / per_task, threads, [&](int64_t task) {
    const int64_t end = std::min(groups, (task + 1) * per_task);
    for (int64_t g = task * per_task; g < end; ++g) dots(a + g * kRowDots * lda, lda, x, k, y + g * kRowDots);
  });
  for (int64_t i = groups * kRowDots; i < m; ++i) {  // as reference::matvec
    float acc = 0.0f;
    for (int64_t l = 0; l < k; ++l) {
      const float prod = a[i * lda + l] * x[l];
      acc = acc + prod;
    }
    y[i] = acc;
  }
}

Path resolve(Path p) {
  if (p == Path::automatic) return cpu_has_avx2() ? Path::avx2 : Path::portable;
  if (p == Path::avx2 && !cpu_has_avx2())
    throw std::runtime_error("gemm: the AVX2 path was asked for, but this CPU or build has no AVX2");
  return p;
}

bool avx2_supported() { return cpu_has_avx2(); }

}  // namespace attn::core::gemm
