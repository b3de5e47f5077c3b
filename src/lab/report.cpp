// lab/report.cpp: `attn check`'s text and JSON reports (see grade.h, report.h).
#include "lab/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>

#include "lab/arrays.h"
#include "lesson/json.h"
#include "print/wrap.h"
#include "print/pyrepr.h"

namespace attn::lab {

namespace json = lesson::json;
using lesson::LessonRun;
using lesson::RunOptions;

std::string code(const std::string& name) { return "`" + (name.empty() ? std::string("(unnamed value)") : name) + "`"; }

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t k = 0; k < names.size(); ++k) out += (k ? ", " : "") + names[k];
  return out;
}

// The options that changed the lesson's numbers, as typed: "--seed 42, --cpu avx2".
std::string options_words(const RunOptions& o) {
  std::vector<std::string> parts;
  if (o.seed) parts.push_back("--seed " + *o.seed);
  if (o.sentence) parts.push_back("--sentence '" + *o.sentence + "'");
  if (o.inputs) parts.push_back("--inputs '" + *o.inputs + "'");
  if (o.cpu) parts.push_back(std::string("--cpu ") + core::to_string(*o.cpu));
  if (o.rng) parts.push_back(std::string("--rng ") + core::to_string(*o.rng));
  return join_names(parts);
}

// nan, inf and -inf as Python prints them and the JSON report spells them: fmt writes a NaN with
// its sign bit set (what 0/0 gives on x86) as "-nan".
std::string num(double v) { return std::isnan(v) ? "nan" : fmt::format("{:.6g}", v); }
std::string num_signed(double v) { return std::isnan(v) ? "nan" : fmt::format("{:+.6g}", v); }

namespace {

// The words of `text`; a short [shape], (formula) or `command` is one word, so a line break never splits it.
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  std::vector<std::string> group;
  int depth = 0;
  bool tick = false;
  auto flush = [&] {
    std::string joined;
    for (const std::string& g : group) joined += (joined.empty() ? "" : " ") + g;
    if (joined.size() <= 48) words.push_back(joined);
    else words.insert(words.end(), group.begin(), group.end());
    group.clear();
  };
  for (std::string w; in >> w;) {
    group.push_back(w);
    for (char c : w) {
      if (c == '[' || c == '(') ++depth;
      if ((c == ']' || c == ')') && depth > 0) --depth;
      if (c == '`') tick = !tick;
    }
    if (depth == 0 && !tick) flush();
  }
  if (!group.empty()) flush();
  return words;
}

}  // namespace

// Word-wraps `text` at `width` columns; lines after the first start with `indent`.
std::string wrap(const std::string& text, size_t width, const std::string& first, const std::string& indent) {
  std::string out = first;
  size_t col = 0;
  for (unsigned char ch : first) col += (ch & 0xC0) != 0x80;
  std::vector<std::string> words = words_of(text);
  bool at_start = true;
  for (const std::string& w : words) {
    size_t wl = 0;
    for (unsigned char ch : w) wl += (ch & 0xC0) != 0x80;
    if (!at_start && col + 1 + wl > width) {
      out += "\n" + indent;
      col = indent.size();
      at_start = true;
    }
    if (!at_start) out += " ", ++col;
    out += w;
    col += wl;
    at_start = false;
  }
  return out + "\n";
}

