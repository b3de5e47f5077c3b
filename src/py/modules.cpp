// py/modules.cpp: `import` and `from ... import` in lesson code: the built-in modules (torch,
// torch.nn, torch.nn.functional, torch.utils.data, math, importlib.metadata, typing, __future__,
// dataclasses, inspect) and a .py file
// next to the lesson (`from previous_chapters import MultiHeadAttention`), which runs once per
// session, in its own module namespace, in the same Python subset.
//
// What it is: Python's import statement for these, with its messages: a module that is neither
// gives `ModuleNotFoundError: No module named 'x'` at the import's line; an error inside an
// imported file names that file and line. What it is not: packages (folders), relative imports,
// sys.path, or the standard library beyond the modules above (importing one says so).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "py/parser.h"
#include "py/signature.h"

namespace attn::py {

namespace {

Value namespace_value(const std::string& name, std::shared_ptr<NamespaceObj> ns) {
  Value v;
  v.kind = Value::Namespace;
  v.s = name;
  v.obj = std::move(ns);
  return v;
}

NamespaceObj& names_of(const Value& module) { return *static_cast<NamespaceObj*>(module.obj.get()); }

// Packages a lesson may ask for that attn cannot have (numeric and plotting libraries, tokenizers).
bool third_party(const std::string& top) {
  static const std::set<std::string> names = {"numpy", "pandas", "matplotlib", "tiktoken", "transformers", "scipy",
                                              "sklearn", "tqdm", "seaborn", "torchvision", "torchtext", "datasets",
                                              "IPython", "requests", "PIL", "tensorflow", "jax"};
  return names.count(top) > 0;
}

bool standard_library(const std::string& top) {
  static const std::set<std::string> names = {
      "os", "sys", "time", "random", "json", "re", "collections", "itertools", "functools", "copy", "pathlib",
      "urllib", "string", "logging", "abc", "enum", "warnings", "io", "pickle", "subprocess",
      "shutil", "glob", "argparse", "datetime", "statistics", "operator", "textwrap", "contextlib",
      "types", "numbers", "heapq", "bisect", "struct", "csv", "zipfile", "gzip", "hashlib", "base64", "uuid",
      "threading", "multiprocessing", "unittest", "doctest", "pprint", "importlib", "timeit", "platform"};
  return names.count(top) > 0;
}

// typing's names: annotations are parsed and never evaluated, so these only have to exist.
Value typing_module() {
  auto ns = std::make_shared<NamespaceObj>();
  for (const char* n : {"Any", "Callable", "Dict", "Iterable", "Iterator", "List", "Literal", "Optional", "Sequence", "Set",
                        "Tuple", "Type", "Union", "TYPE_CHECKING"}) {
    std::string name = n;
    ns->names[name] = name == "TYPE_CHECKING" ? Value::boolean(false) : builtin("typing." + name, [name](Interpreter&, CallArgs&) -> Value {
      throw NotImplementedError("attn reads type hints without using them: typing." + name + " cannot be called");
    });
  }
  return namespace_value("typing", ns);
}

Value future_module() {
  auto ns = std::make_shared<NamespaceObj>();
  for (const char* n : {"annotations", "division", "print_function", "absolute_import"}) ns->names[n] = Value::boolean(true);
  return namespace_value("__future__", ns);
}

// importlib.metadata: version("torch") is torch.__version__; attn has no other package.
Value importlib_metadata(Interpreter& in) {
  auto ns = std::make_shared<NamespaceObj>();
  Value torch_version = in.getattr(in.lookup("__import__:torch"), "__version__");
  ns->names["version"] = builtin("importlib.metadata.version", [torch_version](Interpreter&, CallArgs& a) {
    static const Signature sig = Signature::parse("def version(distribution_name)");
    Args b = bind_args(sig, a, "version");
    Value name = b.get("distribution_name");
    if (name.kind == Value::Str && name.s == "torch") return torch_version;
    throw error("PackageNotFoundError", "No package metadata was found for " + str(name));
  });
  Value cls;
  cls.kind = Value::Class;
  cls.obj = exception_class("PackageNotFoundError");
  ns->names["PackageNotFoundError"] = cls;
  return namespace_value("importlib.metadata", ns);
}

// torch.utils.data, written in the lesson's Python: Dataset is the base class a map-style dataset
// subclasses (its __getitem__/__len__ are the subclass's own); DataLoader is not implemented and
// says so when made, so a helper that only imports it (the book's previous_chapters.py) runs.
const char* const kTorchUtilsData = R"py(class Dataset:
    pass


class DataLoader:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError("attn does not implement torch.utils.data.DataLoader (batches of a Dataset)")
)py";

// dataclasses.dataclass on a class: __init__(self, field=default, ...) over the annotated names of
// its body, in order, with CPython's argument errors, and the repr Name(field=value, ...). Not
// field(), frozen=, order=, __eq__, or inherited fields.
std::string dataclass_repr(const Value& self) {
  auto& o = *static_cast<InstanceObj*>(self.obj.get());
  std::string out = o.cls->name + "(";
  for (size_t k = 0; k < o.cls->fields.size(); ++k) {
    const Value* v = o.find(o.cls->fields[k]);
    out += (k ? ", " : "") + o.cls->fields[k] + "=" + (v ? repr(*v) : std::string("?"));
  }
  return out + ")";
}

Value dataclass_init(std::shared_ptr<ClassObj> cls) {
  const std::string fn = cls->name + ".__init__()";
  size_t required = 0;
  for (const std::string& f : cls->fields) {
    if (cls->methods.count(f)) continue;
    if (required < static_cast<size_t>(&f - cls->fields.data()))
      throw TypeError("non-default argument '" + f + "' follows default argument");
    ++required;
  }
  // The class holds this __init__ in its methods: a weak reference back, or the pair would keep
  // each other alive after the interpreter is gone (LeakSanitizer found that cycle).
  std::weak_ptr<ClassObj> weak = cls;
  return builtin(cls->name + ".__init__", [weak, fn, required](Interpreter&, CallArgs& a) {
    auto& self = *static_cast<InstanceObj*>(a.pos.at(0).obj.get());
    std::shared_ptr<ClassObj> cls = weak.lock();
    if (!cls) cls = self.cls;   // the class is gone, only its __init__ was kept: the instance's own
    const std::vector<std::string>& fields = cls->fields;
    size_t given = a.pos.size() - 1;
    if (given > fields.size())
      throw TypeError(fmt::format("{} takes {} positional argument{} but {} {} given", fn,
                                           required < fields.size() ? fmt::format("from {} to {}", required + 1, fields.size() + 1)
                                                                    : std::to_string(fields.size() + 1),
                                           fields.size() == 0 && required == fields.size() ? "" : "s", given + 1, given ? "were" : "was"));
    std::vector<std::optional<Value>> values(fields.size());
    for (size_t k = 0; k < given; ++k) values[k] = a.pos[k + 1];
    for (const auto& [name, v] : a.kw) {
      auto it = std::find(fields.begin(), fields.end(), name);
      if (it == fields.end()) throw TypeError(fn + " got an unexpected keyword argument '" + name + "'");
      auto& slot = values[it - fields.begin()];
      if (slot) throw TypeError(fn + " got multiple values for argument '" + name + "'");
      slot = v;
    }
    std::vector<std::string> missing;
    for (size_t k = 0; k < fields.size(); ++k)
      if (!values[k] && !cls->methods.count(fields[k])) missing.push_back("'" + fields[k] + "'");
    if (!missing.empty()) {
      std::string names = missing.back();
      if (missing.size() > 1) names = fmt::format("{} and {}", fmt::join(missing.begin(), missing.end() - 1, ", "), missing.back());
      throw TypeError(fmt::format("{} missing {} required positional argument{}: {}", fn, missing.size(),
                                           missing.size() > 1 ? "s" : "", names));
    }
    for (size_t k = 0; k < fields.size(); ++k) self.set(fields[k], values[k] ? *values[k] : cls->methods.at(fields[k]));
    return Value::none();
  });
}

Value dataclasses_module() {
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["dataclass"] = builtin("dataclasses.dataclass", [](Interpreter&, CallArgs& a) -> Value {
    if (a.pos.size() != 1 || !a.kw.empty() || a.pos[0].kind != Value::Class)
      throw NotImplementedError("attn implements @dataclass on a class, without arguments (not frozen=, order=, ...)");
    auto cls = std::static_pointer_cast<ClassObj>(a.pos[0].obj);
    if (!cls->methods.count("__init__")) cls->methods["__init__"] = dataclass_init(cls);
    if (!cls->methods.count("__repr__")) cls->native_repr = dataclass_repr;
    return a.pos[0];
  });
  return namespace_value("dataclasses", ns);
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

// At most limits::kMaxModuleFileBytes, as a lesson file (lesson/lesson_file.h): a data file
// named like a module must not fill the memory before it fails to parse.
std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ImportError("cannot read " + path);
  std::string text(limits::kMaxModuleFileBytes + 1, '\0');   // one byte more than allowed: enough to know it is too large
  f.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(f.gcount()));
  if (text.size() > limits::kMaxModuleFileBytes)
    throw ImportError(fmt::format("{} is larger than {} MiB ({} bytes), attn's limit for an imported "
                                         ".py file (limits::kMaxModuleFileBytes)", path, limits::kMaxModuleFileBytes >> 20,
                                         limits::kMaxModuleFileBytes));
  return text;
}

}  // namespace

