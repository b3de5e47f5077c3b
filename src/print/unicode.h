// print/unicode.h: the code points of a UTF-8 str and Python's character classes and case maps.
//
// What it is: what CPython 3.11's str knows of each code point (isalpha, isdecimal, isdigit,
// isnumeric, isspace, isprintable, islower, isupper, cased, case-ignorable, identifier
// characters; lower/upper/title/casefold, several characters where Unicode says so), from
// tables CPython itself wrote (tools/make_unicode_tables.py), and UTF-8 walking by code point.
// It lives in print/ because Python's repr() of a str (pyrepr.h) needs isprintable and the
// interpreter (py/) builds on print/. What it is not: normalisation, names (\N{...}), the
// unicodedata module, or a validator (source text is checked by the lexer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace attn::print::unicode {

// The number of code points of valid UTF-8 text (bytes that do not continue a sequence).
inline int64_t length(std::string_view s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}
// One code point at s[pos] (valid UTF-8); pos moves past it.
inline char32_t next(std::string_view s, std::size_t& pos) {
  const auto b0 = static_cast<unsigned char>(s[pos++]);
  if (b0 < 0x80) return b0;
  const int more = b0 >= 0xF0 ? 3 : b0 >= 0xE0 ? 2 : 1;
  char32_t c = b0 & (0x3F >> more);
  for (int k = 0; k < more && pos < s.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(s[pos++]) & 0x3F);
  return c;
}
// The byte where code point k starts (s.size() for k at or past the end), walking from the start.
std::size_t offset_of(std::string_view s, int64_t k);
void append(std::string& out, char32_t c);   // c as UTF-8
std::string encode(char32_t c);
std::u32string decode(std::string_view s);
std::string encode(std::u32string_view s);

// str.isX of one code point.
bool is_alpha(char32_t c);
bool is_decimal(char32_t c);
bool is_digit(char32_t c);
bool is_numeric(char32_t c);
bool is_alnum(char32_t c);
bool is_space(char32_t c);
bool is_printable(char32_t c);
bool is_lower(char32_t c);
bool is_upper(char32_t c);
bool is_title(char32_t c);       // a titlecase letter (Lt)
bool is_cased(char32_t c);
bool is_case_ignorable(char32_t c);
bool is_id_start(char32_t c);
bool is_id_continue(char32_t c);
bool is_linebreak(char32_t c);   // where str.splitlines breaks (\r\n is one break)

// The full case mappings of one code point, appended to out.
void append_lower(std::u32string& out, char32_t c);
void append_upper(std::u32string& out, char32_t c);
void append_title(std::u32string& out, char32_t c);
void append_fold(std::u32string& out, char32_t c);

}  // namespace attn::print::unicode
