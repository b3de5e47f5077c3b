// py/modules.cpp: `import` and `from ... import` in lesson code: the built-in modules (the
// standard library's importlib.metadata, __future__, inspect here; math, copy, dataclasses in
// module_*.cpp; functools, collections, itertools, typing, ... written in Python in
// src/py/python/ (module_stdlib.cpp); and what a host library adds with
// Interpreter::add_module: torch) and a .py file next to the lesson (`from previous_chapters
// import MultiHeadAttention`), which runs once per session, in its own module namespace, in the
// same Python subset.
//
// What it is: Python's import statement for these, with its messages: a module that is neither
// gives `ModuleNotFoundError: No module named 'x'` at the import's line; an error inside an
// imported file names that file and line. Packages (folders beside the lesson) and relative
// imports are packages.cpp's. What it is not: sys.path, or the standard library beyond the
// modules above (importing one says so).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <mutex>
#include <set>
#include <sstream>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "py/parser.h"
#include "py/signature.h"

namespace attn::py {

namespace {

Value namespace_value(const std::string& name, std::shared_ptr<NamespaceObj> ns) { return module_value(name, std::move(ns)); }

// Packages a lesson may ask for that attn cannot have (numeric and plotting libraries, tokenizers).
bool third_party(const std::string& top) {
  static const std::set<std::string> names = {"numpy", "pandas", "matplotlib", "tiktoken", "transformers", "scipy",
                                              "sklearn", "tqdm", "seaborn", "torchvision", "torchtext", "datasets",
                                              "IPython", "requests", "PIL", "tensorflow", "jax"};
  return names.count(top) > 0;
}

bool standard_library(const std::string& top) {
  static const std::set<std::string> names = {
      "os", "sys", "time", "random", "json", "collections", "itertools", "functools", "copy", "pathlib",
      "urllib", "string", "logging", "enum", "warnings", "io", "pickle", "subprocess",
      "shutil", "glob", "datetime", "statistics", "operator", "textwrap", "contextlib",
      "types", "numbers", "heapq", "bisect", "struct", "csv", "zipfile", "gzip", "hashlib", "base64", "uuid",
      "threading", "multiprocessing", "unittest", "doctest", "pprint", "importlib", "timeit", "platform",
      "codecs", "queue", "traceback", "weakref", "gc", "signal", "socket", "sqlite3", "decimal",
      "fractions", "array", "difflib", "locale", "secrets", "shlex", "errno", "ctypes", "tarfile", "zlib",
      "bz2", "lzma", "pdb", "cProfile", "profile", "tracemalloc", "asyncio", "concurrent", "email", "html", "http",
      "xml", "configparser", "getpass", "fnmatch", "filecmp", "fileinput", "mmap", "select", "selectors",
      "cmath", "builtins", "tokenize", "keyword", "token", "dis", "code", "codeop",
      "contextvars", "reprlib", "sched", "calendar", "zoneinfo", "ipaddress", "binascii", "hmac"};
  return names.count(top) > 0;
}

}  // namespace

// The standard library modules this interpreter has, for the message of one it has not.
std::string Interpreter::standard_modules() const {
  std::string out;
  for (const auto& [name, maker] : makers_)
    if (name.find('.') == std::string::npos && name[0] != '_' && name != "torch" && name != "posixpath")
      out += out.empty() ? name : ", " + name;
  return out;
}

namespace {

Value future_module() {
  auto ns = std::make_shared<NamespaceObj>();
  // CPython 3.11's feature names but barry_as_FLUFL (which would change the syntax): each is on in
  // Python 3 already, so importing one changes nothing.
  std::vector<Value> all;
  for (const char* n : {"nested_scopes", "generators", "division", "absolute_import", "with_statement", "print_function",
                        "unicode_literals", "generator_stop", "annotations"}) {
    ns->names[n] = Value::boolean(true);
    all.push_back(Value::str(n));
  }
  ns->names["all_feature_names"] = Value::list(std::move(all));
  return namespace_value("__future__", ns);
}

// importlib.metadata: version(name) is the __version__ of a built-in package attn has (torch).
Value importlib_metadata() {
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["version"] = builtin("importlib.metadata.version", [](Interpreter& in, CallArgs& a) {
    static const Signature sig = Signature::parse("def version(distribution_name)");
    Args b = bind_args(sig, a, "version");
    Value name = b.get("distribution_name");
    if (name.kind == Value::Str && name.s.find('.') == std::string::npos && in.has_module(name.s)) {
      try {
        return in.getattr(in.import(name.s), "__version__");
      } catch (const PyError& e) {
        if (!is_instance_of(e, "AttributeError")) throw;
      }
    }
    throw error("PackageNotFoundError", "No package metadata was found for " + str(name));
  });
  ns->names["PackageNotFoundError"] = Value::of_class(exception_class("PackageNotFoundError"));
  return namespace_value("importlib.metadata", ns);
}

// inspect: importable (nanoGPT's model.py imports it for a method that asks an optimizer's
// signature), its functions say that attn has none of them.
Value inspect_module() {
  auto ns = std::make_shared<NamespaceObj>();
  for (const char* n : {"signature", "getsource", "isclass", "isfunction", "getmembers"}) {
    std::string name = std::string("inspect.") + n;
    ns->names[n] = builtin(name, [name](Interpreter&, CallArgs&) -> Value {
      throw NotImplementedError("attn does not implement " + name + "()");
    });
  }
  return namespace_value("inspect", ns);
}

// The AST class name CPython's ast.literal_eval names for a node it refuses.
const char* ast_node_name(const Expr& e) {
  switch (e.kind) {
    case Expr::Name: return "Name";
    case Expr::Call: return "Call";
    case Expr::Binary: return "BinOp";
    case Expr::Attribute: return "Attribute";
    case Expr::Subscript: return "Subscript";
    case Expr::Compare: return "Compare";
    case Expr::BoolOp: return "BoolOp";
    case Expr::Lambda: return "Lambda";
    case Expr::FStr: return "JoinedStr";
    case Expr::NamedExpr: return "NamedExpr";
    default: return "Constant";
  }
}

// The first node of a literal_eval tree that is not a literal (null: none): constants, tuples,
// lists, sets, dicts, `set()`, and + or - before a number.
const Expr* not_literal(const Expr& e) {
  switch (e.kind) {
    case Expr::Int: case Expr::Float: case Expr::Str: case Expr::Bytes: case Expr::NoneLit: case Expr::True: case Expr::False:
    case Expr::Ellipsis: return nullptr;
    case Expr::Unary:
      return (e.name == "-" || e.name == "+") && (e.a->kind == Expr::Int || e.a->kind == Expr::Float) ? nullptr : e.a.get();
    case Expr::Call:
      return e.a->kind == Expr::Name && e.a->name == "set" && e.args.empty() ? nullptr : &e;
    case Expr::Tuple: case Expr::List: case Expr::Set: case Expr::Dict:
      for (const ExprPtr& x : e.items)
        if (!x) return &e;   // {**d}
        else if (const Expr* bad = not_literal(*x)) return bad;
      for (const ExprPtr& x : e.values)
        if (const Expr* bad = not_literal(*x)) return bad;
      return nullptr;
    default: return &e;
  }
}

}  // namespace

// ast.literal_eval(text): the value of a Python literal, as CPython's (leading spaces and tabs
// ignored; a syntax error is SyntaxError; any other node ValueError naming the node's class, without
// CPython's object address).
Value Interpreter::literal_eval(const std::string& text) {
  const size_t start = text.find_first_not_of(" \t");
  Block body;
  try {
    body = parse_program(start == std::string::npos ? "" : text.substr(start));
  } catch (const ScriptError& e) {
    throw SyntaxError(std::string(e.what()).substr(std::string(e.what()).find(": ") + 2));
  }
  if (body.size() != 1 || body[0]->kind != Stmt::ExprStmt) throw SyntaxError("invalid syntax");
  const Expr& e = *body[0]->value;
  if (const Expr* bad = not_literal(e))
    throw ValueError(fmt::format("malformed node or string on line {}: <ast.{} object>", bad->line, ast_node_name(*bad)));
  return eval(e);
}

static Value ast_module() {
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["literal_eval"] = builtin("ast.literal_eval", [](Interpreter& in, CallArgs& a) {
    static const Signature sig = Signature::parse("def literal_eval(node_or_string)");
    Args b = bind_args(sig, a, "literal_eval");
    if (b.get("node_or_string").kind != Value::Str)
      throw ValueError("malformed node or string: " + in.repr_of(b.get("node_or_string")));
    return in.literal_eval(b.string("node_or_string"));
  });
  return module_value("ast", ns);
}

bool Interpreter::has_module(const std::string& name) const {
  return makers_.count(name) || modules_.count("<builtin>:" + name);
}

namespace {

// Modules attn's own Python-written stdlib imports that CPython has not (_attn_stdlib, _re,
// torch._attn_extra): lesson code gets CPython's ModuleNotFoundError for them.
// attn's own native halves of its Python modules are all named _attn_* (_attn_json, _attn_random,
// ...), never a name CPython resolves (_json, _random): a lesson's `import _json` gets CPython's
// ModuleNotFoundError, not a module that is not CPython's _json.
bool internal_module(const std::string& name) {
  std::istringstream parts(name);
  for (std::string part; std::getline(parts, part, '.');)
    if (part.rfind("_attn", 0) == 0) return true;
  return false;
}

}  // namespace

Value Interpreter::import(const std::string& name) { return import_module(name); }

Value Interpreter::import_for_lesson(const std::string& name) {
  for (size_t end = name.find('.');; end = name.find('.', end + 1)) {   // the first package that is internal, as CPython names it
    const std::string prefix = name.substr(0, end);
    if (internal_module(prefix)) throw ModuleNotFoundError("No module named '" + prefix + "'");
    if (end == std::string::npos) break;
  }
  return import_module(name);
}

Value Interpreter::import_module(const std::string& name) {
  auto cached = modules_.find("<builtin>:" + name);
  if (cached != modules_.end()) return cached->second;
  auto maker = makers_.find(name);
  if (maker != makers_.end()) {
    if (auto dot = name.rfind('.'); dot != std::string::npos) import_module(name.substr(0, dot));   // the package first
    cached = modules_.find("<builtin>:" + name);   // the package may have made it
    if (cached != modules_.end()) return cached->second;
    ModuleMaker make = maker->second;
    Value made = make(*this);
    modules_["<builtin>:" + name] = made;
    if (auto dot = name.rfind('.'); dot != std::string::npos && !internal_module(name)) {   // `import a.b` makes b an attribute of a
      Value parent = modules_.at("<builtin>:" + name.substr(0, dot));
      if (parent.kind == Value::Namespace && !names_of(parent).names.count(name.substr(dot + 1))) names_of(parent).names[name.substr(dot + 1)] = made;
    }
    return made;
  }

  const std::string top = name.substr(0, name.find('.'));
  if (!has_module(top))   // NAME.py, a package folder, a.b.c inside one (packages.cpp)
    if (std::optional<Value> found = import_from_folder(name)) return *found;
  if (third_party(top))
    throw ModuleNotFoundError("No module named '" + name + "' (attn runs lessons with torch and Python's standard "
                              "library only; docs/coverage.md lists what it has)");
  if (standard_library(top))
    throw ModuleNotFoundError("No module named '" + name + "' (attn's Python has these standard library modules: " +
                              standard_modules() + ")");
  throw ModuleNotFoundError("No module named '" + name + "'");
}

// helper.py next to the lesson: parsed and run once, at its own module level; later imports get
// the same module. Its errors name the file (ScriptError::file) and its line.
// A package's __init__.py has its folder as `package_dir`.
Value Interpreter::import_file(const std::string& name, const std::string& path, const std::string& package_dir) {
  auto cached = modules_.find(path);
  if (cached != modules_.end()) return cached->second;
  return import_source(name, path, read_in_folder(path), false, package_dir);
}

// A module from Python source: PATH names it in errors and is its key in the module cache.
Value Interpreter::import_source(const std::string& name, const std::string& path, const std::string& text, bool cache_parse,
                                 const std::string& package_dir) {
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["__name__"] = Value::str(name);
  ns->names["__file__"] = Value::str(path);
  // What `from . import x` is relative to; a package's __path__ is its folder (one string, not
  // CPython's list of them).
  const auto dot = name.rfind('.');
  ns->names["__package__"] = Value::str(!package_dir.empty() ? name : dot == std::string::npos ? "" : name.substr(0, dot));
  if (!package_dir.empty()) ns->names["__path__"] = Value::str(package_dir);
  Value module = namespace_value(name, ns);
  Block body;
  try {
    if (cache_parse) {   // a built-in module's fixed text: its tree is shared by every session (never changed by running it)
      // Never freed: the trees live until the process ends, and freeing them at exit would only
      // cost time (they stay reachable, so LeakSanitizer does not report them).
      static std::mutex mutex;
      static auto* parsed = new std::map<std::string, Block>();
      std::lock_guard<std::mutex> lock(mutex);
      auto it = parsed->find(path + '\0' + text);
      if (it == parsed->end()) it = parsed->emplace(path + '\0' + text, parse_program(text)).first;
      body = it->second;
    } else {
      body = parse_program(text);
    }
  } catch (const ScriptError& e) {
    throw ScriptError(e.line, e.what(), path);
  }
  modules_[path] = module;   // before it runs, as sys.modules: a circular import sees it half-made
  if (!cache_parse) sources_[path] = text;   // a file beside the lesson: its lines for warnings
  try {
    RunIn run(*this, nullptr, ns, path);
    Value ret;
    exec(body, &ret);
  } catch (...) {
    modules_.erase(path);
    throw;
  }
  return module;
}


// Whether the running code is the lesson's (or a helper file of its folder), not a module of
// attn's own library (whose labels are "<collections.py>", "<torch>", ...).
void Interpreter::check_importable(const std::string& name) const {
  const bool lesson_code = file_.empty() || file_[0] != '<';
  if (lesson_code && internal_module(name)) throw ModuleNotFoundError("No module named '" + name + "'");
}

void Interpreter::exec_import(const Stmt& s) {
  if (s.names.empty()) {   // import a.b [as c]
    check_importable(s.name);
    Value module = import_module(s.name);
    std::string top = s.name.substr(0, s.name.find('.'));
    if (!s.op.empty()) store(s.op, module);
    else store(top, top == s.name ? module : import_module(top));
    for (const StmtPtr& more : s.body) exec_import(*more);   // import a, b
    return;
  }
  // from a.b import x [as y], ... / from a import * / from .a import x / from .. import y
  const std::string from = s.name[0] == '.' ? resolve_relative(s.name) : s.name;
  check_importable(from);
  Value module = import_module(from);
  NamespaceObj& names = names_of(module);
  for (const std::string& n : s.names) {
    if (n == "*") {
      for (const auto& [k, v] : names.names)
        if (k.rfind("_", 0) != 0) store(k, v);
      continue;
    }
    auto sp = n.find(" as ");
    std::string name = n.substr(0, sp), alias = sp == std::string::npos ? name : n.substr(sp + 4);
    auto it = names.names.find(name);
    if (it != names.names.end()) {
      store(alias, it->second);
      continue;
    }
    const bool hidden = internal_module(from + "." + name) && (file_.empty() || file_[0] != '<');
    if (has_module(from + "." + name) && !hidden) {   // from torch import nn: the submodule
      store(alias, import_module(from + "." + name));
      continue;
    }
    if (names.names.count("__path__")) {   // from mypkg import model: a module of the package's folder
      try {
        store(alias, import_module(from + "." + name));
        continue;
      } catch (const PyError& e) {   // not there: the ImportError below, as CPython's _handle_fromlist
        if (e.text() != "ModuleNotFoundError: No module named '" + from + "." + name + "'") throw;
      }
    }
    try {   // a module's __getattr__ (PEP 562)
      store(alias, getattr(module, name));
      continue;
    } catch (const PyError& e) {
      if (!is_instance_of(e, "AttributeError")) throw;
    }
    auto file = names.names.find("__file__");
    std::string where = file == names.names.end() ? "attn implements the parts of it the lessons use"
                        : file->second.is_none() ? "unknown location" : str(file->second);
    throw ImportError("cannot import name '" + name + "' from '" + from + "' (" + where + ")");
  }
}

// OrderedDict's own methods: move_to_end(key, last=True) and popitem(last=True), CPython's errors.
void add_ordered_dict_methods(ClassObj& c) {
  c.methods["move_to_end"] = method("OrderedDict.move_to_end", [](Interpreter& in, CallArgs& a) {
    static const Signature sig = Signature::parse("def move_to_end(self, key, last=True)");
    Args b = bind_args(sig, a, "move_to_end");
    DictObj& d = *static_cast<DictObj*>(b.get("self").obj.get());
    const Value key = b.get("key");
    const bool last = in.truth(b.get("last"));
    std::optional<Value> value = d.take(key);
    if (!value) throw KeyError(key);
    if (last) d.set(key, *value);
    else d.items.insert(d.items.begin(), {key, *value});   // the index is rebuilt: take() cleared it
    return Value::none();
  });
  c.methods["popitem"] = method("OrderedDict.popitem", [](Interpreter& in, CallArgs& a) {
    static const Signature sig = Signature::parse("def popitem(self, last=True)");
    Args b = bind_args(sig, a, "popitem");
    DictObj& d = *static_cast<DictObj*>(b.get("self").obj.get());
    const bool last = in.truth(b.get("last"));
    if (d.items.empty()) throw KeyError(Value::str("dictionary is empty"));
    const Value key = last ? d.items.back().first : d.items.front().first;
    std::optional<Value> value = d.take(key);
    return Value::tuple({key, value ? *value : Value::none()});
  });
}

// collections: OrderedDict (a dict that prints as OrderedDict([...]); every dict keeps its order).
Value collections_module() {
  static const ClassPtr ordered = [] {
    ClassPtr c = make_native_class("OrderedDict", "collections", {builtin_class("dict")});
    c->qualified_name = true;   // a C type: its messages say 'collections.OrderedDict'
    c->slots.make = [](Interpreter& in, const ClassPtr& cls, CallArgs& a) {
      Value d = in.call(Value::of_class(builtin_class("dict")), a);
      auto* o = static_cast<DictObj*>(d.obj.get());
      o->ordered = true;
      o->cls = cls;
      return d;
    };
    add_ordered_dict_methods(*c);
    return c;
  }();
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["OrderedDict"] = Value::of_class(ordered);
  return namespace_value("collections", ns);
}

void add_math_module(Interpreter& in);   // module_math.cpp
void add_copy_module(Interpreter& in);   // module_copy.cpp
void add_unicodedata_module(Interpreter& in);   // module_unicodedata.cpp
void add_stdlib_python_modules(Interpreter& in);   // module_stdlib.cpp: src/py/python/*.py

void add_standard_modules(Interpreter& in) {
  add_gc_module(in);
  add_math_module(in);
  add_copy_module(in);
  add_unicodedata_module(in);
  add_stdlib_python_modules(in);
  in.add_module("__future__", [](Interpreter&) { return future_module(); });
  in.add_module("importlib", [](Interpreter&) { return namespace_value("importlib", std::make_shared<NamespaceObj>()); });
  in.add_module("importlib.metadata", [](Interpreter&) { return importlib_metadata(); });
  in.add_module("inspect", [](Interpreter&) { return inspect_module(); });
  in.add_module("ast", [](Interpreter&) { return ast_module(); });
  in.add_module("os.path", [](Interpreter& i) { return i.import("posixpath"); });
  in.add_module("_attn_collections", [](Interpreter&) { return collections_module(); });   // OrderedDict, for collections.py
}

}  // namespace attn::py
