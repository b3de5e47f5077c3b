// lesson/json.h: a small JSON writer for attn's machine-readable output (--format json,
// notebooks). What it is: correct escaping and float32 numbers at full precision (the shortest
// text that reads back as the same float32). JSON has no inf/nan, so non-finite numbers are
// written as the strings "inf", "-inf" and "nan" (documented in the README's schema).
// What it is not: a parser, or a DOM.
#pragma once

#include <string>
#include <vector>

namespace attn::lesson::json {

std::string str(const std::string& s);            // "quoted, escaped"
std::string number(float v);                       // 0.1 -> 0.1 (shortest float32 round trip); inf -> "inf"
std::string number(double v);                      // shortest double round trip
std::string integer(long long v);

// Builds one JSON object in insertion order: obj().add("a", json::str("x")).add("n", "1").done().
class Object {
 public:
  Object& add(const std::string& key, const std::string& raw_json);
  std::string done() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

std::string array(const std::vector<std::string>& raw_items);

}  // namespace attn::lesson::json