namespace {

// True if a UTF-8 sequence of `len` bytes decoded to c is well formed: the shortest encoding of a
// scalar value (no surrogate, at most U+10FFFF).
bool well_formed(char32_t c, size_t len) {
  size_t shortest = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  return len == shortest && !(c >= 0xD800 && c <= 0xDFFF) && c <= 0x10FFFF;
}

std::string escaped(char32_t c) {
  if (c == '\n') return "\\n";
  if (c == '\r') return "\\r";
  if (c == '\t') return "\\t";
  auto u = static_cast<uint32_t>(c);
  return u <= 0xff ? fmt::format("\\x{:02x}", u) : u <= 0xffff ? fmt::format("\\u{:04x}", u) : fmt::format("\\U{:08x}", u);
}

// `text` with each byte that is not part of well-formed UTF-8 as \xNN, and with `escape_controls`
// every code point Python does not print as itself escaped as its repr() escapes it.
std::string sanitised(const std::string& text, bool escape_controls) {
  std::string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    size_t start = pos;
    char32_t c = print::detail::decode_utf8(text, pos);
    if (!well_formed(c, pos - start)) {
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(text[start]));
      pos = start + 1;
    } else if (!escape_controls || print::detail::py_is_printable(c)) {
      out.append(text, start, pos - start);
    } else {
      out += escaped(c);
    }
  }
  return out;
}

}  // namespace

std::string printable(const std::string& text) { return sanitised(text, true); }
std::string valid_utf8(const std::string& text) { return sanitised(text, false); }

namespace {

// The first differences as a table: 14 columns each, or as narrow as its numbers when the
// terminal is narrower than that table (62 columns).
std::string difference_table(const Grade& g, size_t width) {
  std::vector<std::array<std::string, 4>> rows = {{"index", "expected", "yours", "difference"}};
  for (const Difference& d : g.first)
    rows.push_back({index_str(d.index), num(d.expected), num(d.got), num_signed(d.got - d.expected)});
  std::array<size_t, 4> w = {14, 14, 14, 14};
  if (6 + 4 * 14 > width)
    for (size_t c = 0; c < 4; ++c) {
      w[c] = 0;
      for (const auto& r : rows) w[c] = std::max(w[c], r[c].size() + 2);
    }
  std::string out;
  for (const auto& r : rows) out += fmt::format("      {:<{}}{:>{}}{:>{}}{:>{}}\n", r[0], w[0], r[1], w[1], r[2], w[2], r[3], w[3]);
  return out;
}

// The PASS/FAIL line as it is when it fits; else wrapped, continuing under what is graded.
std::string status_line(const std::string& line, size_t width) {
  size_t cols = 0;
  for (unsigned char ch : line) cols += (ch & 0xC0) != 0x80;
  return cols <= width ? line + "\n" : wrap(line.substr(6), width, line.substr(0, 6), "      ");
}

}  // namespace

namespace {
// attn's own words in a report under a locale that is not UTF-8 (LANG=C, print/wrap.h): its
// mathematical signs spelled in ASCII. Only the report's wording and hints pass through here,
// never a file name or anything else the student or the lesson wrote.
std::string own_words(std::string text) {
  if (!print::ascii_decorations()) return text;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"·", "*"}, {"≈", "~"}, {"→", "->"}, {"—", "-"}}) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  }
  const std::string root = "√";   // √d_k, √2: sqrt(d_k), sqrt(2)
  for (size_t at = text.find(root); at != std::string::npos; at = text.find(root, at)) {
    size_t end = at + root.size();
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
                                 (text[end] == '.' && end + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[end + 1])))))
      ++end;
    const std::string arg = text.substr(at + root.size(), end - at - root.size());
    text.replace(at, end - at, fmt::format("sqrt({})", arg));
  }
  return text;
}
}  // namespace

