// tests/core/test_gemm.cpp: the fast matrix products (core/kernels/gemm.h) give the very bits of the
// reference BLAS loop (kernels::reference), on every path and for every thread count.
//
// What it is: thousands of random shapes (m, n from 1 to 70, k from 0 to 70, plus a few big
// ones that cross every block size) on data full of what breaks reorderings: inf, -inf, NaN,
// +0 and -0, denormals, huge and tiny exponents whose products overflow or underflow. Each is
// run through the AVX2 path (when the CPU has it) and the portable one, with 1, 2 and 3
// threads and with the work split into tiles as small as the micro-tile, and compared bit
// for bit with the naive loop. Also: transposed (strided) operands, batches with broadcast
// operands, and torch.matmul's N-D shapes through core::matmul.
// What it is not: a comparison with PyTorch (test_kernels.cpp replays torch's own bits for
// kernels::matmul) or a timing (tools/bench_gemm.cpp).
//
// NaN payloads: when both operands of a float multiply or add are NaN, x86 returns the first
// operand's payload, and C++ lets the compiler swap the operands of * and + (it does, in both
// the naive loop and the intrinsics), so which NaN comes out is not fixed by the source, in
// the naive loop as much as in the fast one (or in the reference BLAS). Where inputs carry
// NaNs of different payloads, a NaN output must therefore only be a NaN. Where the only NaN in
// the inputs is the one this CPU itself makes (0 * inf), every NaN anywhere is that one, and
// then all 32 bits must match, NaNs included.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/kernels/linalg.h"
#include "core/ops.h"

namespace gemm = attn::core::gemm;
namespace kernels = attn::core::kernels;
using attn::core::Tensor;

namespace {

// Every product below is run with an explicit gemm::Config (path, split, threads): there is
// no process-wide setting to change or restore.
// Split even the smallest product into micro-tile-sized tiles for the threads.
constexpr gemm::Split kSplitAll{0, 1, 1};

// The paths this machine can run (portable always; AVX2 if the CPU has it).
std::vector<gemm::Path> paths() {
  std::vector<gemm::Path> p{gemm::Path::portable};
  if (gemm::avx2_supported()) p.push_back(gemm::Path::avx2);
  else MESSAGE("this CPU has no AVX2: only the portable path is tested");
  return p;
}

std::string name(gemm::Path p) { return p == gemm::Path::avx2 ? "avx2" : "portable"; }

// ---- data that breaks reorderings ----

float default_nan() {  // the NaN this CPU produces itself
  volatile float zero = 0.0f, inf = std::numeric_limits<float>::infinity();
  return zero * inf;
}

// Random float32 values: mostly ordinary ones of varied magnitude, and with probability
// `special` one of: +-0, +-inf, a NaN, a denormal, a huge or a tiny value. With
// `any_nan_payload`, NaNs have random payloads and signs (quiet and signalling), else they are
// all default_nan().
struct Generator {
  std::mt19937_64 rng;
  double special = 0.0;
  bool any_nan_payload = true;

  uint32_t bits(uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); }
  float from_bits(uint32_t b) { return std::bit_cast<float>(b); }

  float value() {
    const uint32_t sign = bits(0, 1) << 31;
    if (std::uniform_real_distribution<double>(0, 1)(rng) >= special) {  // ordinary: 2^-10 .. 2^10
      return from_bits(sign | (bits(127 - 10, 127 + 10) << 23) | bits(0, (1u << 23) - 1));
    }
    switch (bits(0, 6)) {
      case 0: return from_bits(sign);                                     // +0 or -0
      case 1: return from_bits(sign | 0x7f800000u);                       // +-inf
      case 2:                                                             // NaN
        if (!any_nan_payload) return default_nan();
        return from_bits(sign | 0x7f800000u | bits(1, (1u << 23) - 1));   // quiet or signalling
      case 3: return from_bits(sign | bits(1, (1u << 23) - 1));           // denormal
      case 4: return from_bits(sign | (bits(254 - 20, 254) << 23) | bits(0, (1u << 23) - 1));  // huge
      case 5: return from_bits(sign | (bits(1, 1 + 20) << 23) | bits(0, (1u << 23) - 1));      // tiny
      default: return from_bits(sign | (bits(127 - 3, 127 + 3) << 23));   // short mantissa: exact sums
    }
  }
  std::vector<float> values(int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = value();
    return v;
  }
};

// ---- comparison ----

