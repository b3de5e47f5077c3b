// py/parser_compound.cpp: the parser's compound statements beyond def/class/for/if (while, try,
// with, decorators), the keyword statements (break, continue, raise, global, nonlocal, del),
// import, parameter lists and lambda, starred expressions, the names a function binds, and the
// refusal of Python constructs attn does not run.
//
// What it is: Python 3.11's grammar for these, with CPython's SyntaxError wording where CPython
// reports the mistake at compile time ('break' outside loop, default 'except:' must be last).
// A construct outside attn's subset is refused here, at parse time, in one line naming it:
// "SyntaxError: attn does not support 'async' (coroutines)". docs/lesson-authors.md ("What attn's Python
// supports") lists them. What it is not: the execution of these statements (statements.cpp).
#include <algorithm>
#include <set>
#include <string_view>

#include "py/parser_impl.h"

namespace attn::py::detail {

void Parser::error(const std::string& msg) const { throw ScriptError(cur().line, "SyntaxError: " + msg); }

void Parser::unsupported(const std::string& what) const { error("attn does not support " + what); }

namespace {

// Asked often while parsing: a sorted array searched in place, no std::set nodes.
bool is_keyword(const std::string& w) {
  static constexpr std::string_view kw[] = {"and", "as", "assert", "async", "await", "break", "class", "continue",
                                            "def", "del", "elif", "else", "except", "finally", "for", "from",
                                            "global", "if", "import", "in", "is", "lambda", "nonlocal", "not",
                                            "or", "pass", "raise", "return", "try", "while", "with", "yield"};
  static_assert(std::is_sorted(std::begin(kw), std::end(kw)));
  return std::binary_search(std::begin(kw), std::end(kw), std::string_view(w));
}

}  // namespace

void Parser::refuse_reserved(const Token& tok) const {
  if (tok.text == "yield") error("invalid syntax: put a yield inside parentheses, (yield x)");
  if (tok.text == "await" || tok.text == "async") unsupported("'" + tok.text + "' (coroutines)");
  if (is_keyword(tok.text)) fail("invalid syntax");
}

// `match x:` starts a match statement only when its line ends with ':' (`match = 3` and
// `match(x)` are ordinary code; parser_match.cpp).
bool Parser::compound_keyword() const {
  if (is_op("@")) return true;
  if (cur().kind != Token::Name) return false;
  const std::string& w = cur().text;
  if (w == "while" || w == "try" || w == "with" || w == "async") return true;
  if (w == "match") return match_line();
  return false;
}

StmtPtr Parser::compound_more() {
  if (is_op("@")) return decorated();
  if (is_name("while")) return while_statement();
  if (is_name("try")) return try_statement();
  if (is_name("with")) return with_statement();
  if (is_name("async")) unsupported("'async' (coroutines)");
  return match_statement();
}

StmtPtr Parser::while_statement() {
  StmtPtr s = make_stmt(Stmt::While);
  ++p_;
  s->value = named_expr();
  ++loops_;
  s->body = block();
  --loops_;
  if (accept_name("else")) s->orelse = block();
  return s;
}

StmtPtr Parser::try_statement() {
  StmtPtr s = make_stmt(Stmt::Try);
  ++p_;
  s->body = block();
  int bare = 0;   // the line of a bare `except:`
  while (is_name("except")) {
    Handler h;
    h.line = cur().line;
    ++p_;
    if (is_op("*")) unsupported("'except*' (exception groups)");
    if (bare) throw ScriptError(bare, "SyntaxError: default 'except:' must be last");
    if (is_op(":")) {
      bare = h.line;
    } else {
      h.type = expression();
      if (is_op(",")) error("multiple exception types must be parenthesized");
      if (accept_name("as")) h.name = expect_name();
    }
    h.body = block();
    s->handlers.push_back(std::move(h));
  }
  if (!s->handlers.empty() && accept_name("else")) s->orelse = block();
  if (accept_name("finally")) s->finalbody = block();
  if (s->handlers.empty() && s->finalbody.empty()) error("expected 'except' or 'finally' block");
  return s;
}

// Whether `with (` opens Python 3.10's parenthesized items (`with (A() as a, B() as b,):`): the
// matching `)` is followed by `:` and an `as` or a comma stands directly inside. Otherwise the
// parenthesis is an expression's (`with (a) as b:`, `with (x := f()):`), as CPython's PEG
// parser decides by trying the parenthesized form first.
bool Parser::parenthesized_with_items() const {
  int depth = 0;
  bool item_list = false;
  for (size_t k = p_; k < t_.size() && t_[k].kind != Token::Newline && t_[k].kind != Token::End; ++k) {
    const Token& t = t_[k];
    if (t.kind == Token::Op && (t.text == "(" || t.text == "[" || t.text == "{")) ++depth;
    else if (t.kind == Token::Op && (t.text == ")" || t.text == "]" || t.text == "}")) {
      if (--depth == 0) return item_list && k + 1 < t_.size() && t_[k + 1].kind == Token::Op && t_[k + 1].text == ":";
    } else if (depth == 1 && ((t.kind == Token::Name && t.text == "as") || (t.kind == Token::Op && t.text == ","))) {
      item_list = true;
    }
  }
  return false;
}

StmtPtr Parser::with_statement() {
  StmtPtr s = make_stmt(Stmt::With);
  ++p_;
  const bool parenthesized = is_op("(") && parenthesized_with_items();
  if (parenthesized) ++p_;
  do {
    if (parenthesized && is_op(")")) break;   // a trailing comma
    s->bases.push_back(expression());
    s->targets.push_back(accept_name("as") ? star_target() : nullptr);
    if (s->targets.back()) check_for_target(*s->targets.back());
  } while (accept_op(","));
  if (parenthesized) expect_op(")");
  s->body = block();
  return s;
}

StmtPtr Parser::decorated() {
  std::vector<ExprPtr> decorators;
  while (accept_op("@")) {
    decorators.push_back(expression());
    if (cur().kind != Token::Newline) fail("expected a new line after the decorator");
    ++p_;
  }
  StmtPtr s;
  if (is_name("def")) s = def_statement();
  else if (is_name("class")) s = class_statement();
  else if (is_name("async")) unsupported("'async' (coroutines)");
  else fail("expected 'def' or 'class' after a decorator");
  s->decorators = std::move(decorators);
  return s;
}

StmtPtr Parser::keyword_statement() {
  if (cur().kind != Token::Name) return nullptr;
  const std::string w = cur().text;
  if (w == "break" || w == "continue") {
    if (loops_ == 0) error(w == "break" ? "'break' outside loop" : "'continue' not properly in loop");
    StmtPtr s = make_stmt(w == "break" ? Stmt::Break : Stmt::Continue);
    ++p_;
    return s;
  }
  if (w == "raise") {
    StmtPtr s = make_stmt(Stmt::Raise);
    ++p_;
    if (cur().kind != Token::Newline && cur().kind != Token::End && !is_op(";")) {
      s->value = expression();
      if (accept_name("from")) s->target = expression();
    }
    return s;
  }
  if (w == "global" || w == "nonlocal") {
    if (w == "nonlocal" && defs_ == 0 && !class_body_) error("nonlocal declaration not allowed at module level");
    StmtPtr s = make_stmt(w == "global" ? Stmt::Global : Stmt::Nonlocal);
    ++p_;
    do s->names.push_back(expect_name());
    while (accept_op(","));
    if (w == "nonlocal" && defs_ == 0)   // a class body outside any def: no function around to bind it
      throw ScriptError(s->line, "SyntaxError: no binding for nonlocal '" + s->names[0] + "' found");
    return s;
  }
  if (w == "del") {
    StmtPtr s = make_stmt(Stmt::Del);
    ++p_;
    ExprPtr e = expr_list();
    std::vector<ExprPtr> targets = e->kind == Expr::Tuple ? e->items : std::vector<ExprPtr>{e};
    for (const ExprPtr& t : targets) {
      if (const Expr* bad = invalid_target(*t, true)) throw ScriptError(bad->line, "SyntaxError: cannot delete " + target_kind(*bad));
      if (t->kind != Expr::Name && t->kind != Expr::Subscript && t->kind != Expr::Attribute)
        error("cannot delete this expression: attn deletes names, items and attributes");   // del (a, b): valid Python
    }
    s->targets = targets;
    return s;
  }
  return nullptr;
}

// import a.b [as c], d [as e] / from a.b import x [as y], ... / from a.b import (x, y) / from a import *
// / from .a import x / from .. import y
StmtPtr Parser::import_statement(bool from) {
  auto s = std::make_shared<Stmt>();
  s->kind = Stmt::Import;
  s->line = cur().line;
  ++p_;
  // from . import x / from ..a.b import y: the leading dots (the level) stay in front of the name
  while (from && (is_op(".") || is_op("..."))) {
    s->name += cur().text;
    ++p_;
  }
  if (s->name.empty() || !is_name("import")) {
    s->name += expect_name();
    while (accept_op(".")) s->name += "." + expect_name();
  }
  if (from) {
    if (!accept_name("import")) fail("expected 'import'");
    if (accept_op("*")) {
      s->names.push_back("*");
      return s;
    }
    bool paren = accept_op("(");
    do {
      if (paren && is_op(")")) break;
      s->names.push_back(expect_name());
      if (accept_name("as")) s->names.back() += " as " + expect_name();
    } while (accept_op(","));
    if (paren) expect_op(")");
  } else {
    if (accept_name("as")) s->op = expect_name();
    while (accept_op(",")) {   // import a, b.c as d: the modules after the first go in body, in order
      auto more = make_stmt(Stmt::Import);
      more->name = expect_name();
      while (accept_op(".")) more->name.append(".").append(expect_name());
      if (accept_name("as")) more->op = expect_name();
      s->body.push_back(more);
    }
  }
  return s;
}

// (a, b=1, /, c, *args, d, e=2, **kwargs) up to `close` (")" for def, ":" for lambda).
void Parser::parameters(Stmt& def, const char* close, bool annotations) {
  bool star = false;
  std::set<std::string> seen;
  auto name = [&] {
    std::string n = expect_name();
    if (!seen.insert(n).second) error("duplicate argument '" + n + "' in function definition");
    if (annotations && accept_op(":")) expression();   // annotations are parsed, never evaluated
    return n;
  };
  while (!is_op(close)) {
    if (accept_op("/")) {
      if (star || def.posonly || def.params.empty()) fail("invalid syntax");
      def.posonly = def.params.size();
    } else if (accept_op("**")) {
      def.kwarg = name();
      accept_op(",");
      if (!is_op(close)) error("arguments cannot follow var-keyword argument");
      break;
    } else if (accept_op("*")) {
      if (star) error("* argument may appear only once");
      star = true;
      if (cur().kind == Token::Name) def.vararg = name();
      else if (!is_op(",")) error("named arguments must follow bare *");
    } else {
      std::string n = name();
      ExprPtr d = accept_op("=") ? expression() : nullptr;
      if (star) {
        def.kwonly.push_back(n);
        def.kwonly_defaults.push_back(d);
      } else {
        if (!d && !def.defaults.empty()) error("non-default argument follows default argument");
        def.params.push_back(n);
        if (d) def.defaults.push_back(d);
      }
    }
    if (!accept_op(",")) break;
  }
  if (star && def.vararg.empty() && def.kwonly.empty()) error("named arguments must follow bare *");
}

void Parser::function_body(Stmt& def) {
  int loops = loops_;   // a loop around the def does not make `break` legal inside it
  loops_ = 0;
  ++functions_;
  ++defs_;
  Stmt* outer = def_;
  def_ = &def;
  bool class_body = class_body_;
  class_body_ = false;
  def.body = block();
  class_body_ = class_body;
  def_ = outer;
  --defs_;
  --functions_;
  loops_ = loops;
  analyse_function(def);
  if (defs_ == 0) check_nonlocals(def);
}

ExprPtr Parser::lambda() {
  ExprPtr e = make(Expr::Lambda);
  auto def = make_stmt(Stmt::Def);
  def->name = "<lambda>";
  ++p_;
  parameters(*def, ":", false);
  expect_op(":");
  int loops = loops_;
  loops_ = 0;
  ++functions_;
  Stmt* outer = def_;
  def_ = def.get();
  StmtPtr ret = make_stmt(Stmt::Return);
  bool class_body = class_body_;
  class_body_ = false;
  ret->value = expression();
  class_body_ = class_body;
  def_ = outer;
  --functions_;
  loops_ = loops;
  def->body.push_back(ret);
  analyse_function(*def);
  e->def = def;
  return e;
}

// A yield makes the def around it a generator function; its value, if any, runs to the end of
// the expression list (`yield a, b` yields a tuple).
ExprPtr Parser::yield_expr() {
  if (functions_ == 0 || !def_) error("'yield' outside function");
  ExprPtr y = make(Expr::Yield);
  ++p_;
  def_->generator = true;
  ++yields_;
  if (accept_name("from")) {
    y->kind = Expr::YieldFrom;
    y->a = expression();
    return y;
  }
  const Token& t = cur();
  bool bare = t.kind == Token::Newline || t.kind == Token::End || t.kind == Token::Dedent ||
              (t.kind == Token::Op && (t.text == ")" || t.text == "]" || t.text == "}" || t.text == "=" || t.text == ";" || t.text == ":"));
  if (!bare) y->a = expr_list();
  return y;
}

ExprPtr Parser::star_expr() {
  if (!is_op("*")) return expression();
  ExprPtr e = make(Expr::Starred);
  ++p_;
  e->a = binary(0);
  return e;
}

ExprPtr Parser::star_target() {
  if (!is_op("*")) return binary(0);
  ExprPtr e = make(Expr::Starred);
  ++p_;
  e->a = binary(0);
  return e;
}

// ---- the names a function binds ----

namespace {

// One walk of a scope's statements in source order: what it has used and assigned so far, for
// the declarations' order check (the flags CPython's symtable has set on a name when it meets
// `global x`: USE, DEF_LOCAL, DEF_ANNOT; an import's binding is not among them), and every name it
// binds (imports too), declares global or nonlocal: a function's locals. Nested defs, lambdas'
// bodies, class bodies and all but a comprehension's first iterable are other scopes.
struct ScopeWalk {
  std::vector<std::string> params;
  std::set<std::string> used, assigned, annotated;
  std::set<std::string> bound, globals, nonlocals;
  bool module = false;   // at module level `global x` then `x: int` is allowed

