// lesson/json.h: a small JSON writer for attn's machine-readable output (--format json,
// notebooks). What it is: correct escaping and float32 numbers at full precision (the shortest
// text that reads back as the same float32). JSON has no inf/nan, so non-finite numbers are
// written as the strings "inf", "-inf" and "nan" (documented in docs/scripting.md); and
// pretty(), which re-indents what it wrote for people. What it is not: a parser, or a DOM.
// The documents themselves (a lesson run, verify, list) are in json_run.h.
#pragma once

#include <string>
#include <vector>

namespace attn::lesson::json {

std::string str(const std::string& s);            // "quoted, escaped"
std::string number(float v);                       // 0.1 -> 0.1 (shortest float32 round trip); inf -> "inf"
std::string number(double v);                      // shortest double round trip
std::string integer(long long v);
std::string real(float v);                         // as number(), but a float stays a float: 1.0, not 1
std::string real(double v);
// A seed (an integer in PyTorch's range, as validated text) as a JSON integer: it may exceed
// 2^63, so it is not parsed; leading zeros, which JSON forbids, are dropped ("007" -> 7). Text
// that is not an integer stays a string.
std::string seed(const std::string& s);
std::string boolean(bool v);                       // true / false
inline const std::string null = "null";

// Builds one JSON object in insertion order: obj().add("a", json::str("x")).add("n", "1").done().
class Object {
 public:
  Object& add(const std::string& key, const std::string& raw_json);
  std::string done() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

std::string array(const std::vector<std::string>& raw_items);

// Re-indents compact JSON for people and diffs, two spaces a level. The outermost container has
// one member a line; below it, an array of numbers or strings stays on one line however long (a
// tensor row reads as a row), and other arrays and objects stay on one line if that fits in 100
// columns, else one member a line. Containers at depth >= `max_depth` (the outermost is depth 0)
// always stay on one line: `attn list` uses 2, one lesson a line.
//   pretty(R"({"a": [1, 2], "b": {"c": []}})") == "{\n  \"a\": [1, 2],\n  \"b\": {\"c\": []}\n}"
std::string pretty(const std::string& compact, int max_depth = 1000);

}  // namespace attn::lesson::json
