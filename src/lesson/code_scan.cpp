// lesson/code_scan.cpp: finding what the options rewrite in lesson code (see code_scan.h).
#include "lesson/code_scan.h"

#include <sstream>
#include <string>

namespace attn::lesson {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

size_t skip_spaces(const std::string& s, size_t k) {
  while (k < s.size() && is_space(s[k])) ++k;
  return k;
}

bool at(const std::string& s, size_t k, const char* word) { return s.compare(k, std::char_traits<char>::length(word), word) == 0; }

// The text of a one-line Python string literal 'abc' or "abc" (the escapes py_str_repr writes).
std::string unquote(const std::string& literal) {
  std::string out;
  for (size_t k = 1; k + 1 < literal.size(); ++k) {
    if (literal[k] == '\\' && k + 2 < literal.size()) {
      char e = literal[++k];
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
    } else {
      out += literal[k];
    }
  }
  return out;
}

}  // namespace

std::vector<CodeSpan> seed_calls(const std::string& code) {
  static const char* const kCall = "torch.manual_seed(";
  const size_t call_len = std::char_traits<char>::length(kCall);
  std::vector<CodeSpan> out;
  for (size_t begin = code.find(kCall); begin != std::string::npos; begin = code.find(kCall, begin + 1)) {
    size_t k = skip_spaces(code, begin + call_len);
    if (k < code.size() && code[k] == '-') ++k;
    size_t digits = k;
    while (k < code.size() && ((code[k] >= '0' && code[k] <= '9') || code[k] == '_')) ++k;
    if (k == digits) continue;
    k = skip_spaces(code, k);
    if (k < code.size() && code[k] == ')') {
      out.push_back({begin, k + 1});
      begin = k;
    }
  }
  return out;
}

bool is_seed_statement(const std::string& line) {
  size_t k = skip_spaces(line, 0);
  if (!at(line, k, "torch.manual_seed(") || line.find_first_of("\r\n", k) != std::string::npos) return false;
  // Some ')' after the '(' with only spaces, and then perhaps a '#' comment, after it.
  bool rest_ok = true;   // line[i..] is spaces, then perhaps '#...', for i = size
  for (size_t i = line.size(); i-- > k + 18;) {
    if (line[i] == ')' && rest_ok) return true;
    rest_ok = line[i] == '#' || (rest_ok && is_space(line[i]));
  }
  return false;
}

