// py/lexer.cpp: Python tokenization for lesson cells (see lexer.h).
#include "py/lexer.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "py/ast.h"
#include "py/bigint.h"
#include "py/limits.h"

namespace attn::py {

namespace {

const char* const kOps3[] = {"**=", "//=", "...", "!==", ">>=", "<<="};
const char* const kOps2[] = {":=", "**", "//", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "@=", "%=", "&=", "|=", "^=",
                             "->", "<<", ">>"};

class Lexer {
 public:
  Lexer(const std::string& s, int first_line) : src_(s), line_(first_line) {}
  std::vector<Token> run();

 private:
  const std::string& src_;
  size_t pos_ = 0;
  int line_ = 1;
  int depth_ = 0;                 // bracket nesting: newlines inside brackets are ignored
  std::vector<std::pair<char, int>> open_;   // open brackets and their lines, for "never closed"
  std::vector<int> indents_{0};
  std::vector<int> alt_indents_{0};   // the same with a tab as one column: CPython's TabError check
  std::vector<Token> out_;

  char peek(size_t k = 0) const { return pos_ + k < src_.size() ? src_[pos_ + k] : '\0'; }
  size_t start_ = 0;              // where the current token began
  void push(Token::Kind k, std::string text) { out_.push_back({k, std::move(text), line_, start_, pos_}); }
  bool at_line_start();
  size_t string_prefix() const;
  void indentation();
  void number();
  void prefixed_number();
  void string(bool is_f, bool is_raw);
  void bytes_literal(bool is_raw);   // b'..', rb'..': a Token::Bytes of raw bytes
  void bytes_escape(std::string& value, size_t content_start, int start_line);
  void escape(std::string& value, size_t content_start, int start_line, bool is_f);   // one backslash escape, decoded
  void op();
};

std::vector<Token> Lexer::run() {
  // Python source runs to about one token per 4 to 5 bytes: reserved once, the token vector is not
  // regrown (its tokens moved) a dozen times while a 17 KB module is read.
  out_.reserve(src_.size() / 4 + 16);
  bool line_start = true;
  while (pos_ < src_.size()) {
    if (line_start) {
      if (at_line_start()) continue;   // a blank or comment-only line: the next one starts a line too
      line_start = false;
    }
    char c = peek();
    start_ = pos_;
    if (c == '\n') {
      ++pos_;
      if (depth_ == 0) push(Token::Newline, "");
      ++line_;
      line_start = depth_ == 0;
    } else if (c == '#') {
      while (pos_ < src_.size() && peek() != '\n') ++pos_;
    } else if (c == '\\' && peek(1) == '\n') {
      pos_ += 2;
      ++line_;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++pos_;
    } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
      number();
    } else if (size_t n = string_prefix()) {   // f'..', r'..', rf'..', u'..'
      std::string prefix = src_.substr(pos_, n);
      for (char& ch : prefix) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      pos_ += n;
      if (prefix.find('b') != std::string::npos) bytes_literal(prefix.find('r') != std::string::npos);
      else string(prefix.find('f') != std::string::npos, prefix.find('r') != std::string::npos);
    } else if (c == '\'' || c == '"') {
      string(false, false);
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80) {
      size_t start = pos_;
      while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_' || static_cast<unsigned char>(peek()) >= 0x80) ++pos_;
      push(Token::Name, src_.substr(start, pos_ - start));
    } else {
      op();
    }
  }
  if (!open_.empty())
    throw ScriptError(open_.back().second, std::string("SyntaxError: '") + open_.back().first + "' was never closed");
  if (!out_.empty() && out_.back().kind != Token::Newline) push(Token::Newline, "");
  while (indents_.size() > 1) {
    indents_.pop_back();
    push(Token::Dedent, "");
  }
  push(Token::End, "");
  return out_;
}

// The length of a string prefix (f, r, u, b and pairs: rf, fR, br, ...) followed by a quote, else 0.
size_t Lexer::string_prefix() const {
  // asked at every token start: a switch, not a std::string built and searched each time
  auto is_prefix = [](char c) {
    switch (c) {
      case 'f': case 'F': case 'r': case 'R': case 'u': case 'U': case 'b': case 'B': return true;
      default: return false;
    }
  };
  size_t n = 0;
  while (n < 2 && is_prefix(peek(n))) ++n;
  if (n == 0 || (peek(n) != '\'' && peek(n) != '"')) return 0;
  if (pos_ > 0 && (std::isalnum(static_cast<unsigned char>(src_[pos_ - 1])) || src_[pos_ - 1] == '_')) return 0;
  return n;
}

// At the start of a logical line: skip blank/comment-only lines, else emit INDENT/DEDENT.
bool Lexer::at_line_start() {
  size_t p = pos_;
  while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t')) ++p;
  if (p >= src_.size() || src_[p] == '\n' || src_[p] == '#' || src_[p] == '\r') {
    while (p < src_.size() && src_[p] != '\n') ++p;
    pos_ = p < src_.size() ? p + 1 : p;
    ++line_;
    return true;
  }
  indentation();
  return false;
}

void Lexer::indentation() {
  int width = 0, alt = 0;
  while (peek() == ' ' || peek() == '\t') {
    width += peek() == '\t' ? 8 - width % 8 : 1;
    ++alt;
    ++pos_;
  }
  // Tabs every 8 columns and tabs as 1 column must order the lines alike, else the meaning of the
  // indentation depends on the tab size (CPython's tokenizer).
  auto tab_error = [&] { throw ScriptError(line_, "TabError: inconsistent use of tabs and spaces in indentation"); };
  if (width > indents_.back()) {
    if (alt <= alt_indents_.back()) tab_error();
    if (indents_.size() >= static_cast<size_t>(limits::kMaxIndent))   // CPython's MAXINDENT: 99 levels
      throw ScriptError(line_, fmt::format("IndentationError: too many levels of indentation (limits::kMaxIndent: {} levels, as CPython)",
                                           limits::kMaxIndent - 1));
    indents_.push_back(width);
    alt_indents_.push_back(alt);
    push(Token::Indent, "");
    return;
  }
  while (width < indents_.back()) {
    indents_.pop_back();
    alt_indents_.pop_back();
    push(Token::Dedent, "");
  }
  if (width != indents_.back()) throw ScriptError(line_, "IndentationError: unindent does not match any outer indentation level");
  if (alt != alt_indents_.back()) tab_error();
}

// 0x1f, 0o17, 0b101 (underscores between digits, or after the prefix): the token is the value's
// decimal digits, so the parser reads every int literal alike. CPython's messages for bad digits.
void Lexer::prefixed_number() {
  const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(peek(1))));
  const int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
  const char* kind = p == 'x' ? "hexadecimal" : p == 'o' ? "octal" : "binary";
  pos_ += 2;
  BigInt value(0);
  bool any = false;
  while (std::isalnum(static_cast<unsigned char>(peek())) || peek() == '_') {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(peek())));
    if (c == '_' && std::isalnum(static_cast<unsigned char>(peek(1)))) { ++pos_; continue; }
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 99;
    if (d >= base) {
      if (base != 16 && d < 10) throw ScriptError(line_, fmt::format("SyntaxError: invalid digit '{}' in {} literal", c, kind));
      throw ScriptError(line_, fmt::format("SyntaxError: invalid {} literal", kind));
    }
    value = value * BigInt(base) + BigInt(d);
    any = true;
    ++pos_;
  }
  if (!any) throw ScriptError(line_, fmt::format("SyntaxError: invalid {} literal", kind));
  push(Token::Number, value.to_decimal());
}