  void bind(const std::string& n) {
    assigned.insert(n);
    bound.insert(n);
  }

  // `x: T` (= v): DEF_ANNOT | DEF_LOCAL in CPython's symtable even without a value (so a nonlocal
  // in an inner function finds x); after `global x` / `nonlocal x` in a function or class body,
  // CPython's SyntaxError.
  void annotate(const Stmt& s) {
    if (!s.annotated || s.targets.empty() || s.targets[0]->kind != Expr::Name) return;
    const std::string& n = s.targets[0]->name;
    if (!module && globals.count(n)) throw ScriptError(s.line, "SyntaxError: annotated name '" + n + "' can't be global");
    if (!module && nonlocals.count(n)) throw ScriptError(s.line, "SyntaxError: annotated name '" + n + "' can't be nonlocal");
    annotated.insert(n);
    bound.insert(n);
  }

  // Iterative: an expression tree can be 140,000 deep (chains nested in brackets, test_py_limits);
  // which names it reads is a set, so the order of the walk does not matter.
  void expr(const ExprPtr& root) {
    std::vector<const Expr*> todo;
    const auto push = [&todo](const ExprPtr& x) {
      if (x) todo.push_back(x.get());
    };
    push(root);
    while (!todo.empty()) {
      const Expr& e = *todo.back();
      todo.pop_back();
      switch (e.kind) {
        case Expr::Name: used.insert(e.name); break;
        case Expr::NamedExpr: push(e.a); assigned.insert(e.name); break;
        case Expr::Lambda:
          for (const ExprPtr& d : e.def->defaults) push(d);
          for (const ExprPtr& d : e.def->kwonly_defaults) push(d);
          break;
        case Expr::ListComp: case Expr::SetComp: case Expr::DictComp: case Expr::GenExp:
          if (!e.comps.empty()) push(e.comps[0].iter);
          break;
        default:
          for (const ExprPtr& x : e.items) push(x);
          for (const ExprPtr& x : e.values) push(x);
          push(e.a), push(e.b), push(e.c);
          for (const Arg& a : e.args) push(a.value);
      }
    }
  }