std::optional<SentenceLine> sentence_line(const std::string& line) {
  size_t k = skip_spaces(line, 0);
  if (!at(line, k, "sentence")) return std::nullopt;
  k = skip_spaces(line, k + 8);
  if (k >= line.size() || line[k] != '=') return std::nullopt;
  k = skip_spaces(line, k + 1);
  if (k >= line.size() || (line[k] != '\'' && line[k] != '"')) return std::nullopt;
  size_t end = line.size();
  while (end > k && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
  // One literal: the line ends with the quote it opened with (a line break inside it would not).
  if (end - k < 2 || line[end - 1] != line[k] || line.find_first_of("\r\n", k) < end) return std::nullopt;
  return SentenceLine{k, unquote(line.substr(k, end - k))};
}

// `inputs = torch.tensor(` at the start of the line at `line`: where the call's bracket closes
// (npos if it never does), or nullopt if the line does not start so.
static std::optional<size_t> inputs_call_end(const std::string& code, size_t line) {
  if (!at(code, line, "inputs")) return std::nullopt;
  size_t k = skip_spaces(code, line + 6);
  if (k >= code.size() || code[k] != '=') return std::nullopt;
  k = skip_spaces(code, k + 1);
  if (!at(code, k, "torch.tensor(")) return std::nullopt;
  int depth = 1;
  for (k += 13; k < code.size() && depth > 0; ++k) {
    char c = code[k];
    if (c == '#') {
      while (k < code.size() && code[k] != '\n') ++k;
    } else if (c == '\'' || c == '"') {
      for (++k; k < code.size() && code[k] != c; ++k) {}
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    }
  }
  return depth == 0 ? k : std::string::npos;
}

std::optional<CodeSpan> inputs_statement(const std::string& code) {
  for (size_t line = 0;;) {
    if (std::optional<size_t> end = inputs_call_end(code, line))   // the first such line decides
      return *end == std::string::npos ? std::nullopt : std::optional<CodeSpan>(CodeSpan{line, *end});
    size_t newline = code.find('\n', line);
    if (newline == std::string::npos) return std::nullopt;
    line = newline + 1;
  }
}

std::optional<InputsShape> inputs_shape(const std::string& statement) {
  size_t k = statement.find("torch.tensor(");
  if (k == std::string::npos) return std::nullopt;
  InputsShape shape;
  int depth = 0;
  size_t items = 0;   // numbers (commas + 1) in the row being read
  bool any = false;
  for (k += 13; k < statement.size(); ++k) {
    char c = statement[k];
    if (c == '#') {
      while (k < statement.size() && statement[k] != '\n') ++k;
    } else if (c == '\'' || c == '"') {
      return std::nullopt;   // a string in the matrix: not numbers
    } else if (c == '[') {
      if (++depth > 2) return std::nullopt;
      if (depth == 2) items = 0, any = false;
    } else if (c == ']') {
      if (depth == 2) {
        size_t cols = items + (any ? 1 : 0);
        if (shape.rows > 0 && cols != shape.cols) return std::nullopt;
        shape.cols = cols;
        ++shape.rows;
      }
      if (--depth == 0) break;
    } else if (depth == 2 && c == ',') {
      ++items;
      any = false;
    } else if (depth == 2 && !is_space(c)) {
      any = true;
    } else if (depth == 1 && !is_space(c) && c != ',') {
      return std::nullopt;   // a number outside a row: a vector, not a matrix
    }
  }
  if (shape.rows == 0 || shape.cols == 0) return std::nullopt;
  return shape;
}

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return c == '_' || is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// torch.empty(R0, R0) and its kin -> (R, R), spaces kept.
std::string rewrite_square_calls(const std::string& code, size_t r0, size_t r) {
  static const char* const kNames[] = {"empty", "zeros", "ones", "rand", "randn"};
  std::string out;
  size_t done = 0;
  for (size_t at = code.find("torch."); at != std::string::npos; at = code.find("torch.", at + 1)) {
    size_t k = at + 6;
    size_t name_end = k;
    while (name_end < code.size() && is_name_char(code[name_end])) ++name_end;
    std::string name = code.substr(k, name_end - k);
    bool known = false;
    for (const char* n : kNames) known = known || name == n;
    if (!known || name_end >= code.size() || code[name_end] != '(') continue;
    // '(' spaces digits spaces ',' spaces digits spaces ')'
    size_t a = skip_spaces(code, name_end + 1), a_end = a;
    while (a_end < code.size() && is_digit(code[a_end])) ++a_end;
    size_t comma = skip_spaces(code, a_end);
    if (a_end == a || comma >= code.size() || code[comma] != ',') continue;
    size_t b = skip_spaces(code, comma + 1), b_end = b;
    while (b_end < code.size() && is_digit(code[b_end])) ++b_end;
    size_t close = skip_spaces(code, b_end);
    if (b_end == b || close >= code.size() || code[close] != ')') continue;
    if (code.substr(a, a_end - a) != std::to_string(r0) || code.substr(b, b_end - b) != std::to_string(r0)) continue;
    out += code.substr(done, a - done) + std::to_string(r) + code.substr(a_end, b - a_end) + std::to_string(r);
    done = b_end;
  }
  return out + code.substr(done);
}

std::string trim_copy(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// `d_in = C0` / `a, d_in = x, C0` (names, one '=', as many values, perhaps a comment) -> C.
std::string rewrite_d_in_line(const std::string& line, size_t c0, size_t c) {
  size_t eq = line.find('=');
  if (eq == std::string::npos || eq == 0 || (eq + 1 < line.size() && line[eq + 1] == '=')) return line;
  std::string lhs = line.substr(0, eq);
  size_t hash = line.find('#', eq);
  std::string rhs = line.substr(eq + 1, (hash == std::string::npos ? line.size() : hash) - eq - 1);
  if (rhs.find_first_of("'\"") != std::string::npos) return line;
  std::vector<std::string> names, values;
  std::istringstream l(lhs), r(rhs);
  for (std::string n; std::getline(l, n, ',');) names.push_back(trim_copy(n));
  for (std::string v; std::getline(r, v, ',');) values.push_back(v);
  if (names.size() != values.size()) return line;
  size_t offset = eq + 1;   // where values[k] starts in the line
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string& n = names[k];
    if (n.empty() || is_digit(n[0])) return line;
    for (char ch : n)
      if (!is_name_char(ch)) return line;
    if (n == "d_in" && trim_copy(values[k]) == std::to_string(c0)) {
      size_t lead = values[k].find_first_not_of(" \t");
      return line.substr(0, offset + lead) + std::to_string(c) + line.substr(offset + lead + std::to_string(c0).size());
    }
    offset += values[k].size() + 1;
  }
  return line;
}

}  // namespace

std::string rewrite_for_shape(const std::string& code, InputsShape own, InputsShape given) {
  if (own == given) return code;
  std::string squares = own.rows == given.rows ? code : rewrite_square_calls(code, own.rows, given.rows);
  if (own.cols == given.cols) return squares;
  std::string out;
  size_t start = 0;
  while (start <= squares.size()) {
    size_t end = squares.find('\n', start);
    std::string line = squares.substr(start, end == std::string::npos ? std::string::npos : end - start);
    out += rewrite_d_in_line(line, own.cols, given.cols);
    if (end == std::string::npos) break;
    out += "\n";
    start = end + 1;
  }
  return out;
}

}  // namespace attn::lesson
