// py/re_match.cpp: runs a re::Program (re_engine.h) over a str's code points: a backtracking
// matcher with CPython's _sre semantics (greedy and lazy repeats that stop on an empty
// iteration, captures and lastindex undone on backtracking, lookaround and atomic groups).
//
// What it is: a loop over instructions with an explicit backtrack stack (choice points and the
// undo log in one vector), so no input or repeat count grows the C++ stack; only lookaround and
// atomic groups recurse, as deep as the pattern nests them (bounded by the parser). It polls
// Interpreter::tick() so a catastrophic pattern ends at the cell's time limit, and stops with
// attn's limit error when its stack passes kMaxBacktrack entries. What it is not: an optimizer
// (no literal-prefix scans, no memoization).
#include <fmt/format.h>

#include "print/unicode.h"
#include "py/ast.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "py/re_engine.h"

namespace attn::py::re {

namespace uc = print::unicode;

namespace {

constexpr size_t kMaxBacktrack = 20'000'000;   // entries (24 bytes each)

char32_t simple_lower(char32_t c, bool ascii) {
  if (c < 128) return c >= 'A' && c <= 'Z' ? c + 32 : c;
  if (ascii) return c;
  std::u32string out;
  uc::append_lower(out, c);
  return out.size() == 1 ? out[0] : c;
}
char32_t simple_upper(char32_t c, bool ascii) {
  if (c < 128) return c >= 'a' && c <= 'z' ? c - 32 : c;
  if (ascii) return c;
  std::u32string out;
  uc::append_upper(out, c);
  return out.size() == 1 ? out[0] : c;
}
bool same_ignoring_case(char32_t a, char32_t b, bool ascii) {
  if (a == b) return true;
  return simple_lower(a, ascii) == simple_lower(b, ascii) || simple_upper(a, ascii) == simple_upper(b, ascii);
}

bool is_space(char32_t c, bool ascii) {
  if (c < 128 || ascii) return c == ' ' || (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x1f && !ascii);
  return uc::is_space(c);
}
bool is_digit(char32_t c, bool ascii) {
  if (c < 128 || ascii) return c >= '0' && c <= '9';
  return uc::is_decimal(c);
}

bool in_category(Cat cat, char32_t c, bool ascii) {
  switch (cat) {
    case Cat::Digit: return is_digit(c, ascii);
    case Cat::NotDigit: return !is_digit(c, ascii);
    case Cat::Space: return is_space(c, ascii);
    case Cat::NotSpace: return !is_space(c, ascii);
    case Cat::Word: return is_word(c, ascii);
    case Cat::NotWord: return !is_word(c, ascii);
  }
  return false;
}

bool in_items(const CharSet& set, char32_t c, bool ascii) {
  for (const SetItem& it : set.items) {
    switch (it.kind) {
      case SetItem::Lit: if (c == it.lo) return true; break;
      case SetItem::Range: if (c >= it.lo && c <= it.hi) return true; break;
      case SetItem::Category: if (in_category(it.cat, c, ascii)) return true; break;
    }
  }
  return false;
}

bool in_set(const CharSet& set, char32_t c, bool icase, bool ascii) {
  bool in = in_items(set, c, ascii);
  if (!in && icase) {
    // c's other cases, and the lower case of its upper case (\u017f -> S -> s), as _sre's case fixes
    char32_t lo = simple_lower(c, ascii), up = simple_upper(c, ascii), folded = simple_lower(up, ascii);
    in = (lo != c && in_items(set, lo, ascii)) || (up != c && in_items(set, up, ascii)) ||
         (folded != c && folded != lo && in_items(set, folded, ascii));
  }
  return in != set.negate;
}

bool is_line_break(char32_t c) { return c == '\n'; }

struct Entry {
  enum Kind : uint8_t { Alt, Rep1Greedy, Rep1Lazy, Slot, Counter, LastPos, LastIndex, LoopBody } kind;
  int32_t pc;       // Alt / LoopBody: where to go; Rep1*: the Rep1 instruction; undo: the slot / register
  int64_t pos;      // Alt / LoopBody: where in the text; Rep1*: where the repeat started; undo: the old value
  int64_t n;        // Rep1*: the count so far
};

class Matcher {
 public:
  Matcher(Interpreter& in, const Program& p, const std::u32string& s, int64_t endpos)
      : slots_(static_cast<size_t>(2 * (p.groups + 1)), -1), in_(in), p_(p), s_(s), end_(endpos),
        counts_(static_cast<size_t>(p.registers), 0), lastpos_(static_cast<size_t>(p.registers), -1) {}

