// tests/core/test_storage.cpp: core::Storage's two ways of getting memory (calloc below 8 MB, a
// populated mapping at or above, see core/buffers.h) both give zero-filled, writable buffers
// that views share and that outlive the first handle; big buffers are reused from a cache that
// never holds more than the peak allows and empties on request; an op's output may take a reused
// buffer without the zero-fill (uninitialized()) because the op writes every element.
// What it is not: a test of the memory limit's message (test_interpreter.cpp) or a timing.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <sys/resource.h>

#include "core/buffers.h"
#include "core/ops.h"
#include "support/sanitizers.h"

using attn::core::Tensor;

namespace {

// Every element of t (float32) is +0.0f.
bool all_plus_zero(const Tensor& t) {
  const float* p = t.data<float>();
  for (int64_t k = 0; k < t.numel(); ++k)
    if (std::bit_cast<uint32_t>(p[k]) != 0u) return false;
  return true;
}

}  // namespace

TEST_CASE("small and big tensors start zero-filled, are writable, and views keep the storage alive") {
  for (int64_t rows : {4, 3000}) {  // 4 x 1000 floats: calloc; 3000 x 1000 (12 MB): mapped
    CAPTURE(rows);
    Tensor view;
    {
      Tensor t = attn::core::empty({rows, 1000});  // shape (rows, 1000)
      CHECK(all_plus_zero(t));
      float* p = t.data<float>();
      for (int64_t k = 0; k < t.numel(); ++k) p[k] = static_cast<float>(k % 7);
      view = attn::core::transpose(t, 0, 1);       // shape (1000, rows), shares t's storage
    }
    CHECK(view.float_at(0) == 0.0f);
    CHECK(view.float_at(1) == static_cast<float>(1000 % 7));  // element (0, 1) = t(1, 0)
    const Tensor last = attn::core::contiguous(view);
    CHECK(last.float_at(last.numel() - 1) == static_cast<float>((rows * 1000 - 1) % 7));
  }
  // Many big ones made and dropped in turn: each mapping is returned (an address sanitizer or
  // a leak would show), and a fresh one is zero again whatever the last one held.
  for (int i = 0; i < 20; ++i) {
    Tensor t = attn::core::full({3000, 1000}, 5.0f);  // shape (3000, 1000), 12 MB
    CHECK(t.float_at(t.numel() - 1) == 5.0f);
    CHECK(all_plus_zero(attn::core::empty({3000, 1000})));
  }
}

TEST_CASE("a released big buffer is reused zero-filled, the cache stays under the peak, and empties") {
  namespace buffers = attn::core::buffers;
  buffers::release_cached();   // empty, and the peak is what is live now (nothing big)
  const uint64_t reused_before = buffers::reused_count();
  {
    Tensor keep = attn::core::full({3000, 1000}, 1.0f);  // shape (3000, 1000), 12 MB
    for (int i = 0; i < 10; ++i) {
      Tensor t = attn::core::full({3000, 1000}, 7.0f);   // shape (3000, 1000): from i = 1, the last one's mapping
      CHECK(t.float_at(0) == 7.0f);
    }
    CHECK(buffers::reused_count() - reused_before == 9);
    CHECK(buffers::cached_bytes() > size_t{12000000});
    // 36 MB beside 12 live and 12 cached would be over the 24 MB peak: the cache gives way.
    Tensor big = attn::core::empty({9000, 1000});         // shape (9000, 1000), a new peak of 48 MB
    CHECK(all_plus_zero(big));
    CHECK(buffers::cached_bytes() == 0);
  }
  // Both dropped: both cached (48 MB, the peak), then given back.
  CHECK(buffers::cached_bytes() > size_t{48000000});
  buffers::release_cached();
  CHECK(buffers::cached_bytes() == 0);
  // A buffer within 1/8 of a cached one's size reuses it, zero whatever it held; a smaller one does not.
  { Tensor t = attn::core::full({3000, 1000}, 3.0f); }   // shape (3000, 1000), cached when dropped
  const uint64_t reused = buffers::reused_count();
  CHECK(all_plus_zero(attn::core::empty({2900, 1000})));   // shape (2900, 1000): reused
  CHECK(buffers::reused_count() == reused + 1);
  CHECK(all_plus_zero(attn::core::empty({2000, 1000})));   // shape (2000, 1000), 8 MB: mapped afresh
  CHECK(buffers::reused_count() == reused + 1);
  buffers::release_cached();
}

