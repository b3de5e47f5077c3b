// tests/core/test_box_muller.cpp: the eight-lane normal_fill_16<float> of the scalar family
// (kernels/box_muller.h) against libm and its one-lane definition, bit for bit.
//
// What it checks: the vector logf on every input the fill can give it (1 - k 2^-24 for all 2^24
// k), the vector sincosf on every theta it can give it ((float)(2 pi_double * k 2^-24), all 2^24
// k) against std::sin and std::cos, both on libm's special inputs, and whole 16-blocks against
// kernels::normal_fill_16_scalar. ~1 s in a Release build, so it runs in ctest in full.
// What it does not check: machines without AVX2 and FMA (the cases pass without running).
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernels/box_muller.h"
#include "core/kernels/vec_avx2.h"

using namespace attn::core;

namespace {

constexpr int64_t kAll = int64_t{1} << 24;  // uniform_real<float> gives k * 2^-24, k < 2^24

uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }

std::string hex(float x) {
  std::ostringstream s;
  s << std::hexfloat << x << " (0x" << std::hex << bits(x) << ")";
  return s.str();
}

// Counts the lanes where got differs from want in bits, reporting the first few.
int64_t differences(const std::vector<float>& in, const std::vector<float>& got, const std::vector<float>& want,
                    const char* what) {
  int64_t n = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (bits(got[i]) == bits(want[i])) continue;
    if (n++ < 5) FAIL_CHECK(std::string(what) << " of " << hex(in[i]) << " is " << hex(got[i]) << ", libm " << hex(want[i]));
  }
  return n;
}

// logf's and sincosf's special inputs: zeros, negatives, subnormals, inf, NaN, 1, the
// thresholds of sincosf's paths (2^-12, 0.75, 120) and large arguments, a few ulps around each.
std::vector<float> specials() {
  constexpr float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f, -0.0f, inf, -inf, std::bit_cast<float>(0x7fc00000u), std::bit_cast<float>(0xffc00001u),
                          std::bit_cast<float>(0x00000001u), std::bit_cast<float>(0x007fffffu), 0x1p-126f, 1.0f,
                          std::numeric_limits<float>::max(), 1e30f, 3.0e5f, 1e-30f};
  for (float edge : {0x1p-12f, 0.75f, 0x1.921fb6p-1f, 120.0f, 1.0f, 0x1p-126f, 6.2831855f}) {
    float up = edge, down = edge;
    for (int i = 0; i < 4; ++i, up = std::nextafter(up, inf), down = std::nextafter(down, 0.0f))
      for (float x : {up, down}) v.insert(v.end(), {x, -x});
  }
  return v;
}

}  // namespace

TEST_CASE("box_muller: the vector logf is glibc's logf on every 1 - u the fill can see") {
  if (!kernels::avx2::supported()) return;
  std::vector<float> in(kAll), got(kAll), want(kAll);
  for (int64_t k = 0; k < kAll; ++k) in[k] = 1.0f - static_cast<float>(k) * 0x1p-24f;
  kernels::avx2::glibc_logf(in.data(), got.data(), kAll);
  for (int64_t k = 0; k < kAll; ++k) want[k] = std::log(in[k]);
  CHECK(differences(in, got, want, "logf") == 0);
}

TEST_CASE("box_muller: the vector sincosf is glibc's sinf and cosf on every theta the fill can see") {
  if (!kernels::avx2::supported()) return;
  std::vector<float> in(kAll), s(kAll), c(kAll), want(kAll);
  for (int64_t k = 0; k < kAll; ++k) in[k] = static_cast<float>(2.0 * 3.14159265358979323846 * (static_cast<double>(k) * 0x1p-24));
  kernels::avx2::glibc_sincosf(in.data(), s.data(), c.data(), kAll);
  for (int64_t k = 0; k < kAll; ++k) want[k] = std::sin(in[k]);
  CHECK(differences(in, s, want, "sinf") == 0);
  for (int64_t k = 0; k < kAll; ++k) want[k] = std::cos(in[k]);
  CHECK(differences(in, c, want, "cosf") == 0);
}

TEST_CASE("box_muller: logf and sincosf on special inputs, any lane, any count") {
  if (!kernels::avx2::supported()) return;
  const std::vector<float> sp = specials();
  for (size_t start = 0; start < 8; ++start) {  // every lane position, and partial vectors
    std::vector<float> in(sp.begin() + static_cast<std::ptrdiff_t>(start), sp.end());
    const auto n = static_cast<int64_t>(in.size());
    std::vector<float> got(in.size()), s(in.size()), c(in.size()), want(in.size());
    kernels::avx2::glibc_logf(in.data(), got.data(), n);
    for (size_t i = 0; i < in.size(); ++i) want[i] = std::log(in[i]);
    CHECK(differences(in, got, want, "logf") == 0);
    kernels::avx2::glibc_sincosf(in.data(), s.data(), c.data(), n);
    for (size_t i = 0; i < in.size(); ++i) want[i] = std::sin(in[i]);
    CHECK(differences(in, s, want, "sinf") == 0);
    for (size_t i = 0; i < in.size(); ++i) want[i] = std::cos(in[i]);
    CHECK(differences(in, c, want, "cosf") == 0);
  }
}

TEST_CASE("box_muller: whole 16-blocks equal normal_fill_16_scalar, for several mean and std") {
  if (!kernels::avx2::supported()) return;
  std::mt19937 rng(21);
  const int64_t blocks = 20000;
  std::vector<float> u(16 * blocks);
  for (float& x : u) x = static_cast<float>(rng() & 0xFFFFFFu) * 0x1p-24f;
  // the ends of the range: u = 0 (log 1, theta 0), the largest u, tiny and small thetas
  const float edges[] = {0.0f, 1.0f - 0x1p-24f, 0x1p-24f, 0x1p-15f, 0x1p-14f, 0.119f, 0.125f, 0.5f};
  for (int j = 0; j < 8; ++j) {
    u[j] = edges[j];
    u[8 + j] = edges[j];
  }
  for (auto [mean, std] : {std::pair{0.0f, 1.0f}, {0.5f, 0.02f}, {-3.0f, 7.5f}}) {
    std::vector<float> want = u, got = u;
    for (int64_t b = 0; b < blocks; ++b) kernels::normal_fill_16_scalar(want.data() + 16 * b, mean, std);
    kernels::avx2::default_normal_fill_16(got.data(), blocks, mean, std);
    int64_t n = 0;
    for (size_t i = 0; i < u.size(); ++i)
      if (bits(got[i]) != bits(want[i]) && n++ < 5)
        FAIL_CHECK("block " << i / 16 << " lane " << i % 16 << ": " << hex(got[i]) << ", one lane " << hex(want[i]));
    CHECK(n == 0);
  }
}
