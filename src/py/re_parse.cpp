// py/re_parse.cpp: a pattern's text into a re::Program (re_engine.h): CPython 3.11's
// Lib/re/_parser.py (its tokenizer, escapes, groups, flags and error messages with positions)
// and the part of Lib/re/_compiler.py that matters for the result (fixed width of lookbehinds).
//
// What it is: the parser builds a tree (Node), checks it as CPython does, and emits instructions
// for the matcher (re_match.cpp). Nesting is bounded (kMaxNesting, RecursionError as CPython's
// recursive parser gives). What it is not: CPython's optimizer (literal prefixes, charset
// bitmaps); the program here is straightforward.
#include <fmt/format.h>

#include <algorithm>

#include "print/unicode.h"
#include "py/limits.h"
#include "py/re_engine.h"

namespace attn::py::re {

namespace {

namespace uc = print::unicode;

enum class N : uint8_t { Lit, NotLit, Any, Set, Seq, Branch, Repeat, Group, Look, Atomic, At, GroupRef, GroupExists };

struct Node {
  N kind = N::Seq;
  int flags = 0;                 // flags in force where it stands
  char32_t c = 0;
  int set = -1;
  int group = -1;                // Group: -1 non-capturing; GroupRef / GroupExists: the group
  int dir = 1;                   // Look: 1 ahead, -1 behind
  bool neg = false, lazy = false, possessive = false;
  At at = At::Begin;
  int64_t min = 0, max = 0;
  std::vector<Node> kids;        // Seq items; Branch / GroupExists alternatives; others: one body
};

std::string utf8(const std::u32string& s) { return uc::encode(s); }
std::string utf8(char32_t c) { return uc::encode(c); }
bool is_ascii_digit(char32_t c) { return c >= '0' && c <= '9'; }
bool is_oct(char32_t c) { return c >= '0' && c <= '7'; }
bool is_hex(char32_t c) { return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_ascii_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string py_repr(const std::u32string& s) {   // repr() of a str without quotes in it
  bool sq = s.find(U'\'') != std::u32string::npos, dq = s.find(U'"') != std::u32string::npos;
  char q = sq && !dq ? '"' : '\'';
  std::string out(1, q);
  for (char32_t c : s) {
    if (c == static_cast<char32_t>(q) || c == '\\') { out += '\\'; out += static_cast<char>(c); }
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", static_cast<unsigned>(c));
    else out += utf8(c);
  }
  return out + q;
}

// _parser.Tokenizer: `next` is one code point or a backslash and the one after it.
class Tokenizer {
 public:
  explicit Tokenizer(const std::u32string& s) : s_(s) { advance(); }
  const std::u32string& next() const { return next_; }
  bool at_end() const { return !has_next_; }
  bool is(char32_t c) const { return has_next_ && next_.size() == 1 && next_[0] == c; }
  bool match(char32_t c) { if (!is(c)) return false; advance(); return true; }
  std::u32string get() { std::u32string t = next_; advance(); return t; }
  int64_t tell() const { return index_ - static_cast<int64_t>(next_.size()); }
  void seek(int64_t k) { index_ = k; advance(); }
  ParseError error(const std::string& msg, int64_t offset = 0) const { return ParseError{msg, tell() - offset}; }
  std::u32string getwhile(int n, bool (*ok)(char32_t)) {
    std::u32string r;
    for (int i = 0; i < n && has_next_ && next_.size() == 1 && ok(next_[0]); ++i) r += get();
    return r;
  }
  std::u32string getuntil(char32_t term, const std::string& name) {
    std::u32string r;
    for (;;) {
      bool had = has_next_;
      std::u32string c = next_;
      advance();
      if (!had) {
        if (r.empty()) throw error("missing " + name);
        throw error(fmt::format("missing {}, unterminated name", utf8(term)), static_cast<int64_t>(r.size()));
      }
      if (c.size() == 1 && c[0] == term) {
        if (r.empty()) throw error("missing " + name, 1);
        return r;
      }
      r += c;
    }
  }

 private:
  const std::u32string& s_;
  int64_t index_ = 0;
  std::u32string next_;
  bool has_next_ = false;
  void advance() {
    if (index_ >= static_cast<int64_t>(s_.size())) { has_next_ = false; next_.clear(); return; }
    next_ = s_.substr(static_cast<size_t>(index_), 1);
    if (next_[0] == '\\') {
      if (index_ + 1 >= static_cast<int64_t>(s_.size()))
        throw ParseError{"bad escape (end of pattern)", static_cast<int64_t>(s_.size()) - 1};
      next_ += s_[static_cast<size_t>(index_ + 1)];
      ++index_;
    }
    ++index_;
    has_next_ = true;
  }
};

bool is_identifier(const std::u32string& s) {
  if (s.empty() || !(uc::is_id_start(s[0]) || s[0] == '_')) return false;
  for (char32_t c : s) if (!(uc::is_id_continue(c) || c == '_')) return false;
  return true;
}

int flag_of(char32_t c) {
  switch (c) {
    case 'i': return kIgnoreCase;
    case 'L': return kLocale;
    case 'm': return kMultiline;
    case 's': return kDotAll;
    case 'x': return kVerbose;
    case 'a': return kAscii;
    case 't': return 1;
    case 'u': return kUnicode;
    default: return 0;
  }
}
constexpr int kTypeFlags = kAscii | kLocale | kUnicode;
constexpr int kGlobalFlags = kDebug | 1;

class Parser {
 public:
  Parser(const std::u32string& s, int flags, Program& prog) : src_(s), prog_(prog), flags_(flags) {}

  Node parse() {
    Node p = sub(flags_ & kVerbose, 0, flags_);
    if (!src_.at_end()) throw src_.error("unbalanced parenthesis");
    for (const auto& [g, pos] : grouprefpos_)
      if (g >= groups()) throw ParseError{fmt::format("invalid group reference {}", g), pos};
    return p;
  }
  int flags() const { return flags_; }
  std::pair<int64_t, int64_t> width(const Node& n) const;
  std::vector<std::pair<int64_t, int64_t>> widths_;   // per group, set when it closes ({-1,-1}: open)

 private:
  Tokenizer src_;
  Program& prog_;
  int flags_;
  int lookbehind_groups_ = -1;
  int inline_global_ = 0;   // flags of (?i)-style groups at the start
  std::map<std::u32string, int> groupdict_;
  std::map<int, int64_t> grouprefpos_;

  int groups() const { return static_cast<int>(widths_.size()) + 1; }
  bool checkgroup(int g) const { return g < groups() && g >= 1 && widths_[static_cast<size_t>(g - 1)].first >= 0; }
  void check_lookbehind_group(int g) {
    if (lookbehind_groups_ < 0) return;
    if (!checkgroup(g)) throw src_.error("cannot refer to an open group");
    if (g >= lookbehind_groups_) throw src_.error("cannot refer to group defined in the same lookbehind subpattern");
  }

  Node sub(bool verbose, int nested, int fl);
  Node seq(bool verbose, int nested, bool first, int fl);
  bool item(Node& seq, bool& verbose, int nested, bool first, int& fl);
  void repeat(Node& seq, const std::u32string& th);
  bool paren(Node& seq, bool& verbose, int nested, bool first, int& fl);
  Node lookaround(char32_t c, bool verbose, int nested, int fl, int64_t start);
  Node conditional(bool verbose, int nested, int fl, int64_t start);
  Node named_ref(int fl);
  Node set_node(int fl);
  Node escape(const std::u32string& e, int fl);
  bool class_escape(std::u32string e, SetItem& out);
  int64_t hex_escape(std::u32string& e, char32_t kind);
  std::pair<int, int> parse_flags(std::u32string ch, bool& global);
  Node leaf(N k, int fl) { Node n; n.kind = k; n.flags = fl; return n; }
};

Node Parser::sub(bool verbose, int nested, int fl) {
  if (nested > 2 * kMaxNesting + 1) throw ParseError{"maximum recursion depth exceeded", -1, ParseError::Recursion};
  check_stack();
  std::vector<Node> items;
  for (;;) {
    // global flags from the start of the pattern hold in its later alternatives too
    items.push_back(seq(verbose, nested + 1, nested == 0 && items.empty(), nested == 0 ? fl | inline_global_ : fl));
    if (!src_.match('|')) break;
    if (nested == 0) verbose = flags_ & kVerbose;
  }
  if (items.size() == 1) return std::move(items[0]);
  // _parse_sub: a branch of single characters and classes is one class (a|b -> [ab]), which the
  // matcher repeats without a choice point per character
  bool chars = true;
  for (const Node& it : items) {
    chars = chars && it.kids.size() == 1 && it.kids[0].flags == items[0].kids[0].flags &&
            (it.kids[0].kind == N::Lit || (it.kids[0].kind == N::Set && !prog_.sets[static_cast<size_t>(it.kids[0].set)].negate));
  }
  if (chars) {
    CharSet set;
    for (const Node& it : items) {
      const Node& k = it.kids[0];
      if (k.kind == N::Lit) set.items.push_back(SetItem{SetItem::Lit, k.c, 0, Cat::Digit});
      else for (const SetItem& x : prog_.sets[static_cast<size_t>(k.set)].items) set.items.push_back(x);
    }
    prog_.sets.push_back(std::move(set));
    Node n = leaf(N::Set, items[0].kids[0].flags);
    n.set = static_cast<int>(prog_.sets.size()) - 1;
    Node s = leaf(N::Seq, fl);
    s.kids.push_back(std::move(n));
    return s;
  }
  Node b = leaf(N::Branch, fl);
  b.kids = std::move(items);
  return b;
}

Node Parser::seq(bool verbose, int nested, bool first, int fl) {
  Node s = leaf(N::Seq, fl);
  int f = fl;   // global inline flags at the start change it
  while (!(src_.at_end() || src_.is('|') || src_.is(')'))) item(s, verbose, nested, first, f);
  return s;
}

// One token of a sequence; false when it was skipped (verbose whitespace, a comment).
bool Parser::item(Node& s, bool& verbose, int nested, bool first, int& fl) {
  std::u32string th = src_.get();
  if (verbose && th.size() == 1) {
    char32_t c = th[0];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') return false;
    if (c == '#') {
      while (!src_.at_end()) if (src_.get() == U"\n") break;
      return false;
    }
  }
  if (th[0] == '\\') { s.kids.push_back(escape(th, fl)); return true; }
  switch (th[0]) {
    case '[': s.kids.push_back(set_node(fl)); return true;
    case '?': case '*': case '+': case '{': repeat(s, th); return true;
    case '.': s.kids.push_back(leaf(N::Any, fl)); return true;
    case '(': return paren(s, verbose, nested, first, fl);
    case '^': { Node n = leaf(N::At, fl); n.at = fl & kMultiline ? At::BeginLine : At::Begin; s.kids.push_back(n); return true; }
    case '$': { Node n = leaf(N::At, fl); n.at = fl & kMultiline ? At::EndLine : At::End; s.kids.push_back(n); return true; }
    default: { Node n = leaf(N::Lit, fl); n.c = th[0]; s.kids.push_back(n); return true; }
  }
}

int64_t Parser::hex_escape(std::u32string& e, char32_t kind) {
  int n = kind == 'x' ? 2 : kind == 'u' ? 4 : 8;
  e += src_.getwhile(n, is_hex);
  if (static_cast<int>(e.size()) != n + 2)
    throw src_.error("incomplete escape " + utf8(e), static_cast<int64_t>(e.size()));
  int64_t v = std::stoll(utf8(e.substr(2)), nullptr, 16);
  if (v > 0x10ffff) throw src_.error("bad escape " + utf8(e), static_cast<int64_t>(e.size()));
  return v;
}

// _class_escape: true and `out` set, or throws.
bool Parser::class_escape(std::u32string e, SetItem& out) {
  char32_t c = e[1];
  out.kind = SetItem::Lit;
  switch (c) {
    case 'a': out.lo = 7; return true;
    case 'b': out.lo = 8; return true;
    case 'f': out.lo = 12; return true;
    case 'n': out.lo = 10; return true;
    case 'r': out.lo = 13; return true;
    case 't': out.lo = 9; return true;
    case 'v': out.lo = 11; return true;
    case '\\': out.lo = '\\'; return true;
    case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
      out.kind = SetItem::Category;
      out.cat = c == 'd' ? Cat::Digit : c == 'D' ? Cat::NotDigit : c == 's' ? Cat::Space : c == 'S' ? Cat::NotSpace
              : c == 'w' ? Cat::Word : Cat::NotWord;
      return true;
    default: break;
  }
  if (c == 'x' || c == 'u' || c == 'U') { out.lo = static_cast<char32_t>(hex_escape(e, c)); return true; }
  if (c == 'N') throw src_.error("attn's re does not support \\N{...} escapes", 2);
  if (is_oct(c)) {
    e += src_.getwhile(2, is_oct);
    int64_t v = std::stoll(utf8(e.substr(1)), nullptr, 8);
    if (v > 0377) throw src_.error(fmt::format("octal escape value {} outside of range 0-0o377", utf8(e)), static_cast<int64_t>(e.size()));
    out.lo = static_cast<char32_t>(v);
    return true;
  }
  if (is_ascii_digit(c) || is_ascii_letter(c)) throw src_.error("bad escape " + utf8(e), static_cast<int64_t>(e.size()));
  out.lo = c;
  return true;
}

Node Parser::escape(const std::u32string& e0, int fl) {
  std::u32string e = e0;
  char32_t c = e[1];
  auto at = [&](At a) { Node n = leaf(N::At, fl); n.at = a; return n; };
  auto lit = [&](char32_t v) { Node n = leaf(N::Lit, fl); n.c = v; return n; };
  switch (c) {
    case 'A': return at(At::BeginString);
    case 'Z': return at(At::EndString);
    case 'b': return at(At::Boundary);
    case 'B': return at(At::NonBoundary);
    case 'd': case 'D': case 's': case 'S': case 'w': case 'W': {
      SetItem it;
      class_escape(e, it);
      Node n = leaf(N::Set, fl);
      prog_.sets.push_back(CharSet{false, {it}});
      n.set = static_cast<int>(prog_.sets.size()) - 1;
      return n;
    }
    case 'a': return lit(7);
    case 'f': return lit(12);
    case 'n': return lit(10);
    case 'r': return lit(13);
    case 't': return lit(9);
    case 'v': return lit(11);
    case '\\': return lit('\\');
    default: break;
  }
  if (c == 'x' || c == 'u' || c == 'U') return lit(static_cast<char32_t>(hex_escape(e, c)));
  if (c == 'N') throw src_.error("attn's re does not support \\N{...} escapes", 2);
  if (c == '0') {
    e += src_.getwhile(2, is_oct);
    return lit(static_cast<char32_t>(std::stoll(utf8(e.substr(1)), nullptr, 8)));
  }
  if (is_ascii_digit(c)) {
    if (!src_.at_end() && src_.next().size() == 1 && is_ascii_digit(src_.next()[0])) {
      e += src_.get();
      if (is_oct(e[1]) && is_oct(e[2]) && !src_.at_end() && src_.next().size() == 1 && is_oct(src_.next()[0])) {
        e += src_.get();
        int64_t v = std::stoll(utf8(e.substr(1)), nullptr, 8);
        if (v > 0377) throw src_.error(fmt::format("octal escape value {} outside of range 0-0o377", utf8(e)), static_cast<int64_t>(e.size()));
        return lit(static_cast<char32_t>(v));
      }
    }
    int g = std::stoi(utf8(e.substr(1)));
    if (g < groups()) {
      if (!checkgroup(g)) throw src_.error("cannot refer to an open group", static_cast<int64_t>(e.size()));
      check_lookbehind_group(g);
      Node n = leaf(N::GroupRef, fl);
      n.group = g;
      return n;
    }
    throw src_.error(fmt::format("invalid group reference {}", g), static_cast<int64_t>(e.size()) - 1);
  }
  if (is_ascii_letter(c)) throw src_.error("bad escape " + utf8(e), static_cast<int64_t>(e.size()));
  return lit(c);
}

Node Parser::set_node(int fl) {
  const int64_t here = src_.tell() - 1;
  CharSet set;
  set.negate = src_.match('^');
  auto unterminated = [&] { return src_.error("unterminated character set", src_.tell() - here); };
  for (;;) {
    if (src_.at_end()) throw unterminated();
    std::u32string th = src_.get();
    if (th == U"]" && !set.items.empty()) break;
    SetItem a;
    if (th[0] == '\\') class_escape(th, a);
    else { a.kind = SetItem::Lit; a.lo = th[0]; }
    if (src_.match('-')) {
      if (src_.at_end()) throw unterminated();
      std::u32string that = src_.get();
      if (that == U"]") {
        set.items.push_back(a);
        set.items.push_back(SetItem{SetItem::Lit, '-', 0, Cat::Digit});
        break;
      }
      SetItem b;
      if (that[0] == '\\') class_escape(that, b);
      else { b.kind = SetItem::Lit; b.lo = that[0]; }
      auto bad = [&] { return src_.error("bad character range " + utf8(th) + "-" + utf8(that), static_cast<int64_t>(th.size() + 1 + that.size())); };
      if (a.kind != SetItem::Lit || b.kind != SetItem::Lit || b.lo < a.lo) throw bad();
      set.items.push_back(SetItem{SetItem::Range, a.lo, b.lo, Cat::Digit});
    } else {
      set.items.push_back(a);
    }
  }
  if (set.items.size() == 1 && set.items[0].kind == SetItem::Lit) {
    Node n = leaf(set.negate ? N::NotLit : N::Lit, fl);
    n.c = set.items[0].lo;
    return n;
  }
  prog_.sets.push_back(std::move(set));
  Node n = leaf(N::Set, fl);
  n.set = static_cast<int>(prog_.sets.size()) - 1;
  return n;
}

void Parser::repeat(Node& s, const std::u32string& th) {
  const int64_t here = src_.tell();
  int64_t lo = 0, hi = kMaxRepeat;
  if (th == U"?") hi = 1;
  else if (th == U"+") lo = 1;
  else if (th == U"{") {
    if (src_.is('}')) { Node n; n.kind = N::Lit; n.flags = s.flags; n.c = '{'; s.kids.push_back(n); return; }
    std::u32string a, b;
    while (!src_.at_end() && src_.next().size() == 1 && is_ascii_digit(src_.next()[0])) a += src_.get();
    if (src_.match(',')) { while (!src_.at_end() && src_.next().size() == 1 && is_ascii_digit(src_.next()[0])) b += src_.get(); }
    else b = a;
    if (!src_.match('}')) {
      Node n; n.kind = N::Lit; n.flags = s.flags; n.c = '{';
      s.kids.push_back(n);
      src_.seek(here);
      return;
    }
    auto number = [](const std::u32string& d) {
      if (d.size() > 12) return kMaxRepeat + 1;
      return static_cast<int64_t>(std::stoll(utf8(d)));
    };
    if (!a.empty()) {
      lo = number(a);
      if (lo >= kMaxRepeat) throw ParseError{"the repetition number is too large", -1, ParseError::Overflow};
    }
    if (!b.empty()) {
      hi = number(b);
      if (hi >= kMaxRepeat) throw ParseError{"the repetition number is too large", -1, ParseError::Overflow};
      if (hi < lo) throw src_.error("min repeat greater than max repeat", src_.tell() - here);
    }
  }
  const int64_t off = src_.tell() - here + static_cast<int64_t>(th.size());
  if (s.kids.empty() || s.kids.back().kind == N::At) throw src_.error("nothing to repeat", off);
  if (s.kids.back().kind == N::Repeat) throw src_.error("multiple repeat", off);
  Node r;
  r.kind = N::Repeat;
  r.flags = s.flags;
  r.min = lo;
  r.max = hi;
  Node body = std::move(s.kids.back());
  if (body.kind == N::Group && body.group < 0) body = Node(std::move(body.kids[0]));   // (?:...)*: the ... repeats
  if (body.kind == N::Seq && body.kids.size() == 1) body = Node(std::move(body.kids[0]));
  r.kids.push_back(std::move(body));
  if (src_.match('?')) r.lazy = true;
  else if (src_.match('+')) r.possessive = true;
  s.kids.back() = std::move(r);
}

std::pair<int, int> Parser::parse_flags(std::u32string ch, bool& global) {
  int add = 0, del = 0;
  global = false;
  auto more = [&](const char* missing) -> char32_t {
    if (src_.at_end()) throw src_.error(missing);
    return src_.get()[0];
  };
  char32_t c = ch[0];
  if (c != '-') {
    for (;;) {
      int f = flag_of(c);
      if (c == 'L') throw src_.error("bad inline flags: cannot use 'L' flag with a str pattern");
      add |= f;
      if ((f & kTypeFlags) && (add & kTypeFlags) != f) throw src_.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      c = more("missing -, : or )");
      if (c == ')' || c == '-' || c == ':') break;
      if (!flag_of(c)) throw src_.error(uc::is_alpha(c) ? "unknown flag" : "missing -, : or )", 1);
    }
  }
  if (c == ')') { global = true; return {add, 0}; }
  if (add & kGlobalFlags) throw src_.error("bad inline flags: cannot turn on global flag", 1);
  if (c == '-') {
    c = more("missing flag");
    if (!flag_of(c)) throw src_.error(uc::is_alpha(c) ? "unknown flag" : "missing flag", 1);
    for (;;) {
      int f = flag_of(c);
      if (f & kTypeFlags) throw src_.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      del |= f;
      c = more("missing :");
      if (c == ':') break;
      if (!flag_of(c)) throw src_.error(uc::is_alpha(c) ? "unknown flag" : "missing :", 1);
    }
  }
  if (del & kGlobalFlags) throw src_.error("bad inline flags: cannot turn off global flag", 1);
  if (add & del) throw src_.error("bad inline flags: flag turned on and off", 1);
  return {add, del};
}

// (?=...) (?!...) (?<=...) (?<!...), after the character that follows "(?".
Node Parser::lookaround(char32_t c, bool verbose, int nested, int fl, int64_t start) {
  int dir = 1;
  int saved_lb = lookbehind_groups_;
  if (c == '<') {
    if (src_.at_end()) throw src_.error("unexpected end of pattern");
    std::u32string n = src_.get();
    if (n != U"=" && n != U"!") throw src_.error("unknown extension ?<" + utf8(n), static_cast<int64_t>(n.size()) + 2);
    c = n[0];
    dir = -1;
    if (lookbehind_groups_ < 0) lookbehind_groups_ = groups();
  }
  Node p = sub(verbose, nested + 1, fl);
  if (dir < 0) lookbehind_groups_ = saved_lb;
  if (!src_.match(')')) throw src_.error("missing ), unterminated subpattern", src_.tell() - start);
  Node n = leaf(N::Look, fl);
  n.dir = dir;
  n.neg = c == '!';
  n.kids.push_back(std::move(p));
  return n;
}

// (?(group)yes|no), after "(?(".
Node Parser::conditional(bool verbose, int nested, int fl, int64_t start) {
  std::u32string cond = src_.getuntil(')', "group name");
  const int64_t off = static_cast<int64_t>(cond.size()) + 1;
  int g = 0;
  if (is_identifier(cond)) {
    auto it = groupdict_.find(cond);
    if (it == groupdict_.end()) throw src_.error("unknown group name " + py_repr(cond), off);
    g = it->second;
  } else {
    if (!std::all_of(cond.begin(), cond.end(), is_ascii_digit)) throw src_.error("bad character in group name " + py_repr(cond), off);
    g = cond.size() > 9 ? 1000000000 : std::stoi(utf8(cond));
    if (g == 0) throw src_.error("bad group number", off);
    if (g >= 1073741823) throw src_.error(fmt::format("invalid group reference {}", g), off);
    if (!grouprefpos_.count(g)) grouprefpos_[g] = src_.tell() - off;
  }
  check_lookbehind_group(g);
  Node n = leaf(N::GroupExists, fl);
  n.group = g;
  n.kids.push_back(seq(verbose, nested + 1, false, fl));
  if (src_.match('|')) {
    n.kids.push_back(seq(verbose, nested + 1, false, fl));
    if (src_.is('|')) throw src_.error("conditional backref with more than two branches");
  }
  if (!src_.match(')')) throw src_.error("missing ), unterminated subpattern", src_.tell() - start);
  return n;
}

// (?P=name), after "(?P=".
Node Parser::named_ref(int fl) {
  std::u32string name = src_.getuntil(')', "group name");
  const int64_t off = static_cast<int64_t>(name.size()) + 1;
  if (!is_identifier(name)) throw src_.error("bad character in group name " + py_repr(name), off);
  auto it = groupdict_.find(name);
  if (it == groupdict_.end()) throw src_.error("unknown group name " + py_repr(name), off);
  if (!checkgroup(it->second)) throw src_.error("cannot refer to an open group", off);
  check_lookbehind_group(it->second);
  Node n = leaf(N::GroupRef, fl);
  n.group = it->second;
  return n;
}

// The (...) forms; false when nothing was added (a comment, global flags).
bool Parser::paren(Node& s, bool& verbose, int nested, bool first, int& fl) {
  const int64_t start = src_.tell() - 1;
  bool capture = true, atomic = false;
  std::u32string name;
  bool named = false;
  int add = 0, del = 0;
  auto unterminated = [&] { return src_.error("missing ), unterminated subpattern", src_.tell() - start); };
  if (src_.match('?')) {
    if (src_.at_end()) throw src_.error("unexpected end of pattern");
    std::u32string ch = src_.get();
    char32_t c = ch[0];
    if (ch.size() == 1 && c == 'P') {
      if (src_.match('<')) {
        name = src_.getuntil('>', "group name");
        named = true;
        if (!is_identifier(name)) throw src_.error("bad character in group name " + py_repr(name), static_cast<int64_t>(name.size()) + 1);
      } else if (src_.match('=')) {
        s.kids.push_back(named_ref(fl));
        return true;
      } else {
        if (src_.at_end()) throw src_.error("unexpected end of pattern");
        std::u32string n = src_.get();
        throw src_.error("unknown extension ?P" + utf8(n), static_cast<int64_t>(n.size()) + 2);
      }
    } else if (ch.size() == 1 && c == ':') {
      capture = false;
    } else if (ch.size() == 1 && c == '#') {
      for (;;) {
        if (src_.at_end()) throw src_.error("missing ), unterminated comment", src_.tell() - start);
        if (src_.get() == U")") return false;
      }
    } else if (ch.size() == 1 && (c == '=' || c == '!' || c == '<')) {
      s.kids.push_back(lookaround(c, verbose, nested, fl, start));
      return true;
    } else if (ch.size() == 1 && c == '(') {
      s.kids.push_back(conditional(verbose, nested, fl, start));
      return true;
    } else if (ch.size() == 1 && c == '>') {
      capture = false;
      atomic = true;
    } else if (ch.size() == 1 && (flag_of(c) || c == '-')) {
      bool global = false;
      auto [a, d] = parse_flags(ch, global);
      if (global) {
        if (!first || !s.kids.empty()) throw src_.error("global flags not at the start of the expression", src_.tell() - start);
        flags_ |= a;
        inline_global_ |= a;
        fl |= a;
        verbose = flags_ & kVerbose;
        return false;
      }
      add = a;
      del = d;
      capture = false;
    } else {
      throw src_.error("unknown extension ?" + utf8(ch), static_cast<int64_t>(ch.size()) + 1);
    }
  }
  int group = -1;
  if (capture) {
    group = groups();
    widths_.push_back({-1, -1});
    if (named) {
      auto it = groupdict_.find(name);
      if (it != groupdict_.end())
        throw src_.error(fmt::format("redefinition of group name {} as group {}; was group {}", py_repr(name), group, it->second),
                         static_cast<int64_t>(name.size()) + 1);
      groupdict_[name] = group;
      prog_.groupindex.push_back({utf8(name), group});
    }
  }
  bool sub_verbose = (verbose || (add & kVerbose)) && !(del & kVerbose);
  int sub_flags = (fl | add) & ~del;
  if (add & kTypeFlags) sub_flags = (sub_flags & ~kTypeFlags) | (add & kTypeFlags);
  Node p = sub(sub_verbose, nested + 1, sub_flags);
  if (!src_.match(')')) throw unterminated();
  Node n = leaf(atomic ? N::Atomic : N::Group, fl);
  n.group = group;
  if (group >= 0) widths_[static_cast<size_t>(group - 1)] = width(p);
  n.kids.push_back(std::move(p));
  s.kids.push_back(std::move(n));
  return true;
}

// SubPattern.getwidth: the fewest and most code points n can match.
std::pair<int64_t, int64_t> Parser::width(const Node& n) const {
  auto cap = [](int64_t lo, int64_t hi) { return std::pair<int64_t, int64_t>{std::min(lo, kMaxRepeat - 1), std::min(hi, kMaxRepeat)}; };
  switch (n.kind) {
    case N::Lit: case N::NotLit: case N::Any: case N::Set: return {1, 1};
    case N::At: case N::Look: return {0, 0};
    case N::Group: case N::Atomic: return width(n.kids[0]);
    case N::GroupRef: {
      const auto& w = widths_[static_cast<size_t>(n.group - 1)];
      return w;
    }
    case N::Seq: {
      int64_t lo = 0, hi = 0;
      for (const Node& k : n.kids) {
        auto [a, b] = width(k);
        lo += a;
        hi += b;
        if (lo > kMaxRepeat) lo = kMaxRepeat;
        if (hi > kMaxRepeat) hi = kMaxRepeat;
      }
      return cap(lo, hi);
    }
    case N::Branch: case N::GroupExists: {
      int64_t lo = kMaxRepeat, hi = 0;
      for (const Node& k : n.kids) {
        auto [a, b] = width(k);
        lo = std::min(lo, a);
        hi = std::max(hi, b);
      }
      if (n.kind == N::GroupExists && n.kids.size() == 1) lo = 0;
      return cap(lo, hi);
    }
    case N::Repeat: {
      auto [a, b] = width(n.kids[0]);
      auto mul = [](int64_t x, int64_t y) { return x != 0 && y > kMaxRepeat / x ? kMaxRepeat : x * y; };
      return cap(mul(a, n.min), mul(b, n.max));
    }
  }
  return {0, 0};
}

// The instructions of a checked tree.
class Emitter {
 public:
  Emitter(Program& p, const Parser& parser) : p_(p), parser_(parser) {}
  void node(const Node& n, int depth);

 private:
  Program& p_;
  const Parser& parser_;
  int here() const { return static_cast<int>(p_.code.size()); }
  int emit(Op op, const Node& n) {
    Inst i;
    i.op = op;
    i.icase = n.flags & kIgnoreCase;
    i.ascii = n.flags & kAscii;
    p_.code.push_back(i);
    return here() - 1;
  }
  void repeat(const Node& n, int depth);
};

bool single(const Node& n) { return n.kind == N::Lit || n.kind == N::NotLit || n.kind == N::Any || n.kind == N::Set; }

void Emitter::repeat(const Node& n, int depth) {
  const Node& body = n.kids[0];
  if (single(body)) {
    int r = emit(Op::Rep1, n);
    p_.code[r].min = n.min;
    p_.code[r].max = n.max;
    p_.code[r].lazy = n.lazy;
    p_.code[r].possessive = n.possessive;
    node(body, depth + 1);
    return;
  }
  int atomic = -1;
  if (n.possessive) atomic = emit(Op::Atomic, n);
  int init = emit(Op::RepInit, n);
  p_.code[init].x = p_.registers++;
  int check = emit(Op::RepCheck, n);
  p_.code[check].x = p_.code[init].x;
  p_.code[check].min = n.min;
  p_.code[check].max = n.max;
  p_.code[check].lazy = n.lazy;
  node(body, depth + 1);
  int back = emit(Op::Jmp, n);
  p_.code[back].x = check;
  p_.code[check].y = here();
  if (atomic >= 0) {
    emit(Op::Match, n);
    p_.code[atomic].x = atomic + 1;
    p_.code[atomic].y = here();
  }
}

void Emitter::node(const Node& n, int depth) {
  check_stack();
  switch (n.kind) {
    case N::Lit: p_.code[static_cast<size_t>(emit(Op::Char, n))].c = n.c; return;
    case N::NotLit: p_.code[static_cast<size_t>(emit(Op::NotChar, n))].c = n.c; return;
    case N::Any: emit(n.flags & kDotAll ? Op::AnyAll : Op::Any, n); return;
    case N::Set: p_.code[static_cast<size_t>(emit(Op::Set, n))].x = n.set; return;
    case N::At: p_.code[static_cast<size_t>(emit(Op::At, n))].at = n.at; return;
    case N::GroupRef: p_.code[static_cast<size_t>(emit(Op::Backref, n))].x = n.group; return;
    case N::Seq: for (const Node& k : n.kids) node(k, depth + 1); return;
    case N::Repeat: repeat(n, depth); return;
    case N::Group: {
      if (n.group >= 0) p_.code[static_cast<size_t>(emit(Op::Save, n))].x = 2 * n.group;
      node(n.kids[0], depth + 1);
      if (n.group >= 0) p_.code[static_cast<size_t>(emit(Op::Save, n))].x = 2 * n.group + 1;
      return;
    }
    case N::Branch: {
      std::vector<int> ends;
      for (size_t k = 0; k < n.kids.size(); ++k) {
        int split = -1;
        if (k + 1 < n.kids.size()) split = emit(Op::Split, n);
        node(n.kids[k], depth + 1);
        if (k + 1 < n.kids.size()) {
          ends.push_back(emit(Op::Jmp, n));
          p_.code[static_cast<size_t>(split)].x = split + 1;
          p_.code[static_cast<size_t>(split)].y = here();
        }
      }
      for (int e : ends) p_.code[static_cast<size_t>(e)].x = here();
      return;
    }
    case N::GroupExists: {
      int test = emit(Op::GroupExists, n);
      p_.code[static_cast<size_t>(test)].x = n.group;
      node(n.kids[0], depth + 1);
      int jmp = emit(Op::Jmp, n);
      p_.code[static_cast<size_t>(test)].y = here();
      if (n.kids.size() > 1) node(n.kids[1], depth + 1);
      p_.code[static_cast<size_t>(jmp)].x = here();
      return;
    }
    case N::Look: case N::Atomic: {
      int op = emit(n.kind == N::Look ? Op::Look : Op::Atomic, n);
      if (n.kind == N::Look) {
        p_.code[static_cast<size_t>(op)].neg = n.neg;
        p_.code[static_cast<size_t>(op)].c = n.dir < 0 ? 1 : 0;   // 1: lookbehind
        if (n.dir < 0) {
          auto [lo, hi] = parser_.width(n.kids[0]);
          if (lo != hi) throw ParseError{"look-behind requires fixed-width pattern"};
          p_.code[static_cast<size_t>(op)].min = lo;
        }
      }
      node(n.kids[0], depth + 1);
      emit(Op::Match, n);
      p_.code[static_cast<size_t>(op)].x = op + 1;
      p_.code[static_cast<size_t>(op)].y = here();
      return;
    }
  }
}

}  // namespace

std::shared_ptr<const Program> compile(const std::u32string& pattern, int flags) {
  auto prog = std::make_shared<Program>();
  if (flags & kLocale) throw ParseError{"cannot use LOCALE flag with a str pattern", -1, ParseError::Value};
  if ((flags & kAscii) && (flags & kUnicode)) throw ParseError{"ASCII and UNICODE flags are incompatible", -1, ParseError::Value};
  Parser parser(pattern, flags, *prog);
  Node tree = parser.parse();
  prog->flags = parser.flags();
  if (!(prog->flags & kAscii)) prog->flags |= kUnicode;
  prog->groups = static_cast<int>(parser.widths_.size());
  Emitter(*prog, parser).node(tree, 0);
  Inst m;
  m.op = Op::Match;
  prog->code.push_back(m);
  return prog;
}

}  // namespace attn::py::re
