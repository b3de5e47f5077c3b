// py/unicodedata.h: the Unicode 14.0 character database behind Python's unicodedata module.
//
// What it is: what CPython 3.11's unicodedata answers for one code point (category,
// bidirectional class, east asian width, mirrored, combining class, decomposition, decimal /
// digit / numeric value) and normalize() to NFC, NFD, NFKC, NFKD, from tables CPython wrote
// (tools/make_unicodedata_tables.py). module_unicodedata.cpp makes the Python module of it; the
// tests call it directly. What it is not: character names (name(), lookup(), \N{...}), or
// Unicode 3.2 (ucd_3_2_0).
#pragma once

#include <string>
#include <string_view>

namespace attn::py::ucd {

struct Properties {
  const char* category;
  const char* bidirectional;
  const char* east_asian_width;
  int mirrored;
  int combining;
};
Properties properties(char32_t c);
std::string decomposition(char32_t c);   // as unicodedata.decomposition: "<compat> 0020 0301", or ""

struct Numeric {
  bool has = false;   // numeric() has a value
  int decimal = -1, digit = -1;   // -1: none
  double value = 0;
};
Numeric numeric(char32_t c);

enum class Form { NFC, NFD, NFKC, NFKD };
std::u32string normalize(Form form, std::u32string_view s);

}  // namespace attn::py::ucd
