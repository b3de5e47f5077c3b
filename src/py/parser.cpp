// py/parser.cpp: recursive-descent parser for the Python subset of lesson cells: blocks and the
// simple statements (expressions: parser_expr.cpp; compound statements beyond def/class/for/if:
// parser_compound.cpp).
//
// What it is: Python's grammar for the constructs in ast.h, with Python's operator precedence
// (or < and < not < comparisons < | < ^ < & < +,- < *,/,//,%,@ < unary < ** < trailers).
// What it is not: an error-recovering parser; the first error is reported with its line.
#include "py/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>

#include "py/limits.h"
#include "py/parser_impl.h"

namespace attn::py {

namespace detail {

void Parser::fail(const std::string& what) const {
  if (is_op(":=")) throw ScriptError(cur().line, "SyntaxError: invalid syntax");   // `x := 1` as a statement, f(a=x:=1)
  std::string near = cur().kind == Token::Newline ? "end of line" : cur().kind == Token::End ? "end of cell" : "'" + cur().text + "'";
  throw ScriptError(cur().line, "SyntaxError: " + what + " near " + near);
}

// CPython stops a too deeply nested tree in its compiler with this RecursionError; attn stops it
// while parsing, so neither the parser, the evaluator nor the tree's destructor can overflow the
// C++ stack: a chain `1+1+...+1` nests as deep as it is long, as do `-` `-` ... and `a.b.c...`.
void Parser::deeper() {
  if (++depth_ > limits::kMaxExprDepth)
    throw ScriptError(cur().line, fmt::format("RecursionError: maximum recursion depth exceeded during compilation "
                                              "(attn's limit: {} nested operations, limits::kMaxExprDepth)", limits::kMaxExprDepth));
  try {
    check_stack();
  } catch (const LimitError& e) {
    throw ScriptError(cur().line, e.what());
  }
}

void Parser::expect_op(const char* o) { if (!accept_op(o)) fail(std::string("expected '") + o + "'"); }

std::string Parser::expect_name() {
  if (cur().kind != Token::Name) fail("expected a name");
  return t_[p_++].text;
}

Block Parser::program() {
  Block out;
  while (cur().kind != Token::End) {
    if (cur().kind == Token::Newline) { ++p_; continue; }
    out.push_back(statement());
  }
  check_declaration_order(out, {}, true);
  return out;
}

Block Parser::block() {
  expect_op(":");
  Block out;
  if (cur().kind != Token::Newline) {   // `def f(x): return x` on one line; `if x: a = 1; b = 2` is one suite
    do out.push_back(simple_statement());
    while (p_ > 0 && t_[p_ - 1].kind == Token::Op && t_[p_ - 1].text == ";");
    return out;
  }
  ++p_;
  if (cur().kind != Token::Indent) fail("expected an indented block");
  ++p_;
  while (cur().kind != Token::Dedent && cur().kind != Token::End) {
    if (cur().kind == Token::Newline) { ++p_; continue; }
    out.push_back(statement());
  }
  if (cur().kind == Token::Dedent) ++p_;
  return out;
}

StmtPtr Parser::statement() {
  Scope scope(*this);
  deeper();
  if (compound_keyword()) return compound_more();
  if (cur().kind == Token::Name) {
    if (is_name("def") || is_name("class") || is_name("for") || is_name("if")) return compound(cur().text);
  }
  return simple_statement();
}

StmtPtr Parser::compound(const std::string& kw) {
  if (kw == "def") return def_statement();
  if (kw == "class") return class_statement();
  if (kw == "if") return if_statement();
  auto s = std::make_shared<Stmt>();
  s->kind = Stmt::For;
  s->line = cur().line;
  ++p_;
  s->target = target_list();
  if (!accept_name("in")) fail("expected 'in'");
  s->value = expr_list();
  ++loops_;
  s->body = block();
  --loops_;
  if (accept_name("else")) s->orelse = block();
  return s;
}

StmtPtr Parser::def_statement() {
  auto s = std::make_shared<Stmt>();
  s->kind = Stmt::Def;
  s->line = cur().line;
  ++p_;
  s->name = expect_name();
  expect_op("(");
  parameters(*s, ")", true);
  expect_op(")");
  if (accept_op("->")) expression();   // annotations are parsed, never evaluated
  function_body(*s);
  return s;
}

StmtPtr Parser::class_statement() {
  auto s = std::make_shared<Stmt>();
  s->kind = Stmt::Class;
  s->line = cur().line;
  ++p_;
  s->name = expect_name();
  if (accept_op("(")) {   // class A(Base, *more, flag=True, **kw): a call's arguments, as __build_class__ gets them
    s->value = make(Expr::Call);
    call_args(*s->value);
  }
  int loops = loops_, functions = functions_;   // a class body is neither in a loop nor a function
  loops_ = functions_ = 0;
  bool class_body = class_body_;
  class_body_ = true;
  s->body = block();
  class_body_ = class_body;
  loops_ = loops;
  functions_ = functions;
  analyse_class(*s);
  return s;
}

StmtPtr Parser::if_statement() {
  Scope scope(*this);   // each elif nests one If deeper
  deeper();
  auto s = std::make_shared<Stmt>();
  s->kind = Stmt::If;
  s->line = cur().line;
  ++p_;
  s->value = named_expr();
  s->body = block();
  if (is_name("elif")) {
    s->orelse.push_back(if_statement());
  } else if (accept_name("else")) {
    s->orelse = block();
  }
  return s;
}

// The index of the `)` that closes the `(` at t_[open] (t_.size() when there is none on the line).
size_t Parser::closing_paren(size_t open) const {
  int depth = 0;
  for (size_t k = open; k < t_.size() && t_[k].kind != Token::Newline && t_[k].kind != Token::End; ++k) {
    if (t_[k].kind != Token::Op) continue;
    const std::string& o = t_[k].text;
    if (o == "(" || o == "[" || o == "{") ++depth;
    else if ((o == ")" || o == "]" || o == "}") && --depth == 0) return k;
  }
  return t_.size();
}

// `a = b = value`'s targets, with CPython's texts: a single target whose last item (of an
// unbracketed tuple) is not a display or a constant gets pegen's invalid_named_expression
// message ("... here. Maybe you meant '==' ..."); otherwise the first invalid item is named.
void Parser::check_assign_targets(const std::vector<ExprPtr>& targets, bool parenthesized) const {
  const Expr* bad = nullptr;
  for (const ExprPtr& t : targets)
    if (!bad) bad = invalid_target(*t, false);
  if (bad && targets.size() == 1) {
    const Expr& t = *targets[0];
    const Expr& last = t.kind == Expr::Tuple && !parenthesized ? *t.items.back() : t;
    const bool display = last.kind == Expr::List || last.kind == Expr::GenExp || last.kind == Expr::Starred ||
                         last.kind == Expr::NoneLit || last.kind == Expr::True || last.kind == Expr::False ||
                         (last.kind == Expr::Tuple && (&last != &t || parenthesized));
    if (!display && last.kind == Expr::Name)
      throw ScriptError(last.line, "SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    if (!display)
      throw ScriptError(last.line, "SyntaxError: cannot assign to " + target_kind(last) + " here. Maybe you meant '==' instead of '='?");
  }
  if (bad) throw ScriptError(bad->line, "SyntaxError: cannot assign to " + target_kind(*bad));
  for (const ExprPtr& t : targets) check_starred_targets(*t);
}

StmtPtr Parser::simple_statement() {
  auto s = std::make_shared<Stmt>();
  s->line = cur().line;
  if (StmtPtr k = keyword_statement()) {
    s = k;
  } else if (is_name("import") || is_name("from")) {
    s = import_statement(is_name("from"));
  } else if (accept_name("pass")) {
    s->kind = Stmt::Pass;
  } else if (accept_name("assert")) {
    s->kind = Stmt::Assert;
    s->value = expression();
    if (accept_op(",")) s->target = expression();
  } else if (is_name("return")) {
    if (functions_ == 0) error("'return' outside function");
    ++p_;
    s->kind = Stmt::Return;
    if (cur().kind != Token::Newline) s->value = expr_list();
  } else {
    const size_t first = p_;
    ExprPtr e = expr_list();
    static constexpr std::string_view aug[] = {"+=", "-=", "*=", "/=", "@=", "//=", "**=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    if (e->kind == Expr::Starred)
      error(is_op("=") ? "starred assignment target must be in a list or tuple" : "can't use starred expression here");
    if (accept_op(":")) {             // x: int = 5 (the annotation is parsed, never evaluated)
      expression();
      s->annotated = true;
      s->targets.push_back(e);
      if (is_op("=")) {
        ++p_;
        s->kind = Stmt::Assign;
        s->value = expr_list();
      } else {
        s->kind = Stmt::Pass;
      }
    } else if (cur().kind == Token::Op && std::find(std::begin(aug), std::end(aug), cur().text) != std::end(aug)) {
      if (e->kind != Expr::Name && e->kind != Expr::Attribute && e->kind != Expr::Subscript && e->kind != Expr::Starred)
        error(fmt::format("'{}' is an illegal expression for augmented assignment", target_kind(*e)));
      s->kind = Stmt::AugAssign;
      s->op = cur().text.substr(0, cur().text.size() - 1);
      ++p_;
      s->target = e;
      s->value = expr_list();
    } else if (is_op("=")) {
      const bool parenthesized = t_[first].kind == Token::Op && t_[first].text == "(" && closing_paren(first) + 1 == p_;
      s->kind = Stmt::Assign;
      s->targets.push_back(e);
      while (accept_op("=")) s->targets.push_back(expr_list());
      s->value = s->targets.back();
      s->targets.pop_back();
      check_assign_targets(s->targets, parenthesized);
    } else {
      s->kind = Stmt::ExprStmt;
      s->value = e;
    }
  }
  if (accept_op(";") && cur().kind != Token::Newline && cur().kind != Token::End) return s;   // a; b
  if (cur().kind != Token::Newline && cur().kind != Token::End && cur().kind != Token::Dedent) fail("invalid syntax");
  if (cur().kind == Token::Newline) ++p_;
  return s;
}

}  // namespace detail

// A node's children are handed to the outermost ~Expr running on this thread, which frees them one
// at a time (CPython's "trashcan"): a tree as deep as `1+1+...+1` (deeper than the parser lets
// one chain grow, when chains nest) never destroys recursively.
Expr::~Expr() {
  thread_local std::vector<ExprPtr>* pending = nullptr;
  std::vector<ExprPtr> local;
  std::vector<ExprPtr>& out = pending ? *pending : local;
  for (ExprPtr* child : {&a, &b, &c})
    if (*child) out.push_back(std::move(*child));
  for (std::vector<ExprPtr>* list : {&items, &values})
    for (ExprPtr& e : *list) out.push_back(std::move(e));
  for (Arg& arg : args) out.push_back(std::move(arg.value));
  for (Comprehension& comp : comps) {
    out.push_back(std::move(comp.target));
    out.push_back(std::move(comp.iter));
    for (ExprPtr& e : comp.conds) out.push_back(std::move(e));
  }
  if (pending) return;   // an outer ~Expr frees them
  pending = &local;
  while (!local.empty()) {
    ExprPtr e = std::move(local.back());
    local.pop_back();
    e.reset();           // its children land in `local`
  }
  pending = nullptr;
}

Block parse_program(const std::string& source, int first_line) {
  return detail::Parser(tokenize(source, first_line), source).program();
}

}  // namespace attn::py