// Index of the first element that differs (bits, or NaN-ness where payloads may differ), or -1.
int64_t first_difference(const std::vector<float>& want, const std::vector<float>& got, bool nan_bits) {
  for (size_t i = 0; i < want.size(); ++i) {
    const bool both_nan = std::isnan(want[i]) && std::isnan(got[i]);
    if (both_nan && !nan_bits) continue;
    if (std::bit_cast<uint32_t>(want[i]) != std::bit_cast<uint32_t>(got[i])) return static_cast<int64_t>(i);
  }
  return -1;
}

std::string hex(float x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", std::bit_cast<uint32_t>(x));
  return buf;
}

struct Shape3 {
  int64_t m, k, n;
};

// C = A @ B through gemm::matmul (row-major operands) for every path and thread count, each
// compared with kernels::reference::matmul. Returns how many runs differed (and reports the first).
int check_shape(Shape3 s, Generator& g, const std::vector<int>& threads, gemm::Split split) {
  const std::vector<float> a = g.values(s.m * s.k), b = g.values(s.k * s.n);
  std::vector<float> want(static_cast<size_t>(s.m * s.n));
  kernels::reference::matmul(a.data(), b.data(), want.data(), s.m, s.k, s.n);
  int failures = 0;
  for (gemm::Path p : paths()) {
    for (int t : threads) {
      std::vector<float> got(want.size(), 12345.0f);
      gemm::matmul(s.m, s.n, s.k, {a.data(), s.k, 1}, {b.data(), s.n, 1}, got.data(), s.n, {p, split, t});
      const int64_t i = first_difference(want, got, !g.any_nan_payload);
      if (i >= 0 && failures++ == 0)
        FAIL_CHECK(name(p) << " path, " << t << " thread(s), m=" << s.m << " k=" << s.k << " n=" << s.n
                           << ": element " << i << " is " << hex(got[i]) << ", the reference loop gives "
                           << hex(want[i]));
    }
  }
  return failures;
}

// Random shapes with m, n in [1, 70] and k in [0, 70], a density of specials drawn per shape.
void random_shapes(int count, bool any_nan_payload, uint64_t seed) {
  Generator g{std::mt19937_64(seed)};
  g.any_nan_payload = any_nan_payload;
  const double densities[] = {0.0, 0.001, 0.02, 0.2, 0.6};
  int failures = 0;
  for (int c = 0; c < count; ++c) {
    std::uniform_int_distribution<int64_t> dim(1, 70), kdim(0, 70);
    g.special = densities[c % 5];
    failures += check_shape({dim(g.rng), kdim(g.rng), dim(g.rng)}, g, {1, 2, 3}, kSplitAll);
  }
  CHECK(failures == 0);
}

}  // namespace

TEST_CASE("gemm equals the reference loop bit for bit on 3000 random shapes (NaNs of any payload)") {
  random_shapes(3000, true, 1);
}

TEST_CASE("gemm equals the reference loop in all 32 bits when the only NaN is the CPU's own") {
  random_shapes(1000, false, 2);
}

TEST_CASE("gemm equals the reference loop across block edges: big shapes, k = 0, 1 x n and m x 1") {
  Generator g{std::mt19937_64(3)};
  g.special = 0.01;
  // Past every block size of gemm.cpp (k 512, rows 96, columns 1024) and one off them, sizes
  // one off a multiple of the 6 x 16 micro-tile, with the default split into thread tiles.
  const Shape3 shapes[] = {{257, 300, 129}, {5, 1100, 2100}, {97, 1025, 17}, {289, 513, 161}, {1, 700, 3000},
                           {3000, 700, 1},  {64, 0, 48},     {1, 0, 1},      {7, 1, 2050},    {96, 512, 1024}};
  int failures = 0;
  for (Shape3 s : shapes) failures += check_shape(s, g, {1, 2}, gemm::Split{});
  CHECK(failures == 0);
}

TEST_CASE("k = 0 gives +0.0f everywhere, on every path") {
  for (gemm::Path p : paths()) {
    std::vector<float> c(6, -1.0f);
    gemm::matmul(2, 3, 0, {nullptr, 0, 1}, {nullptr, 3, 1}, c.data(), 3, {.path = p});
    for (float x : c) CHECK(std::bit_cast<uint32_t>(x) == 0u);
  }
}