  void target(const ExprPtr& e) {
    if (!e) return;
    if (e->kind == Expr::Name) bind(e->name);
    else if (e->kind == Expr::Tuple || e->kind == Expr::List)
      for (const ExprPtr& x : e->items) target(x);
    else if (e->kind == Expr::Starred) target(e->a);
    else expr(e);   // x[i] = v, x.a = v: x and i are read
  }

  void block(const Block& b) {
    for (const StmtPtr& s : b) statement(*s);
  }

  void pattern(const Pattern& p) {   // a case's captures are the function's locals
    if (!p.name.empty()) bind(p.name);
    for (const PatternPtr& q : p.items) pattern(*q);
    for (const PatternPtr& q : p.kw_items) pattern(*q);
  }

  void declare(const Stmt& s) {
    const char* what = s.kind == Stmt::Global ? "global" : "nonlocal";
    (s.kind == Stmt::Global ? globals : nonlocals).insert(s.names.begin(), s.names.end());
    for (const std::string& n : s.names) {
      std::string why;
      if (std::find(params.begin(), params.end(), n) != params.end()) why = "is parameter and " + std::string(what);
      else if (used.count(n)) why = "is used prior to " + std::string(what) + " declaration";
      else if (annotated.count(n) && s.kind == Stmt::Global) throw ScriptError(s.line, "SyntaxError: annotated name '" + n + "' can't be global");
      else if (annotated.count(n)) throw ScriptError(s.line, "SyntaxError: annotated name '" + n + "' can't be nonlocal");
      else if (assigned.count(n)) why = "is assigned to before " + std::string(what) + " declaration";
      if (!why.empty()) throw ScriptError(s.line, "SyntaxError: name '" + n + "' " + why);
    }
  }

