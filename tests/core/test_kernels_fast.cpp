// tests/core/test_kernels_fast.cpp: the fast exp, softmax and its backward (kernels::exp,
// kernels::softmax_lastdim, kernels::softmax_backward_lastdim and its row sum avx2::dot_row, the
// transposed copy kernels::transpose_plane32)
// give the very bits of their one-lane-at-a-time definitions (kernels::vec_exp,
// kernels::reference::softmax_lastdim and softmax_backward_lastdim, kernels/vec.h dot_row), in both
// kernel families; so do the eight-lane tanh, erf,
// log, pow, rsqrt, sigmoid, tanh backward and GELU kernels (kernels::vec_*, kernels::reference::gelu_*)
// on every length 1..40 and some longer, at unaligned starts, with ATen's scalar-tail flags, on
// random values mixed with each function's edges (see activation_specials).
//
// What it is: random rows of every length from 1 to 70 and a few long ones (tails of every size
// after the 8-lane chunks), on data with what breaks vector code: -inf from causal masks,
// +inf, NaN, +-0, huge values whose exp overflows and tiny ones whose exp underflows, values
// near Sleef's cut-offs (-104, 100) and rows whose max is NaN or inf. exp must match in all 32
// bits, NaNs included (one input, one NaN: no choice of payload arises). A softmax row can
// meet NaNs of several payloads (the input's, all-ones from ATen's AVX2 maximum, the CPU's
// own from inf - inf), and which one a NaN + NaN returns is not fixed by the C++ source, in the
// reference loop as much as in the intrinsics (see tests/core/test_gemm.cpp): there a NaN output
// must be a NaN, and every other output all 32 bits. Softmax is also run big enough to be
// split over threads. The fast paths (Sleef's expf and glibc's FMA expf, 8 lanes at a time) run
// only on a CPU with AVX2 and FMA (else both sides are the plain loop, and a message says so).
// What it is not: a comparison with PyTorch (test_kernels.cpp replays torch's own bits) or a
// timing (docs/numerics.md, "Performance").
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/cpu.h"
#include "core/kernels/activation.h"
#include "core/kernels/softmax.h"
#include "core/kernels/transpose.h"
#include "core/kernels/unary.h"
#include "core/kernels/vec.h"
#include "core/kernels/vec_avx2.h"

namespace kernels = attn::core::kernels;
using attn::core::CpuKernels;

namespace {

constexpr CpuKernels kFamilies[] = {CpuKernels::avx2, CpuKernels::scalar};

std::string hex(float x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", std::bit_cast<uint32_t>(x));
  return buf;
}

// Mostly values in [-30, 30] (softmax inputs, exp arguments), with probability `special` one of
// the awkward ones listed in the header.
struct Values {
  std::mt19937 rng;
  double special = 0.1;

  float value() {
    std::uniform_real_distribution<float> uni(-30.0f, 30.0f);
    if (std::uniform_real_distribution<double>(0, 1)(rng) >= special) return uni(rng);
    constexpr float inf = std::numeric_limits<float>::infinity();
    switch (std::uniform_int_distribution<int>(0, 9)(rng)) {
      case 0: return -inf;                                    // a masked score
      case 1: return inf;
      case 2: return std::numeric_limits<float>::quiet_NaN();
      case 3: return std::uniform_int_distribution<int>(0, 1)(rng) ? 0.0f : -0.0f;
      case 4: return std::uniform_real_distribution<float>(80.0f, 120.0f)(rng);     // exp overflows
      case 5: return std::uniform_real_distribution<float>(-120.0f, -80.0f)(rng);   // underflows
      case 6: return std::nextafter(-104.0f, std::uniform_int_distribution<int>(0, 1)(rng) ? 0.0f : -200.0f);
      case 7: return std::nextafter(100.0f, std::uniform_int_distribution<int>(0, 1)(rng) ? 0.0f : 200.0f);
      case 8: return std::bit_cast<float>(std::uniform_int_distribution<uint32_t>(1, 0x7fffff)(rng));  // denormal
      default: return std::uniform_real_distribution<float>(-3e38f, 3e38f)(rng);
    }
  }
  std::vector<float> row(int64_t n) {
    std::vector<float> v(static_cast<size_t>(n));
    for (float& x : v) x = value();
    return v;
  }
};

// Index of the first element whose 32 bits differ (with any_nan: or that is not NaN where a NaN
// is wanted, when a NaN is), or -1.
int64_t first_difference(const std::vector<float>& want, const std::vector<float>& got, bool any_nan = false) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (any_nan && std::isnan(want[i]) && std::isnan(got[i])) continue;
    if (std::bit_cast<uint32_t>(want[i]) != std::bit_cast<uint32_t>(got[i])) return static_cast<int64_t>(i);
  }
  return -1;
}