TEST_CASE("(+0) + (-0) stays +0: a column of -0 products sums to +0, as the reference BLAS gives") {
  for (gemm::Path p : paths()) {
    const std::vector<float> a{-1.0f, 1.0f}, b{0.0f, -0.0f};  // products -0 and -0
    std::vector<float> c(1, 1.0f);
    gemm::matmul(1, 1, 2, {a.data(), 2, 1}, {b.data(), 1, 1}, c.data(), 1, {.path = p});
    CHECK(std::bit_cast<uint32_t>(c[0]) == 0u);  // 0 + -0 + -0 = +0, not -0
  }
}

TEST_CASE("strided operands: A and B read in place as transposes, C with a wider row stride") {
  Generator g{std::mt19937_64(4)};
  g.special = 0.02;
  const int64_t m = 37, k = 300, n = 53, ldc = 60;
  const std::vector<float> at = g.values(k * m), bt = g.values(n * k);  // A^T (k,m), B^T (n,k)
  std::vector<float> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t l = 0; l < k; ++l) a[i * k + l] = at[l * m + i];
  for (int64_t l = 0; l < k; ++l)
    for (int64_t j = 0; j < n; ++j) b[l * n + j] = bt[j * k + l];
  std::vector<float> want(static_cast<size_t>(m * n));
  kernels::reference::matmul(a.data(), b.data(), want.data(), m, k, n);
  for (gemm::Path p : paths()) {
    for (int t : {1, 2}) {
      std::vector<float> c(static_cast<size_t>(m * ldc), 7.0f), got;
      gemm::matmul(m, n, k, {at.data(), 1, m}, {bt.data(), 1, k}, c.data(), ldc, {p, kSplitAll, t});
      for (int64_t i = 0; i < m; ++i) {
        got.insert(got.end(), c.begin() + i * ldc, c.begin() + i * ldc + n);
        for (int64_t j = n; j < ldc; ++j) CHECK(c[i * ldc + j] == 7.0f);  // untouched
      }
      CHECK_MESSAGE(first_difference(want, got, false) == -1, name(p) << ", " << t << " thread(s)");
    }
  }
}

TEST_CASE("every m, n, k from 1 to 17, A and B each row-major (padded rows) or read in place transposed") {
  // Every partial and full micro-tile, and every k around the packers' 8-wide steps (the AVX2
  // packers of a row-major A's and a transposed B's full panels, and their scalar tails).
  Generator g{std::mt19937_64(5)};
  g.special = 0.02;
  int failures = 0;
  for (int64_t m = 1; m <= 17; ++m)
    for (int64_t n = 1; n <= 17; ++n)
      for (int64_t k = 1; k <= 17; ++k) {
        const std::vector<float> av = g.values((m + 3) * (k + 3)), bv = g.values((k + 3) * (n + 3));
        std::vector<float> a(static_cast<size_t>(m * k)), b(static_cast<size_t>(k * n));
        for (int layout = 0; layout < 4; ++layout) {
          const bool at = layout & 1, bt = layout & 2;   // transposed: element (r, c) at c * ld + r
          const gemm::Operand ao{av.data(), at ? 1 : k + 3, at ? m + 3 : 1}, bo{bv.data(), bt ? 1 : n + 3, bt ? k + 3 : 1};
          for (int64_t i = 0; i < m; ++i)
            for (int64_t l = 0; l < k; ++l) a[i * k + l] = av[i * ao.row_stride + l * ao.col_stride];
          for (int64_t l = 0; l < k; ++l)
            for (int64_t j = 0; j < n; ++j) b[l * n + j] = bv[l * bo.row_stride + j * bo.col_stride];
          std::vector<float> want(static_cast<size_t>(m * n));
          kernels::reference::matmul(a.data(), b.data(), want.data(), m, k, n);
          for (gemm::Path p : paths()) {
            std::vector<float> got(want.size(), 12345.0f);
            gemm::matmul(m, n, k, ao, bo, got.data(), n, {p, gemm::Split{}, 1});
            const int64_t i = first_difference(want, got, false);
            if (i >= 0 && failures++ == 0)
              FAIL_CHECK(name(p) << " path, m=" << m << " n=" << n << " k=" << k << " layout " << layout << ": element "
                                 << i << " is " << hex(got[i]) << ", the reference loop gives " << hex(want[i]));
          }
        }
      }
  CHECK(failures == 0);
}

