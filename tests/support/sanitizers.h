// tests/support/sanitizers.h: whether this test binary was built with AddressSanitizer (.ci/run's
// checked build, clang or gcc), for the few tests that must know: glibc's heap is not the
// allocator there, `ulimit -v` stops it at start, and the slowest sweeps run a sample of their
// variants (the Release pass runs them all).
// What it is not: a switch for what a test asserts, only for which cases it runs.
#pragma once

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
