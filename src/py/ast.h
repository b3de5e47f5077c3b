// py/ast.h: the syntax tree of the Python subset lesson cells are written in.
//
// What it is: expressions and statements enough for the articles' code: assignments (also to
// tuples, attributes and subscripts), calls with keyword arguments, operators with Python's
// precedence, list/set/dict comprehensions, f-strings, `def`, `class`, `for`, `if`, `return`,
// `import`. What it is not: all of Python (no while/try/with/lambda/decorators/generators).
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace attn::py {

struct Expr;
struct Stmt;
using ExprPtr = std::shared_ptr<Expr>;
using StmtPtr = std::shared_ptr<Stmt>;
using Block = std::vector<StmtPtr>;

// A Python error raised while parsing or running a cell; `line` is 1-based within the cell.
struct ScriptError : std::runtime_error {
  int line;
  ScriptError(int line_, const std::string& msg) : std::runtime_error(msg), line(line_) {}
};

struct Comprehension {        // `for <target> in <iter> [if <cond>]`
  ExprPtr target, iter;
  std::vector<ExprPtr> conds;
};

struct Arg {                  // call argument: positional (name empty) or keyword
  std::string name;
  ExprPtr value;
  std::string text;           // the argument's source text, e.g. "attn_weights" (names printed values)
};

struct Expr {
  enum Kind {
    Name, Int, Float, Str, FStr, NoneLit, True, False, Ellipsis,
    Tuple, List, Dict, Set, ListComp, DictComp, SetComp,
    Attribute, Subscript, Slice, Call,
    Unary, Binary, Compare, BoolOp, Not, IfExp
  } kind;
  int line = 0;
  std::string name;           // Name, Attribute (attr), Str (value), Binary/Unary/Compare op, BoolOp op
  long long ival = 0;         // Int
  double fval = 0;            // Float
  std::vector<ExprPtr> items; // Tuple/List/Set elements, Dict keys, Compare operands, FStr parts, Subscript index parts
  std::vector<ExprPtr> values;             // Dict values
  std::vector<std::string> ops;            // Compare operators
  std::vector<std::string> fspecs;         // FStr: per part, "" for literal text parts
  std::vector<bool> fexpr;                 // FStr: true where the part is an expression
  ExprPtr a, b, c;            // operands: Attribute/Subscript/Call object in a; Binary a,b; Slice a:b:c; IfExp a if b else c
  std::vector<Arg> args;      // Call
  std::vector<Comprehension> comps;        // ListComp / SetComp / DictComp (element in a; DictComp: key in a, value in b)
};

struct Stmt {
  enum Kind { ExprStmt, Assign, AugAssign, Import, Def, Class, For, If, Return, Pass, Assert } kind;
  int line = 0;
  ExprPtr target, value;      // Assign/AugAssign (value), For (target, value = iter), Return value,
                              // Assert (value = condition, target = message)
  std::vector<ExprPtr> targets;            // chained assignment a = b = value
  std::string op;             // AugAssign operator ("+"), Import alias
  std::string name;           // Def/Class name, Import module path
  std::vector<std::string> params;         // Def parameters
  std::vector<ExprPtr> defaults;           // Def defaults, aligned to the last params
  std::vector<ExprPtr> bases;              // Class bases
  Block body, orelse;         // Def/Class/For/If bodies; If: orelse holds the elif/else chain
  std::vector<std::string> names;          // from-import names
};

}  // namespace attn::py
