// py/signature.cpp: parsing signatures and the Args accessors (see signature.h). Binding a
// call and its error messages live in bind.cpp.
#include "py/exceptions.h"
#include "py/signature.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "py/interpreter.h"

namespace attn::py {

namespace {

struct TypeInfo {
  Param::Type type;
  const char* text;     // PyTorch's FunctionParameter::type_name()
  bool list;            // written with [] in the native_functions.yaml notation
};

// Both notations: python_arg_parser's ("int64_t", "IntArrayRef") and native_functions.yaml's
// ("int", "int[]"); `[N]` and `?` are taken off before the lookup.
const std::map<std::string, TypeInfo, std::less<>>& type_names() {
  using T = Param::Type;
  static const std::map<std::string, TypeInfo, std::less<>> m = {
      {"Tensor", {T::tensor, "Tensor", false}},       {"Scalar", {T::scalar, "Number", false}},
      {"int64_t", {T::int64, "int", false}},          {"int", {T::int64, "int", false}},
      {"SymInt", {T::int64, "SymInt", false}},        {"IntArrayRef", {T::int_list, "tuple of ints", false}},
      {"SymIntArrayRef", {T::int_list, "tuple of SymInts", false}},
      {"double", {T::float64, "float", false}},       {"float", {T::float64, "float", false}},
      {"bool", {T::boolean, "bool", false}},          {"TensorList", {T::tensor_list, "tuple of Tensors", false}},
      {"ScalarType", {T::dtype, "torch.dtype", false}}, {"Device", {T::device, "torch.device", false}},
      {"Layout", {T::layout, "torch.layout", false}}, {"MemoryFormat", {T::memory_format, "torch.memory_format", false}},
      {"Generator", {T::generator, "torch.Generator", false}}, {"std::string", {T::str, "str", false}},
      {"str", {T::str, "str", false}},                {"PyObject*", {T::object, "object", false}},
      {"Dimname", {T::dimname, "name", false}},       {"DimnameList", {T::dimname_list, "tuple of names", false}}};
  return m;
}

[[noreturn]] void bad(std::string_view text, const std::string& why) {
  throw SignatureError(fmt::format("signature '{}': {}", text, why));
}

// Split at top-level ", " (brackets may hold commas: TensorList[2]).
std::vector<std::string> split_params(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    depth += (c == '[' || c == '(') - (c == ']' || c == ')');
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (!(c == ' ' && cur.empty())) cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

Value parse_default(std::string_view text, const std::string& d, Param::Type type) {
  if (d == "None") return Value::none();
  if (d == "True" || d == "False") return Value::boolean(d == "True");
  if (d == "[]") return Value::tuple({});
  if (d.size() >= 2 && (d.front() == '\'' || d.front() == '"')) return Value::str(d.substr(1, d.size() - 2));
  if (d == "contiguous_format" || d == "MemoryFormat::Contiguous") return Value::none();   // the only MemoryFormat attn has
  char* end = nullptr;
  if (d.find_first_of(".eE") == std::string::npos) {
    long long i = std::strtoll(d.c_str(), &end, 10);
    if (end && *end == '\0' && !d.empty()) {
      if (type == Param::Type::float64) return Value::number(static_cast<double>(i));
      return Value::integer(i);
    }
  }
  double f = std::strtod(d.c_str(), &end);
  if (!end || *end != '\0' || d.empty()) bad(text, "cannot read the default '" + d + "'");
  return Value::number(f);
}

Param parse_torch_param(std::string_view text, std::string p) {
  Param out;
  auto eq = p.find('=');
  if (eq != std::string::npos) {
    out.has_default = true;
    std::string d = p.substr(eq + 1);
    p = p.substr(0, eq);
    out.default_value = Value::str(d);   // converted once the type is known
  }
  auto space = p.rfind(' ');
  if (space == std::string::npos) bad(text, "parameter '" + p + "' has no type");
  std::string type = p.substr(0, space);
  out.name = p.substr(space + 1);
  if (!type.empty() && type.back() == '?') {
    out.nullable = true;
    type.pop_back();
  }
  bool list = false;
  if (auto br = type.find('['); br != std::string::npos) {
    if (type.back() != ']') bad(text, "bad list type '" + type + "'");
    std::string n = type.substr(br + 1, type.size() - br - 2);
    out.list_size = n.empty() ? 0 : std::stoi(n);
    type = type.substr(0, br);
    list = true;
  }
  auto it = type_names().find(type);
  if (it == type_names().end()) bad(text, "unknown type '" + type + "'");
  out.type = it->second.type;
  out.type_text = it->second.text;
  if (list) {   // yaml notation: int[] / SymInt[] / Tensor[]; IntArrayRef[1] keeps its type
    if (out.type == Param::Type::int64) {
      out.type = Param::Type::int_list;
      out.type_text = type == "SymInt" ? "tuple of SymInts" : "tuple of ints";
    } else if (out.type == Param::Type::tensor) {
      out.type = Param::Type::tensor_list;
      out.type_text = "tuple of Tensors";
    }
  }
  if (out.has_default) {
    out.nullable = out.nullable || out.default_value.s == "None";   // as FunctionParameter::set_default_str
    out.default_value = parse_default(text, out.default_value.s, out.type);
  }
  return out;
}

Param parse_python_param(std::string_view text, std::string p) {
  Param out;
  if (p.rfind("*", 0) == 0) {
    out.star_args = true;
    p = p.substr(1);
  }
  auto eq = p.find('=');
  if (eq != std::string::npos) {
    out.has_default = true;
    out.default_value = parse_default(text, p.substr(eq + 1), Param::Type::any);
    p = p.substr(0, eq);
  }
  if (p.empty() || p.find(' ') != std::string::npos) bad(text, "bad Python parameter '" + p + "'");
  out.name = p;
  return out;
}

void count(Signature& s) {
  s.min_args = s.max_pos_args = 0;
  for (const Param& p : s.params) {
    if (p.required()) ++s.min_args;
    if (!p.keyword_only && !p.star_args) ++s.max_pos_args;
  }
  s.varargs_intlist = s.style == Signature::Style::torch && s.max_pos_args == 1 &&
                      s.params[0].type == Param::Type::int_list;
}

}  // namespace

Signature Signature::parse(std::string_view text) {
  Signature s;
  std::string_view body = text;
  if (body.rfind("def ", 0) == 0) {
    s.style = Style::python;
    body.remove_prefix(4);
  }
  auto open = body.find('(');
  if (open == std::string_view::npos || body.back() != ')') bad(text, "expected name(parameters)");
  s.name = std::string(body.substr(0, open));
  bool kw_only = false, pos_only_seen = false;
  for (std::string& p : split_params(body.substr(open + 1, body.size() - open - 2))) {
    if (p == "*") {
      kw_only = true;
      continue;
    }
    if (p == "/") {
      if (s.style != Style::python || pos_only_seen) bad(text, "'/' is only for Python signatures, once");
      for (Param& q : s.params) q.positional_only = true;
      pos_only_seen = true;
      continue;
    }
    Param q = s.style == Style::python ? parse_python_param(text, p) : parse_torch_param(text, p);
    q.keyword_only = kw_only && !q.star_args;
    if (q.star_args) kw_only = true;
    if (s.index_of(q.name) >= 0) bad(text, "parameter '" + q.name + "' appears twice");
    s.params.push_back(std::move(q));
  }
  count(s);
  return s;
}

std::optional<Signature> Signature::as_method() const {
  if (params.empty() || params[0].type != Param::Type::tensor || (params[0].name != "input" && params[0].name != "self"))
    return std::nullopt;
  Signature m = *this;
  m.params.erase(m.params.begin());
  if (int o = m.index_of("out"); o >= 0) m.params.erase(m.params.begin() + o);
  count(m);
  m.noargs_method = m.params.empty();
  return m;
}

std::string Signature::to_string() const {
  std::string out = "(";
  bool keyword_already = false;
  for (size_t k = 0; k < params.size(); ++k) {
    if (k) out += ", ";
    if (params[k].keyword_only && !keyword_already) {
      out += "*, ";
      keyword_already = true;
    }
    out += params[k].type_text + " " + params[k].name;
  }
  return out + ")";
}

int Signature::index_of(std::string_view param) const {
  for (size_t k = 0; k < params.size(); ++k)
    if (params[k].name == param) return static_cast<int>(k);
  return -1;
}

// ---- Args ----

Args::Args(const Signature& sig, size_t overload, std::string qualname)
    : sig_(&sig), overload_(overload), qualname_(std::move(qualname)), values_(sig.params.size()),
      given_(sig.params.size(), false), read_(sig.params.size(), false) {
  for (size_t k = 0; k < sig.params.size(); ++k) values_[k] = sig.params[k].default_value;
}

void Args::set(size_t k, Value v, bool given) {
  values_[k] = std::move(v);
  given_[k] = given && !values_[k].is_none();
}

size_t Args::at(std::string_view name) const {
  int k = sig_->index_of(name);
  if (k < 0) throw std::logic_error(fmt::format("{}: the implementation reads '{}', which its signature lacks", qualname_, name));
  return static_cast<size_t>(k);
}

bool Args::given(std::string_view name) const { return given_[at(name)]; }

const Value& Args::get(std::string_view name) {
  size_t k = at(name);
  read_[k] = true;
  return values_[k];
}

core::Tensor& Args::tensor(std::string_view name) { return as_tensor(get(name)); }

int64_t Args::integer(std::string_view name) {
  const Value& v = get(name);
  return to_int(v, std::string(name).c_str());
}

std::optional<int64_t> Args::opt_integer(std::string_view name) {
  const Value& v = get(name);
  if (v.is_none()) return std::nullopt;
  return to_int(v, std::string(name).c_str());
}

double Args::number(std::string_view name) { return to_double(get(name), std::string(name).c_str()); }

bool Args::flag(std::string_view name) { return truthy(get(name)); }

std::vector<int64_t> Args::ints(std::string_view name) {
  const Value& v = get(name);
  std::vector<int64_t> out;
  if (v.kind == Value::Tuple || v.kind == Value::List || v.kind == Value::Size) {
    for (const Value& d : as_seq(v)) out.push_back(to_int(d, std::string(name).c_str()));
  } else if (!v.is_none()) {
    out.push_back(to_int(v, std::string(name).c_str()));
  }
  return out;
}

std::vector<core::Tensor> Args::tensors(std::string_view name) {
  std::vector<core::Tensor> out;
  for (const Value& t : as_seq(get(name))) out.push_back(as_tensor(t));
  return out;
}

std::optional<core::DType> Args::dtype(std::string_view name) {
  const Value& v = get(name);
  if (v.is_none()) return std::nullopt;
  return dtype_of(v);
}

std::string Args::string(std::string_view name) { return str(get(name)); }

namespace {

bool simple(const Value& v) {
  switch (v.kind) {
    case Value::None: case Value::Bool: case Value::Int: case Value::Float: case Value::Str: case Value::Dtype: return true;
    case Value::Tuple: case Value::List: case Value::Size:
      for (const Value& x : as_seq(v))
        if (!simple(x)) return false;
      return as_seq(v).size() <= 8;
    default: return false;
  }
}

// How an argument is named in a NotImplementedError: its repr when short, else its type.
std::string shown(const Value& v) { return simple(v) ? repr(v) : py_typename(v); }

}  // namespace

void Args::unsupported(std::string_view name, std::string_view why) {
  size_t k = at(name);
  read_[k] = true;
  throw NotImplementedError(fmt::format("{}(): attn does not implement {}={}{}{}", qualname_, name,
                                       shown(values_[k]), why.empty() ? "" : ": ", why));
}

void Args::check_environment() {
  for (size_t k = 0; k < values_.size(); ++k) {
    const Param& p = sig_->params[k];
    if ((p.type == Param::Type::dimname || p.type == Param::Type::dimname_list) && given_[k])
      unsupported(p.name, "attn has no named tensors");
  }
  for (const char* name : {"device", "layout", "pin_memory", "out", "generator", "memory_format"}) {
    int k = sig_->index_of(name);
    if (k < 0) continue;
    read_[k] = true;
    const Value& v = values_[k];
    if (!given_[k] || (v.kind == Value::Bool && !v.b && std::string_view(name) == "pin_memory")) continue;
    if (std::string_view(name) == "device") {
      if (is_cpu_device(v)) continue;
      throw NotImplementedError(fmt::format("{}(): attn computes on the CPU only, not device={}", qualname_, shown(v)));
    }
    if (std::string_view(name) == "out") unsupported(name, "assign the result instead");
    unsupported(name);
  }
}

void Args::check_all_read() const {
  for (size_t k = 0; k < values_.size(); ++k)
    if (given_[k] && !read_[k])
      throw NotImplementedError(fmt::format("{}(): attn does not implement {}={}", qualname_,
                                           sig_->params[k].name, shown(values_[k])));
}

std::string py_typename(const Value& v) {
  if (v.kind == Value::Tensor && as_tensor(v).is_parameter()) return "Parameter";
  return type_name(v);
}

core::DType dtype_of(const Value& dtype) {
  if (dtype.kind != Value::Dtype) throw TypeError("expected a torch.dtype, got " + py_typename(dtype));
  if (dtype.s == "torch.int64") return core::DType::int64;
  if (dtype.s == "torch.bool") return core::DType::boolean;
  return core::DType::float32;
}

}  // namespace attn::py
