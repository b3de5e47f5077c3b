// py/parser_impl.h: the recursive-descent parser's class, shared by its three source files
// (private to the parser: include parser.h to parse).
//
// What it is: parser.cpp holds blocks and simple statements; parser_expr.cpp expressions;
// parser_compound.cpp import,
// the compound statements added for tutorials' code (while, try, with, decorators), parameter
// lists with `*args`/`**kwargs`, lambda, the analysis of which names a function binds, and the
// refusals of constructs outside attn's subset ("SyntaxError: attn does not support 'async'
// (coroutines)"). What it is not: an error-recovering parser; the first error is reported.
#pragma once

#include <string>
#include <vector>

#include "py/ast.h"
#include "py/lexer.h"

namespace attn::py::detail {

// What CPython calls an expression that cannot be an assignment target: "function call",
// "tuple", "literal", ... (`f() := 1`, `f() += 1`; parser_expr.cpp).
std::string target_kind(const Expr& e);
// CPython's _PyPegen_get_invalid_target: the first expression of target t (source order) that
// cannot be assigned to (or deleted, del), or null when t is a valid target.
const Expr* invalid_target(const Expr& t, bool del);
// The compiler's "multiple starred expressions in assignment", at any level of t.
void check_starred_targets(const Expr& t);
// A for-loop's, comprehension's or with-item's target: CPython's "cannot assign to ..." errors.
void check_for_target(const Expr& t);

class Parser {
 public:
  Parser(std::vector<Token> toks, const std::string& source) : t_(std::move(toks)), src_(source) {}
  Block program();

 private:
  std::vector<Token> t_;
  const std::string& src_;
  size_t p_ = 0;
  int depth_ = 0;   // how deep the node being built sits in the tree (bounds every later recursion over it)

  // Restores depth_ when a parse function returns; deeper() counts one more level below it.
  struct Scope {
    Parser& p;
    int saved;
    explicit Scope(Parser& parser) : p(parser), saved(parser.depth_) {}
    ~Scope() { p.depth_ = saved; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
  };
  void deeper();
  bool in_fspec_ = false;        // parsing an f-string field's {nested} format spec: no deeper nesting
  int loops_ = 0;                // enclosing loops in the current function: break/continue allowed
  int functions_ = 0;            // enclosing defs/lambdas: return, nonlocal allowed (0 in a class body)
  int defs_ = 0;                 // enclosing defs, class bodies or not: 0 = an outermost def
  Stmt* def_ = nullptr;          // the innermost def or lambda being parsed (a yield marks it a generator)
  int yields_ = 0;               // yields parsed so far (one inside a comprehension is an error)
  bool class_body_ = false;      // directly in a class body (not in a def or lambda inside it)

  const Token& cur() const { return t_[p_]; }
  const Token& next() const { return t_[p_ + 1 < t_.size() ? p_ + 1 : p_]; }
  // The first character decides most tests without a string comparison (the parser asks often).
  bool is_op(const char* o) const { return cur().kind == Token::Op && cur().text[0] == o[0] && cur().text == o; }
  bool is_name(const char* n) const { return cur().kind == Token::Name && cur().text[0] == n[0] && cur().text == n; }
  bool accept_op(const char* o) { if (!is_op(o)) return false; ++p_; return true; }
  bool accept_name(const char* n) { if (!is_name(n)) return false; ++p_; return true; }
  void expect_op(const char* o);
  std::string expect_name();
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void error(const std::string& msg) const;         // "SyntaxError: msg" at this line
  [[noreturn]] void unsupported(const std::string& what) const;  // "attn does not support <what>"
  ExprPtr make(Expr::Kind k) const { auto e = std::make_shared<Expr>(); e->kind = k; e->line = cur().line; return e; }
  StmtPtr make_stmt(Stmt::Kind k) const { auto s = std::make_shared<Stmt>(); s->kind = k; s->line = cur().line; return s; }

