// print/one_line.cpp: one line per message, control characters made visible (see one_line.h).
#include "print/one_line.h"

#include <fmt/format.h>

namespace attn::print {

namespace {

// The length of the well-formed UTF-8 sequence starting at text[k] (2 to 4 bytes), or 0 if the
// bytes there are not one (a stray continuation byte, an overlong form, a cut-off sequence).
size_t utf8_length(std::string_view text, size_t k) {
  auto byte = [&](size_t j) { return static_cast<unsigned char>(text[j]); };
  unsigned char b = byte(k);
  size_t n = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 && b <= 0xDF ? 2 : 0;
  if (n == 0 || k + n > text.size()) return 0;
  for (size_t j = 1; j < n; ++j)
    if ((byte(k + j) & 0xC0) != 0x80) return 0;
  if (n == 3 && ((b == 0xE0 && byte(k + 1) < 0xA0) || (b == 0xED && byte(k + 1) >= 0xA0))) return 0;   // overlong, surrogate
  if (n == 4 && ((b == 0xF0 && byte(k + 1) < 0x90) || (b == 0xF4 && byte(k + 1) >= 0x90))) return 0;   // overlong, > U+10FFFF
  return n;
}

// A bidirectional embedding, override or isolate control at text[k] (three bytes, E2 80 AA..AE
// or E2 81 A6..A9): "Trojan Source" text that makes a terminal show characters in another order.
bool is_bidi_control(std::string_view text, size_t k) {
  auto byte = [&](size_t j) { return static_cast<unsigned char>(text[k + j]); };
  return byte(0) == 0xE2 && ((byte(1) == 0x80 && byte(2) >= 0xAA && byte(2) <= 0xAE) || (byte(1) == 0x81 && byte(2) >= 0xA6 && byte(2) <= 0xA9));
}

}  // namespace

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t k = 0; k < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++k;
      continue;
    }
    size_t n = c >= 0x80 ? utf8_length(text, k) : 0;
    if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[k + 1]) < 0xA0) {   // U+0080..U+009F: C1 controls
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[k + 1]));
      k += 2;
    } else if (n == 3 && is_bidi_control(text, k)) {   // U+202A..202E, U+2066..2069: would reorder the line
      out += fmt::format("\\u{:04x}", 0x2000 + ((static_cast<unsigned char>(text[k + 1]) & 0x3F) << 6) +
                                           (static_cast<unsigned char>(text[k + 2]) & 0x3F));
      k += 3;
    } else if (n > 0) {
      out.append(text.substr(k, n));
      k += n;
    } else {
      out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : fmt::format("\\x{:02x}", c);
      ++k;
    }
  }
  return out;
}

}  // namespace attn::print