void note_path() {
  if (!kernels::avx2::supported()) MESSAGE("this CPU has no AVX2+FMA: the fast paths are the plain loops here");
}

}  // namespace

TEST_CASE("kernels::exp equals vec_exp element for element, every length, both families") {
  note_path();
  Values g{std::mt19937(11)};
  for (CpuKernels cpu : kFamilies) {
    int failures = 0;
    for (int64_t n = 1; n <= 300; ++n) {
      const std::vector<float> in = g.row(n);
      std::vector<float> want(in.size()), got(in.size(), 7.0f);
      for (size_t i = 0; i < in.size(); ++i) want[i] = kernels::vec_exp(in[i], cpu);
      kernels::exp(in.data(), got.data(), n, cpu);
      const int64_t i = first_difference(want, got);
      if (i >= 0 && failures++ == 0)
        FAIL_CHECK(std::string(to_string(cpu)) << ": exp of " << hex(in[i]) << " (element " << i << " of " << n << ") is "
                                  << hex(got[i]) << ", vec_exp gives " << hex(want[i]));
    }
    CHECK(failures == 0);
  }
}

TEST_CASE("kernels::exp in place equals vec_exp") {
  Values g{std::mt19937(12)};
  for (CpuKernels cpu : kFamilies) {
    std::vector<float> x = g.row(1000), want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = kernels::vec_exp(x[i], cpu);
    kernels::exp(x.data(), x.data(), static_cast<int64_t>(x.size()), cpu);
    CHECK(first_difference(want, x) == -1);
  }
}

TEST_CASE("kernels::softmax_lastdim equals the lane-by-lane reference on 2000 random rows, both families") {
  note_path();
  Values g{std::mt19937(13)};
  const double densities[] = {0.0, 0.01, 0.1, 0.5};
  for (CpuKernels cpu : kFamilies) {
    int failures = 0;
    for (int c = 0; c < 2000; ++c) {
      const int64_t n = c < 1400 ? 1 + c % 70 : std::uniform_int_distribution<int64_t>(71, 2100)(g.rng);
      const int64_t rows = 1 + c % 3;
      g.special = densities[c % 4];
      const std::vector<float> in = g.row(rows * n);
      std::vector<float> want(in.size()), got(in.size(), 7.0f);
      kernels::reference::softmax_lastdim(in.data(), want.data(), rows, n, cpu);
      kernels::softmax_lastdim(in.data(), got.data(), rows, n, cpu);
      const int64_t i = first_difference(want, got, true);
      if (i >= 0 && failures++ == 0)
        FAIL_CHECK(std::string(to_string(cpu)) << ": rows=" << rows << " n=" << n << ", element " << i << " is " << hex(got[i])
                                  << ", the reference gives " << hex(want[i]));
    }
    CHECK(failures == 0);
  }
}

