// py/ast.h: the syntax tree of the Python subset lesson cells are written in.
//
// What it is: expressions and statements enough for the articles' code: assignments (also to
// tuples, attributes and subscripts), calls with keyword arguments, operators with Python's
// precedence, list/set/dict comprehensions, f-strings, lambda, starred expressions, `def` (with
// defaults, `*args`, keyword-only parameters, `**kwargs`, decorators), `class`, `for`/`while`
// (with `else`, `break`, `continue`), `if`, `try`/`except`/`else`/`finally`, `raise`, `with`,
// `return`, `import`, `global`/`nonlocal`, `del`, `assert`, `yield`/`yield from`, `:=` and generator
// expressions, `match` statements. What it is not: all of Python (no coroutines; the parser
// refuses them by name: parser_compound.cpp).
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace attn::py {

struct Expr;
struct Stmt;
using ExprPtr = std::shared_ptr<Expr>;
using StmtPtr = std::shared_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

// An error that stops a cell, with its place: `line` is 1-based within the cell, or within
// `file` when that is set (a module the lesson imported, whose code raised). what() is the last
// line of Python's traceback: "SyntaxError: invalid syntax". Python exceptions travel as PyError
// (exceptions.h), which carries the exception object and makes this text only when it is read;
// the parser's syntax errors and attn's limits (LimitError) are plain ScriptErrors.
struct ScriptError : std::exception {
  int line;
  std::string file;
  ScriptError(int line_, std::string text, std::string file_ = "")
      : line(line_), file(std::move(file_)), text_(std::move(text)) {}
  const char* what() const noexcept override { return text().c_str(); }
  virtual const std::string& text() const { return text_; }

 protected:
  mutable std::string text_;
};

// One of attn's own limits (steps, time, nesting depth, memory) stopped the program. No `except`
// clause catches it, not even a bare `except:`, and `with` blocks do not see it: the run is over.
struct LimitError : ScriptError {
  using ScriptError::ScriptError;
};

struct Comprehension {        // `for <target> in <iter> [if <cond>]`
  ExprPtr target, iter;
  std::vector<ExprPtr> conds;
};

struct Arg {                  // call argument: positional (name empty), keyword, "*" (f(*xs)) or "**" (f(**d))
  std::string name;
  ExprPtr value;
  std::string text;           // the argument's source text, e.g. "attn_weights" (names printed values)
};

struct Expr {
  enum Kind {
    Name, Int, Float, Str, Bytes, FStr, NoneLit, True, False, Ellipsis,
    Tuple, List, Dict, Set, ListComp, DictComp, SetComp,
    Attribute, Subscript, Slice, Call,
    Unary, Binary, Compare, BoolOp, Not, IfExp,
    Lambda,                   // def: a Def statement named "<lambda>" whose body returns the expression
    Starred,                  // *a: in a tuple/list display or an assignment target (a)
    Yield, YieldFrom,         // `yield a` (a null: `yield`), `yield from a` (generator.cpp)
    GenExp,                   // (a for ...): comps as ListComp's, run lazily by a generator
    NamedExpr                 // name := a (in a comprehension it binds in the scope around it)
  } kind;
  int line = 0;
  std::string name;           // Name, Attribute (attr), Str and Bytes (value), Binary/Unary/Compare op, BoolOp op
  long long ival = 0;         // Int
  double fval = 0;            // Float
  std::vector<ExprPtr> items; // Tuple/List/Set elements, Dict keys (null: `**d`), Compare operands, FStr parts, Subscript index parts
  std::vector<ExprPtr> values;             // Dict values
  std::vector<std::string> ops;            // Compare operators
  std::vector<std::string> fspecs;         // FStr: per part, "" for literal text parts
  std::vector<int> fspec_at;               // FStr: per part, where in `values` its spec is as an FStr (f"{x:{w}.{p}f}"), -1: none
  std::vector<bool> fexpr;                 // FStr: true where the part is an expression
  std::vector<char> fconv;                 // FStr: per part, the conversion: 0, 'r', 's' or 'a' ({x!r})
  ExprPtr a, b, c;            // operands: Attribute/Subscript/Call object in a; Binary a,b; Slice a:b:c; IfExp a if b else c
  std::vector<Arg> args;      // Call
  std::vector<Comprehension> comps;        // ListComp / SetComp / DictComp (element in a; DictComp: key in a, value in b)
  std::shared_ptr<Stmt> def;  // Lambda
  ~Expr();                    // frees a tree of any depth without recursing (parser.cpp)
};

struct Pattern;
using PatternPtr = std::shared_ptr<Pattern>;

// A `case` pattern of a match statement (PEP 634; parser_match.cpp, run by match.cpp).
struct Pattern {
  enum Kind {
    Value,                    // a literal or a dotted name (value): subject == value
    Singleton,                // None, True, False (value): subject is value
    Capture, Wildcard,        // `x` (name), `_`
    Sequence,                 // [a, *rest, b] / (a, b) / a, b (items; at most one Star)
    Star,                     // *name in a sequence (name "" for *_)
    Mapping,                  // {key: pattern, **rest} (keys, items; name: the ** name or "")
    Class,                    // Cls(p, attr=q) (value: the class; items: positional; kw_names/kw_items)
    Or,                       // p | q (items)
    As                        // p as name (items[0])
  } kind;
  int line = 0;
  ExprPtr value;
  std::string name;
  std::vector<PatternPtr> items;
  std::vector<ExprPtr> keys;
  std::vector<std::string> kw_names;
  std::vector<PatternPtr> kw_items;
};

struct Handler {              // except [type [as name]]: body; a match statement's `case pattern [if guard]: body`
  int line = 0;
  ExprPtr type;               // null: a bare `except:`
  std::string name;
  std::vector<std::shared_ptr<Stmt>> body;
  PatternPtr pattern;         // case: its pattern
  ExprPtr guard;              // case: its `if` (null: none)
};

struct Stmt {
  enum Kind { ExprStmt, Assign, AugAssign, Import, Def, Class, For, If, Return, Pass, Assert,
              While, Break, Continue, Try, Raise, With, Global, Nonlocal, Del,
              Match } kind;           // Match: value is the subject, handlers the cases
  int line = 0;
  ExprPtr target, value;      // Assign/AugAssign (value), For (target, value = iter), While (value =
                              // condition), Return value, Assert (value = condition, target =
                              // message), Raise (value = exception, target = `from` cause), Class
                              // (value: a Call of no function holding `class A(B, *more, flag=1)`'s arguments)
  std::vector<ExprPtr> targets;            // chained assignment a = b = value; Del targets; With:
                                           // the `as` targets, aligned to bases (null: none)
  std::string op;             // AugAssign operator ("+"), Import alias
  std::string name;           // Def/Class name, Import module path
  std::vector<std::string> params;         // Def parameters before `*`: positional or keyword
  std::vector<ExprPtr> defaults;           // Def defaults, aligned to the last params
  size_t posonly = 0;                      // Def: how many of params come before `/`
  bool annotated = false;                  // Assign/Pass: `x: T = v` or `x: T` (targets[0] is x);
                                           // in a class body, a dataclass field
  std::string vararg, kwarg;               // Def: `*args` and `**kwargs` names ("" if none)
  std::vector<std::string> kwonly;         // Def: keyword-only parameters (after `*` or `*args`)
  std::vector<ExprPtr> kwonly_defaults;    // Def: aligned to kwonly; null where required
  std::vector<std::string> local_names;    // Def: names its body binds (sorted), minus global/nonlocal ones
  std::vector<std::string> named_targets;  // Def: the names its `name := value` expressions bind
  std::vector<ExprPtr> decorators;         // Def/Class: @expr lines, outermost first
  std::vector<ExprPtr> bases;              // Class bases; With: the context expressions
  Block body, orelse;         // Def/Class/For/While/If/Try/With bodies; If: orelse holds the elif/else
                              // chain; For/While/Try: the `else:` block
  Block finalbody;                         // Try: `finally:`
  std::vector<Handler> handlers;           // Try: the except clauses, in order
  std::vector<std::string> names;          // from-import names; Global/Nonlocal statement names
  std::vector<std::string> globals, nonlocals;   // Def/Class: the names its body declares global / nonlocal
  bool generator = false;                  // Def: its body yields: a call makes a generator
};

}  // namespace attn::py