  // parser.cpp
  StmtPtr statement();
  StmtPtr simple_statement();
  size_t closing_paren(size_t open) const;
  void check_assign_targets(const std::vector<ExprPtr>& targets, bool parenthesized) const;
  StmtPtr compound(const std::string& kw);
  StmtPtr def_statement();
  StmtPtr class_statement();
  StmtPtr if_statement();
  Block block();

  // parser_expr.cpp
  ExprPtr expr_list();           // a, b, *c -> Tuple (or a single expression)
  ExprPtr expression();          // conditional expression, or lambda
  ExprPtr named_expr();          // `name := expression`, where Python allows it, or an expression
  ExprPtr star_named();          // `*x`, or named_expr: an item of a list, tuple or set display
  // CPython's SyntaxErrors for `:=` in a comprehension: rebinding its loop variable, or in an iterable.
  void check_named_in_comprehension(const Expr& e) const;
  ExprPtr or_expr();
  ExprPtr and_expr();
  ExprPtr not_expr();
  ExprPtr comparison();
  ExprPtr binary(int level);
  ExprPtr unary();
  ExprPtr power();
  ExprPtr trailers(ExprPtr e);
  ExprPtr atom();
  ExprPtr bracket(const char* close, Expr::Kind kind);
  ExprPtr dict_or_set();
  ExprPtr subscript_item();
  ExprPtr fstring(const Token& tok);
  std::vector<Comprehension> comprehensions();
  ExprPtr target_list();
  void call_args(Expr& call);
  void check_arg_order(const std::vector<Arg>& before, const Arg& a);   // SyntaxError for f(a=1, 2) and the like

  // parser_compound.cpp
  bool compound_keyword() const;                 // while/try/with/@/async/match start a compound statement
  StmtPtr compound_more();
  // parser_match.cpp: the match statement and its patterns
  bool match_line() const;
  StmtPtr match_statement();
  PatternPtr open_pattern();
  PatternPtr star_pattern();
  PatternPtr pattern();
  PatternPtr or_pattern();
  PatternPtr closed_pattern();
  PatternPtr literal_pattern();
  PatternPtr name_pattern();
  PatternPtr class_pattern(ExprPtr cls);
  PatternPtr mapping_pattern();
  void check_stars(const Pattern& seq) const;
  StmtPtr while_statement();
  StmtPtr try_statement();
  StmtPtr with_statement();
  bool parenthesized_with_items() const;
  StmtPtr decorated();
  StmtPtr keyword_statement();                   // break, continue, raise, global, nonlocal, del; null if none
  StmtPtr import_statement(bool from);
  void parameters(Stmt& def, const char* close, bool annotations);
  void function_body(Stmt& def);                 // the body of a def, then its local names
  ExprPtr lambda();
  ExprPtr yield_expr();                          // `yield`, `yield x`, `yield from x`
  ExprPtr star_expr();                           // `*x` in a display or target list, else an expression
  ExprPtr star_target();                         // the same in a for-target list (stops before `in`)
  void refuse_reserved(const Token& tok) const;  // a keyword where an expression should be
};

// The names a function body binds (assignments, for/with/except targets, imports, def, class,
// del), not looking into nested functions, classes, lambdas or comprehensions; less its global
// and nonlocal declarations, which it records in def.globals / def.nonlocals.
void analyse_function(Stmt& def);
// CPython's SyntaxErrors for a global or nonlocal statement that comes after the name was used or
// bound in the same scope (a def's body, a class body, a program); `params`: the def's parameters.
void check_declaration_order(const Block& body, const std::vector<std::string>& params, bool module = false);
// A class body's global and nonlocal declarations (into cls.globals, cls.nonlocals), checked as above.
void analyse_class(Stmt& cls);

// Every `nonlocal x` in an outermost def and the defs inside it names a variable of an
// enclosing def, as CPython checks when compiling: else "SyntaxError: no binding for nonlocal 'x' found".
void check_nonlocals(const Stmt& outermost);

}  // namespace attn::py::detail