TEST_CASE("kernels::softmax_backward_lastdim equals the lane-by-lane reference on 2000 random rows, both families") {
  note_path();
  Values g{std::mt19937(15)};
  const double densities[] = {0.0, 0.01, 0.1, 0.5};
  for (CpuKernels cpu : kFamilies) {
    int failures = 0;
    for (int c = 0; c < 2000; ++c) {
      const int64_t n = c < 1400 ? 1 + c % 70 : std::uniform_int_distribution<int64_t>(71, 2100)(g.rng);
      const int64_t rows = 1 + c % 3;
      g.special = densities[c % 4];
      const std::vector<float> grad = g.row(rows * n), y = g.row(rows * n);
      std::vector<float> want(grad.size()), got(grad.size(), 7.0f);
      kernels::reference::softmax_backward_lastdim(grad.data(), y.data(), want.data(), rows, n, cpu);
      kernels::softmax_backward_lastdim(grad.data(), y.data(), got.data(), rows, n, cpu);
      const int64_t i = first_difference(want, got, true);
      if (i >= 0 && failures++ == 0)
        FAIL_CHECK(std::string(to_string(cpu)) << ": rows=" << rows << " n=" << n << ", element " << i << " is " << hex(got[i])
                                  << ", the reference gives " << hex(want[i]));
      if (kernels::avx2::supported()) {   // the row sum itself: vec.h's dot_row, a lane at a time
        const float want_s = kernels::detail::dot_row(grad.data(), y.data(), n, cpu);
        const float got_s = kernels::avx2::dot_row(grad.data(), y.data(), n, cpu);
        if (!(std::isnan(want_s) && std::isnan(got_s)) && std::bit_cast<uint32_t>(want_s) != std::bit_cast<uint32_t>(got_s) &&
            failures++ == 0)
          FAIL_CHECK(std::string(to_string(cpu)) << ": dot_row of n=" << n << " is " << hex(got_s) << ", vec.h gives " << hex(want_s));
      }
    }
    CHECK(failures == 0);
  }
}

TEST_CASE("kernels::transpose_plane32 equals its 16 x 16 tiles on every size to 20 x 20 and a big plane, bit patterns kept") {
  std::mt19937 rng(16);
  auto check = [&](int64_t rows, int64_t cols, int64_t in_col, int64_t out_row) {
    std::vector<uint32_t> in(static_cast<size_t>(in_col * cols + rows));
    for (uint32_t& x : in) x = static_cast<uint32_t>(rng());   // NaNs of every payload, -0.0f, denormals
    std::vector<uint32_t> want(static_cast<size_t>(rows * out_row), 7u), got(want);
    kernels::transpose_plane32_tiles(in.data(), in_col, want.data(), out_row, rows, cols);
    kernels::transpose_plane32(in.data(), in_col, got.data(), out_row, rows, cols);
    return want == got;
  };
  int failures = 0;
  for (int64_t rows = 1; rows <= 20; ++rows)
    for (int64_t cols = 1; cols <= 20; ++cols)
      if (!check(rows, cols, rows + cols % 3, cols + rows % 5) && failures++ == 0)
        FAIL_CHECK("rows=" << rows << " cols=" << cols);
  CHECK(failures == 0);
  CHECK(check(300, 197, 301, 200));
}

TEST_CASE("kernels::softmax_lastdim split over threads equals the reference (causal rows of 1024)") {
  // 300 rows of 1024: past the size where rows are shared out among the threads. Row r keeps its
  // first r % 1024 + 1 scores and masks the rest with -inf, as a causal attention layer does.
  Values g{std::mt19937(14)};
  g.special = 0.0;
  const int64_t rows = 300, n = 1024;
  std::vector<float> in = g.row(rows * n);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = r % n + 1; j < n; ++j) in[r * n + j] = -std::numeric_limits<float>::infinity();
  for (CpuKernels cpu : kFamilies) {
    std::vector<float> want(in.size()), got(in.size(), 7.0f);
    kernels::reference::softmax_lastdim(in.data(), want.data(), rows, n, cpu);
    kernels::softmax_lastdim(in.data(), got.data(), rows, n, cpu);
    CHECK_MESSAGE(first_difference(want, got) == -1, std::string(to_string(cpu)));
  }
}

