// lesson/prose.cpp: the placeholders of lesson prose (see prose.h).
#include "lesson/prose.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "core/errors.h"
#include "py/parser.h"

namespace attn::lesson {

namespace {

std::string trim_blanks(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "article: TEXT" / "const: TEXT": the TEXT, if `inner` starts with that keyword and a colon.
bool marker(const std::string& inner, const char* keyword, std::string* text) {
  std::string k = keyword;
  if (inner.compare(0, k.size(), k) != 0) return false;
  size_t colon = inner.find_first_not_of(" \t", k.size());
  if (colon == std::string::npos || inner[colon] != ':') return false;
  *text = trim_blanks(inner.substr(colon + 1));
  return true;
}

// A placeholder only reads: filling the prose must not change what the next step's cells see
// (`{{xs.append(1)}}`, `{{d.pop("a")}}`). Names, constants, attributes, items, slices, operators
// and displays; calls of the builtins and methods below, which read their values (a method of the
// same name on a lesson's own class is trusted to read too). What else an expression holds (another
// call, a lambda, `:=`, a comprehension's target that is not a name) is named in the returned text; "" when it only reads.
// A comprehension's `for` target binds names only (`for d.x in ...` would set an attribute).
bool only_names(const py::Expr& e) {
  if (e.kind == py::Expr::Kind::Name) return true;
  if (e.kind != py::Expr::Kind::Tuple && e.kind != py::Expr::Kind::List) return false;
  for (const py::ExprPtr& x : e.items)
    if (!x || !only_names(*x)) return false;
  return true;
}

std::string not_read_only(const py::Expr& root) {
  static const std::set<std::string> builtins = {
      "abs", "all", "any", "ascii", "bin", "bool", "callable", "chr", "dict", "divmod", "enumerate", "float", "format",
      "frozenset", "hasattr", "hex", "int", "isinstance", "len", "list", "max", "min", "oct", "ord", "pow", "range", "repr",
      "reversed", "round", "set", "sorted", "str", "sum", "tuple", "type", "zip"};
  static const std::set<std::string> methods = {
      // a tensor's
      "item", "tolist", "numel", "size", "dim", "sum", "mean", "max", "min", "abs", "argmax", "argmin", "std", "var",
      "norm", "prod", "exp", "log", "sqrt", "float", "int", "long", "double", "t", "transpose", "view", "reshape",
      "flatten", "squeeze", "unsqueeze", "softmax", "detach", "clone", "allclose", "equal", "eq", "ne", "gt", "lt",
      "ge", "le", "isclose", "all", "any", "count_nonzero", "nonzero", "topk", "argsort", "cumsum", "matmul", "mm",
      "dot", "stride", "is_contiguous", "element_size", "nelement", "round", "tanh", "sigmoid", "relu", "floor", "ceil",
      "log2", "log10", "sin", "cos", "median", "mode", "unique",   // not "sort": a list's sorts in place
      // a str's, a dict's, a list's or tuple's
      "replace", "split", "rsplit", "strip", "lstrip", "rstrip", "upper", "lower", "title", "capitalize", "join",
      "startswith", "endswith", "find", "rfind", "index", "rindex", "count", "format", "center", "ljust", "rjust",
      "zfill", "splitlines", "partition", "rpartition", "isdigit", "isalpha", "isalnum", "isspace", "get", "keys",
      "values", "items", "copy"};
  using K = py::Expr::Kind;
  // Iterative, in the order a recursive walk takes (the first reason found is the one named): a
  // placeholder's tree can be 140,000 deep (chains nested in brackets).
  std::vector<const py::Expr*> todo{&root};
  const auto push = [&todo](const py::ExprPtr& x) {
    if (x) todo.push_back(x.get());
  };
  const auto push_all = [&push](const std::vector<py::ExprPtr>& xs) {
    for (auto x = xs.rbegin(); x != xs.rend(); ++x) push(*x);
  };
  while (!todo.empty()) {
    const py::Expr& e = *todo.back();
    todo.pop_back();
    switch (e.kind) {
      case K::Name: case K::Int: case K::Float: case K::Str: case K::Bytes: case K::NoneLit: case K::True: case K::False:
      case K::Ellipsis:
        break;
      case K::Tuple: case K::List: case K::Set: case K::Dict: case K::FStr: case K::Compare: case K::Subscript:
      case K::Attribute: case K::Slice: case K::Unary: case K::Binary: case K::BoolOp: case K::Not: case K::IfExp:
      case K::Starred:   // items, values, then a, b, c
        push(e.c), push(e.b), push(e.a);
        push_all(e.values);
        push_all(e.items);
        break;
      case K::Call: {
        const py::Expr& f = *e.a;
        const bool reads = (f.kind == K::Name && builtins.count(f.name)) || (f.kind == K::Attribute && methods.count(f.name));
        if (!reads) return f.kind == K::Name ? "calls " + f.name + "()" : f.kind == K::Attribute ? "calls ." + f.name + "()" : "calls what an expression returned";
        for (const py::Arg& arg : e.args) {
          // sorted/min/max call their key= on each item: only a builtin that reads (len, abs, str, ...)
          const py::Expr& v = *arg.value;
          if (arg.name == "key" && !(v.kind == K::Name && builtins.count(v.name)) && v.kind != K::NoneLit)
            return "passes key=" + arg.text + ", which " + (f.kind == K::Name ? f.name : "." + f.name) + "() would call";
        }
        for (auto arg = e.args.rbegin(); arg != e.args.rend(); ++arg) push(arg->value);
        if (f.kind == K::Attribute) push(f.a);   // the object whose method it is, first
        break;
      }
      case K::ListComp: case K::SetComp: case K::DictComp: case K::GenExp:   // its names are its own (Python 3): its parts decide
        for (const py::Comprehension& c : e.comps)
          if (!only_names(*c.target)) return "assigns in a comprehension's for target";
        push(e.b), push(e.a);
        for (auto c = e.comps.rbegin(); c != e.comps.rend(); ++c) {
          push_all(c->conds);
          push(c->iter);
        }
        break;
      case K::Lambda: return "holds a lambda";
      case K::NamedExpr: return "assigns a name with :=";
      case K::Yield: case K::YieldFrom: return "holds a yield";
      default: return "holds an expression attn does not check";
    }
  }
  return "";
}

// The names `e` reads into `reads`, and those its comprehensions bind into `bound` (iteratively:
// the tree can be deep).
void collect_names(const py::Expr& root, std::set<std::string>& reads, std::set<std::string>& bound) {
  std::vector<std::pair<const py::Expr*, bool>> todo{{&root, false}};   // (node, a comprehension's target)
  while (!todo.empty()) {
    const py::Expr* e = todo.back().first;
    const bool target = todo.back().second;
    todo.pop_back();
    if (e->kind == py::Expr::Kind::Name) (target ? bound : reads).insert(e->name);
    const auto push = [&todo, target](const py::ExprPtr& x) {
      if (x) todo.emplace_back(x.get(), target);
    };
    for (const py::ExprPtr& x : e->items) push(x);
    for (const py::ExprPtr& x : e->values) push(x);
    push(e->a), push(e->b), push(e->c);
    for (const py::Arg& arg : e->args) push(arg.value);
    for (const py::Comprehension& c : e->comps) {
      todo.emplace_back(c.target.get(), true);
      push(c.iter);
      for (const py::ExprPtr& x : c.conds) push(x);
    }
  }
}

// Why placeholder `expr` may change the lesson's values, or "" (also when it is not Python: the
// run reports its SyntaxError, with the placeholder, as any failing placeholder's). `names`: the
// names it reads, which the run checks are not iterators (reading one would use it up).
std::string changes_values(const std::string& expr, std::vector<std::string>* names) {
  py::Block parsed;
  try {
    parsed = py::parse_program(expr);
  } catch (const py::ScriptError&) {
    return "";
  }
  if (parsed.size() != 1 || parsed[0]->kind != py::Stmt::ExprStmt || !parsed[0]->value) return "is not one expression";
  std::set<std::string> reads, bound;
  collect_names(*parsed[0]->value, reads, bound);
  for (const std::string& n : reads)
    if (!bound.count(n)) names->push_back(n);
  return not_read_only(*parsed[0]->value);
}

// Where the format spec starts: after the last ':' outside brackets and string literals, if what
// follows is a format spec (Python's mini-language: fill, align, sign, width, grouping,
// precision, type). npos if the whole text is the expression.
size_t spec_colon(const std::string& inner) {
  int depth = 0;
  size_t last = std::string::npos;
  for (size_t k = 0; k < inner.size(); ++k) {
    char c = inner[k];
    if (c == '\'' || c == '"') {
      size_t end = inner.find(c, k + 1);
      k = end == std::string::npos ? inner.size() : end;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ':' && depth == 0) {
      last = k;
    }
  }
  if (last == std::string::npos) return last;
  for (size_t k = last + 1; k < inner.size(); ++k) {
    char c = inner[k];
    if (!(std::isalnum(static_cast<unsigned char>(c)) || std::string("<>=^+- #,_.%").find(c) != std::string::npos)) return std::string::npos;
  }
  return last;
}

}  // namespace

std::vector<ProsePart> parse_prose(const std::string& text, const std::string& path, int first_line, ProseWhere where) {
  std::vector<ProsePart> parts;
  auto add_text = [&](const std::string& t) {
    if (t.empty()) return;
    if (!parts.empty() && parts.back().kind == ProsePart::Kind::text) parts.back().text += t;
    else parts.push_back({ProsePart::Kind::text, t, "", "", 0, {}});
  };
  size_t done = 0;
  for (size_t open = text.find("{{"); open != std::string::npos; open = text.find("{{", done)) {
    int line = first_line + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(open), '\n'));
    auto fail = [&](const std::string& what) { throw LessonFileError(fmt::format("{}:{}: {}", path, line, what)); };
    // An expression is on one line; a marker's text may go on over several.
    size_t close = text.find("}}", open + 2);
    size_t newline = text.find('\n', open);
    std::string first = trim_blanks(text.substr(open + 2, std::min(close, newline) - open - 2)), ignored;
    bool is_marker = marker(first, "article", &ignored) || marker(first, "const", &ignored);
    if (close == std::string::npos || (!is_marker && newline != std::string::npos && newline < close))
      fail("a '{{' placeholder is not closed by '}}' on its line (lessons/README.md, \"Numbers in prose\")");
    add_text(text.substr(done, open - done));
    std::string source = text.substr(open, close + 2 - open), inner = trim_blanks(text.substr(open + 2, close - open - 2));
    ProsePart p;
    p.line = line;
    p.text = source;
    std::string shown;
    if (marker(inner, "article", &shown)) {
      std::string l = lower(shown);
      if (shown.empty()) fail("an {{article: ...}} marker holds the text about the source's run, and this one is empty");
      if (l.find("article") == std::string::npos && l.find("notebook") == std::string::npos && l.find("book") == std::string::npos &&
          l.find("chapter") == std::string::npos)
        fail("the text of an {{article: ...}} marker must say whose run it quotes: name the article (or the notebook, book "
             "or chapter), e.g. {{article: in the article's run, ...}}");
      p.kind = ProsePart::Kind::article;
      p.text = shown;
    } else if (marker(inner, "const", &shown)) {
      if (shown.empty()) fail("a {{const: ...}} marker holds a number no option changes, and this one is empty");
      p.kind = ProsePart::Kind::constant;
      p.text = shown;
    } else if (inner == "seed") {
      if (where == ProseWhere::intro) fail("{{seed}} belongs in a step's prose: the intro is shown before any cell ran");
      p.kind = ProsePart::Kind::seed;
    } else {
      if (inner.empty()) fail("an empty placeholder '{{}}': write {{EXPR}}, {{EXPR:SPEC}}, {{seed}}, {{article: ...}} or {{const: ...}}");
      if (where == ProseWhere::intro)
        fail("the intro is shown before any cell ran, so it cannot show " + source +
             ": move the sentence into a step, or mark a number that is the same in every run with {{const: ...}}");
      size_t colon = spec_colon(inner);
      p.kind = ProsePart::Kind::expr;
      p.expr = trim_blanks(inner.substr(0, colon));
      if (colon != std::string::npos) p.spec = trim_blanks(inner.substr(colon + 1));
      if (p.expr.empty()) fail("the placeholder " + source + " has a format spec but no expression");
      if (std::string why = changes_values(p.expr, &p.names); !why.empty())
        fail("the placeholder " + source + " " + why + ": a placeholder only reads values (names, attributes, items, operators, and "
             "builtins and methods that read, such as len(), .item(), .sum()), so that filling the prose changes nothing; compute "
             "the value in a cell (lessons/README.md, \"Numbers in prose\")");
    }
    parts.push_back(p);
    done = close + 2;
  }
  add_text(text.substr(done));
  return parts;
}

