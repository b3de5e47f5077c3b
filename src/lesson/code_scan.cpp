// lesson/code_scan.cpp: finding what the options rewrite in lesson code (see code_scan.h).
#include "lesson/code_scan.h"

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

}  // namespace attn::lesson
