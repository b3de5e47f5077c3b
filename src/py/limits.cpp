// py/limits.cpp: the depth guards, the C++ stack check and the limit messages (see limits.h).
#include "py/limits.h"
#include "py/exceptions.h"

#include <fmt/format.h>

#if defined(__linux__)
#include <pthread.h>
#endif

namespace attn::py {

namespace {

// kStackMargin (limits.h) must stay free below the deepest guarded frame: room for the native work
// one level does (a kernel, fmt, an error being built), with AddressSanitizer's larger frames.
thread_local uintptr_t generator_floor = 0;   // set_stack_floor: a generator's stack runs

// The lowest usable address of this thread's stack, 0 when unknown (then nothing is checked).
uintptr_t stack_floor() {
  thread_local uintptr_t floor = [] {
    uintptr_t low = 0;
#if defined(__linux__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0 && size > 2 * kStackMargin)
        low = reinterpret_cast<uintptr_t>(addr) + kStackMargin;
      pthread_attr_destroy(&attr);
    }
#endif
    return low;
  }();
  return floor;
}

}  // namespace

std::string with_commas(Count n) {
  std::string reversed;   // built right to left with push_back: GCC 12 warns -Wrestrict on insert() (bug 105651)
  for (int digits = 0; digits == 0 || n; ++digits) {
    if (digits > 0 && digits % 3 == 0) reversed.push_back(',');
    reversed.push_back(static_cast<char>('0' + static_cast<int>(n % 10)));
    n /= 10;
  }
  return std::string(reversed.rbegin(), reversed.rend());
}

void check_stack() {
  // The frame address, not a local's: under AddressSanitizer locals may live on a fake stack.
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t floor = generator_floor ? generator_floor : stack_floor();
  if (floor != 0 && here < floor)
    throw LimitError(0, "RecursionError: maximum recursion depth exceeded (the code nests deeper than attn's C++ stack allows)");
}

uintptr_t set_stack_floor(uintptr_t floor) {
  uintptr_t old = generator_floor;
  generator_floor = floor;
  return old;
}

void DepthGuard::overflow(const char* message) { throw LimitError(0, message); }

namespace {
thread_local int value_depth = 0;
}  // namespace

ValueDepthGuard::ValueDepthGuard(const char* while_doing) {
  // A Python RecursionError (CPython's words), which try/except may catch as in CPython: the walk
  // unwinds, so catching it cannot keep a cell running out of bounds.
  if (value_depth >= limits::kMaxValueDepth)
    throw RecursionError(fmt::format("maximum recursion depth exceeded {}", while_doing));
  check_stack();
  ++value_depth;
}

ValueDepthGuard::~ValueDepthGuard() { --value_depth; }

void too_many_items(const std::string& what, Count n) {
  throw LimitError(0, fmt::format("MemoryError: {} of {} items is more than attn's limit of {} items (limits::kMaxItems)", what,
                               with_commas(n), with_commas(limits::kMaxItems)));
}

void check_split_items(const std::string& s, const std::string* sep, int64_t maxsplit, SpaceAt space_at) {
  const Count bound = sep ? s.size() / sep->size() + 1 : s.size() / 2 + 1;   // a piece and a space: 2 bytes or more
  if (bound <= limits::kMaxItems || (maxsplit >= 0 && static_cast<Count>(maxsplit) < limits::kMaxItems)) return;
  const Count most = maxsplit < 0 ? bound : static_cast<Count>(maxsplit) + 1;
  Count n = 0;
  if (sep) {
    n = 1;
    for (size_t pos = 0, hit; n < most && (hit = s.find(*sep, pos)) != std::string::npos; pos = hit + sep->size()) ++n;
  } else {
    size_t next = 0;
    for (size_t k = 0; k < s.size() && n < most;) {
      while (k < s.size() && space_at(s, k, next)) k = next;
      if (k == s.size()) break;
      ++n;
      while (k < s.size() && !space_at(s, k, next)) k = next;
    }
  }
  check_items("a list", n);
}

void too_many_bytes(const std::string& what, Count n) {
  throw LimitError(0, fmt::format("MemoryError: {} of {} characters is more than attn's limit of {} (limits::kMaxStrBytes)", what,
                               with_commas(n), with_commas(limits::kMaxStrBytes)));
}

std::string timeout_message(double seconds, const std::string& what) {
  return fmt::format("TimeoutError: {} ran longer than its time limit of {:g} seconds (--time-limit SECONDS changes it)", what,
                     seconds);
}

}  // namespace attn::py