// All 2^32 inputs: minutes of CPU, so skipped by ctest. Run it after touching either exp:
//   ./build/tests/attn_core_tests -tc='*every float*' --no-skip      (-sc=scalar for one family)
TEST_CASE("kernels::exp equals vec_exp on every float" * doctest::skip()) {
  for (CpuKernels cpu : kFamilies) {
    SUBCASE(to_string(cpu)) {
      std::vector<float> in(1 << 16), got(in.size());
      uint64_t failures = 0;
      for (uint64_t hi = 0; hi < (uint64_t{1} << 16); ++hi) {
        for (uint32_t lo = 0; lo < in.size(); ++lo) in[lo] = std::bit_cast<float>(static_cast<uint32_t>(hi << 16 | lo));
        kernels::exp(in.data(), got.data(), static_cast<int64_t>(in.size()), cpu);
        for (size_t i = 0; i < in.size(); ++i)
          if (std::bit_cast<uint32_t>(got[i]) != std::bit_cast<uint32_t>(kernels::vec_exp(in[i], cpu)) && failures++ < 5)
            FAIL_CHECK(std::string(to_string(cpu)) << ": exp of " << hex(in[i]) << " is " << hex(got[i]));
      }
      CHECK(failures == 0);
    }
  }
}

// ---- tanh, tanh's backward factor and GELU: the eight-lane kernels against their one-lane
// definitions (kernels::vec_tanh, the fma / plain formula, kernels::reference::gelu_*) ----

namespace {

// Inputs that break vector tanh, erf and GELU: Sleef erf's ranges (1.1, 2.4, 4), Sleef tanh's
// cut-off 8.664339742 (|x| and the GELU
// inner value beta*(x + kappa x^3), reached near x = 3.9), expk2f's range, oneDNN exp's clamps at
// ln FLT_MIN / ln FLT_MAX (x*x/2 near 87.3 and 88.7: |x| near 13.2), NaNs of several payloads and
// both signs, denormals, +-0, +-inf, huge values; a neighbourhood of a few ulps around each edge.
std::vector<float> activation_specials() {
  constexpr float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f, -0.0f, inf, -inf, std::bit_cast<float>(0x7fc00000u), std::bit_cast<float>(0xffc00000u),
                          std::bit_cast<float>(0x7f800001u), std::bit_cast<float>(0xff812345u), std::bit_cast<float>(0x7fffffffu),
                          std::bit_cast<float>(0x00000001u), std::bit_cast<float>(0x807fffffu), 1e-30f, -1e-30f,
                          std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
  for (float edge : {8.664339742f, 1.1f, 2.4f, 3.9f, 3.95f, 4.0f, 9.0f, 13.18f, 13.2f, 13.3f, 88.72f, 104.0f, 1e19f, 2e19f, 1e-4f, 0.5f, 1.0f}) {
    float up = edge, down = edge;
    for (int i = 0; i < 4; ++i, up = std::nextafter(up, inf), down = std::nextafter(down, 0.0f))
      for (float x : {up, down}) v.insert(v.end(), {x, -x});
  }
  return v;
}

// `n` values from `g` mixed with the specials above, a third of them picked from the specials.
std::vector<float> activation_row(Values& g, int64_t n) {
  static const std::vector<float> specials = activation_specials();
  std::vector<float> v = g.row(n);
  std::uniform_int_distribution<size_t> pick(0, specials.size() - 1);
  for (float& x : v)
    if (std::uniform_int_distribution<int>(0, 2)(g.rng) == 0) x = specials[pick(g.rng)];
    else x /= 4.0f;   // mostly within [-7.5, 7.5], where GELU and tanh are not yet flat
  return v;
}

// ATen's scalar-tail flags for a run of n: the last n % 16, or (odd seeds) random blocks.
std::vector<uint8_t> tail_flags(std::mt19937& rng, int64_t n) {
  std::vector<uint8_t> t(static_cast<size_t>(n), 0);
  for (int64_t k = n - n % 16; k < n; ++k) t[static_cast<size_t>(k)] = 1;
  if (rng() % 2)
    for (auto& f : t) f = rng() % 5 == 0;
  return t;
}

// Calls fast(x, dy, tail, out) and slow(...) on every length 1..40 and four longer ones, each at
// 8 unaligned starts, and reports the first element that differs in any of its 32 bits. With
// any_nan a NaN need only be a NaN: where two NaNs meet in a product (GELU's (0.5 x) * (1 + tanh),
// dy * factor) the C++ source does not fix which one the compiled scalar code returns, nor does
// std::fma(-y, y, 1) (the negated NaN) agree with vfnmadd (y's own NaN) on the sign; tanh and
// exp meet one NaN at a time and are checked in all 32 bits.
template <typename Fast, typename Slow>
void check_lanes(const std::string& what, uint32_t seed, Fast fast, Slow slow, bool any_nan = true) {
  Values g{std::mt19937(seed)};
  int failures = 0;
  for (int64_t n = 1; n <= 44; ++n) {
    const int64_t len = n <= 40 ? n : 37 * n - 1420;   // then 97, 134, 171, 208
    for (int64_t start = 0; start < 8; ++start) {
      const std::vector<float> x = activation_row(g, len + start), dy = g.row(len + start);
      const std::vector<uint8_t> tail = tail_flags(g.rng, len);
      std::vector<float> want(static_cast<size_t>(len)), got(want.size(), 7.0f);
      slow(x.data() + start, dy.data() + start, tail.data(), want.data(), len);
      fast(x.data() + start, dy.data() + start, tail.data(), got.data(), len);
      const int64_t i = first_difference(want, got, any_nan);
      if (i >= 0 && failures++ == 0)
        FAIL_CHECK(what << " of " << hex(x[static_cast<size_t>(start + i)]) << " (element " << i << " of " << len << ", start "
                        << start << ") is " << hex(got[i]) << ", the one-lane definition gives " << hex(want[i]));
    }
  }
  CHECK_MESSAGE(failures == 0, what);
}

}  // namespace

