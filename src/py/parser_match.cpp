// py/parser_match.cpp: parsing `match` statements (PEP 634) into Stmt::Match, with CPython
// 3.11's SyntaxErrors for patterns that cannot be (a name bound twice, alternatives binding
// different names, an irrefutable case or alternative before others, a repeated mapping key
// or class keyword). `match` and `case` stay soft keywords: `match = 3` and `match(x)` are
// ordinary statements. What it is not: running them (match.cpp); complex-number literals.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "py/parser_impl.h"

namespace attn::py::detail {

namespace {

bool irrefutable(const Pattern& p) {
  if (p.kind == Pattern::Wildcard || p.kind == Pattern::Capture) return true;
  if (p.kind == Pattern::As) return irrefutable(*p.items[0]);
  if (p.kind == Pattern::Or) return std::any_of(p.items.begin(), p.items.end(), [](const PatternPtr& q) { return irrefutable(*q); });
  return false;
}

// CPython's complaint about an irrefutable pattern that is not the last.
std::string unreachable(const Pattern& p) {
  const Pattern* q = &p;
  while (q->kind == Pattern::As) q = q->items[0].get();
  if (q->kind == Pattern::Or)
    for (const PatternPtr& alt : q->items)
      if (irrefutable(*alt)) return unreachable(*alt);
  if (q->kind == Pattern::Capture) return "SyntaxError: name capture '" + q->name + "' makes remaining patterns unreachable";
  return "SyntaxError: wildcard makes remaining patterns unreachable";
}

// The names a pattern binds, in order; a name bound twice is CPython's SyntaxError.
void bound_names(const Pattern& p, std::vector<std::string>& out) {
  auto add = [&](const std::string& n) {
    if (n.empty()) return;
    if (std::find(out.begin(), out.end(), n) != out.end())
      throw ScriptError(p.line, "SyntaxError: multiple assignments to name '" + n + "' in pattern");
    out.push_back(n);
  };
  switch (p.kind) {
    case Pattern::Capture: case Pattern::Star: add(p.name); return;
    case Pattern::As: bound_names(*p.items[0], out); add(p.name); return;
    case Pattern::Or: {
      std::vector<std::string> first;
      for (size_t k = 0; k < p.items.size(); ++k) {
        std::vector<std::string> alt;
        bound_names(*p.items[k], alt);
        std::sort(alt.begin(), alt.end());
        if (k == 0) first = alt;
        else if (alt != first) throw ScriptError(p.line, "SyntaxError: alternative patterns bind different names");
      }
      std::vector<std::string> mine;
      bound_names(*p.items[0], mine);
      for (const std::string& n : mine) add(n);
      return;
    }
    case Pattern::Mapping:
      for (const PatternPtr& q : p.items) bound_names(*q, out);
      add(p.name);
      return;
    default:
      for (const PatternPtr& q : p.items) bound_names(*q, out);
      for (const PatternPtr& q : p.kw_items) bound_names(*q, out);
  }
}

// A literal key's text for the duplicate check ("'a'", "1"), "" for a key that is a dotted name.
std::string key_text(const Expr& e) {
  if (e.kind == Expr::Str) return "'" + e.name + "'";
  if (e.kind == Expr::Int && e.name.empty()) return std::to_string(e.ival);
  if (e.kind == Expr::NoneLit) return "None";
  if (e.kind == Expr::True) return "True";
  if (e.kind == Expr::False) return "False";
  return "";
}

}  // namespace

// Whether `match` at the start of this logical line opens a match statement: the line ends
// with ':' and `match` is not assigned, annotated, or an attribute's object.
bool Parser::match_line() const {
  const Token& n = next();
  if (n.kind == Token::Newline || n.kind == Token::End) return false;
  if (n.kind == Token::Op && (n.text == "=" || n.text == "." || n.text == ":" || n.text == ")" || n.text == "," ||
                              (n.text.size() >= 2 && n.text.back() == '=' && n.text != "==" && n.text != "<=" && n.text != ">=" && n.text != "!=")))
    return false;
  size_t k = p_ + 1;
  while (k < t_.size() && t_[k].kind != Token::Newline && t_[k].kind != Token::End) ++k;
  return t_[k - 1].kind == Token::Op && t_[k - 1].text == ":";
}

StmtPtr Parser::match_statement() {
  StmtPtr s = make_stmt(Stmt::Match);
  ++p_;
  s->value = expr_list();
  expect_op(":");
  if (cur().kind != Token::Newline) fail("invalid syntax");
  ++p_;
  if (cur().kind != Token::Indent) fail("expected an indented block");
  ++p_;
  while (cur().kind != Token::Dedent && cur().kind != Token::End) {
    if (cur().kind == Token::Newline) { ++p_; continue; }
    if (!is_name("case")) fail("invalid syntax");
    Handler h;
    h.line = cur().line;
    ++p_;
    h.pattern = open_pattern();
    if (accept_name("if")) h.guard = named_expr();
    h.body = block();
    s->handlers.push_back(std::move(h));
  }
  if (cur().kind == Token::Dedent) ++p_;
  for (size_t k = 0; k < s->handlers.size(); ++k) {
    const Handler& h = s->handlers[k];
    std::vector<std::string> names;
    bound_names(*h.pattern, names);
    if (k + 1 < s->handlers.size() && !h.guard && irrefutable(*h.pattern)) throw ScriptError(h.line, unreachable(*h.pattern));
  }
  return s;
}

// `case a, *b:`: patterns separated by commas are a sequence pattern.
PatternPtr Parser::open_pattern() {
  PatternPtr first = star_pattern();
  if (!is_op(",")) {
    if (first->kind == Pattern::Star) error("invalid syntax");
    return first;
  }
  auto seq = std::make_shared<Pattern>();
  seq->kind = Pattern::Sequence;
  seq->line = first->line;
  seq->items.push_back(first);
  while (accept_op(",")) {
    if (is_op(":") || is_name("if")) break;
    seq->items.push_back(star_pattern());
  }
  check_stars(*seq);
  return seq;
}

void Parser::check_stars(const Pattern& seq) const {
  if (std::count_if(seq.items.begin(), seq.items.end(), [](const PatternPtr& q) { return q->kind == Pattern::Star; }) > 1)
    throw ScriptError(seq.line, "SyntaxError: multiple starred names in sequence pattern");
}

PatternPtr Parser::star_pattern() {
  if (!is_op("*")) return pattern();
  auto p = std::make_shared<Pattern>();
  p->kind = Pattern::Star;
  p->line = cur().line;
  ++p_;
  p->name = expect_name();
  if (p->name == "_") p->name.clear();
  return p;
}

// as_pattern | or_pattern
PatternPtr Parser::pattern() {
  Scope scope(*this);
  deeper();
  PatternPtr p = or_pattern();
  if (!accept_name("as")) return p;
  if (cur().kind != Token::Name) fail("invalid syntax");
  if (is_name("_")) error("cannot use '_' as a target");
  auto as = std::make_shared<Pattern>();
  as->kind = Pattern::As;
  as->line = p->line;
  as->items.push_back(p);
  as->name = expect_name();
  return as;
}

PatternPtr Parser::or_pattern() {
  PatternPtr first = closed_pattern();
  if (!is_op("|")) return first;
  auto alt = std::make_shared<Pattern>();
  alt->kind = Pattern::Or;
  alt->line = first->line;
  alt->items.push_back(first);
  while (accept_op("|")) alt->items.push_back(closed_pattern());
  for (size_t k = 0; k + 1 < alt->items.size(); ++k)
    if (irrefutable(*alt->items[k])) throw ScriptError(alt->line, unreachable(*alt->items[k]));
  return alt;
}

// A literal: a number (signed), strings, None/True/False; no f-strings, no arithmetic.
PatternPtr Parser::literal_pattern() {
  auto p = std::make_shared<Pattern>();
  p->kind = Pattern::Value;
  p->line = cur().line;
  if (cur().kind == Token::FString) error("patterns may only match literals and attribute lookups");
  if (is_op("-")) {
    ExprPtr neg = make(Expr::Unary);
    neg->name = "-";
    ++p_;
    if (cur().kind != Token::Number) fail("invalid syntax");
    neg->a = atom();
    p->value = neg;
  } else {
    p->value = atom();
    if (p->value->kind == Expr::NoneLit || p->value->kind == Expr::True || p->value->kind == Expr::False) p->kind = Pattern::Singleton;
    if (p->value->kind == Expr::Binary) error("patterns may only match literals and attribute lookups");
  }
  if (is_op("+") || is_op("-")) error("imaginary number required in complex literal");
  return p;
}

PatternPtr Parser::closed_pattern() {
  const Token& tok = cur();
  if (tok.kind == Token::Number || tok.kind == Token::String || tok.kind == Token::FString || tok.kind == Token::Bytes || is_op("-") ||
      is_name("None") || is_name("True") || is_name("False"))
    return literal_pattern();
  auto p = std::make_shared<Pattern>();
  p->line = tok.line;
  if (tok.kind == Token::Name) return name_pattern();
  if (is_op("(") || is_op("[")) {
    const bool paren = is_op("(");
    const char* close = paren ? ")" : "]";
    ++p_;
    p->kind = Pattern::Sequence;
    while (!is_op(close)) {
      p->items.push_back(star_pattern());
      if (paren && p->items.size() == 1 && is_op(")") && p->items[0]->kind != Pattern::Star) {   // (p): a group
        ++p_;
        return p->items[0];
      }
      if (!accept_op(",")) break;
    }
    expect_op(close);
    check_stars(*p);
    return p;
  }
  if (is_op("{")) return mapping_pattern();
  fail("invalid syntax");
}

// x (capture), _ (wildcard), a.b.c (value), Cls(...) / a.Cls(...) (class).
PatternPtr Parser::name_pattern() {
  auto p = std::make_shared<Pattern>();
  p->line = cur().line;
  ExprPtr e = make(Expr::Name);
  e->name = expect_name();
  bool dotted = false;
  while (accept_op(".")) {
    ExprPtr attr = make(Expr::Attribute);
    attr->a = e;
    attr->name = expect_name();
    e = attr;
    dotted = true;
  }
  if (is_op("(")) return class_pattern(e);
  if (dotted) {
    p->kind = Pattern::Value;
    p->value = e;
  } else {
    p->kind = e->name == "_" ? Pattern::Wildcard : Pattern::Capture;
    if (p->kind == Pattern::Capture) p->name = e->name;
  }
  return p;
}

PatternPtr Parser::class_pattern(ExprPtr cls) {
  auto p = std::make_shared<Pattern>();
  p->kind = Pattern::Class;
  p->line = cur().line;
  p->value = std::move(cls);
  ++p_;   // (
  while (!is_op(")")) {
    if (cur().kind == Token::Name && next().kind == Token::Op && next().text == "=") {
      const std::string key = expect_name();
      ++p_;
      if (std::find(p->kw_names.begin(), p->kw_names.end(), key) != p->kw_names.end())
        error("attribute name repeated in class pattern: " + key);
      p->kw_names.push_back(key);
      p->kw_items.push_back(pattern());
    } else {
      if (!p->kw_names.empty()) error("positional patterns follow keyword patterns");
      p->items.push_back(pattern());
    }
    if (!accept_op(",")) break;
  }
  expect_op(")");
  return p;
}

PatternPtr Parser::mapping_pattern() {
  auto p = std::make_shared<Pattern>();
  p->kind = Pattern::Mapping;
  p->line = cur().line;
  ++p_;   // {
  std::set<std::string> seen;
  while (!is_op("}")) {
    if (accept_op("**")) {
      p->name = expect_name();
      if (p->name == "_") fail("invalid syntax");
      accept_op(",");
      if (!is_op("}")) fail("invalid syntax");
      break;
    }
    PatternPtr key = cur().kind == Token::Name && !is_name("None") && !is_name("True") && !is_name("False") ? name_pattern() : literal_pattern();
    if (key->kind != Pattern::Value && key->kind != Pattern::Singleton) fail("invalid syntax");
    const std::string text = key_text(*key->value);
    if (!text.empty() && !seen.insert(text).second) error("mapping pattern checks duplicate key (" + text + ")");
    p->keys.push_back(key->value);
    expect_op(":");
    p->items.push_back(pattern());
    if (!accept_op(",")) break;
  }
  expect_op("}");
  return p;
}

}  // namespace attn::py::detail
