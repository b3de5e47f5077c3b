// torch/signature.cpp: parsing PyTorch's signatures and the Args accessors of torch's types
// (see signature.h). Binding a call and its error messages live in bind.cpp.
#include "torch/signature.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "torch/values.h"

namespace attn::torch {

namespace {

struct TypeInfo {
  ParamType type;
  const char* text;     // PyTorch's FunctionParameter::type_name()
  bool list;            // written with [] in the native_functions.yaml notation
};

// Both notations: python_arg_parser's ("int64_t", "IntArrayRef") and native_functions.yaml's
// ("int", "int[]"); `[N]` and `?` are taken off before the lookup.
const std::map<std::string, TypeInfo, std::less<>>& type_names() {
  using T = ParamType;
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

void bad(std::string_view text, const std::string& why) { py::bad_signature(text, why); }

Param parse_torch_param(std::string_view text, std::string p) {
  Param out;
  std::string d;
  auto eq = p.find('=');
  if (eq != std::string::npos) {
    out.has_default = true;
    d = p.substr(eq + 1);
    p = p.substr(0, eq);
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
  out.type = static_cast<int>(it->second.type);
  out.type_text = it->second.text;
  if (list) {   // yaml notation: int[] / SymInt[] / Tensor[]; IntArrayRef[1] keeps its type
    if (param_type(out) == ParamType::int64) {
      out.type = static_cast<int>(ParamType::int_list);
      out.type_text = type == "SymInt" ? "tuple of SymInts" : "tuple of ints";
    } else if (param_type(out) == ParamType::tensor) {
      out.type = static_cast<int>(ParamType::tensor_list);
      out.type_text = "tuple of Tensors";
    }
  }
  if (out.has_default) {
    out.nullable = out.nullable || d == "None";   // as FunctionParameter::set_default_str
    out.default_value = d == "contiguous_format" || d == "MemoryFormat::Contiguous"   // the only MemoryFormat attn has
                            ? Value::none() : py::parse_default(text, d, param_type(out) == ParamType::float64);
  }
  return out;
}

void count(Signature& s) {
  s.count();
  s.varargs_intlist = s.style == Signature::Style::library && s.max_pos_args == 1 && param_type(s.params[0]) == ParamType::int_list;
}

}  // namespace

Signature parse_signature(std::string_view text) {
  if (text.rfind("def ", 0) == 0) return Signature::parse(text);   // a Python function: py's
  Signature s;
  s.style = Signature::Style::library;
  std::string_view body = text;
  auto open = body.find('(');
  if (open == std::string_view::npos || body.back() != ')') bad(text, "expected name(parameters)");
  s.name = std::string(body.substr(0, open));
  bool kw_only = false;
  for (std::string& p : py::split_params(body.substr(open + 1, body.size() - open - 2))) {
    if (p == "*") {
      kw_only = true;
      continue;
    }
    if (p == "/") bad(text, "'/' is only for Python signatures");
    Param q = parse_torch_param(text, p);
    q.keyword_only = kw_only && !q.star_args;
    if (q.star_args) kw_only = true;
    if (s.index_of(q.name) >= 0) bad(text, "parameter '" + q.name + "' appears twice");
    s.params.push_back(std::move(q));
  }
  count(s);
  return s;
}

std::optional<Signature> as_method(const Signature& sig) {
  const auto& params = sig.params;
  if (params.empty() || param_type(params[0]) != ParamType::tensor || (params[0].name != "input" && params[0].name != "self"))
    return std::nullopt;
  Signature m = sig;
  m.params.erase(m.params.begin());
  if (int o = m.index_of("out"); o >= 0) m.params.erase(m.params.begin() + o);
  count(m);
  m.noargs_method = m.params.empty();
  return m;
}

std::string signature_string(const Signature& sig) {
  const auto& params = sig.params;
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

// ---- Args ----

core::Tensor& Args::tensor(std::string_view name) { return as_tensor(get(name)); }

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

void Args::check_environment() {
  const Signature& sig = signature();
  for (size_t k = 0; k < sig.params.size(); ++k) {
    const Param& p = sig.params[k];
    if ((param_type(p) == ParamType::dimname || param_type(p) == ParamType::dimname_list) && given_at(k))
      unsupported(p.name, "attn has no named tensors");
  }
  for (const char* name : {"device", "layout", "pin_memory", "out", "memory_format"}) {
    int k = sig.index_of(name);
    if (k < 0) continue;
    mark_read(static_cast<size_t>(k));
    const Value& v = value_at(static_cast<size_t>(k));
    if (!given_at(static_cast<size_t>(k)) || (v.kind == Value::Bool && !v.b && std::string_view(name) == "pin_memory")) continue;
    if (std::string_view(name) == "device") {
      if (is_cpu_device(v)) continue;
      throw py::NotImplementedError(fmt::format("{}(): attn computes on the CPU only, not device={}", qualname(), py::shown(v)));
    }
    if (std::string_view(name) == "out") unsupported(name, "assign the result instead");
    unsupported(name);
  }
}

}  // namespace attn::torch