TEST_CASE("transposed operands past the k block and the packers' 8-wide steps, 1 and 2 threads") {
  Generator g{std::mt19937_64(6)};
  g.special = 0.01;
  const Shape3 shapes[] = {{100, 523, 70}, {13, 1031, 33}, {64, 64, 256}, {256, 64, 64}};
  int failures = 0;
  for (Shape3 s : shapes) {
    const std::vector<float> at = g.values(s.k * s.m), bt = g.values(s.n * s.k);   // A^T (k,m), B^T (n,k)
    std::vector<float> a(static_cast<size_t>(s.m * s.k)), b(static_cast<size_t>(s.k * s.n));
    for (int64_t i = 0; i < s.m; ++i)
      for (int64_t l = 0; l < s.k; ++l) a[i * s.k + l] = at[l * s.m + i];
    for (int64_t l = 0; l < s.k; ++l)
      for (int64_t j = 0; j < s.n; ++j) b[l * s.n + j] = bt[j * s.k + l];
    std::vector<float> want(static_cast<size_t>(s.m * s.n));
    kernels::reference::matmul(a.data(), b.data(), want.data(), s.m, s.k, s.n);
    for (gemm::Path p : paths())
      for (int t : {1, 2})
        for (int layout = 0; layout < 4; ++layout) {
          const gemm::Operand ao = layout & 1 ? gemm::Operand{at.data(), 1, s.m} : gemm::Operand{a.data(), s.k, 1};
          const gemm::Operand bo = layout & 2 ? gemm::Operand{bt.data(), 1, s.k} : gemm::Operand{b.data(), s.n, 1};
          std::vector<float> got(want.size(), 12345.0f);
          gemm::matmul(s.m, s.n, s.k, ao, bo, got.data(), s.n, {p, gemm::Split{0, 1, 1}, t});
          if (first_difference(want, got, false) >= 0 && failures++ == 0)
            FAIL_CHECK(name(p) << ", " << t << " thread(s), m=" << s.m << " k=" << s.k << " n=" << s.n << " layout " << layout);
        }
  }
  CHECK(failures == 0);
}

namespace {

// x(k) @ B(k,n) on the same buffers as A(m,k) @ x(k): vecmat takes the m x k buffer as B.
// Run as kernels::matvec / kernels::vecmat run them (gemm::matvec, gemm::matmul with m = 1),
// with this test's Config.
void check_vectors(gemm::Path p, int t, int64_t m, int64_t k, Generator& g) {
  const gemm::Config cfg{p, kSplitAll, t};
  const std::vector<float> a = g.values(m * k), x = g.values(k), y = g.values(m);
  std::vector<float> want(static_cast<size_t>(m)), got(static_cast<size_t>(m), 3.0f);
  kernels::reference::matvec(a.data(), x.data(), want.data(), m, k);
  gemm::matvec(m, k, a.data(), k, x.data(), got.data(), cfg);
  CHECK_MESSAGE(first_difference(want, got, false) == -1, name(p) << ", " << t << " thread(s): matvec m=" << m << " k=" << k);
  std::vector<float> want2(static_cast<size_t>(k)), got2(static_cast<size_t>(k), 3.0f);
  kernels::reference::vecmat(y.data(), a.data(), want2.data(), m, k);
  gemm::matmul(1, k, m, {y.data(), m, 1}, {a.data(), k, 1}, got2.data(), k, cfg);
  CHECK_MESSAGE(first_difference(want2, got2, false) == -1, name(p) << ", " << t << " thread(s): vecmat k=" << m << " n=" << k);
}

}  // namespace

TEST_CASE("matvec and vecmat equal their reference loops on every path, with 1 and 2 threads") {
  Generator g{std::mt19937_64(5)};
  g.special = 0.02;
  for (gemm::Path p : paths())
    for (int t : {1, 2}) {
      for (int64_t m : {1, 7, 16, 33, 2000})  // rows past a multiple of 8 run one by one
        for (int64_t k : {0, 1, 9, 300, 1030}) check_vectors(p, t, m, k, g);
    }
}