std::string fill_prose(const std::vector<ProsePart>& parts, const std::function<std::string(const ProsePart&)>& value) {
  std::string out;
  for (const ProsePart& p : parts)
    out += p.kind == ProsePart::Kind::text || p.kind == ProsePart::Kind::article || p.kind == ProsePart::Kind::constant ? p.text : value(p);
  return out;
}

std::vector<int> paragraphs_with_values(const std::vector<ProsePart>& parts) {
  std::vector<int> found;
  int paragraph = 0;
  bool in_paragraph = false, blank_line = true;   // blank_line: nothing but spaces since the last '\n'
  auto end_line = [&] {
    if (blank_line && in_paragraph) {
      ++paragraph;
      in_paragraph = false;
    }
    blank_line = true;
  };
  for (const ProsePart& p : parts) {
    if (p.kind == ProsePart::Kind::expr || p.kind == ProsePart::Kind::seed) {
      in_paragraph = true;
      blank_line = false;
      if (found.empty() || found.back() != paragraph) found.push_back(paragraph);
      continue;
    }
    for (char c : p.text) {
      if (c == '\n') end_line();
      else if (c != ' ' && c != '\t') {
        in_paragraph = true;
        blank_line = false;
      }
    }
  }
  return found;
}

std::string placeholder_code(const ProsePart& p) {
  if (p.spec.empty()) return "print(str(" + p.expr + "), end='')\n";
  return "print(format(" + p.expr + ", '" + p.spec + "'), end='')\n";
}

}  // namespace attn::lesson
