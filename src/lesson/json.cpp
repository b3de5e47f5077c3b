// lesson/json.cpp: the JSON writer (see json.h).
#include "lesson/json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

namespace attn::lesson::json {

std::string str(const std::string& s) {
  std::string out = "\"";
  out.reserve(s.size() + 2);
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) out.append("\\u00").append(1, "0123456789abcdef"[c >> 4]).append(1, "0123456789abcdef"[c & 15]);   // \u001b
        else out += static_cast<char>(c);
    }
  }
  out += '"';
  return out;
}

template <typename T>
static std::string shortest(T v) {
  if (std::isnan(v)) return "\"nan\"";
  if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);   // shortest round-trip for this type
  return std::string(buf, res.ptr);
}

std::string number(float v) { return shortest(v); }
std::string number(double v) { return shortest(v); }
std::string integer(long long v) { return std::to_string(v); }

// A float stays a float when read back (1.0, not 1), as tensor.tolist() and Python give it.
template <typename T>
static std::string real_of(T v) {
  std::string s = shortest(v);
  return s.find_first_of(".e\"") == std::string::npos ? s + ".0" : s;
}
std::string real(float v) { return real_of(v); }
std::string real(double v) { return real_of(v); }

std::string seed(const std::string& s) {
  size_t sign = !s.empty() && s[0] == '-' ? 1 : 0;
  if (s.size() == sign || s.find_first_not_of("0123456789", sign) != std::string::npos) return str(s);
  size_t first = std::min(s.find_first_not_of('0', sign), s.size() - 1);
  return s.substr(0, sign) + s.substr(first);
}
std::string boolean(bool v) { return v ? "true" : "false"; }

Object& Object::add(const std::string& key, const std::string& raw_json) {
  body_ += (body_.empty() ? "" : ", ") + str(key) + ": " + raw_json;
  return *this;
}

std::string array(const std::vector<std::string>& raw_items) {
  std::string out = "[";
  for (size_t k = 0; k < raw_items.size(); ++k) out += (k ? ", " : "") + raw_items[k];
  return out + "]";
}

// ---- pretty ----

namespace {

// One pass over compact JSON: each value is formatted after its children, so a container knows
// whether they fit on one line.
class Pretty {
 public:
  Pretty(const std::string& s, int max_depth) : s_(s), max_depth_(max_depth) {}

  std::string value(int depth, size_t indent) {
    space();
    if (at() != '{' && at() != '[') return scalar();
    char open = s_[k_++], close = open == '{' ? '}' : ']';
    std::vector<std::string> items;
    bool nested = false, multiline = false;
    for (space(); k_ < s_.size() && at() != close; space()) {
      size_t start = k_;
      std::string item;
      if (open == '{') {
        item = scalar() + ": ";
        space();
        if (at() == ':') ++k_;
        space();
      }
      nested |= at() == '{' || at() == '[';
      item += value(depth + 1, indent + 2);
      multiline |= item.find('\n') != std::string::npos;
      items.push_back(std::move(item));
      space();
      if (at() == ',' || k_ == start) ++k_;   // (k_ == start: not JSON; skip a character, never loop)
    }
    ++k_;
    std::string flat(1, open);
    for (size_t i = 0; i < items.size(); ++i) flat += (i ? ", " : "") + items[i];
    flat += close;
    bool one_line = items.empty() || depth >= max_depth_ ||
                    (!multiline && depth > 0 && ((open == '[' && !nested) || indent + flat.size() <= 100));
    if (one_line) return flat;
    std::string out(1, open);
    for (size_t i = 0; i < items.size(); ++i)
      out.append("\n").append(indent + 2, ' ').append(items[i]).append(i + 1 < items.size() ? "," : "");
    return out + "\n" + std::string(indent, ' ') + close;
  }

 private:
  const std::string& s_;
  int max_depth_;
  size_t k_ = 0;

  char at() const { return k_ < s_.size() ? s_[k_] : '\0'; }
  void space() {
    while (k_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[k_]))) ++k_;
  }
  std::string scalar() {   // a string, number, true, false or null, as written
    size_t begin = k_;
    if (at() == '"') {
      for (++k_; k_ < s_.size() && s_[k_] != '"'; ++k_)
        if (s_[k_] == '\\') ++k_;
      ++k_;
    } else {
      while (k_ < s_.size() && !std::strchr(",:]} \t\r\n", s_[k_])) ++k_;
    }
    return s_.substr(begin, k_ - begin);
  }
};

}  // namespace

std::string pretty(const std::string& compact, int max_depth) { return Pretty(compact, max_depth).value(0, 0); }

}  // namespace attn::lesson::json