  void statement(const Stmt& s) {
    switch (s.kind) {
      case Stmt::Global: case Stmt::Nonlocal: declare(s); break;
      case Stmt::Assign:
        expr(s.value);
        for (const ExprPtr& t : s.targets) target(t);
        annotate(s);
        break;
      case Stmt::Pass: annotate(s); break;   // `x: T` alone
      case Stmt::AugAssign: expr(s.value); target(s.target); break;
      case Stmt::Del: for (const ExprPtr& t : s.targets) target(t); break;
      case Stmt::ExprStmt: case Stmt::Return: case Stmt::Assert: case Stmt::Raise:
        expr(s.value), expr(s.target);
        break;
      case Stmt::For: expr(s.value); target(s.target); block(s.body); block(s.orelse); break;
      case Stmt::While: case Stmt::If: expr(s.value); block(s.body); block(s.orelse); break;
      case Stmt::With:
        for (size_t i = 0; i < s.bases.size(); ++i) {
          expr(s.bases[i]);
          if (i < s.targets.size()) target(s.targets[i]);
        }
        block(s.body);
        break;
      case Stmt::Try:
        block(s.body);
        for (const Handler& h : s.handlers) {
          expr(h.type);
          if (!h.name.empty()) bind(h.name);
          block(h.body);
        }
        block(s.orelse);
        block(s.finalbody);
        break;
      case Stmt::Match:
        expr(s.value);
        for (const Handler& h : s.handlers) {
          if (h.pattern) pattern(*h.pattern);
          expr(h.guard);
          block(h.body);
        }
        break;
      case Stmt::Def:
        for (const ExprPtr& d : s.decorators) expr(d);
        for (const ExprPtr& d : s.defaults) expr(d);
        for (const ExprPtr& d : s.kwonly_defaults) expr(d);
        bind(s.name);
        break;
      case Stmt::Class:
        for (const ExprPtr& d : s.decorators) expr(d);
        expr(s.value);
        bind(s.name);
        break;
      case Stmt::Import:   // bound, but not a DEF_LOCAL in CPython's check
        if (s.names.empty()) bound.insert(!s.op.empty() ? s.op : s.name.substr(0, s.name.find('.')));
        for (const std::string& n : s.names) {
          auto sp = n.find(" as ");
          if (n != "*") bound.insert(sp == std::string::npos ? n : n.substr(sp + 4));
        }
        block(s.body);   // import a, b: the other modules
        break;
      default: break;   // pass, break, continue
    }
  }
};

// The declarations' order checked (SyntaxError) and the scope's names gathered, in one walk.
ScopeWalk walk_scope(const Block& body, const std::vector<std::string>& params, bool module = false) {
  ScopeWalk w{params, {}, {}, {}, {}, {}, {}};
  w.module = module;
  w.block(body);
  return w;
}

}  // namespace

void check_declaration_order(const Block& body, const std::vector<std::string>& params, bool module) {
  walk_scope(body, params, module);
}

void analyse_class(Stmt& cls) {
  const ScopeWalk b = walk_scope(cls.body, {});
  cls.globals.assign(b.globals.begin(), b.globals.end());
  cls.nonlocals.assign(b.nonlocals.begin(), b.nonlocals.end());
}

void analyse_function(Stmt& def) {
  std::vector<std::string> params = def.params;   // `global x` of a parameter x, on the global's line
  params.insert(params.end(), def.kwonly.begin(), def.kwonly.end());
  if (!def.vararg.empty()) params.push_back(def.vararg);
  if (!def.kwarg.empty()) params.push_back(def.kwarg);
  ScopeWalk b = walk_scope(def.body, params);
  b.bound.insert(def.params.begin(), def.params.end());
  b.bound.insert(def.kwonly.begin(), def.kwonly.end());
  if (!def.vararg.empty()) b.bound.insert(def.vararg);
  if (!def.kwarg.empty()) b.bound.insert(def.kwarg);
  b.bound.insert(def.named_targets.begin(), def.named_targets.end());
  for (const std::string& n : b.globals) b.bound.erase(n);
  for (const std::string& n : b.nonlocals) b.bound.erase(n);
  def.local_names.assign(b.bound.begin(), b.bound.end());   // sorted: lookups binary-search it
  def.globals.assign(b.globals.begin(), b.globals.end());
  def.nonlocals.assign(b.nonlocals.begin(), b.nonlocals.end());
}

namespace {

// The nested defs and classes of a block (through if/for/while/try/with and class bodies, not into defs).
void nested_defs(const Block& b, std::vector<const Stmt*>& out) {
  for (const StmtPtr& s : b) {
    if (s->kind == Stmt::Def) {
      out.push_back(s.get());
      continue;
    }
    if (s->kind == Stmt::Class) out.push_back(s.get());   // its own nonlocals checked; its defs found below
    nested_defs(s->body, out);
    nested_defs(s->orelse, out);
    nested_defs(s->finalbody, out);
    for (const Handler& h : s->handlers) nested_defs(h.body, out);
  }
}

// The line of this scope's first `nonlocal n` (or, with global_too, `global n` as well: CPython's
// error_at_directive); 0 when there is none.
int directive_line(const Block& b, const std::string& name, bool global_too) {
  for (const StmtPtr& s : b) {
    if ((s->kind == Stmt::Nonlocal || (global_too && s->kind == Stmt::Global)) &&
        std::find(s->names.begin(), s->names.end(), name) != s->names.end())
      return s->line;
    if (s->kind == Stmt::Def || s->kind == Stmt::Class) continue;
    for (const Block* inner : {&s->body, &s->orelse, &s->finalbody})
      if (int line = directive_line(*inner, name, global_too)) return line;
    for (const Handler& h : s->handlers)
      if (int line = directive_line(h.body, name, global_too)) return line;
  }
  return 0;
}

bool contains(const std::vector<std::string>& sorted, const std::string& n) { return std::binary_search(sorted.begin(), sorted.end(), n); }

// CPython's analyze_name for `nonlocal n`: the nearest enclosing function that binds n, where an
// enclosing function's `global n` hides every binding further out.
void check_chain(const Stmt& def, std::vector<const Stmt*>& chain) {
  for (const std::string& n : def.nonlocals)
    if (contains(def.globals, n)) throw ScriptError(directive_line(def.body, n, true), "SyntaxError: name '" + n + "' is nonlocal and global");
  for (const std::string& n : def.nonlocals) {
    bool bound = false;
    for (auto outer = chain.rbegin(); outer != chain.rend() && !bound; ++outer) {
      if (contains((*outer)->globals, n)) break;
      bound = contains((*outer)->local_names, n);
    }
    if (!bound) throw ScriptError(directive_line(def.body, n, false), "SyntaxError: no binding for nonlocal '" + n + "' found");
  }
  if (def.kind == Stmt::Class) return;   // a class body binds nothing its methods see (they are its parent's)
  std::vector<const Stmt*> inner;
  nested_defs(def.body, inner);
  chain.push_back(&def);
  for (const Stmt* d : inner) check_chain(*d, chain);
  chain.pop_back();
}

}  // namespace

void check_nonlocals(const Stmt& outermost) {
  std::vector<const Stmt*> chain;
  check_chain(outermost, chain);
}

}  // namespace attn::py::detail