TEST_CASE("an op's output may take a reused buffer as it is: uninitialized() skips the zero-fill, the op writes all") {
  namespace buffers = attn::core::buffers;
  namespace core = attn::core;
  buffers::release_cached();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = core::full({3000, 1000}, 2.0f);   // shape (3000, 1000), 12 MB, kept alive
  const void* old = nullptr;
  {
    Tensor junk = core::full({3000, 1000}, nan);     // shape (3000, 1000): NaN everywhere, cached when dropped
    old = junk.data<float>();
  }
  {
    const Tensor u = core::uninitialized({3000, 1000});   // shape (3000, 1000): junk's mapping, still NaN
    CHECK(static_cast<const void*>(u.data<float>()) == old);
    CHECK(std::isnan(u.float_at(0)));
    CHECK(std::isnan(u.float_at(u.numel() - 1)));
  }
  // Each op below takes that mapping again (its NaNs) for its output and must overwrite every element.
  const auto all_equal = [](const Tensor& t, float v) {
    for (int64_t k = 0; k < t.numel(); ++k)
      if (t.data<float>()[k] != v) return false;
    return true;
  };
  const uint64_t reused = buffers::reused_count();
  CHECK(all_equal(core::binary(core::BinOp::mul, x, x), 4.0f));                          // (3000, 1000)
  CHECK(all_equal(core::contiguous(core::expand(core::full({1, 1000}, 2.0f), {3000, 1000})), 2.0f));   // a copy
  CHECK(all_equal(core::softmax(x, 1, core::CpuKernels::scalar), 0.001f));               // rows of 1000
  CHECK(all_equal(core::matmul(core::full({3000, 4}, 1.0f), core::full({4, 1000}, 0.5f)), 2.0f));   // (3000, 1000)
  CHECK(buffers::reused_count() == reused + 4);   // each output was junk's mapping
  buffers::release_cached();
}

// AddressSanitizer replaces glibc's malloc (mallopt does nothing there, and it quarantines what is
// freed): the page count is glibc's, so the test runs in the other builds only.
TEST_CASE("a step's temporaries of 1 to 8 MB come back from the heap without fresh pages" * doctest::skip(kTestUnderAsan)) {
  namespace core = attn::core;
  // Eight 3 MB tensors (a (1024, 768) activation each) made and dropped together, round after
  // round: glibc's default would give the 24 MB back at every round's end (its trim threshold
  // follows the biggest buffer, 6 MB here) and fault it in again; keep_heap() keeps it.
  const auto round = [] {
    std::vector<Tensor> step;
    for (int i = 0; i < 8; ++i) step.push_back(core::full({1024, 768}, static_cast<float>(i)));   // (1024, 768)
    CHECK(step.back().float_at(0) == 7.0f);
  };
  round();
  round();
  const auto minor_faults = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
  };
  const long before = minor_faults();
  for (int r = 0; r < 5; ++r) round();
  CHECK(minor_faults() - before < 200);   // 5 x 24 MB would be 30,000 pages of 4 KB
}

TEST_CASE("contiguous() of a view whose rows are contiguous copies row by row into row-major order") {
  namespace core = attn::core;
  std::vector<float> v(2 * 3 * 4 * 16);
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k);
  const Tensor t = core::from_floats({2, 3, 4, 16}, v);       // (b, heads, T, 16)
  const Tensor c = core::contiguous(core::transpose(t, 1, 2));   // (b, T, heads, 16), row-major
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t h = 0; h < 3; ++h)
        for (int64_t d = 0; d < 16; ++d)
          CHECK(c.float_at(((b * 4 + i) * 3 + h) * 16 + d) == static_cast<float>(((b * 3 + h) * 4 + i) * 16 + d));
}

