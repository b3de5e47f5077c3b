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

int visible_width(const std::string& s) {
  int n = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == '\x1b') {   // CSI ... final byte in @..~
      for (++k; k < s.size() && !(s[k] >= '@' && s[k] <= '~' && s[k] != '['); ++k) {}
      continue;
    }
    n += (static_cast<unsigned char>(s[k]) & 0xC0) != 0x80;
  }
  return n;
}

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