  // Runs from pc at pos until a Match instruction; true with `pos` at the end of the match. The
  // entries it leaves above the stack's size at entry are undo records only when `keep`.
  bool run(int pc, int64_t& pos, bool top);
  // One attempt at start for the top-level pattern (the match must end at endpos when `full`,
  // and be non-empty when `must_advance`: finditer's rule after an empty match).
  bool attempt(int64_t start, bool full, bool must_advance, int64_t& end) {
    std::fill(slots_.begin(), slots_.end(), -1);
    lastindex_ = 0;
    stack_.clear();
    start_ = start;
    full_ = full;
    must_advance_ = must_advance;
    end = start;
    return run(0, end, true);
  }
  std::vector<int64_t> slots_;
  int lastindex_ = 0;

 private:
  Interpreter& in_;
  const Program& p_;
  const std::u32string& s_;
  const int64_t end_;
  std::vector<int64_t> counts_, lastpos_;
  std::vector<Entry> stack_;
  int64_t steps_ = 0;
  int64_t start_ = 0;
  bool full_ = false, must_advance_ = false;

  void push(Entry e) {
    if (stack_.size() >= kMaxBacktrack)
      throw LimitError(0, fmt::format("RuntimeError: the regular expression backtracked through more than {} saved states "
                                      "(attn's limit, re_match.cpp kMaxBacktrack)", kMaxBacktrack));
    stack_.push_back(e);
  }
  void set_slot(int k, int64_t v) { push({Entry::Slot, k, slots_[static_cast<size_t>(k)], 0}); slots_[static_cast<size_t>(k)] = v; }
  void set_count(int r, int64_t v) { push({Entry::Counter, r, counts_[static_cast<size_t>(r)], 0}); counts_[static_cast<size_t>(r)] = v; }
  void set_lastpos(int r, int64_t v) { push({Entry::LastPos, r, lastpos_[static_cast<size_t>(r)], 0}); lastpos_[static_cast<size_t>(r)] = v; }
  void set_lastindex(int v) { push({Entry::LastIndex, 0, lastindex_, 0}); lastindex_ = v; }
  void undo(const Entry& e) {
    switch (e.kind) {
      case Entry::Slot: slots_[static_cast<size_t>(e.pc)] = e.pos; break;
      case Entry::Counter: counts_[static_cast<size_t>(e.pc)] = e.pos; break;
      case Entry::LastPos: lastpos_[static_cast<size_t>(e.pc)] = e.pos; break;
      case Entry::LastIndex: lastindex_ = static_cast<int>(e.pos); break;
      default: break;
    }
  }
  // Drops everything above `base`, undoing what it records.
  void unwind(size_t base) {
    while (stack_.size() > base) { undo(stack_.back()); stack_.pop_back(); }
  }
  // Keeps the undo records above `base`, drops the choice points (a lookahead or atomic group
  // that matched is not tried again).
  void commit(size_t base) {
    size_t out = base;
    for (size_t k = base; k < stack_.size(); ++k)
      if (stack_[k].kind >= Entry::Slot && stack_[k].kind <= Entry::LastIndex) stack_[out++] = stack_[k];
    stack_.resize(out);
  }
  bool one(const Inst& i, int64_t pos) const;
  bool at(const Inst& i, int64_t pos) const;
  bool backref(const Inst& i, int64_t& pos) const;
  bool backtrack(size_t base, int& pc, int64_t& pos);
  bool rep_check(const Inst& i, int pc, int& next, int64_t pos);
  bool rep1(const Inst& i, int pc, int& next, int64_t& pos);
  bool sub(const Inst& i, int& next, int64_t& pos);
};

bool Matcher::one(const Inst& i, int64_t pos) const {
  if (pos >= end_) return false;
  char32_t c = s_[static_cast<size_t>(pos)];
  switch (i.op) {
    case Op::Char: return c == i.c || (i.icase && same_ignoring_case(c, i.c, i.ascii));
    case Op::NotChar: return !(c == i.c || (i.icase && same_ignoring_case(c, i.c, i.ascii)));
    case Op::Any: return c != '\n';
    case Op::AnyAll: return true;
    case Op::Set: return in_set(p_.sets[static_cast<size_t>(i.x)], c, i.icase, i.ascii);
    default: return false;
  }
}

bool Matcher::at(const Inst& i, int64_t pos) const {
  auto word_at = [&](int64_t k) { return k >= 0 && k < end_ && is_word(s_[static_cast<size_t>(k)], i.ascii); };
  switch (i.at) {
    case At::Begin: case At::BeginString: return pos == 0;
    case At::BeginLine: return pos == 0 || is_line_break(s_[static_cast<size_t>(pos - 1)]);
    case At::End: return pos == end_ || (pos + 1 == end_ && is_line_break(s_[static_cast<size_t>(pos)]));
    case At::EndLine: return pos == end_ || is_line_break(s_[static_cast<size_t>(pos)]);
    case At::EndString: return pos == end_;
    case At::Boundary: return !(pos == 0 && pos == end_) && word_at(pos - 1) != word_at(pos);
    case At::NonBoundary: return !(pos == 0 && pos == end_) && word_at(pos - 1) == word_at(pos);
  }
  return false;
}

bool Matcher::backref(const Inst& i, int64_t& pos) const {
  int64_t a = slots_[static_cast<size_t>(2 * i.x)], b = slots_[static_cast<size_t>(2 * i.x + 1)];
  if (a < 0 || b < 0) return false;
  if (pos + (b - a) > end_) return false;
  for (int64_t k = 0; k < b - a; ++k) {
    char32_t x = s_[static_cast<size_t>(a + k)], y = s_[static_cast<size_t>(pos + k)];
    if (x != y && !(i.icase && same_ignoring_case(x, y, i.ascii))) return false;
  }
  pos += b - a;
  return true;
}

// Pops to the most recent choice point above base: false when there is none (the run fails).
bool Matcher::backtrack(size_t base, int& pc, int64_t& pos) {
  while (stack_.size() > base) {
    Entry e = stack_.back();
    stack_.pop_back();
    switch (e.kind) {
      case Entry::Alt: pc = e.pc; pos = e.pos; return true;
      case Entry::LoopBody: {
        const Inst& check = p_.code[static_cast<size_t>(e.pc)];
        set_count(check.x, counts_[static_cast<size_t>(check.x)] + 1);
        set_lastpos(check.x, e.pos);
        pc = e.pc + 1;
        pos = e.pos;
        return true;
      }
      case Entry::Rep1Greedy: {
        const Inst& r = p_.code[static_cast<size_t>(e.pc)];
        int64_t n = e.n - 1;
        if (n > r.min) push({Entry::Rep1Greedy, e.pc, e.pos, n});
        pc = e.pc + 2;
        pos = e.pos + n;
        return true;
      }
      case Entry::Rep1Lazy: {
        const Inst& r = p_.code[static_cast<size_t>(e.pc)];
        if (!one(p_.code[static_cast<size_t>(e.pc + 1)], e.pos + e.n)) continue;
        int64_t n = e.n + 1;
        if (n < r.max) push({Entry::Rep1Lazy, e.pc, e.pos, n});
        pc = e.pc + 2;
        pos = e.pos + n;
        return true;
      }
      default: undo(e);
    }
  }
  return false;
}

// _sre's MAX_UNTIL / MIN_UNTIL: another iteration of the body, or what follows.
bool Matcher::rep_check(const Inst& i, int pc, int& next, int64_t pos) {
  const size_t r = static_cast<size_t>(i.x);
  const int64_t count = counts_[r];
  const bool more = (count < i.max || i.max == kMaxRepeat) && pos != lastpos_[r];
  if (count < i.min) {
    set_count(i.x, count + 1);
    next = pc + 1;
    return true;
  }
  if (!i.lazy) {
    if (more) {
      push({Entry::Alt, i.y, pos, 0});
      set_count(i.x, count + 1);
      set_lastpos(i.x, pos);
      next = pc + 1;
    } else {
      next = i.y;
    }
    return true;
  }
  if (more) push({Entry::LoopBody, pc, pos, 0});
  next = i.y;
  return true;
}

bool Matcher::rep1(const Inst& i, int pc, int& next, int64_t& pos) {
  const Inst& item = p_.code[static_cast<size_t>(pc + 1)];
  next = pc + 2;
  const int64_t start = pos;
  if (i.lazy) {
    for (int64_t k = 0; k < i.min; ++k)
      if (!one(item, start + k)) return false;
    if (i.min < i.max && !i.possessive) push({Entry::Rep1Lazy, pc, start, i.min});
    pos = start + i.min;
    return true;
  }
  int64_t n = 0;
  const int64_t limit = std::min<int64_t>(i.max, end_ - start);
  while (n < limit && one(item, start + n)) {
    ++n;
    if ((n & 0xffff) == 0) in_.tick();
  }
  if (n < i.min) return false;
  if (n > i.min && !i.possessive) push({Entry::Rep1Greedy, pc, start, n});
  pos = start + n;
  return true;
}

// Lookaround and atomic groups: a nested run over the same captures.
bool Matcher::sub(const Inst& i, int& next, int64_t& pos) {
  const size_t base = stack_.size();
  next = i.y;
  if (i.op == Op::Atomic) {
    int64_t p = pos;
    if (!run(i.x, p, false)) return false;
    commit(base);
    pos = p;
    return true;
  }
  int64_t p = pos;
  bool ok = true;
  if (i.c == 1) {   // lookbehind
    p = pos - i.min;
    ok = p >= 0;
  }
  if (ok) ok = run(i.x, p, false);
  if (!i.neg) {
    if (ok) commit(base);
    return ok;
  }
  if (ok) unwind(base);
  return !ok;
}

bool Matcher::run(int pc, int64_t& pos, bool top) {
  check_stack();   // lookaround and atomic groups nest runs
  const size_t base = stack_.size();
  for (;;) {
    if ((++steps_ & 1023) == 0) in_.tick();
    const Inst& i = p_.code[static_cast<size_t>(pc)];
    bool ok = true;
    int next = pc + 1;
    switch (i.op) {
      case Op::Char: case Op::NotChar: case Op::Any: case Op::AnyAll: case Op::Set:
        ok = one(i, pos);
        if (ok) ++pos;
        break;
      case Op::Split: push({Entry::Alt, i.y, pos, 0}); next = i.x; break;
      case Op::Jmp: next = i.x; break;
      case Op::Save:
        set_slot(i.x, pos);
        if (i.x & 1) set_lastindex(i.x / 2);
        break;
      case Op::At: ok = at(i, pos); break;
      case Op::Backref: ok = backref(i, pos); break;
      case Op::Rep1: ok = rep1(i, pc, next, pos); break;
      case Op::RepInit:
        set_count(i.x, 0);
        set_lastpos(i.x, -1);
        break;
      case Op::RepCheck: ok = rep_check(i, pc, next, pos); break;
      case Op::Look: case Op::Atomic: ok = sub(i, next, pos); break;
      case Op::GroupExists: {
        bool set = i.x <= p_.groups && slots_[static_cast<size_t>(2 * i.x)] >= 0 && slots_[static_cast<size_t>(2 * i.x + 1)] >= 0;
        if (!set) next = i.y;
        break;
      }
      case Op::Match:
        if (!top || !((full_ && pos != end_) || (must_advance_ && pos == start_))) return true;
        ok = false;
        break;
      case Op::Fail: ok = false; break;
    }
    if (ok) { pc = next; continue; }
    if (!backtrack(base, pc, pos)) return false;
  }
}

}  // namespace

bool is_word(char32_t c, bool ascii) {
  if (c < 128 || ascii) return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  return uc::is_alnum(c);
}

namespace {

bool find_with(Interpreter& in, Matcher& m, const Program& p, const std::u32string& s, int64_t pos, int64_t endpos, Mode mode,
               bool must_advance, MatchResult& out) {
  const Inst& first = p.code[0];
  const bool literal_first = first.op == Op::Char && !first.icase;
  for (int64_t start = pos; start <= endpos; ++start) {
    if (mode == Mode::Search && literal_first) {
      while (start < endpos && s[static_cast<size_t>(start)] != first.c) ++start;
      if (start >= endpos) return false;
    }
    int64_t end = start;
    if (m.attempt(start, mode == Mode::FullMatch, must_advance && start == pos, end)) {
      m.slots_[0] = start;
      m.slots_[1] = end;
      out.spans = m.slots_;
      out.lastindex = m.lastindex_;
      return true;
    }
    if (mode != Mode::Search) return false;
    if ((start & 255) == 0) in.tick();
  }
  return false;
}

}  // namespace

bool find(Interpreter& in, const Program& p, const std::u32string& s, int64_t pos, int64_t endpos, Mode mode,
          bool must_advance, MatchResult& out) {
  Matcher m(in, p, s, endpos);
  return find_with(in, m, p, s, pos, endpos, mode, must_advance, out);
}

int64_t find_each(Interpreter& in, const Program& p, const std::u32string& s, int64_t pos, int64_t endpos, bool must_advance,
                  int64_t limit, const std::function<void(const MatchResult&)>& on_match) {
  Matcher m(in, p, s, endpos);
  MatchResult r;
  int64_t n = 0;
  while (pos <= endpos && (limit == 0 || n < limit)) {
    if (!find_with(in, m, p, s, pos, endpos, Mode::Search, must_advance, r)) break;
    on_match(r);
    ++n;
    must_advance = r.spans[1] == r.spans[0];
    pos = r.spans[1];
    if ((n & 63) == 0) in.tick();
  }
  return n;
}

}  // namespace attn::py::re