Value Interpreter::import_module(const std::string& name) {
  static const std::set<std::string> torch_modules = {"torch", "torch.nn", "torch.nn.functional", "math"};
  if (torch_modules.count(name)) return lookup("__import__:" + name);
  auto cached = modules_.find("<builtin>:" + name);
  if (cached != modules_.end()) return cached->second;
  Value made;
  if (name == "typing") made = typing_module();
  else if (name == "__future__") made = future_module();
  else if (name == "importlib.metadata") made = importlib_metadata(*this);
  else if (name == "importlib") {
    auto ns = std::make_shared<NamespaceObj>();
    ns->names["metadata"] = import_module("importlib.metadata");
    made = namespace_value("importlib", ns);
  }
  else if (name == "dataclasses") made = dataclasses_module();
  else if (name == "inspect") made = inspect_module();
  else if (name == "torch.utils.data") made = import_source(name, "<torch.utils.data>", kTorchUtilsData);
  if (made.kind == Value::Namespace) return modules_["<builtin>:" + name] = made;

  const std::string top = name.substr(0, name.find('.'));
  if (name.find('.') == std::string::npos) {
    std::filesystem::path path = std::filesystem::path(import_dir_) / (name + ".py");
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
      // A module name is one identifier, so it cannot spell '..' or '/'; a link could still lead
      // out of the lesson's folder, and attn reads helper files from that folder only.
      auto dir = std::filesystem::weakly_canonical(import_dir_.empty() ? "." : import_dir_, ec);
      auto real = std::filesystem::weakly_canonical(path, ec);
      if (ec || real.parent_path() != dir)
        throw ImportError("attn imports .py files from the lesson's folder only, and " + path.string() + " leads out of it");
      return import_file(name, path.lexically_normal().string());
    }
  }
  if (third_party(top))   // the words attn has always used for these
    throw ModuleNotFoundError("attn lessons can import torch, torch.nn, torch.nn.functional and math, not '" + name + "'");
  if (standard_library(top))
    throw ModuleNotFoundError("attn does not support the module '" + name +
                             "' (lessons can import torch, math, typing, importlib.metadata and .py files next to the lesson)");
  throw ModuleNotFoundError("No module named '" + name + "'");
}

