// print/wrap.cpp: fitting attn's own text to the terminal's width (see wrap.h).
#include "print/wrap.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace attn::print {

namespace {

// The words of a line, split at spaces, except inside a `code span`: `attn lesson causal` or
// `softmax(x, dim=1)` is one word, never broken (a command is copied from the terminal whole).
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  bool open = false;   // inside a code span that a previous word started
  for (std::string w; in >> w;) {
    if (open) out.back() += " " + w;
    else out.push_back(w);
    if (std::count(w.begin(), w.end(), '`') % 2 == 1) open = !open;
  }
  return out;
}

bool is_list_item(const std::string& line) { return line.rfind("- ", 0) == 0; }
bool is_indented(const std::string& line) { return !line.empty() && (line[0] == ' ' || line[0] == '\t'); }

}  // namespace

int column_width(char32_t c) {
  // Combining marks, zero-width spaces and joiners, variation selectors: no column of their own.
  static constexpr char32_t kZero[][2] = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
                                          {0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
                                          {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x20D0, 0x20FF},
                                          {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xE0100, 0xE01EF}};
  // East Asian Wide and Fullwidth (the ranges wcwidth and fmt's width computation use).
  static constexpr char32_t kWide[][2] = {{0x1100, 0x115F}, {0x2329, 0x232A}, {0x2E80, 0x303E}, {0x3041, 0x33FF},
                                          {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF}, {0xA960, 0xA97F},
                                          {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6F},
                                          {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF},
                                          {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};
  for (const auto& r : kZero)
    if (c >= r[0] && c <= r[1]) return 0;
  for (const auto& r : kWide)
    if (c >= r[0] && c <= r[1]) return 2;
  return 1;
}

namespace {

// The code point starting at s[k] (UTF-8; a stray or cut byte counts as one column); k moves past it.
char32_t next_code_point(const std::string& s, size_t& k) {
  auto b0 = static_cast<unsigned char>(s[k++]);
  if (b0 < 0xC0) return b0 < 0x80 ? b0 : U'?';
  int more = b0 >= 0xF0 ? 3 : b0 >= 0xE0 ? 2 : 1;
  char32_t c = b0 & (0x3F >> more);
  for (; more > 0 && k < s.size() && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80; --more) c = (c << 6) | (s[k++] & 0x3F);
  return more == 0 ? c : U'?';
}

// Past an escape sequence (CSI ... final byte in @..~) starting at s[k] == ESC.
size_t skip_escape(const std::string& s, size_t k) {
  for (++k; k < s.size() && !(s[k] >= '@' && s[k] <= '~' && s[k] != '['); ++k) {}
  return k + 1;
}

bool g_ascii = false;

}  // namespace

int visible_width(const std::string& s) {
  int n = 0;
  for (size_t k = 0; k < s.size();) {
    if (s[k] == '\x1b') k = skip_escape(s, k);
    else n += column_width(next_code_point(s, k));
  }
  return n;
}

std::string truncate_to_width(const std::string& s, int width) {
  int n = 0;
  for (size_t k = 0; k < s.size();) {
    size_t start = k;
    if (s[k] == '\x1b') {
      k = skip_escape(s, k);
      continue;
    }
    n += column_width(next_code_point(s, k));
    if (n > width) return s.substr(0, start);
  }
  return s;
}

void set_ascii_decorations(bool ascii) { g_ascii = ascii; }
bool ascii_decorations() { return g_ascii; }
std::string glyph(const char* utf8, const char* ascii) { return g_ascii ? ascii : utf8; }

std::string wrap_line(const std::string& line, int width, int indent) {
  size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return "";
  std::string out = line.substr(0, lead), pad(static_cast<size_t>(indent), ' ');
  int column = static_cast<int>(lead);
  bool first_on_line = true;
  for (const std::string& w : words_of(line.substr(lead))) {
    int ww = visible_width(w);
    if (!first_on_line && column + 1 + ww > width) {
      out += "\n" + pad;
      column = indent;
      first_on_line = true;
    }
    if (!first_on_line) {
      out += " ";
      ++column;
    }
    out += w;
    column += ww;
    first_on_line = false;
  }
  return out;
}

std::string wrap_prose(const std::string& text, int width) { return wrap_prose(text, width, {}); }

std::string wrap_prose(const std::string& text, int width, const std::vector<int>& refill, int measure) {
  std::istringstream in(text);
  std::vector<std::string> out;         // finished lines (a "" is a blank line)
  std::vector<std::string> written;     // the item being collected, its lines as written
  std::string item;                     // the same lines joined by spaces
  int item_indent = 0;
  bool in_list = false;
  int paragraph = 0;                    // which run of non-blank lines the item is in
  // An item whose lines all fit is kept as its author broke it; one that does not, or one in a
  // paragraph to refill, is filled again.
  auto flush = [&] {
    if (item.empty()) return;
    bool again = std::find(refill.begin(), refill.end(), paragraph) != refill.end();
    bool fits = true;
    for (const std::string& l : written) fits = fits && visible_width(l) <= width;
    if (fits && !again) {
      out.insert(out.end(), written.begin(), written.end());
    } else {
      std::istringstream lines(wrap_line(item, again ? std::min(width, measure) : width, item_indent));
      for (std::string l; std::getline(lines, l);) out.push_back(l);
    }
    item.clear();
    written.clear();
  };
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(" \t") == std::string::npos) {   // a paragraph ends
      flush();
      in_list = false;
      if (!out.empty() && !out.back().empty()) {
        out.push_back("");
        ++paragraph;
      }
    } else if (is_list_item(line)) {
      flush();
      item = line;
      written = {line};
      item_indent = 2;
      in_list = true;
    } else if (is_indented(line) && !in_list) {   // preformatted: as written
      flush();
      out.push_back(line);
    } else if (item.empty()) {
      item = line;
      written = {line};
      item_indent = 0;
    } else {
      item.append(" ").append(line, line.find_first_not_of(" \t"), std::string::npos);
      written.push_back(line);
    }
  }
  flush();
  while (!out.empty() && out.back().empty()) out.pop_back();
  std::string joined;
  for (size_t k = 0; k < out.size(); ++k) {
    if (k) joined += '\n';
    joined += out[k];
  }
  return joined;
}

}  // namespace attn::print