TEST_CASE("kernels::tanh, one_minus_square, tanh_backward, erf, log, pow, rsqrt and sigmoid equal their one-lane definitions, every length, both families") {
  note_path();
  for (CpuKernels cpu : kFamilies) {
    const std::string family = to_string(cpu);
    check_lanes("tanh_backward " + family, 28, [cpu](const float* y, const float* g, const uint8_t*, float* out, int64_t n) {
      kernels::tanh_backward(g, y, out, n, cpu);
    }, [cpu](const float* y, const float* g, const uint8_t*, float* out, int64_t n) {
      for (int64_t k = 0; k < n; ++k) out[k] = g[k] * (cpu == CpuKernels::avx2 ? std::fma(-y[k], y[k], 1.0f) : 1.0f - y[k] * y[k]);
    });
    check_lanes("erf " + family, 23, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      kernels::erf(x, y, n, cpu);
    }, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_erf(x[k], cpu);
    }, false);
    check_lanes("log " + family, 26, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      kernels::log(x, y, n, cpu);
    }, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_log(x[k], cpu);
    }, false);
    for (float e : {0.7f, -1.5f, 2.5f, 3.0f, -3.0f, 0.5f, 0.0f, 1.0f, 1e9f, 16777217.0f, -1e-30f, 8.664339742f,
                    std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
      if (cpu == CpuKernels::avx2 || e == 0.7f) {   // DEFAULT: glibc's powf on both sides
        check_lanes("pow " + family + " ** " + hex(e), 27, [cpu, e](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
          kernels::pow(x, y, n, e, cpu);
        }, [cpu, e](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
          for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_pow(x[k], e, cpu);
        }, false);
      }
    check_lanes("rsqrt " + family, 24, [](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      kernels::rsqrt(x, y, n);
    }, [](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_rsqrt(x[k]);
    }, false);
    check_lanes("sigmoid " + family, 25, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      kernels::sigmoid(x, y, n, cpu);
    }, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_sigmoid(x[k], cpu);
    }, false);
    check_lanes("tanh " + family, 21, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      kernels::tanh(x, y, n, cpu);
    }, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_tanh(x[k], cpu);
    }, false);
    check_lanes("1 - y*y " + family, 22, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      kernels::one_minus_square(x, y, n, cpu);
    }, [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
      for (int64_t k = 0; k < n; ++k) y[k] = cpu == CpuKernels::avx2 ? std::fma(-x[k], x[k], 1.0f) : 1.0f - x[k] * x[k];
    });
  }
  std::vector<float> x = activation_specials(), want(x.size());   // in place
  for (size_t i = 0; i < x.size(); ++i) want[i] = kernels::vec_tanh(x[i], CpuKernels::avx2);
  kernels::tanh(x.data(), x.data(), static_cast<int64_t>(x.size()), CpuKernels::avx2);
  CHECK(first_difference(want, x) == -1);
}