std::string format_text(const Grade& g, const Target& target, const Answer& answer, const Tolerance& tol, const RunOptions& opts,
                        size_t width) {
  std::string out;
  std::string what = fmt::format("{}/{}  {} {}", g.lesson, g.step, g.name.empty() ? "(unnamed value)" : g.name, core::shape_str(g.expected_shape));
  std::string rule = own_words(fmt::format("{:g}+{:g}·|expected|", tol.atol, tol.rtol));   // one word: wrap() keeps it whole
  std::string yours = fmt::format("your answer ({}, {})", answer.file, answer.dtype);
  std::string given = options_words(opts);
  out += status_line(fmt::format("{}  {}{}", g.pass ? "PASS" : "FAIL", what, given.empty() ? "" : "  (lesson run with " + given + ")"), width);
  if (!g.read_as.empty()) out += wrap(fmt::format("{} is {}.", answer.file, g.read_as), width, "      ", "      ");
  if (!g.shape_match) {
    out += wrap(fmt::format("shape mismatch: {} has shape {}, the lesson's tensor has {}.", yours, core::shape_str(g.got_shape),
                            core::shape_str(g.expected_shape)),
                width, "      ", "      ");
  } else if (g.pass) {
    out += wrap(fmt::format("{} of {} agree{} within {}; the largest difference is {}.",
                            g.n_elements == 1 ? "the element" : fmt::format("all {} elements", g.n_elements), yours,
                            g.n_elements == 1 ? "s" : "", rule, num(g.max_abs_diff)),
                width, "      ", "      ");
  } else {
    int64_t flat = 0;
    for (size_t d = 0; d < g.max_index.size(); ++d) flat = flat * g.expected_shape[d] + g.max_index[d];
    bool nan_at_max = static_cast<size_t>(flat) < answer.data.size() && std::isnan(answer.data[static_cast<size_t>(flat)]);
    std::string largest = nan_at_max ? fmt::format("at {}, where yours is NaN", index_str(g.max_index))
                                     : fmt::format("{} at {}", num(g.max_abs_diff), index_str(g.max_index));
    out += wrap(fmt::format("{} of {} elements of {} differ by more than {}; the largest difference is {}.", g.n_differ,
                            g.n_elements, yours, rule, largest),
                width, "      ", "      ");
    out += difference_table(g, width);
    if (g.n_differ > static_cast<int64_t>(g.first.size())) out += fmt::format("      ({} more)\n", g.n_differ - static_cast<int64_t>(g.first.size()));
    if (g.n_nan > 0)
      out += wrap(fmt::format("{} of your numbers {} NaN where the lesson's are numbers: a softmax over a row that is all -inf "
                              "gives NaN (0/0), as does dividing a row of zeros by its sum.",
                              g.n_nan, g.n_nan == 1 ? "is" : "are"),
                  width, "      ", "      ");
  }
  if (target.float_names.size() > 1)
    out += wrap(fmt::format("(step '{}' prints {} float tensors: {}; {}; {})", g.step, target.float_names.size(),
                            join_names(target.float_names), g.name == target.float_names.back() ? "the last is graded" : "graded: " + g.name,
                            std::set<std::string>(target.float_names.begin(), target.float_names.end()).size() < target.float_names.size()
                                ? "--name or --index selects another"
                                : "--name selects another"),
                width, "      ", "      ");
  for (const Hint& h : g.hints) out += wrap(own_words(h.message), width, "hint: ", "      ");
  if (!g.pass && g.hints.empty() && g.shape_match)
    out += wrap(own_words("no hint: the answer matches none of the mistakes attn check can recognise (wrong softmax axis, missing 1/√d_k, "
                          "mask errors, transposes, draw order, another printed tensor)."),
                width, "      ", "      ");
  return out;
}

// "options" of the JSON report: the inputs as given (seed a number), the kernels, the tolerance.
std::string options_json(const RunOptions& opts, const std::string& cpu, const std::string& rng, const Tolerance& tol) {
  auto opt = [](const std::optional<std::string>& s) { return s ? json::str(*s) : std::string("null"); };
  return json::Object()
      .add("seed", opts.seed ? json::seed(*opts.seed) : "null")
      .add("sentence", opt(opts.sentence))
      .add("inputs", opt(opts.inputs))
      .add("cpu", cpu)
      .add("rng", rng)
      .add("atol", json::real(tol.atol))
      .add("rtol", json::real(tol.rtol))
      .done();
}

namespace {

// A lesson or step as typed, or quoted as Python's repr() would if it is empty or holds a control
// character: the header stays one line, with no escape code from the command line in it.
std::string as_typed(const std::string& s) {
  bool plain = !s.empty() && std::none_of(s.begin(), s.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; });
  return plain ? s : lesson::quoted_input(s);
}

