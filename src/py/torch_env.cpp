// py/torch_env.cpp: the parts of `torch` that describe where and how a tutorial runs rather than
// what it computes: torch.device, torch.cuda.is_available(), torch.backends.mps.is_available(),
// torch.set_printoptions, and the constants torch.pi / torch.e.
//
// What it is: attn is a CPU-only PyTorch, so the accelerators report False (a tutorial's
// `device = "cuda" if torch.cuda.is_available() else "cpu"` picks the CPU) and torch.device
// accepts every device type PyTorch knows, while a tensor or module moved anywhere but the CPU
// raises (signature.cpp's device check). set_printoptions changes this session's options
// (RunState::print_options), never another run's.
// What it is not: the printer (print/tensor_str.cpp) or tensor conversion (Tensor.to, ops_shape.cpp).
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/signature.h"

namespace attn::py {

namespace {

Value ns(const std::string& name, std::map<std::string, Value> names) {
  auto n = std::make_shared<NamespaceObj>();
  n->names = std::move(names);
  Value v;
  v.kind = Value::Namespace;
  v.s = name;
  v.obj = std::move(n);
  return v;
}

Value returns_false(const std::string& name) {
  auto sig = std::make_shared<Signature>(Signature::parse("def " + name.substr(name.rfind('.') + 1) + "()"));
  return builtin(name, [sig, name](Interpreter&, CallArgs& a) {
    bind_args(*sig, a, name);
    return Value::boolean(false);
  });
}

// torch.device('cpu'), torch.device('cuda:0'), torch.device('cuda', 1), torch.device(other_device).
std::shared_ptr<ClassObj> device_class() {
  static const std::shared_ptr<ClassObj> cls = [] {
    auto c = std::make_shared<ClassObj>();
    c->name = "device";
    c->native_repr = [](const Value& self) {
      auto& o = *static_cast<InstanceObj*>(self.obj.get());
      const Value& index = *o.find("index");
      return std::string("device(type=").append(repr(*o.find("type"))).append(index.is_none() ? std::string() : std::string(", index=").append(repr(index))).append(")");
    };
    c->native_str = [](const Value& self) {
      auto& o = *static_cast<InstanceObj*>(self.obj.get());
      const Value& index = *o.find("index");
      return index.is_none() ? o.find("type")->s : std::string(o.find("type")->s).append(":").append(repr(index));
    };
    return c;
  }();
  return cls;
}

Value make_device(const std::string& type, const Value& index) {
  static const char* const kTypes[] = {"cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                                       "fpga", "ort", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "privateuseone"};
  bool known = false;
  for (const char* t : kTypes) known = known || type == t;
  if (!known)
    throw RuntimeError(fmt::format("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                                         "fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device "
                                         "string: {}", type));
  auto o = std::make_shared<InstanceObj>();
  o->cls = device_class();
  o->set("type", Value::str(type));
  o->set("index", index);
  Value v;
  v.kind = Value::Instance;
  v.obj = o;
  return v;
}

Value device_fn(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def device(type, index=None)");
  Args b = bind_args(sig, a, "torch.device");
  const Value& type = b.get("type");
  Value index = b.get("index");
  if (type.kind == Value::Instance && static_cast<InstanceObj*>(type.obj.get())->cls == device_class()) return type;
  if (type.kind != Value::Str) throw TypeError(fmt::format("device() received an invalid combination of arguments - got ({})", py_typename(type)));
  std::string name = type.s;
  if (auto colon = name.find(':'); colon != std::string::npos) {
    if (!index.is_none()) throw RuntimeError(fmt::format("type (string) must not include an index because index was passed explicitly: {}", name));
    const std::string digits = name.substr(colon + 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
      throw RuntimeError(fmt::format("Invalid device string: '{}'", name));
    index = Value::integer(std::stoll(digits));
    name = name.substr(0, colon);
  }
  if (!index.is_none() && to_int(index, "index") < 0)
    throw RuntimeError(fmt::format("Device index must not be negative"));
  return make_device(name, index);
}

// torch.set_printoptions (torch/_tensor_str.py): a profile first, then each given option;
// sci_mode is set every time, to None when not given, as 1.13 does.
Value set_printoptions_fn(Interpreter& in, CallArgs& a) {
  static const Signature sig = Signature::parse(
      "def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None)");
  Args b = bind_args(sig, a, "torch.set_printoptions");
  print::PrintOptions& o = in.state.print_options;
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

}  // namespace

Value cpu_device() { return make_device("cpu", Value::none()); }

bool is_cpu_device(const Value& v) {
  if (v.kind == Value::Str) return v.s == "cpu" || v.s == "cpu:0";
  if (v.kind != Value::Instance || static_cast<InstanceObj*>(v.obj.get())->cls != device_class()) return false;
  auto& o = *static_cast<InstanceObj*>(v.obj.get());
  const Value& index = *o.find("index");
  return o.find("type")->s == "cpu" && (index.is_none() || (index.kind == Value::Int && index.i == 0));
}

bool is_device(const Value& v) {
  return v.kind == Value::Instance && static_cast<InstanceObj*>(v.obj.get())->cls == device_class();
}

void add_torch_environment(NamespaceObj& torch) {
  torch.names["pi"] = Value::number(M_PI);
  torch.names["Tensor"] = torch_tensor_class();
  torch.names["e"] = Value::number(M_E);
  torch.names["device"] = builtin("torch.device", device_fn);
  torch.names["set_printoptions"] = builtin("torch.set_printoptions", set_printoptions_fn);
  torch.names["cuda"] = ns("torch.cuda", {{"is_available", returns_false("torch.cuda.is_available")}});
  torch.names["backends"] = ns("torch.backends", {{"mps", ns("torch.backends.mps", {{"is_available", returns_false("torch.backends.mps.is_available")},
                                                                                    {"is_built", returns_false("torch.backends.mps.is_built")}})}});
}

}  // namespace attn::py