TEST_CASE("the GELU kernels equal their one-lane definitions (both forms, forward and backward, tails), both families") {
  note_path();
  check_lanes("oneDNN gelu", 31, [](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::gelu_onednn(x, y, n); },
              [](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::reference::gelu_onednn(x, y, n); });
  check_lanes("oneDNN gelu backward", 32,
              [](const float* x, const float* dy, const uint8_t*, float* y, int64_t n) { kernels::gelu_onednn_backward(x, dy, y, n); },
              [](const float* x, const float* dy, const uint8_t*, float* y, int64_t n) { kernels::reference::gelu_onednn_backward(x, dy, y, n); });
  for (CpuKernels cpu : kFamilies) {
    const std::string family = to_string(cpu);
    for (bool tanh_form : {true, false}) {
      check_lanes((tanh_form ? "ATen tanh gelu " : "ATen erf gelu ") + family, 33,
                  [cpu, tanh_form](const float* x, const float*, const uint8_t* tail, float* y, int64_t n) {
                    kernels::gelu_aten(x, tail, y, n, tanh_form, cpu);
                  },
                  [cpu, tanh_form](const float* x, const float*, const uint8_t* tail, float* y, int64_t n) {
                    kernels::reference::gelu_aten(x, tail, y, n, tanh_form, cpu);
                  });
    }
    check_lanes("ATen tanh gelu backward " + family, 34,
                [cpu](const float* x, const float* dy, const uint8_t* tail, float* y, int64_t n) {
                  kernels::gelu_tanh_backward(x, dy, y, n, tail, cpu);
                },
                [cpu](const float* x, const float* dy, const uint8_t* tail, float* y, int64_t n) {
                  kernels::reference::gelu_tanh_backward(x, dy, y, n, tail, cpu);
                });
  }
}

namespace {

// Every float through fast (in blocks of 2^16) against slow, element by element: 2^32 inputs.
// any_nan as for check_lanes.
template <typename Fast, typename Slow>
void check_every_float(const std::string& what, Fast fast, Slow slow, bool any_nan = true) {
  std::vector<float> in(1 << 16), got(in.size()), want(in.size()), dy(in.size(), 1.0f);
  std::vector<uint8_t> tail(in.size(), 0);
  uint64_t failures = 0;
  for (uint64_t hi = 0; hi < (uint64_t{1} << 16); ++hi) {
    for (uint32_t lo = 0; lo < in.size(); ++lo) in[lo] = std::bit_cast<float>(static_cast<uint32_t>(hi << 16 | lo));
    for (size_t i = 0; i < dy.size(); ++i) dy[i] = 0.75f + static_cast<float>(i % 7) * 0.125f;
    fast(in.data(), dy.data(), tail.data(), got.data(), static_cast<int64_t>(in.size()));
    slow(in.data(), dy.data(), tail.data(), want.data(), static_cast<int64_t>(in.size()));
    for (size_t i = 0; i < in.size(); ++i)
      if (std::bit_cast<uint32_t>(got[i]) != std::bit_cast<uint32_t>(want[i]) && !(any_nan && std::isnan(got[i]) && std::isnan(want[i])) &&
          failures++ < 5)
        FAIL_CHECK(what << " of " << hex(in[i]) << " is " << hex(got[i]) << ", the one-lane definition gives " << hex(want[i]));
  }
  CHECK_MESSAGE(failures == 0, what);
}

}  // namespace