TEST_CASE("batched_matmul: every batch equals the reference, broadcast operands included") {
  Generator g{std::mt19937_64(6)};
  g.special = 0.02;
  const int64_t batch = 5, m = 13, k = 40, n = 21;
  const std::vector<float> a = g.values(batch * m * k), b = g.values(2 * k * n);
  const std::vector<int64_t> oa{0, m * k, 2 * m * k, 3 * m * k, 4 * m * k};
  const std::vector<int64_t> ob{0, k * n, 0, k * n, k * n};  // B broadcast: only two matrices
  std::vector<float> want(static_cast<size_t>(batch * m * n));
  for (int64_t q = 0; q < batch; ++q)
    kernels::reference::matmul(a.data() + oa[q], b.data() + ob[q], want.data() + q * m * n, m, k, n);
  for (gemm::Path p : paths()) {
    for (int t : {1, 2}) {
      std::vector<float> got(want.size(), 9.0f);
      gemm::batched_matmul(batch, m, n, k, {a.data(), k, 1}, oa.data(), {b.data(), n, 1}, ob.data(), got.data(),
                           {p, kSplitAll, t});
      CHECK_MESSAGE(first_difference(want, got, false) == -1, name(p) << ", " << t << " thread(s)");
    }
  }
}

// ---- torch.matmul's N-D cases through core::matmul ----

namespace {

Tensor random_tensor(const attn::core::Shape& shape, Generator& g) {
  return attn::core::from_floats(shape, g.values(attn::core::numel_of(shape)));
}

// out[q] must be reference(a[qa] @ b[qb]) for the listed pairs of batch indices.
void check_batches(const Tensor& a, const Tensor& b, const Tensor& out, int64_t m, int64_t k, int64_t n,
                   const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  REQUIRE(out.numel() == static_cast<int64_t>(pairs.size()) * m * n);
  for (size_t q = 0; q < pairs.size(); ++q) {
    std::vector<float> want(static_cast<size_t>(m * n));
    kernels::reference::matmul(a.data<float>() + pairs[q].first * m * k, b.data<float>() + pairs[q].second * k * n,
                               want.data(), m, k, n);
    const std::vector<float> got(out.data<float>() + static_cast<int64_t>(q) * m * n,
                                 out.data<float>() + static_cast<int64_t>(q + 1) * m * n);
    CHECK_MESSAGE(first_difference(want, got, false) == -1, "batch " << q);
  }
}

}  // namespace

TEST_CASE("core::matmul broadcasts batch dims as torch.matmul does") {
  Generator g{std::mt19937_64(7)};
  g.special = 0.01;
  SUBCASE("(2,3) @ (5,3,4) -> (5,2,4): the 2-D operand is used by every batch") {
    const Tensor a = random_tensor({2, 3}, g), b = random_tensor({5, 3, 4}, g);
    const Tensor out = attn::core::matmul(a, b);
    CHECK(out.shape() == attn::core::Shape{5, 2, 4});
    check_batches(a, b, out, 2, 3, 4, {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}});
  }
  SUBCASE("(2,1,2,3) @ (5,3,4) -> (2,5,2,4)") {
    const Tensor a = random_tensor({2, 1, 2, 3}, g), b = random_tensor({5, 3, 4}, g);
    const Tensor out = attn::core::matmul(a, b);
    CHECK(out.shape() == attn::core::Shape{2, 5, 2, 4});
    check_batches(a, b, out, 2, 3, 4,
                  {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 0}, {1, 1}, {1, 2}, {1, 3}, {1, 4}});
  }
  SUBCASE("(4,6,3) @ (3,2) -> (4,6,2): folded into one (24,3) @ (3,2) product") {
    const Tensor a = random_tensor({4, 6, 3}, g), b = random_tensor({3, 2}, g);
    const Tensor out = attn::core::matmul(a, b);
    CHECK(out.shape() == attn::core::Shape{4, 6, 2});
    check_batches(a, b, out, 6, 3, 2, {{0, 0}, {1, 0}, {2, 0}, {3, 0}});
  }
  SUBCASE("(3) @ (5,3,4) -> (5,4)") {
    const Tensor a = random_tensor({3}, g), b = random_tensor({5, 3, 4}, g);
    const Tensor out = attn::core::matmul(a, b);
    CHECK(out.shape() == attn::core::Shape{5, 4});
    check_batches(a, b, out, 1, 3, 4, {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}});
  }
  SUBCASE("(2,2,3) @ (5,3,4): batch dims that do not broadcast, PyTorch's message") {
    const Tensor a = random_tensor({2, 2, 3}, g), b = random_tensor({5, 3, 4}, g);
    CHECK_THROWS_WITH_AS(attn::core::matmul(a, b),
                         "The size of tensor a (2) must match the size of tensor b (5) at non-singleton dimension 0",
                         attn::core::TensorError);
  }
}
