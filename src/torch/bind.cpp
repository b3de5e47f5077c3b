// torch/bind.cpp: binding a call's arguments to a signature, and the errors when they do not fit
// (see signature.h).
//
// The torch style follows PyTorch 1.13's FunctionSignature::parse and PythonArgParser::raw_parse
// / print_error (torch/csrc/utils/python_arg_parser.cpp) and format_invalid_args
// (torch/csrc/utils/invalid_arguments.cpp) step for step, quirks included: "missing 1 required
// positional arguments", a "got (dimm=int, )" that keeps its trailing comma, keywords listed in
// the order of a std::unordered_map. The Python style is py/signature.h's (CPython 3.11's errors).
// What it is not: type conversion (the Args accessors) or the rows (op_table.h).
#include <fmt/format.h>

#include <map>
#include <unordered_map>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "torch/signature.h"
#include "torch/values.h"

namespace attn::torch {

namespace {

[[noreturn]] void type_error(const std::string& msg) { throw py::TypeError(msg); }

bool is_index(const Value& v) {   // THPUtils_checkIndex: an int that is not a bool
  return v.kind == Value::Int || (is_tensor(v) && as_tensor(v).dim() == 0 && core::is_integral(as_tensor(v).dtype()));
}

bool is_list(const Value& v) { return v.kind == Value::Tuple || v.kind == Value::List; }

// FunctionParameter::check for the values attn has.
bool fits(const Param& p, const Value& v) {
  using T = ParamType;
  auto zero_dim_no_grad = [&] { return is_tensor(v) && as_tensor(v).dim() == 0 && !as_tensor(v).requires_grad(); };
  switch (param_type(p)) {
    case T::any: case T::object: return true;
    case T::tensor: return is_tensor(v);
    case T::scalar: case T::float64: return v.is_number() || zero_dim_no_grad();
    case T::int64: return v.kind == Value::Int || (zero_dim_no_grad() && core::is_integral(as_tensor(v).dtype()));
    case T::boolean: return v.kind == Value::Bool;
    case T::int_list:
      if (is_list(v)) return py::as_seq(v).empty() || is_index(py::as_seq(v)[0]) || (is_tensor(py::as_seq(v)[0]) && as_tensor(py::as_seq(v)[0]).numel() == 1);
      return p.list_size > 0 && v.kind == Value::Int;
    case T::tensor_list:
      if (v.kind != Value::Tuple && v.kind != Value::List) return false;
      for (const Value& x : py::as_seq(v))
        if (!is_tensor(x)) return false;
      return true;
    case T::dtype: return is_dtype(v);
    case T::device: return v.kind == Value::Int || v.kind == Value::Str || is_device(v);
    case T::str: return v.kind == Value::Str;
    case T::dimname: return v.kind == Value::Str;
    case T::dimname_list:
      if (is_list(v)) return py::as_seq(v).empty() || py::as_seq(v)[0].kind == Value::Str || py::as_seq(v)[0].is_none();
      return p.list_size == 1 && v.kind == Value::Str;
    case T::generator: return generator_ptr(v) != nullptr;
    case T::layout: case T::memory_format: return false;   // attn has no such values
  }
  return false;
}

// PythonArgs::intlist: every element an int, else "... but found element of type float at pos 2".
void check_elements(const Signature& s, const Param& p, const Value& v) {
  if (param_type(p) != ParamType::int_list || !is_list(v)) return;
  auto& items = py::as_seq(v);
  for (size_t k = 0; k < items.size(); ++k) {
    const Value& x = items[k];
    bool ok = (x.kind == Value::Int && !x.is_big()) || x.kind == Value::Bool ||
              (is_tensor(x) && as_tensor(x).numel() == 1 && !as_tensor(x).is_float());
    if (!ok)
      type_error(fmt::format("{}(): argument '{}' must be {}, but found element of type {} at pos {}", s.name, p.name,
                             p.type_text, py_typename(x), k + 1));
  }
}

const Value* keyword(const CallArgs& c, const std::string& name) {
  for (auto& [n, v] : c.kw)
    if (n == name) return &v;
  return nullptr;
}

// python_arg_parser.cpp's numpy_compatibility_arg_names: a parameter `dim` also takes `axis=`,
// `keepdim` takes `keepdims=`, `input` takes `x=`, `a=` or `x1=`, `other` takes `x2=`.
const std::vector<std::string>& numpy_names(const std::string& name) {
  static const std::map<std::string, std::vector<std::string>> names = {
      {"dim", {"axis"}}, {"keepdim", {"keepdims"}}, {"input", {"x", "a", "x1"}}, {"other", {"x2"}}};
  static const std::vector<std::string> none;
  auto it = names.find(name);
  return it == names.end() ? none : it->second;
}

const Value* torch_keyword(const CallArgs& c, const std::string& name) {
  if (const Value* v = keyword(c, name)) return v;
  for (const std::string& alias : numpy_names(name))
    if (const Value* v = keyword(c, alias)) return v;
  return nullptr;
}

// The parameter a keyword names, by its own name or a NumPy alias; -1 if none.
int torch_index_of(const Signature& s, const std::string& kw) {
  for (size_t k = 0; k < s.params.size(); ++k) {
    const std::string& name = s.params[k].name;
    if (name == kw) return static_cast<int>(k);
    for (const std::string& alias : numpy_names(name))
      if (alias == kw) return static_cast<int>(k);
  }
  return -1;
}

// ---- the torch style: python_arg_parser.cpp ----

[[noreturn]] void extra_args(const Signature& s, size_t nargs) {
  if (s.min_args != s.max_pos_args)
    type_error(fmt::format("{}() takes from {} to {} positional arguments but {} were given", s.name, s.min_args, s.max_pos_args, nargs));
  type_error(fmt::format("{}() takes {} positional argument{} but {} {} given", s.name, s.max_pos_args,
                         s.max_pos_args == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were"));
}

[[noreturn]] void missing_args(const Signature& s, size_t idx) {
  std::string names;
  int missing = 0;
  for (size_t k = idx; k < s.params.size(); ++k)
    if (s.params[k].required()) {
      names += (missing++ ? ", \"" : "\"") + s.params[k].name + "\"";
    }
  // PyTorch 1.13 writes the plural for exactly one missing argument, and the singular otherwise.
  type_error(fmt::format("{}() missing {} required positional argument{}: {}", s.name, missing, missing == 1 ? "s" : "", names));
}

[[noreturn]] void extra_kwargs(const Signature& s, const CallArgs& c, size_t nargs) {
  for (auto& [name, v] : c.kw) {
    int k = torch_index_of(s, name);
    if (k < 0) type_error(fmt::format("{}() got an unexpected keyword argument '{}'", s.name, name));
    if (static_cast<size_t>(k) < nargs) type_error(fmt::format("{}() got multiple values for argument '{}'", s.name, name));
  }
  type_error("invalid keyword arguments");
}

bool bind_torch(const Signature& s, const CallArgs& c, py::Args& out, bool raise) {
  const size_t nargs = c.pos.size();
  size_t remaining_kwargs = c.kw.size(), arg_pos = 0;
  if (s.noargs_method && (nargs || remaining_kwargs)) {   // METH_NOARGS: CPython's own words
    if (nargs) type_error(fmt::format("_TensorBase.{}() takes no arguments ({} given)", s.name, nargs));
    type_error(fmt::format("_TensorBase.{}() takes no keyword arguments", s.name));
  }
  if (nargs > s.max_pos_args && !s.varargs_intlist) {
    if (raise) extra_args(s, nargs);
    return false;
  }
  for (size_t i = 0; i < s.params.size(); ++i) {
    const Param& p = s.params[i];
    const Value* obj = nullptr;
    bool is_kwd = false;
    if (arg_pos < nargs) {
      if (p.keyword_only) {
        if (raise) extra_args(s, nargs);
        return false;
      }
      obj = &c.pos[arg_pos];
    } else {
      obj = torch_keyword(c, p.name);
      is_kwd = true;
    }
    if ((!obj && p.has_default) || (obj && obj->is_none() && p.nullable)) {
      out.set(i, p.default_value, false);
    } else if (!obj) {
      if (raise) missing_args(s, i);
      return false;
    } else if (fits(p, *obj)) {
      check_elements(s, p, *obj);
      out.set(i, *obj, true);
    } else if (s.varargs_intlist && arg_pos == 0 && !is_kwd && is_index(*obj)) {
      Value all = Value::tuple(c.pos);   // rand(2, 3): all positional arguments are the size
      check_elements(s, p, all);
      out.set(i, all, true);
      arg_pos = nargs;
      continue;
    } else if (raise) {
      if (is_kwd) type_error(fmt::format("{}(): argument '{}' must be {}, not {}", s.name, p.name, p.type_text, py_typename(*obj)));
      type_error(fmt::format("{}(): argument '{}' (position {}) must be {}, not {}", s.name, p.name, arg_pos + 1, p.type_text,
                             py_typename(*obj)));
    } else {
      return false;
    }
    if (!is_kwd) ++arg_pos;
    else if (obj) --remaining_kwargs;
  }
  if (remaining_kwargs > 0) {
    if (raise) extra_kwargs(s, c, nargs);
    return false;
  }
  return true;
}

// ---- invalid_arguments.cpp: "received an invalid combination of arguments" ----

using Kwargs = std::unordered_map<std::string, Value>;   // PyTorch iterates its keywords in this order

struct OptionArg {
  std::string type, name;
};

// _parseOption: the option text split at ", "; a bare "*" (or the empty "()") counts as an argument.
std::vector<OptionArg> parse_option(const std::string& option) {
  std::vector<OptionArg> out;
  std::string s = option.substr(1, option.size() - 2);
  size_t start = 0;
  while (true) {
    size_t end = s.find(", ", start);
    std::string arg = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    size_t sp = arg.find_last_of(' ');
    out.push_back({sp == std::string::npos ? arg : arg.substr(0, sp), sp == std::string::npos ? arg : arg.substr(sp + 1)});
    if (end == std::string::npos) break;
    start = end + 2;
  }
  return out;
}

bool type_matches(const std::string& type, const Value& v) {
  std::string t = py_typename(v);
  if (type == "float") return t == "float" || t == "int";
  return t == type;
}

bool argcount_match(const std::vector<OptionArg>& option, const CallArgs& c, const Kwargs& kw) {
  return c.pos.size() + kw.size() == option.size();
}

std::vector<std::string> unmatched_kwargs(const std::vector<OptionArg>& option, const Kwargs& kw) {
  std::vector<std::string> out;
  int64_t start = static_cast<int64_t>(option.size()) - static_cast<int64_t>(kw.size());
  if (start < 0) start = 0;
  for (auto& [name, v] : kw) {
    bool found = false;
    for (size_t k = static_cast<size_t>(start); k < option.size(); ++k) found = found || option[k].name == name;
    if (!found) out.push_back(name);
  }
  return out;
}

std::string describe(const Value& v) {   // "int", or "tuple of (int, int)"
  if (v.kind != Value::Tuple && v.kind != Value::List) return py_typename(v);
  bool tuple = v.kind == Value::Tuple;
  std::string out = py_typename(v) + " of " + (tuple ? "(" : "[");
  auto& items = py::as_seq(v);
  for (size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + py_typename(items[k]);
  return out + (tuple ? (items.size() == 1 ? ",)" : ")") : "]");
}

// _formattedArgDesc without a terminal: a mismatching argument is written !between marks!.
std::string formatted_arg_desc(const std::vector<OptionArg>& option, const CallArgs& c, const Kwargs& kw) {
  std::string out = "(";
  size_t n = c.pos.size() + kw.size();
  auto kw_it = kw.begin();
  for (size_t i = 0; i < n; ++i) {
    bool is_kwarg = i >= c.pos.size();
    const Value* arg = nullptr;
    if (is_kwarg) {
      auto hit = i < option.size() ? kw.find(option[i].name) : kw.end();
      arg = hit != kw.end() ? &hit->second : &(kw_it++)->second;
    } else {
      arg = &c.pos[i];
    }
    bool match = i < option.size() && type_matches(option[i].type, *arg);
    out += match ? "" : "!";
    if (is_kwarg && i < option.size()) out += option[i].name + "=";
    out += describe(*arg);
    out += match ? "" : "!";
    out += ", ";
  }
  if (!c.pos.empty()) out.erase(out.size() - 2);
  return out + ")";
}

std::string arg_desc(const CallArgs& c, const Kwargs& kw) {   // _argDesc
  std::string out = "(";
  for (const Value& v : c.pos) out += py_typename(v) + ", ";
  for (auto& [name, v] : kw) out += name + "=" + py_typename(v) + ", ";
  if (!c.pos.empty()) out.erase(out.size() - 2);
  return out + ")";
}

[[noreturn]] void invalid_combination(const std::vector<Signature>& sigs, const CallArgs& c) {
  Kwargs kw;
  for (auto& [name, v] : c.kw) kw.emplace(name, v);
  std::string msg = sigs[0].name + "() received an invalid combination of arguments - got " + arg_desc(c, kw) + ", but expected one of:";
  for (const Signature& s : sigs) {
    std::string option = signature_string(s);
    std::vector<OptionArg> args = parse_option(option);
    msg += "\n * " + option;
    if (!argcount_match(args, c, kw)) continue;
    std::vector<std::string> bad = kw.empty() ? std::vector<std::string>{} : unmatched_kwargs(args, kw);
    if (!bad.empty()) {
      msg += "\n      didn't match because some of the keywords were incorrect: ";
      for (size_t k = 0; k < bad.size(); ++k) msg += (k ? ", " : "") + bad[k];
    } else {
      msg += "\n      didn't match because some of the arguments have invalid types: " + formatted_arg_desc(args, c, kw);
    }
  }
  type_error(msg + "\n");   // every line of PyTorch's message ends with a newline, the last one too
}

}  // namespace

Args bind_call(const std::vector<Signature>& sigs, const CallArgs& call, const std::string& qualname, const std::vector<size_t>& overload_of) {
  auto index = [&](size_t k) { return overload_of.empty() ? k : overload_of[k]; };
  if (sigs.size() == 1 || sigs[0].style == Signature::Style::python) {
    py::Args out(sigs[0], index(0), qualname);
    if (sigs[0].style == Signature::Style::python) py::bind_python(sigs[0], call, out);
    else bind_torch(sigs[0], call, out, true);
    return Args(std::move(out));
  }
  for (size_t k = 0; k < sigs.size(); ++k) {
    py::Args out(sigs[k], index(k), qualname);
    if (bind_torch(sigs[k], call, out, false)) return Args(std::move(out));
  }
  // PythonArgParser::print_error: when only one overload has room for this many arguments, its
  // own error; otherwise the list of all of them.
  size_t nargs = call.pos.size() + call.kw.size();
  std::vector<size_t> plausible;
  for (size_t k = 0; k < sigs.size(); ++k)
    if (nargs >= sigs[k].min_args && nargs <= sigs[k].params.size()) plausible.push_back(k);
  if (plausible.size() == 1) {
    py::Args out(sigs[plausible[0]], index(plausible[0]), qualname);
    bind_torch(sigs[plausible[0]], call, out, true);
  }
  invalid_combination(sigs, call);
}

Args bind_call(const Signature& sig, const CallArgs& call, const std::string& qualname) {
  py::Args out(sig, 0, qualname);   // points to `sig`, which outlives the call
  if (sig.style == Signature::Style::python) py::bind_python(sig, call, out);
  else bind_torch(sig, call, out, true);
  return Args(std::move(out));
}

}  // namespace attn::torch