TEST_CASE("contiguous() of a transposed view copies tile by tile into row-major order, every shape and edge") {
  namespace core = attn::core;
  // (rows, cols) of a 2-d transpose, edge sizes around the 16-wide tiles, and a batched
  // (2, 3, 40, 37) tensor whose dims 2 and 3 are swapped with a dim between (a stride-1 dim that
  // is neither the last nor next to it).
  for (auto shape : {std::pair<int64_t, int64_t>{8, 8}, {17, 9}, {9, 33}, {64, 48}, {1, 20}, {20, 1}, {100, 3}}) {
    const int64_t rows = shape.first, cols = shape.second;   // not a structured binding: clang 14 cannot capture one (CAPTURE)
    CAPTURE(rows);
    CAPTURE(cols);
    std::vector<float> v(static_cast<size_t>(rows * cols));
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k);
    const Tensor t = core::from_floats({rows, cols}, v);        // (rows, cols)
    const Tensor c = core::contiguous(core::transpose(t, 0, 1));   // (cols, rows), row-major
    REQUIRE(c.is_contiguous());
    int bad = 0;
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i) bad += c.float_at(j * rows + i) != static_cast<float>(i * cols + j);
    CHECK(bad == 0);
  }
  std::vector<float> v(2 * 3 * 40 * 37);
  for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k);
  const Tensor t = core::from_floats({2, 3, 40, 37}, v);                                   // (2, 3, 40, 37)
  const Tensor c = core::contiguous(core::transpose(core::transpose(t, 1, 3), 2, 3));   // (2, 37, 3, 40): (b, j, h, i) is t's (b, h, i, j)
  REQUIRE(c.shape() == core::Shape{2, 37, 3, 40});
  int bad = 0;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t j = 0; j < 37; ++j)
      for (int64_t h = 0; h < 3; ++h)
        for (int64_t i = 0; i < 40; ++i)
          bad += c.float_at(((b * 37 + j) * 3 + h) * 40 + i) != static_cast<float>(((b * 3 + h) * 40 + i) * 37 + j);
  CHECK(bad == 0);
}

TEST_CASE("add_/mul_ on a contiguous float32 tensor write into it: no result buffer, the same bits") {
  namespace core = attn::core;
  std::vector<float> xs(3000), ys(3000);
  for (size_t k = 0; k < xs.size(); ++k) {
    xs[k] = 0.1f * static_cast<float>(k) - 7.0f;
    ys[k] = 1.0f / (static_cast<float>(k) + 0.5f);
  }
  Tensor x = core::from_floats({3, 1000}, xs);        // (3, 1000)
  const Tensor y = core::from_floats({3, 1000}, ys);  // (3, 1000)
  for (core::BinOp op : {core::BinOp::add, core::BinOp::sub, core::BinOp::mul, core::BinOp::div}) {
    const Tensor want = core::binary(op, x, y);        // (3, 1000), out of place
    const float* where = x.data<float>();
    const uint64_t made = core::storage_bytes_made();
    core::binary_(op, x, y);
    CHECK(core::storage_bytes_made() == made);          // nothing allocated
    CHECK(x.data<float>() == where);
    for (int64_t k = 0; k < x.numel(); ++k) CHECK(std::bit_cast<uint32_t>(x.float_at(k)) == std::bit_cast<uint32_t>(want.float_at(k)));
  }
}

TEST_CASE("a first gradient nothing else holds becomes .grad without a copy (AccumulateGrad's steal)") {
  namespace core = attn::core;
  std::vector<float> ws(3000);
  for (size_t k = 0; k < ws.size(); ++k) ws[k] = 0.25f * static_cast<float>(k) - 100.0f;
  Tensor w = core::from_floats({3, 1000}, ws);                     // (3, 1000), a leaf
  w.set_requires_grad(true);
  const Tensor c = core::from_floats({3, 1000}, std::vector<float>(3000, 3.0f));   // (3, 1000)
  const Tensor y = core::binary(core::BinOp::mul, w, c);           // (3, 1000)
  const Tensor g = core::from_floats({3, 1000}, std::vector<float>(3000, 0.5f));   // (3, 1000)
  const uint64_t made = core::storage_bytes_made();
  core::autograd::backward(y, g, false);                           // MulBackward0: g * c, a fresh (3, 1000)
  CHECK(core::storage_bytes_made() - made == 3000 * sizeof(float));   // that product only: no clone of it
  const std::optional<Tensor> wg = core::autograd::grad(w);        // (3, 1000)
  REQUIRE(wg);
  CHECK(wg->float_at(17) == 1.5f);
  // A second backward adds into it in place; the gradient given in (held by this test) is
  // never taken: it stays 0.5 everywhere.
  core::autograd::backward(core::binary(core::BinOp::mul, w, c), g, false);
  CHECK(core::autograd::grad(w)->float_at(17) == 3.0f);
  const Tensor w2 = core::from_floats({3, 1000}, ws);
  Tensor leaf = w2;
  leaf.set_requires_grad(true);
  core::autograd::backward(leaf, g, false);                        // .grad of the leaf itself: g is held here
  CHECK(core::autograd::grad(leaf)->float_at(0) == 0.5f);
  core::autograd::backward(leaf, g, false);
  CHECK(core::autograd::grad(leaf)->float_at(0) == 1.0f);
  CHECK(g.float_at(0) == 0.5f);                                    // not stolen, so not added into
}