void Lexer::number() {
  size_t start = pos_;
  if (peek() == '0' && peek(1) != '\0' && std::string("xXoObB").find(peek(1)) != std::string::npos) return prefixed_number();
  auto digit = [&](size_t k) { return k < src_.size() && std::isdigit(static_cast<unsigned char>(src_[k])); };
  auto digits = [&] {   // an underscore only between two digits (1_000, not 1__0, 1_ or 1e_5)
    while (digit(pos_) || peek() == '_') {
      if (peek() == '_' && !(pos_ > start && digit(pos_ - 1) && digit(pos_ + 1))) throw ScriptError(line_, "SyntaxError: invalid decimal literal");
      ++pos_;
    }
  };
  digits();
  if (peek() == '.') { ++pos_; digits(); }
  if (peek() == 'e' || peek() == 'E') {
    ++pos_;
    if (peek() == '+' || peek() == '-') ++pos_;
    digits();
  }
  std::string text;
  for (size_t k = start; k < pos_; ++k)
    if (src_[k] != '_') text += src_[k];
  if (peek() == 'j' || peek() == 'J') throw ScriptError(line_, "SyntaxError: attn does not support complex numbers (1j)");
  if (text.size() > 1 && text[0] == '0' && text.find_first_of(".eE") == std::string::npos &&
      text.find_first_not_of('0') != std::string::npos)
    throw ScriptError(line_, "SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
  push(Token::Number, text);
}

namespace {

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

// One backslash escape of a (non-raw) string literal at pos_, as CPython decodes it: \a \b \f \n
// \r \t \v \\ \' \" \<newline>, up to three octal digits, \xhh, \uXXXX, \UXXXXXXXX (code points as
// UTF-8). An unknown escape keeps its backslash (CPython warns, then does the same); \N{name} is
// refused by name. In an f-string an escaped brace (\x7b) is a literal brace, doubled here for
// the f-string parser. Errors are CPython's SyntaxError, positions counted from the literal's start.
void Lexer::escape(std::string& value, size_t content_start, int start_line, bool is_f) {
  const size_t at = pos_ - content_start;
  const char e = peek(1);
  pos_ += 2;
  switch (e) {
    case 'a': value += '\a'; return;
    case 'b': value += '\b'; return;
    case 'f': value += '\f'; return;
    case 'n': value += '\n'; return;
    case 'r': value += '\r'; return;
    case 't': value += '\t'; return;
    case 'v': value += '\v'; return;
    case '\\': value += '\\'; return;
    case '\'': value += '\''; return;
    case '"': value += '"'; return;
    case '\n': ++line_; return;
    default: break;
  }
  if (e >= '0' && e <= '7') {
    uint32_t cp = static_cast<uint32_t>(e - '0');
    for (int k = 0; k < 2 && peek() >= '0' && peek() <= '7'; ++k, ++pos_) cp = cp * 8 + static_cast<uint32_t>(peek() - '0');
    append_utf8(value, cp);   // up to \777 = U+01FF; \173 is '{', a literal brace in an f-string too
    if (is_f && (cp == '{' || cp == '}')) value += static_cast<char>(cp);
    return;
  }
  const int width = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
  if (width == 0) {
    if (e == 'N') throw ScriptError(start_line, "SyntaxError: attn does not support \\N{...} escapes (docs/lesson-authors.md: What attn's Python supports)");
    value += '\\';   // an unknown escape stays as written; the character itself is read next
    --pos_;
    return;
  }
  uint32_t cp = 0;
  int n = 0;
  for (; n < width && std::isxdigit(static_cast<unsigned char>(peek())); ++n, ++pos_) {
    const char h = peek();
    cp = cp * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : std::tolower(h) - 'a' + 10);
  }
  const char* name = e == 'x' ? "\\xXX" : e == 'u' ? "\\uXXXX" : "\\UXXXXXXXX";
  if (n < width)
    throw ScriptError(start_line, fmt::format("SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: truncated {} escape",
                                              at, at + 1 + n, name));
  if (cp > 0x10FFFF)
    throw ScriptError(start_line, fmt::format("SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: illegal Unicode character",
                                              at, at + 1 + n));
  append_utf8(value, cp);
  if (is_f && (cp == '{' || cp == '}')) value += static_cast<char>(cp);   // "{{": the f-string's literal brace
}

void Lexer::string(bool is_f, bool is_raw) {
  char q = peek();
  bool triple = peek(1) == q && peek(2) == q;
  pos_ += triple ? 3 : 1;
  const size_t content_start = pos_;
  std::string value;
  int start_line = line_;
  for (;;) {
    if (pos_ >= src_.size() || (!triple && peek() == '\n'))
      throw ScriptError(start_line, "SyntaxError: unterminated string literal");
    char c = peek();
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (c == '\n') ++line_;
    if (c == '\\' && !is_raw) {
      escape(value, content_start, start_line, is_f);
      continue;
    }
    if (c == '\\' && pos_ + 1 < src_.size()) {   // raw: the backslash stays, and the quote after it ends nothing
      if (peek(1) == '\n') ++line_;
      value += c;
      value += peek(1);
      pos_ += 2;
      continue;
    }
    value += c;
    ++pos_;
  }
  out_.push_back({is_f ? Token::FString : Token::String, value, start_line, start_, pos_});
}

// One backslash escape of a bytes literal, as CPython's _PyBytes_DecodeEscape: the escapes of
// str without \u, \U and \N (kept as written, as any unknown escape), octal taken mod 256.
void Lexer::bytes_escape(std::string& value, size_t content_start, int start_line) {
  const char e = peek(1);
  if (e == 'u' || e == 'U' || e == 'N') {
    value += '\\';
    ++pos_;
    return;
  }
  if (e == 'x') {
    const size_t at = pos_ - content_start;
    if (!std::isxdigit(static_cast<unsigned char>(peek(2))) || !std::isxdigit(static_cast<unsigned char>(peek(3))))
      throw ScriptError(start_line, fmt::format("SyntaxError: (value error) invalid \\x escape at position {}", at));
    value += static_cast<char>(std::stoi(src_.substr(pos_ + 2, 2), nullptr, 16));
    pos_ += 4;
    return;
  }
  std::string decoded;
  escape(decoded, content_start, start_line, false);   // one ASCII character, or an octal escape as UTF-8
  if (decoded.empty()) return;                          // a backslash-newline
  if (decoded.size() == 1) {
    value += decoded;
  } else {   // an octal escape from \200 to \777, two bytes of UTF-8: its code point mod 256
    value += static_cast<char>((((decoded[0] & 0x1F) << 6) | (decoded[1] & 0x3F)) & 0xFF);
  }
}

void Lexer::bytes_literal(bool is_raw) {
  const char q = peek();
  const bool triple = peek(1) == q && peek(2) == q;
  pos_ += triple ? 3 : 1;
  const size_t content_start = pos_;
  std::string value;
  const int start_line = line_;
  for (;;) {
    if (pos_ >= src_.size() || (!triple && peek() == '\n')) throw ScriptError(start_line, "SyntaxError: unterminated string literal");
    const char c = peek();
    if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (static_cast<unsigned char>(c) >= 0x80) throw ScriptError(start_line, "SyntaxError: bytes can only contain ASCII literal characters");
    if (c == '\n') ++line_;
    if (c == '\\' && !is_raw) {
      bytes_escape(value, content_start, start_line);
      continue;
    }
    value += c;
    ++pos_;
    if (c == '\\' && is_raw && pos_ < src_.size() && (peek() == q || peek() == '\\')) value += src_[pos_++];   // rb'\'' keeps both
  }
  out_.push_back({Token::Bytes, value, start_line, start_, pos_});
}

// The longest operator at pos_ (3, 2 or 1 characters): kOps3, kOps2, then one of the singles.
void Lexer::op() {
  const char c = peek(), c1 = peek(1), c2 = peek(2);
  if (c1 != '\0') {   // most characters start no longer operator: test the pair only when it could
    const char three[4] = {c, c1, c2, '\0'}, two[3] = {c, c1, '\0'};
    if (c2 != '\0')
      for (const char* o : kOps3)
        if (o[0] == c && o[1] == c1 && o[2] == c2) { pos_ += 3; push(Token::Op, three); return; }
    for (const char* o : kOps2)
      if (o[0] == c && o[1] == c1) { pos_ += 2; push(Token::Op, two); return; }
  }
  static const std::string kSingles = "()[]{}:,.;+-*/%@=<>&|^~";
  if (kSingles.find(c) == std::string::npos) {
    auto u = static_cast<unsigned char>(c);   // never echoed raw: a NUL or ESC would reach the terminal
    if (u < 0x20 || u == 0x7f) throw ScriptError(line_, fmt::format("SyntaxError: invalid non-printable character U+{:04X}", u));
    throw ScriptError(line_, std::string("SyntaxError: invalid character '") + c + "'");
  }
  if (c == '(' || c == '[' || c == '{') {
    if (depth_ >= limits::kMaxBrackets)   // CPython's MAXLEVEL: 200 open brackets
      throw ScriptError(line_, fmt::format("SyntaxError: too many nested parentheses (limits::kMaxBrackets: {}, as CPython)", limits::kMaxBrackets));
    ++depth_;
    open_.emplace_back(c, line_);
  }
  if ((c == ')' || c == ']' || c == '}') && depth_ > 0) {
    --depth_;
    open_.pop_back();
  }
  ++pos_;
  push(Token::Op, std::string(1, c));
}

// Source text must be UTF-8, as CPython reads it: the first malformed sequence is CPython's
// SyntaxError (a str then never holds invalid UTF-8, which str's code-point walks rely on).
void check_utf8(const std::string& s, int first_line) {
  for (size_t k = 0; k < s.size();) {
    uint64_t word = 0x8080808080808080ULL;   // eight ASCII bytes at a time: the common case, kept cheap
    if (k + 8 <= s.size()) std::memcpy(&word, s.data() + k, 8);
    if ((word & 0x8080808080808080ULL) == 0) {
      k += 8;
      continue;
    }
    const auto b = static_cast<unsigned char>(s[k]);
    const size_t more = b < 0x80 ? 0 : b >= 0xC2 && b <= 0xDF ? 1 : b >= 0xE0 && b <= 0xEF ? 2 : b >= 0xF0 && b <= 0xF4 ? 3 : 9;
    const char* why = more == 9 ? "invalid start byte" : nullptr;
    for (size_t j = 1; !why && j <= more; ++j) {
      if (k + j >= s.size()) why = "unexpected end of data";
      const auto c = why ? 0 : static_cast<unsigned char>(s[k + j]);
      const bool low_ok = j > 1 || (b == 0xE0 ? c >= 0xA0 : b == 0xED ? c < 0xA0 : b == 0xF0 ? c >= 0x90 : b == 0xF4 ? c < 0x90 : true);
      if (!why && ((c & 0xC0) != 0x80 || !low_ok)) why = "invalid continuation byte";
    }
    if (why) {
      const int line = first_line + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(k), '\n'));
      throw ScriptError(line, fmt::format("SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0x{:02x} in position 0: {}", b, why));
    }
    k += more + 1;
  }
}

}  // namespace

// Source lines may end in \r\n or \r: read as \n, also inside string literals, as CPython does.
std::vector<Token> tokenize(const std::string& source, int first_line) {
  check_utf8(source, first_line);
  if (source.find('\r') == std::string::npos) return Lexer(source, first_line).run();
  std::string unix;
  unix.reserve(source.size());
  for (size_t k = 0; k < source.size(); ++k) {
    if (source[k] != '\r') unix += source[k];
    else if (k + 1 >= source.size() || source[k + 1] != '\n') unix += '\n';
  }
  return Lexer(unix, first_line).run();
}

}  // namespace attn::py
