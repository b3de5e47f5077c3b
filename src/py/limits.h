// py/limits.h: the named limits that keep a lesson cell from crashing attn, filling the memory
// or running forever, and the error they raise.
//
// What it is: one constant per limit (the name every message quotes; LimitError is in ast.h), and the
// guards that count nesting (parser, evaluator, nested values) and watch the C++ stack. Where
// CPython has the same limit, attn keeps CPython's number and words (200 nested brackets, 100
// levels of indentation, 4300-digit int/str conversion).
// What it is not: Python's own errors at the C boundary (an int too large for an index or a
// float: ints.h), or the sizes a host library checks itself.
//
// A LimitError is not a Python exception: a lesson's own try/except must not catch it (the
// cell stops, and the message says which limit stopped it and how to change it, if it can be).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "py/ast.h"

namespace attn::py {

namespace limits {
inline constexpr int kMaxBrackets = 200;              // nested ( [ {: CPython's MAXLEVEL
inline constexpr int kMaxIndent = 100;                // levels of indentation: CPython's MAXINDENT
inline constexpr int kMaxExprDepth = 1000;            // parser: operators and calls nested in one expression
inline constexpr int kMaxEvalDepth = 4000;            // evaluator: nested expression evaluations, all frames
inline constexpr int kMaxValueDepth = 1000;           // a list in a list in ...: repr, ==, hash, copies, JSON
inline constexpr uint64_t kMaxIntBits = 100'000;      // an int's size (2**99999 is the largest power of 2)
inline constexpr size_t kMaxIntStrDigits = 4300;      // int <-> str: CPython's default int_max_str_digits
inline constexpr size_t kMaxItems = 10'000'000;       // a list, tuple, dict or set
inline constexpr size_t kMaxStrBytes = 100'000'000;   // a str (bytes of UTF-8)
inline constexpr size_t kMaxPrintedBytes = 100'000'000;   // what one cell prints (held until it ends)
inline constexpr int64_t kMaxSteps = 20'000'000;      // statements and loop iterations of one cell
inline constexpr double kDefaultTimeLimit = 60.0;     // seconds one cell may run (--time-limit)
inline constexpr size_t kMaxModuleFileBytes = size_t{1} << 20;   // an imported .py file: 1 MiB, as a lesson file
inline constexpr size_t kMaxLiveGenerators = 2'000;   // generators started and not finished, at once (each has a stack)
}  // namespace limits

// LimitError (ast.h) is raised with line 0 where no line is known; the statement it stopped
// fills its line in.

// Raises LimitError when less than a safety margin of this thread's C++ stack is left.
void check_stack();
// A generator runs on a C++ stack of its own (generator.cpp): while it runs, check_stack guards
// that stack, `floor` being its lowest usable address (0: the thread's own stack). Returns the
// floor it replaces, for the switch back.
uintptr_t set_stack_floor(uintptr_t floor);
inline constexpr size_t kStackMargin = 512 * 1024;   // what check_stack keeps free below the deepest frame


// Counts one level of some nesting for as long as it lives; past `max` it raises LimitError
// with `message` (which names the limit). Also raises when the C++ stack is nearly used up,
// whatever the count, so no input can overflow it.
class DepthGuard {
 public:
  DepthGuard(int& depth, int max, const char* message) : depth_(depth) {
    if (depth_ >= max) overflow(message);
    check_stack();
    ++depth_;
  }
  ~DepthGuard() { --depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  int& depth_;
  [[noreturn]] static void overflow(const char* message);
};

// One level of a nested value being walked (repr, ==, <, hash, snapshot, JSON), counted per
// thread: past limits::kMaxValueDepth a Python RecursionError ("maximum recursion depth exceeded
// while getting the repr of an object"), which a cell may catch, as in CPython.
class ValueDepthGuard {
 public:
  explicit ValueDepthGuard(const char* while_doing);
  ~ValueDepthGuard();
  ValueDepthGuard(const ValueDepthGuard&) = delete;
  ValueDepthGuard& operator=(const ValueDepthGuard&) = delete;
};

// A size as computed from what a cell asked for: wide enough that a product of two sizes is exact.
using Count = unsigned __int128;

// A container or string that would pass its limit: "MemoryError: a list of 1,000,000,000,000
// items is more than attn's limit of 10,000,000 items (limits::kMaxItems)".
[[noreturn]] void too_many_items(const std::string& what, Count n);
[[noreturn]] void too_many_bytes(const std::string& what, Count n);
inline void check_items(const std::string& what, Count n) { if (n > limits::kMaxItems) too_many_items(what, n); }
// Before split/rsplit build their list: the pieces counted, where `s` is long enough for more
// than kMaxItems, so `('ab' * 5 * 10**7).split('a')` fails before it makes 50 million strs.
// sep: the separator, or null for runs of whitespace (space_at: whether the character at byte
// `pos` is whitespace, `after` set to where the next one starts: a byte for bytes, a code point
// for a str, so '\u3000a' * 2 * 10**7 counts its 20 million pieces). maxsplit < 0: no limit.
using SpaceAt = bool (*)(const std::string& s, size_t pos, size_t& after);
void check_split_items(const std::string& s, const std::string* sep, int64_t maxsplit, SpaceAt space_at);
inline void check_bytes(const std::string& what, Count n) { if (n > limits::kMaxStrBytes) too_many_bytes(what, n); }
// Before `out += piece` where a str is built piece by piece (format, %, f-strings): never past the limit.
inline void check_append(const std::string& out, size_t piece) { check_bytes("a str", static_cast<Count>(out.size()) + piece); }

std::string with_commas(Count n);   // 10000000 -> "10,000,000"

// What a cell that ran past its time limit stops with (a LimitError's text).
std::string timeout_message(double seconds, const std::string& what = "the cell");   // what: Interpreter::code_name()

}  // namespace attn::py
