// core/kernels/gemm.h: fast float32 matrix products that round exactly like the reference BLAS.
//
// What it is: C = A @ B for strided A (m,k) and B (k,n), optionally for a batch of such
// products, cache-blocked, vectorised across output elements (AVX2 when the CPU has it, chosen
// at run time, else portable loops the compiler vectorises) and spread over threads by output
// tiles. Every output element is computed as the reference BLAS (and kernels::reference) does:
//     acc = +0.0f;  for l = 0 .. k-1:  acc = acc + fl(A(i,l) * B(l,j));   C(i,j) = acc
// with a separately rounded product (never a fused multiply-add), in increasing l. Blocking
// only changes when each element's next addition happens, vector lanes hold different output
// elements, and threads own disjoint tiles, so the result is the same bits for every path,
// block size and thread count, NaN payloads aside (see tests/test_gemm.cpp).
// What it is not: a general BLAS (no alpha/beta, no transposed C, float32 only), or a place
// where shapes are checked: callers (kernels/linalg.cpp, ops/linalg.cpp) pass consistent sizes.
#pragma once

#include <cstdint>

namespace attn::core::gemm {

// Which inner kernel runs: automatic = AVX2 if the CPU supports it, else portable.
enum class Path { automatic, avx2, portable };

// How a product is cut into tasks for the threads: products of at least min_macs multiply-adds
// (m*n*k, summed over the batch) are cut into tiles of at least min_rows x min_cols (rounded to
// the micro-tile). The defaults keep lesson-sized products on the calling thread; tests lower
// them so that tiny products are split too.
struct Split {
  int64_t min_macs = int64_t{1} << 20;
  int64_t min_rows = 48;
  int64_t min_cols = 64;
};

// How one product is computed, passed by the caller (there is no process-wide setting): which
// inner kernel, how the work is cut, how many threads (0: parallel::max_threads(), i.e.
// ATTN_NUM_THREADS or the hardware's count). Every Config gives the same bits; Config{} is
// what attn's ops use, tests and tools/bench_gemm.cpp pass their own to compare them.
// Path::avx2 on a CPU without AVX2 throws std::runtime_error when the product runs.
struct Config {
  Path path = Path::automatic;
  Split split{};
  int threads = 0;
};

// A matrix operand: element (r, c) is data[r * row_stride + c * col_stride]. A row-major
// (rows, cols) buffer has strides (cols, 1); its transpose, read in place, has (1, cols).
struct Operand {
  const float* data = nullptr;
  int64_t row_stride = 0;
  int64_t col_stride = 1;
};

// C(m,n) = A(m,k) @ B(k,n); C row-major with row stride ldc (>= n). k == 0 gives +0.0f.
void matmul(int64_t m, int64_t n, int64_t k, Operand a, Operand b, float* c, int64_t ldc, const Config& cfg = {});

// For q in [0, batch): C_q(m,n) = A_q(m,k) @ B_q(k,n), where A_q starts at a.data + a_offset[q],
// B_q at b.data + b_offset[q] (offsets in floats; a repeated offset is a broadcast operand),
// and C_q at c + q*m*n (contiguous, row-major). Threads share out batches and tiles together.
void batched_matmul(int64_t batch, int64_t m, int64_t n, int64_t k, Operand a, const int64_t* a_offset,
                    Operand b, const int64_t* b_offset, float* c, const Config& cfg = {});

// y(m) = A(m,k) @ x(k), A row-major with row stride lda: sgemv 'T', one dot product per row,
// y(i) = +0.0f then + fl(A(i,l) * x(l)) for l = 0 .. k-1, vectorised across rows.
void matvec(int64_t m, int64_t k, const float* a, int64_t lda, const float* x, float* y, const Config& cfg = {});

// The path a Config's `path` resolves to on this CPU (automatic -> avx2 or portable); avx2 on
// a CPU or build without it throws std::runtime_error.
Path resolve(Path p);
bool avx2_supported();

}  // namespace attn::core::gemm
