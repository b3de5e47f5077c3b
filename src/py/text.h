// py/text.h: a str as Python sees it, a sequence of code points kept as UTF-8 bytes.
//
// What it is: the length, items, slices and positions of a str value by code point, as CPython
// indexes a str. Value::str counts the code points once, when the value is made (Value::i), so
// len() is O(1) and an all-ASCII str (the common case) indexes by byte. What it is not: the str
// methods (str_methods.cpp) or the character classes (print/unicode.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "print/unicode.h"
#include "py/value.h"

namespace attn::py {

namespace uc = print::unicode;

inline int64_t str_len(const Value& v) { return v.i; }
// ascii(): a repr with its non-ASCII code points escaped (\xe9, \u20ac, \U0001f600), as CPython's
// ascii(), `%a`, `!a` and `{!a}` make it.
std::string ascii_escaped(std::string_view repr);
inline bool str_ascii(const Value& v) { return v.i == static_cast<int64_t>(v.s.size()); }
// The byte where code point k (0 <= k <= len) of v starts.
inline size_t str_byte(const Value& v, int64_t k) { return str_ascii(v) ? static_cast<size_t>(k) : uc::offset_of(v.s, k); }
// The number of code points in the first `bytes` bytes of text.
inline int64_t cp_count(std::string_view text, size_t bytes) { return uc::length(text.substr(0, bytes)); }
// The code point that ends at byte `pos` of valid UTF-8 text; pos moves to its start.
inline char32_t prev_cp(std::string_view s, size_t& pos) {
  size_t start = pos - 1;
  while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
  size_t at = start;
  pos = start;
  return uc::next(s, at);
}

Value str_item(const Value& v, int64_t k);                      // v[k], 0 <= k < len(v)
Value str_slice(const Value& v, const std::vector<int64_t>& at);   // v[a:b:c] of the positions slice_positions chose
std::vector<Value> str_chars(const Value& v);                    // list(v): one str per code point

}  // namespace attn::py
