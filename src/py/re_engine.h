// py/re_engine.h: the regular expression engine behind `import re` (module_re.cpp, re.py):
// CPython 3.11's pattern syntax parsed into a small program (re_parse.cpp) that a backtracking
// matcher runs over code points (re_match.cpp).
//
// What it is: Python's syntax and semantics for str patterns (escapes, classes with the Unicode
// \d \w \s, anchors, groups named and numbered, backreferences, conditionals, lookaround,
// atomic groups, greedy/lazy/possessive repeats, inline and scoped flags), re.error's messages
// and positions as CPython's parser words them, and a matcher that keeps its backtracking on an
// explicit stack and polls the cell's time limit. What it is not: bytes patterns, re.LOCALE, or
// CPython's optimizer (a program here may take other paths to the same match).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attn::py {
class Interpreter;
}

namespace attn::py::re {

inline constexpr int64_t kMaxRepeat = 4294967295;   // _sre.MAXREPEAT: a repeat with no upper bound
inline constexpr int kMaxNesting = 495;             // groups nested in one pattern: as deep as CPython 3.11's parser goes

enum Flag : int { kIgnoreCase = 2, kLocale = 4, kMultiline = 8, kDotAll = 16, kUnicode = 32, kVerbose = 64, kDebug = 128, kAscii = 256 };

// A pattern the parser rejects: re.error's message and position (-1: none); `overflow` makes it
// OverflowError, `recursion` RecursionError, as CPython raises them.
struct ParseError {
  std::string msg;
  int64_t pos = -1;
  enum Kind { Error, Overflow, Recursion, Value } kind = Error;   // Value: ValueError (bad flags)
};

enum class Cat : uint8_t { Digit, NotDigit, Space, NotSpace, Word, NotWord };
struct SetItem {
  enum Kind : uint8_t { Lit, Range, Category } kind;
  char32_t lo = 0, hi = 0;
  Cat cat = Cat::Digit;
};
struct CharSet {
  bool negate = false;
  std::vector<SetItem> items;
};

enum class Op : uint8_t {
  Char, NotChar, Any, AnyAll, Set,     // one code point
  Split, Jmp, Save, At, Backref, Rep1, RepInit, RepCheck, Look, Atomic, GroupExists, Match, Fail
};
enum class At : uint8_t { Begin, BeginLine, BeginString, End, EndLine, EndString, Boundary, NonBoundary };

struct Inst {
  Op op;
  bool icase = false, ascii = false, lazy = false, neg = false, possessive = false;
  At at = At::Begin;
  char32_t c = 0;
  int x = 0, y = 0;        // jump targets / group / set index / register
  int64_t min = 0, max = 0;
};

struct Program {
  std::vector<Inst> code;
  std::vector<CharSet> sets;
  int groups = 0;                          // capturing groups (not counting group 0)
  int registers = 0;                       // counted repeats
  int flags = 0;                           // the pattern's flags, inline ones included
  std::vector<std::pair<std::string, int>> groupindex;   // name -> group, in definition order
};

// Parse and compile; throws ParseError.
std::shared_ptr<const Program> compile(const std::u32string& pattern, int flags);

// The first match from pos (Search), or one starting at pos (Match: anchored; FullMatch: also
// ending at endpos), in s[:endpos]. spans: 2*(groups+1) code point offsets, -1 for a group that did
// not take part; lastindex: the last group closed (0: none). must_advance: a match at pos must not
// be empty (finditer after an empty match). Polls in.tick() while it runs.
struct MatchResult {
  std::vector<int64_t> spans;
  int lastindex = 0;
};
enum class Mode { Match, FullMatch, Search };
bool find(Interpreter& in, const Program& p, const std::u32string& s, int64_t pos, int64_t endpos, Mode mode,
          bool must_advance, MatchResult& out);

// Every match from pos on with finditer's rule (after an empty match the next one must not be
// empty at the same place), at most `limit` (0: no bound): on_match for each; returns how many.
int64_t find_each(Interpreter& in, const Program& p, const std::u32string& s, int64_t pos, int64_t endpos, bool must_advance,
                  int64_t limit, const std::function<void(const MatchResult&)>& on_match);

bool is_word(char32_t c, bool ascii);
}  // namespace attn::py::re
