// torch/torch_env.cpp: the parts of `torch` that describe where and how a tutorial runs rather than
// what it computes: torch.device, torch.cuda.is_available(), torch.backends.mps.is_available(),
// torch.set_printoptions, and the constants torch.pi / torch.e.
//
// What it is: attn is a CPU-only PyTorch, so the accelerators report False (a tutorial's
// `device = "cuda" if torch.cuda.is_available() else "cpu"` picks the CPU); torch.device
// (values.cpp) accepts every device type PyTorch knows, while a tensor or module moved anywhere
// but the CPU raises (signature.cpp's device check). set_printoptions changes this session's
// options (TorchState::print_options), never another run's. torch.typename.
// What it is not: the printer (print/tensor_str.cpp) or tensor conversion (Tensor.to, ops_shape.cpp).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "torch/signature.h"

namespace attn::torch {

namespace {

Value ns(const std::string& name, std::map<std::string, Value> names) {
  auto n = std::make_shared<NamespaceObj>();
  n->names = std::move(names);
  return module_value(name, std::move(n));
}

Value returns_false(const std::string& name) {
  auto sig = std::make_shared<Signature>(parse_signature("def " + name.substr(name.rfind('.') + 1) + "()"));
  return builtin(name, [sig, name](Interpreter&, CallArgs& a) {
    py::bind_args(*sig, a, name);
    return Value::boolean(false);
  });
}

// torch.set_printoptions (torch/_tensor_str.py): a profile first, then each given option;
// sci_mode is set every time, to None when not given, as 1.13 does.
Value set_printoptions_fn(Interpreter& in, CallArgs& a) {
  static const Signature sig = parse_signature(
      "def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None)");
  Args b = bind_call(sig, a, "torch.set_printoptions");
  print::PrintOptions& o = state(in).print_options;
  const Value& profile = b.get("profile");
  if (!profile.is_none()) {
    const std::string p = str(profile);
    if (p == "default") o = print::PrintOptions{};
    else if (p == "short") o.precision = 2, o.threshold = 1000, o.edgeitems = 2, o.linewidth = 80;
    else if (p == "full") o.precision = 4, o.threshold = std::numeric_limits<int64_t>::max(), o.edgeitems = 3, o.linewidth = 80;
  }
  const auto count = [&](const char* name) -> std::optional<int64_t> {
    const Value& v = b.get(name);
    if (v.is_none()) return std::nullopt;
    if (v.kind == Value::Float && std::isinf(v.f) && v.f > 0) return std::numeric_limits<int64_t>::max();   // threshold=float('inf')
    return to_int(v, name);
  };
  if (auto v = count("precision")) o.precision = static_cast<int>(*v);
  if (auto v = count("threshold")) o.threshold = *v;
  if (auto v = count("edgeitems")) o.edgeitems = *v;
  if (auto v = count("linewidth")) o.linewidth = static_cast<int>(*v);
  const Value& sci = b.get("sci_mode");
  o.sci_mode = sci.is_none() ? -1 : truthy(sci) ? 1 : 0;
  return Value::none();
}

// torch.typename(obj): a tensor's legacy type name (torch.FloatTensor), else the class's
// module-qualified name (int, torch.nn.modules.linear.Linear), as torch/__init__.py writes it.
Value typename_fn(Interpreter&, CallArgs& a) {
  static const py::Signature sig = py::Signature::parse("def typename(o)");
  py::Args b = py::bind_args(sig, a, "torch.typename");
  const Value& o = b.get("o");
  if (is_tensor(o)) return Value::str(core::tensor_type_name(as_tensor(o).dtype()));
  const py::ClassPtr c = py::type_of(o);
  return Value::str(c->module == "builtins" ? c->name : c->module + "." + c->name);
}

// A function of torch.cuda that, without CUDA, does nothing (manual_seed: PyTorch queues the
// seed for a CUDA that never comes) or answers as PyTorch's CPU build does (device_count: 0).
Value cuda_fn(const std::string& name, const std::string& params, Value result) {
  auto sig = std::make_shared<Signature>(parse_signature("def " + name.substr(name.rfind('.') + 1) + params));
  return builtin(name, [sig, name, result](Interpreter&, CallArgs& a) {
    py::bind_args(*sig, a, name);
    return result;
  });
}

}  // namespace

void add_torch_environment(NamespaceObj& torch) {
  torch.names["pi"] = Value::number(M_PI);
  torch.names["e"] = Value::number(M_E);
  torch.names["typename"] = builtin("torch.typename", typename_fn);
  torch.names["set_printoptions"] = builtin("torch.set_printoptions", set_printoptions_fn);
  torch.names["cuda"] = ns("torch.cuda", {{"is_available", returns_false("torch.cuda.is_available")},
                                          {"manual_seed", cuda_fn("torch.cuda.manual_seed", "(seed)", Value::none())},
                                          {"manual_seed_all", cuda_fn("torch.cuda.manual_seed_all", "(seed)", Value::none())},
                                          {"device_count", cuda_fn("torch.cuda.device_count", "()", Value::integer(0))}});
  // torch.backends.cudnn's switches: settable attributes (a module with a __file__ is, in py),
  // PyTorch's defaults, no cuDNN here.
  Value cudnn = ns("torch.backends.cudnn", {{"__file__", Value::str("<torch/backends/cudnn/__init__.py>")},
                                            {"is_available", returns_false("torch.backends.cudnn.is_available")},
                                            {"deterministic", Value::boolean(false)},
                                            {"benchmark", Value::boolean(false)},
                                            {"enabled", Value::boolean(true)}});
  torch.names["backends"] = ns("torch.backends", {{"mps", ns("torch.backends.mps", {{"is_available", returns_false("torch.backends.mps.is_available")},
                                                                                    {"is_built", returns_false("torch.backends.mps.is_built")}})},
                                                  {"cudnn", cudnn}});
}

}  // namespace attn::torch