// helper.py next to the lesson: parsed and run once, at its own module level; later imports get
// the same module. Its errors name the file (ScriptError::file) and its line.
Value Interpreter::import_file(const std::string& name, const std::string& path) {
  auto cached = modules_.find(path);
  if (cached != modules_.end()) return cached->second;
  return import_source(name, path, read_file(path));
}

// A module from Python source: PATH names it in errors and is its key in the module cache.
Value Interpreter::import_source(const std::string& name, const std::string& path, const std::string& text) {
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["__name__"] = Value::str(name);
  ns->names["__file__"] = Value::str(path);
  Value module = namespace_value(name, ns);
  Block body;
  try {
    body = parse_program(text);
  } catch (const ScriptError& e) {
    throw ScriptError(e.line, e.what(), path);
  }
  modules_[path] = module;   // before it runs, as sys.modules: a circular import sees it half-made
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

void Interpreter::exec_import(const Stmt& s) {
  if (s.names.empty()) {   // import a.b [as c]
    Value module = import_module(s.name);
    std::string top = s.name.substr(0, s.name.find('.'));
    if (!s.op.empty()) store(s.op, module);
    else store(top, top == s.name ? module : import_module(top));
    for (const StmtPtr& more : s.body) exec_import(*more);   // import a, b
    return;
  }
  Value module = import_module(s.name);   // from a.b import x [as y], ... / from a import *
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
    if (it == names.names.end()) {
      auto file = names.names.find("__file__");
      std::string where = file != names.names.end() ? str(file->second) : "attn implements the parts of torch the lessons use";
      throw ImportError("cannot import name '" + name + "' from '" + s.name + "' (" + where + ")");
    }
    store(alias, it->second);
  }
}

}  // namespace attn::py
