// lesson/json.cpp: the JSON writer (see json.h).
#include "lesson/json.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace attn::lesson::json {

std::string str(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20) out += fmt::format("\\u{:04x}", c);
        else out += static_cast<char>(c);
    }
  }
  return out + "\"";
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

Object& Object::add(const std::string& key, const std::string& raw_json) {
  body_ += (body_.empty() ? "" : ", ") + str(key) + ": " + raw_json;
  return *this;
}

std::string array(const std::vector<std::string>& raw_items) {
  std::string out = "[";
  for (size_t k = 0; k < raw_items.size(); ++k) out += (k ? ", " : "") + raw_items[k];
  return out + "]";
}

}  // namespace attn::lesson::json