// All 2^32 inputs, AVX2 family (DEFAULT's tanh and erf are glibc's, element by element on both
// sides; sigmoid's DEFAULT body is glibc's FMA expf eight lanes at a time, so both):
// minutes of CPU, skipped by ctest. Run after touching the vector tanh or GELU:
//   ./build/tests/attn_core_tests -tc='*tanh, erf*every float*' --no-skip     (-sc='gelu*' for part)
TEST_CASE("kernels::tanh, erf, log, pow, rsqrt, sigmoid, one_minus_square and the GELU kernels on every float" * doctest::skip()) {
  CpuKernels cpu = CpuKernels::avx2;   // not const: a const one need not be captured, and clang says so
  SUBCASE("tanh") {
    check_every_float("tanh", [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::tanh(x, y, n, cpu); },
                      [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
                        for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_tanh(x[k], cpu);
                      }, false);
  }
  SUBCASE("erf") {
    check_every_float("erf", [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::erf(x, y, n, cpu); },
                      [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
                        for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_erf(x[k], cpu);
                      }, false);
  }
  SUBCASE("log") {
    check_every_float("log", [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::log(x, y, n, cpu); },
                      [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
                        for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_log(x[k], cpu);
                      }, false);
  }
  for (float e : {0.7f, 3.0f, -2.5f}) {
    SUBCASE(("pow ** " + hex(e)).c_str()) {
      check_every_float("pow ** " + hex(e), [cpu, e](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::pow(x, y, n, e, cpu); },
                        [cpu, e](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
                          for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_pow(x[k], e, cpu);
                        }, false);
    }
  }
  SUBCASE("rsqrt") {
    check_every_float("rsqrt", [](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::rsqrt(x, y, n); },
                      [](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
                        for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_rsqrt(x[k]);
                      }, false);
  }
  for (CpuKernels family : kFamilies) {
    SUBCASE((std::string("sigmoid ") + to_string(family)).c_str()) {
      check_every_float(std::string("sigmoid ") + to_string(family),
                        [family](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::sigmoid(x, y, n, family); },
                        [family](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
                          for (int64_t k = 0; k < n; ++k) y[k] = kernels::vec_sigmoid(x[k], family);
                        }, false);
    }
  }
  SUBCASE("1 - y*y") {
    check_every_float("1 - y*y", [cpu](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::one_minus_square(x, y, n, cpu); },
                      [](const float* x, const float*, const uint8_t*, float* y, int64_t n) {
                        for (int64_t k = 0; k < n; ++k) y[k] = std::fma(-x[k], x[k], 1.0f);
                      });
  }
  SUBCASE("gelu oneDNN") {
    check_every_float("oneDNN gelu", [](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::gelu_onednn(x, y, n); },
                      [](const float* x, const float*, const uint8_t*, float* y, int64_t n) { kernels::reference::gelu_onednn(x, y, n); });
  }
  SUBCASE("gelu oneDNN backward") {
    check_every_float("oneDNN gelu backward",
                      [](const float* x, const float* dy, const uint8_t*, float* y, int64_t n) { kernels::gelu_onednn_backward(x, dy, y, n); },
                      [](const float* x, const float* dy, const uint8_t*, float* y, int64_t n) { kernels::reference::gelu_onednn_backward(x, dy, y, n); });
  }
  SUBCASE("gelu tanh") {
    check_every_float("ATen tanh gelu",
                      [cpu](const float* x, const float*, const uint8_t* t, float* y, int64_t n) { kernels::gelu_aten(x, t, y, n, true, cpu); },
                      [cpu](const float* x, const float*, const uint8_t* t, float* y, int64_t n) { kernels::reference::gelu_aten(x, t, y, n, true, cpu); });
  }
  SUBCASE("gelu tanh backward") {
    check_every_float("ATen tanh gelu backward",
                      [cpu](const float* x, const float* dy, const uint8_t* t, float* y, int64_t n) { kernels::gelu_tanh_backward(x, dy, y, n, t, cpu); },
                      [cpu](const float* x, const float* dy, const uint8_t* t, float* y, int64_t n) {
                        kernels::reference::gelu_tanh_backward(x, dy, y, n, t, cpu);
                      });
  }
}