std::string what_line(const Request& r) {
  std::string given = options_words(r.opts);
  if (!given.empty() && as_typed(given) != given) given = as_typed(given);
  return fmt::format("{}/{}{}", as_typed(r.lesson), as_typed(r.step), given.empty() ? "" : "  (lesson run with " + given + ")");
}

}  // namespace

std::string format_error_text(const Request& r, const std::string& message, size_t width) {
  return fmt::format("ERROR  {}\n", what_line(r)) + wrap("cannot grade: " + printable(message), width, "      ", "      ");
}

std::string format_error_json(const Request& r, const std::string& message) {
  auto str_or_null = [](const std::string& s) { return s.empty() ? std::string("null") : json::str(s); };
  json::Object o;
  o.add("lesson", json::str(valid_utf8(r.lesson))).add("step", json::str(valid_utf8(r.step))).add("name", str_or_null(valid_utf8(r.name)));
  o.add("answer", json::Object().add("file", json::str(valid_utf8(r.answer_file))).done());
  o.add("options", options_json(r.opts, r.opts.cpu ? json::str(core::to_string(*r.opts.cpu)) : "null",
                                r.opts.rng ? json::str(core::to_string(*r.opts.rng)) : "null", r.tol));
  o.add("pass", "false");
  o.add("error", json::str(valid_utf8(message)));   // it may quote a file's bytes, which need not be UTF-8
  return o.done() + "\n";
}

std::string format_json(const Grade& g, const Answer& answer, const Tolerance& tol, const LessonRun& run, const RunOptions& opts) {
  auto ints = [](const std::vector<int64_t>& v) {
    std::vector<std::string> items;
    for (int64_t x : v) items.push_back(json::integer(x));
    return json::array(items);
  };
  bool f4 = answer.dtype == "<f4";
  auto got_num = [&](double v) { return f4 ? json::real(static_cast<float>(v)) : json::real(v); };
  std::vector<std::string> diffs, hints;
  for (const Difference& d : g.first)
    diffs.push_back(json::Object()
                        .add("index", ints(d.index))
                        .add("expected", json::real(static_cast<float>(d.expected)))
                        .add("got", got_num(d.got))
                        .add("abs_diff", json::real(std::fabs(d.got - d.expected)))
                        .done());
  for (const Hint& h : g.hints) hints.push_back(json::Object().add("kind", json::str(std::string(to_string(h.kind)))).add("message", json::str(valid_utf8(h.message))).done());
  json::Object o;
  o.add("lesson", json::str(g.lesson)).add("step", json::str(g.step)).add("name", json::str(g.name));
  o.add("answer", json::Object()
                      .add("file", json::str(valid_utf8(answer.file)))
                      .add("format", json::str(answer.format == Answer::Format::npy ? "npy" : answer.format == Answer::Format::code ? "code" : "text"))
                      .add("dtype", json::str(answer.dtype))
                      .add("shape", ints(answer.shape))
                      .done());
  o.add("options", options_json(opts, json::str(core::to_string(run.cpu)), json::str(core::to_string(run.rng)), tol));
  o.add("pass", g.pass ? "true" : "false");
  o.add("shape", json::Object().add("expected", ints(g.expected_shape)).add("got", ints(g.got_shape)).done());
  o.add("n_elements", json::integer(g.n_elements));
  o.add("n_differ", g.shape_match ? json::integer(g.n_differ) : "null");
  o.add("n_nan", g.shape_match ? json::integer(g.n_nan) : "null");
  o.add("max_abs_diff", g.shape_match ? json::real(g.max_abs_diff) : "null");
  o.add("max_abs_diff_index", g.shape_match ? ints(g.max_index) : "null");
  o.add("differences", json::array(diffs));
  o.add("hints", json::array(hints));
  return o.done() + "\n";
}

}  // namespace attn::lab
