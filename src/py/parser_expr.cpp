// py/parser_expr.cpp: the parser's expressions: expression lists and targets, conditional
// expressions, boolean operators, comparisons, binary operators by precedence level, unary
// operators and **, calls and their arguments, subscripts and slices, comprehensions, list /
// tuple / dict / set displays, f-strings and atoms (names, numbers, strings, brackets).
//
// What it is: Python's expression grammar for the constructs in ast.h, with Python's operator
// precedence (or < and < not < comparisons < | < ^ < & < +,- < *,/,//,%,@ < unary < ** < trailers),
// split from parser.cpp (statements) to keep each file readable. What it is not: an
// error-recovering parser; the first error is reported with its line.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <set>

#include "py/limits.h"
#include "py/parser_impl.h"

namespace attn::py::detail {

ExprPtr Parser::expr_list() {
  if (is_name("yield")) return yield_expr();
  ExprPtr first = star_expr();
  if (!is_op(",")) return first;
  ExprPtr tup = make(Expr::Tuple);
  tup->items.push_back(first);
  while (accept_op(",")) {
    if (cur().kind == Token::Newline || is_op("=") || is_op(")") || is_op(";") || cur().kind == Token::End) break;
    tup->items.push_back(star_expr());
  }
  return tup;
}

ExprPtr Parser::target_list() {      // for-loop / comprehension targets: stop before `in`
  ExprPtr first = star_target();
  if (!is_op(",")) {
    check_for_target(*first);
    return first;
  }
  ExprPtr tup = make(Expr::Tuple);
  tup->items.push_back(first);
  while (accept_op(",")) {
    if (is_name("in")) break;
    tup->items.push_back(star_target());
  }
  check_for_target(*tup);
  return tup;
}

ExprPtr Parser::expression() {
  Scope scope(*this);
  deeper();
  if (is_name("lambda")) return lambda();
  ExprPtr e = or_expr();
  if (!is_name("if")) return e;
  ExprPtr c = make(Expr::IfExp);
  ++p_;
  c->a = e;
  c->b = or_expr();
  if (!accept_name("else")) fail("expected 'else'");
  c->c = expression();
  return c;
}

// What CPython calls an expression that cannot be a target (of `:=`, of `+=`; parser_impl.h).
std::string target_kind(const Expr& e) {
  switch (e.kind) {
    case Expr::Attribute: return "attribute";
    case Expr::Subscript: return "subscript";
    case Expr::Call: return "function call";
    case Expr::Tuple: return "tuple";
    case Expr::List: return "list";
    case Expr::Dict: return "dict literal";
    case Expr::Set: return "set display";
    case Expr::ListComp: return "list comprehension";
    case Expr::SetComp: return "set comprehension";
    case Expr::DictComp: return "dict comprehension";
    case Expr::GenExp: return "generator expression";
    case Expr::Lambda: return "lambda";
    case Expr::IfExp: return "conditional expression";
    case Expr::Compare: return "comparison";
    case Expr::NoneLit: return "None";
    case Expr::True: return "True";
    case Expr::False: return "False";
    case Expr::Ellipsis: return "ellipsis";
    case Expr::FStr: return "f-string expression";
    case Expr::Starred: return "starred";
    case Expr::NamedExpr: return "named expression";
    case Expr::Yield: case Expr::YieldFrom: return "yield expression";
    case Expr::Int: case Expr::Float: case Expr::Str: case Expr::Bytes: return "literal";
    default: return "expression";
  }
}

const Expr* invalid_target(const Expr& t, bool del) {
  std::vector<const Expr*> todo{&t};   // iterative: targets nest as deep as the parser allows
  while (!todo.empty()) {
    const Expr* e = todo.back();
    todo.pop_back();
    switch (e->kind) {
      case Expr::Tuple: case Expr::List:
        for (auto it = e->items.rbegin(); it != e->items.rend(); ++it) todo.push_back(it->get());
        break;
      case Expr::Starred:
        if (del) return e;
        todo.push_back(e->a.get());
        break;
      case Expr::Name: case Expr::Subscript: case Expr::Attribute: break;
      default: return e;
    }
  }
  return nullptr;
}

void check_starred_targets(const Expr& t) {
  std::vector<const Expr*> todo{&t};
  while (!todo.empty()) {
    const Expr* e = todo.back();
    todo.pop_back();
    if (e->kind == Expr::Starred) todo.push_back(e->a.get());
    if (e->kind != Expr::Tuple && e->kind != Expr::List) continue;
    int stars = 0;
    for (const ExprPtr& x : e->items) {
      if (x->kind == Expr::Starred && ++stars == 2) throw ScriptError(x->line, "SyntaxError: multiple starred expressions in assignment");
      todo.push_back(x.get());
    }
  }
}

void check_for_target(const Expr& t) {
  if (const Expr* bad = invalid_target(t, false)) throw ScriptError(bad->line, "SyntaxError: cannot assign to " + target_kind(*bad));
  check_starred_targets(t);
}

namespace {

// Calls f on every expression inside e (not into lambdas: their own scope), e first.
template <class F>
void each_expr(const Expr& e, F& f) {
  f(e);
  if (e.kind == Expr::Lambda) return;
  for (const ExprPtr& x : e.items)
    if (x) each_expr(*x, f);
  for (const ExprPtr& x : e.values)
    if (x) each_expr(*x, f);
  for (const ExprPtr* x : {&e.a, &e.b, &e.c})
    if (*x) each_expr(**x, f);
  for (const Arg& a : e.args)
    if (a.value) each_expr(*a.value, f);
  for (const Comprehension& c : e.comps) {
    each_expr(*c.target, f);
    each_expr(*c.iter, f);
    for (const ExprPtr& x : c.conds) each_expr(*x, f);
  }
}

void target_names(const Expr& t, std::set<std::string>& out) {
  if (t.kind == Expr::Name) out.insert(t.name);
  for (const ExprPtr& x : t.items) target_names(*x, out);
  if (t.kind == Expr::Starred || t.kind == Expr::Attribute || t.kind == Expr::Subscript) target_names(*t.a, out);
}

}  // namespace

ExprPtr Parser::named_expr() {
  ExprPtr e = expression();
  if (!is_op(":=")) return e;
  if (e->kind != Expr::Name) error("cannot use assignment expressions with " + target_kind(*e));
  ExprPtr n = make(Expr::NamedExpr);
  ++p_;
  n->name = e->name;
  n->a = expression();
  if (def_) def_->named_targets.push_back(n->name);
  return n;
}

ExprPtr Parser::star_named() { return is_op("*") ? star_expr() : named_expr(); }

void Parser::check_named_in_comprehension(const Expr& comp) const {
  std::set<std::string> loop_vars;
  for (const Comprehension& c : comp.comps) target_names(*c.target, loop_vars);
  auto in_iterable = [this](const Expr& x) {
    if (x.kind == Expr::NamedExpr) error("assignment expression cannot be used in a comprehension iterable expression");
  };
  for (const Comprehension& c : comp.comps) each_expr(*c.iter, in_iterable);
  auto rebinds = [&](const Expr& x) {
    if (x.kind == Expr::NamedExpr && loop_vars.count(x.name))
      error("assignment expression cannot rebind comprehension iteration variable '" + x.name + "'");
    if (x.kind == Expr::NamedExpr && class_body_) error("assignment expression within a comprehension cannot be used in a class body");
  };
  each_expr(comp, rebinds);
}

ExprPtr Parser::or_expr() {
  Scope scope(*this);
  ExprPtr e = and_expr();
  while (is_name("or")) {
    deeper();
    ExprPtr b = make(Expr::BoolOp);
    ++p_;
    b->name = "or"; b->a = e; b->b = and_expr();
    e = b;
  }
  return e;
}

ExprPtr Parser::and_expr() {
  Scope scope(*this);
  ExprPtr e = not_expr();
  while (is_name("and")) {
    deeper();
    ExprPtr b = make(Expr::BoolOp);
    ++p_;
    b->name = "and"; b->a = e; b->b = not_expr();
    e = b;
  }
  return e;
}

ExprPtr Parser::not_expr() {
  if (!is_name("not")) return comparison();
  Scope scope(*this);
  deeper();
  ExprPtr n = make(Expr::Not);
  ++p_;
  n->a = not_expr();
  return n;
}

ExprPtr Parser::comparison() {
  ExprPtr e = binary(0);
  // asked after every operand: ==, !=, <, >, <=, >= by their characters, not a std::set lookup
  auto is_cmp = [](const std::string& t) {
    if (t.size() == 1) return t[0] == '<' || t[0] == '>';
    return t.size() == 2 && t[1] == '=' && (t[0] == '=' || t[0] == '!' || t[0] == '<' || t[0] == '>');
  };
  ExprPtr c;
  for (;;) {
    std::string op;
    if (cur().kind == Token::Op && is_cmp(cur().text)) { op = cur().text; ++p_; }
    else if (is_name("in")) { op = "in"; ++p_; }
    else if (is_name("is")) { ++p_; op = accept_name("not") ? "is not" : "is"; }
    else if (is_name("not") && t_[p_ + 1].kind == Token::Name && t_[p_ + 1].text == "in") { p_ += 2; op = "not in"; }
    else break;
    if (!c) { c = make(Expr::Compare); c->items.push_back(e); }
    c->ops.push_back(op);
    c->items.push_back(binary(0));
  }
  return c ? c : e;
}

// Binary operator levels, loosest first.
const std::vector<std::vector<std::string>> kLevels = {
    {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}};

ExprPtr Parser::binary(int level) {
  if (level == static_cast<int>(kLevels.size())) return unary();
  Scope scope(*this);
  ExprPtr e = binary(level + 1);
  for (;;) {
    const auto& ops = kLevels[level];
    if (cur().kind != Token::Op || std::find(ops.begin(), ops.end(), cur().text) == ops.end()) return e;
    deeper();
    ExprPtr b = make(Expr::Binary);
    b->name = cur().text;
    ++p_;
    b->a = e;
    b->b = binary(level + 1);
    e = b;
  }
}

ExprPtr Parser::unary() {
  if (is_op("-") || is_op("+") || is_op("~")) {
    Scope scope(*this);
    deeper();
    ExprPtr u = make(Expr::Unary);
    u->name = cur().text;
    ++p_;
    u->a = unary();
    return u;
  }
  return power();
}

ExprPtr Parser::power() {
  ExprPtr e = trailers(atom());
  if (!is_op("**")) return e;
  Scope scope(*this);
  deeper();
  ExprPtr b = make(Expr::Binary);
  ++p_;
  b->name = "**";
  b->a = e;
  b->b = unary();     // right-associative, binds tighter than unary minus on its left
  return b;
}

void Parser::call_args(Expr& call) {
  while (!is_op(")")) {
    Arg a;
    if (cur().kind == Token::Name && t_[p_ + 1].kind == Token::Op && t_[p_ + 1].text == "=") {
      a.name = cur().text;
      p_ += 2;
    } else if (accept_op("**")) {
      a.name = "**";
    } else if (accept_op("*")) {
      a.name = "*";
    }
    size_t begin = cur().begin;
    a.value = a.name.empty() ? named_expr() : expression();   // f(x := 1), not f(a=x := 1)
    a.text = src_.substr(begin, t_[p_ - 1].end - begin);
    if (a.name.empty() && is_name("for")) {     // f(x for x in xs): a generator argument
      ExprPtr lc = make(Expr::GenExp);
      lc->a = a.value;
      int yields = yields_;
      lc->comps = comprehensions();
      if (yields_ != yields) error("'yield' inside generator expression");
      check_named_in_comprehension(*lc);
      a.value = lc;
      if (!call.args.empty() || !is_op(")")) error("Generator expression must be parenthesized");   // f(1, x for x in y)
    }
    check_arg_order(call.args, a);
    call.args.push_back(a);
    if (!accept_op(",")) break;
  }
  expect_op(")");
}

// CPython's SyntaxErrors for arguments out of order: f(a=1, 2), f(**d, 2), f(**d, *xs), f(a=1, a=2).
void Parser::check_arg_order(const std::vector<Arg>& before, const Arg& a) {
  const bool keyword = std::any_of(before.begin(), before.end(), [](const Arg& b) { return !b.name.empty() && b.name != "*"; });
  const bool unpacked = std::any_of(before.begin(), before.end(), [](const Arg& b) { return b.name == "**"; });
  if (a.name.empty() && unpacked) error("positional argument follows keyword argument unpacking");
  if (a.name.empty() && keyword) error("positional argument follows keyword argument");
  if (a.name == "*" && unpacked) error("iterable argument unpacking follows keyword argument unpacking");
  if (!a.name.empty() && a.name != "*" && a.name != "**")
    for (const Arg& b : before)
      if (b.name == a.name) error("keyword argument repeated: " + a.name);
}

ExprPtr Parser::trailers(ExprPtr e) {
  Scope scope(*this);
  for (;;) {
    if (is_op("(") || is_op("[") || is_op(".")) deeper();
    if (is_op("(")) {
      ExprPtr c = make(Expr::Call);
      ++p_;
      c->a = e;
      call_args(*c);
      e = c;
    } else if (is_op("[")) {
      ExprPtr s = make(Expr::Subscript);
      ++p_;
      s->a = e;
      bool comma = false;
      do {
        if (is_op("]")) break;
        s->items.push_back(subscript_item());
      } while ((comma = accept_op(",")));
      if (comma && s->items.size() == 1) {   // x[0,] is x[(0,)]: a one-item tuple, as in Python
        ExprPtr t = make(Expr::Tuple);
        t->items.push_back(s->items[0]);
        s->items[0] = t;
      }
      expect_op("]");
      e = s;
    } else if (is_op(".")) {
      ExprPtr a = make(Expr::Attribute);
      ++p_;
      a->a = e;
      a->name = expect_name();
      e = a;
    } else {
      return e;
    }
  }
}

ExprPtr Parser::subscript_item() {
  ExprPtr lo;
  if (!is_op(":")) {
    lo = expression();
    if (!is_op(":")) return lo;
  }
  ExprPtr sl = make(Expr::Slice);
  ++p_;   // ':'
  sl->a = lo;
  if (!is_op(":") && !is_op(",") && !is_op("]")) sl->b = expression();
  if (accept_op(":") && !is_op(",") && !is_op("]")) sl->c = expression();
  return sl;
}

std::vector<Comprehension> Parser::comprehensions() {
  std::vector<Comprehension> out;
  while (accept_name("for")) {
    Comprehension c;
    c.target = target_list();
    if (!accept_name("in")) fail("expected 'in'");
    c.iter = or_expr();
    while (accept_name("if")) c.conds.push_back(or_expr());
    out.push_back(c);
  }
  return out;
}

ExprPtr Parser::bracket(const char* close, Expr::Kind kind) {
  ExprPtr e = make(kind);
  ++p_;
  if (accept_op(close)) return e;
  if (kind == Expr::Tuple && is_name("yield")) {   // (yield x)
    ExprPtr y = yield_expr();
    expect_op(close);
    return y;
  }
  int yields = yields_;
  ExprPtr first = star_named();
  if (is_name("for")) {
    e->kind = kind == Expr::Tuple ? Expr::GenExp : Expr::ListComp;
    e->a = first;
    e->comps = comprehensions();
    if (yields_ != yields) error(kind == Expr::Tuple ? "'yield' inside generator expression" : "'yield' inside list comprehension");
    check_named_in_comprehension(*e);
    expect_op(close);
    return e;
  }
  if (kind == Expr::Tuple && is_op(")")) {   // parenthesised expression
    if (first->kind == Expr::Starred) error("cannot use starred expression here");
    ++p_;
    return first;
  }
  e->items.push_back(first);
  while (accept_op(",")) {
    if (is_op(close)) break;
    e->items.push_back(star_named());
  }
  expect_op(close);
  return e;
}

// {} and {k: v, ...} are dicts, {x, ...} a set; {k: v for ...} and {x for ...} comprehensions.
ExprPtr Parser::dict_or_set() {
  ExprPtr d = make(Expr::Dict);
  ++p_;
  if (accept_op("}")) return d;
  ExprPtr k, v;
  if (accept_op("**")) {   // {**a, ...}: a null key unpacks the value
    v = or_expr();
  } else {
    const bool parenthesised = is_op("(");
    k = star_named();
    if (k->kind == Expr::NamedExpr && !parenthesised && is_op(":")) error("invalid syntax");   // {x := 1: 2}
    if (!is_op(":")) {
      d->kind = Expr::Set;
      if (is_name("for")) {
        d->kind = Expr::SetComp;
        d->a = k;
        d->comps = comprehensions();
        check_named_in_comprehension(*d);
      } else {
        d->items.push_back(k);
        while (accept_op(",") && !is_op("}")) d->items.push_back(star_named());
      }
      expect_op("}");
      return d;
    }
    ++p_;   // ':'
    v = expression();
  }
  if (k && is_name("for")) {
    d->kind = Expr::DictComp;
    d->a = k;
    d->b = v;
    d->comps = comprehensions();
    check_named_in_comprehension(*d);
    expect_op("}");
    return d;
  }
  d->items.push_back(k);
  d->values.push_back(v);
  while (accept_op(",") && !is_op("}")) {
    if (accept_op("**")) {
      d->items.push_back(nullptr);
      d->values.push_back(or_expr());
      continue;
    }
    d->items.push_back(expression());
    expect_op(":");
    d->values.push_back(expression());
  }
  expect_op("}");
  return d;
}

ExprPtr Parser::fstring(const Token& tok) {
  ExprPtr f = make(Expr::FStr);
  const std::string& s = tok.text;
  std::string lit;
  auto flush = [&] {
    if (lit.empty()) return;
    auto e = make(Expr::Str);
    e->name = lit;
    f->items.push_back(e); f->fspecs.push_back(""); f->fexpr.push_back(false); f->fconv.push_back(0); f->fspec_at.push_back(-1);
    lit.clear();
  };
  for (size_t k = 0; k < s.size(); ++k) {
    if ((s[k] == '{' || s[k] == '}') && k + 1 < s.size() && s[k + 1] == s[k]) { lit += s[k++]; continue; }
    if (s[k] != '{') { lit += s[k]; continue; }
    flush();
    // {expression[=][!conversion][:spec]}
    int depth = 0;
    size_t end = k + 1, colon = std::string::npos, bang = std::string::npos;
    for (; end < s.size(); ++end) {
      char c = s[end];
      if (c == '\'' || c == '"') {   // a string in the expression: its braces and colons are its own
        const size_t close = s.find(c, end + 1);
        if (close == std::string::npos) break;
        end = close;
        continue;
      }
      if (c == '[' || c == '(' || c == '{') ++depth;
      else if ((c == ']' || c == ')' || c == '}') && depth > 0) --depth;
      else if (c == '}' && depth == 0) break;
      else if (c == ':' && depth == 0 && colon == std::string::npos) colon = end;
      else if (c == '!' && depth == 0 && colon == std::string::npos && bang == std::string::npos && end + 1 < s.size() && s[end + 1] != '=') bang = end;
    }
    if (end >= s.size()) throw ScriptError(tok.line, "SyntaxError: f-string: expecting '}'");
    size_t expr_end = std::min({bang, colon, end});
    std::string src = s.substr(k + 1, expr_end - k - 1);
    char conv = 0;
    if (bang != std::string::npos) {
      std::string c = s.substr(bang + 1, (colon == std::string::npos ? end : colon) - bang - 1);
      if (c != "r" && c != "s" && c != "a")
        throw ScriptError(tok.line, "SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a'");
      conv = c[0];
    }
    size_t last = src.find_last_not_of(" \t");
    if (last != std::string::npos && src[last] == '=' && (last == 0 || std::string("=!<>").find(src[last - 1]) == std::string::npos)) {
      lit = src;                               // {x=}: the text, then the value (its repr by default)
      flush();
      src = src.substr(0, last);
      if (!conv && colon == std::string::npos) conv = 'r';
    }
    src.erase(0, src.find_first_not_of(" \t"));   // f"{ x }": the expression may start with spaces
    if (src.find_first_not_of(" \t\n") == std::string::npos) throw ScriptError(tok.line, "SyntaxError: f-string: empty expression not allowed");
    Block b;
    try {
      b = Parser(tokenize(src, tok.line), src).program();
    } catch (const LimitError&) {
      throw;
    } catch (const ScriptError& e) {   // CPython names the f-string in the message
      std::string msg = e.what();
      if (msg.rfind("SyntaxError: ", 0) == 0) msg.insert(13, "f-string: ");
      throw ScriptError(e.line, msg, e.file);
    }
    if (b.size() != 1 || b[0]->kind != Stmt::ExprStmt) throw ScriptError(tok.line, "SyntaxError: f-string: invalid expression");
    f->items.push_back(b[0]->value);
    f->fspecs.push_back(colon == std::string::npos ? "" : s.substr(colon + 1, end - colon - 1));
    f->fspec_at.push_back(-1);
    if (f->fspecs.back().find('{') != std::string::npos) {   // f"{x:{w}.{p}f}": the spec is an f-string, one level deep
      if (in_fspec_) throw ScriptError(tok.line, "SyntaxError: f-string: expressions nested too deeply");
      Token spec = tok;
      spec.text = f->fspecs.back();
      in_fspec_ = true;
      try {
        f->values.push_back(fstring(spec));   // in values: every walk over the tree sees its names
        f->fspec_at.back() = static_cast<int>(f->values.size()) - 1;
      } catch (...) {
        in_fspec_ = false;
        throw;
      }
      in_fspec_ = false;
    }
    f->fexpr.push_back(true);
    f->fconv.push_back(conv);
    k = end;
  }
  flush();
  return f;
}

ExprPtr Parser::atom() {
  const Token& tok = cur();
  if (tok.kind == Token::Number) {
    bool is_float = tok.text.find_first_of(".eE") != std::string::npos;
    ExprPtr e = make(is_float ? Expr::Float : Expr::Int);
    ++p_;
    if (is_float) {
      e->fval = std::strtod(tok.text.c_str(), nullptr);   // 1e400 is inf and 1e-400 is 0.0, as in Python
      return e;
    }
    errno = 0;
    e->ival = std::strtoll(tok.text.c_str(), nullptr, 10);
    if (errno == ERANGE) {   // an int beyond int64: its digits, read when evaluated (ints.h)
      if (tok.text.size() > limits::kMaxIntStrDigits)
        throw ScriptError(tok.line, fmt::format("SyntaxError: Exceeds the limit ({} digits) for integer string conversion: value has {} "
                                                "digits; attn keeps CPython's default limit (limits::kMaxIntStrDigits)",
                                                limits::kMaxIntStrDigits, tok.text.size()));
      e->ival = 0;
      e->name = tok.text;
    }
    return e;
  }
  if (tok.kind == Token::Bytes) {   // b'a' b'b' is one constant; b'a' 'b' is CPython's SyntaxError
    ExprPtr e = make(Expr::Bytes);
    while (cur().kind == Token::Bytes) e->name += cur().text, ++p_;
    if (cur().kind == Token::String || cur().kind == Token::FString)
      throw ScriptError(tok.line, "SyntaxError: cannot mix bytes and nonbytes literals");
    return e;
  }
  if (tok.kind == Token::String || tok.kind == Token::FString) {
    ExprPtr e;
    while (cur().kind == Token::String || cur().kind == Token::FString) {   // implicit concatenation
      if (cur().kind == Token::Bytes) throw ScriptError(tok.line, "SyntaxError: cannot mix bytes and nonbytes literals");
      ExprPtr part = cur().kind == Token::FString ? fstring(cur()) : make(Expr::Str);
      if (part->kind == Expr::Str) part->name = cur().text;
      ++p_;
      if (!e) { e = part; continue; }
      if (e->kind == Expr::Str && part->kind == Expr::Str) {   // 'a' 'b' is one constant, as CPython's
        e->name += part->name;
        continue;
      }
      ExprPtr cat = make(Expr::Binary);
      cat->name = "+"; cat->a = e; cat->b = part;
      e = cat;
    }
    return e;
  }
  if (tok.kind == Token::Name) {
    refuse_reserved(tok);
    Expr::Kind k = tok.text == "None" ? Expr::NoneLit : tok.text == "True" ? Expr::True : tok.text == "False" ? Expr::False : Expr::Name;
    ExprPtr e = make(k);
    e->name = tok.text;
    ++p_;
    return e;
  }
  if (is_op("(")) return bracket(")", Expr::Tuple);
  if (is_op("[")) return bracket("]", Expr::List);
  if (is_op("{")) return dict_or_set();
  if (is_op("...")) { ++p_; return make(Expr::Ellipsis); }
  fail("invalid syntax");
}

}  // namespace attn::py::detail
