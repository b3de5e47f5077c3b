// tests/support/sanitizers.h: whether this test binary was built with AddressSanitizer (.ci/run's
// checked build, clang or gcc), for the few tests that must know: glibc's heap is not the
// allocator there, `ulimit -v` stops it at start, and the slowest sweeps run a sample of their
// variants (the Release pass runs them all).
// What it is not: a switch for what a test asserts, only for which cases it runs.
#pragma once

#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define ATTN_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_TEST_ASAN 1
#endif
#endif

#ifdef ATTN_TEST_ASAN
inline constexpr bool kTestUnderAsan = true;
#else
inline constexpr bool kTestUnderAsan = false;
#endif

// Which of tests/golden/'s runs (and golden/prose/'s) the sweeps over them take under ASan: the
// article's, seed 42's, a sentence's and 6 rows of inputs, a run of each kind every lesson has
// (55 of 171; the Release pass takes all). `file` is the golden file's path.
inline bool golden_run_kept(const std::string& file) {
  if (!kTestUnderAsan) return true;
  for (const char* kept : {"@article.txt", "@seed=42.txt", "@sentence=", "@inputs=0.4_0.1__"})
    if (file.find(kept) != std::string::npos) return true;
  return false;
}
