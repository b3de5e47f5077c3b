// torch/values.cpp: the native classes torch.Tensor, nn.Parameter, torch.Size, torch.dtype and
// torch.device, and the conversions between them and core (see values.h). The tensor's hooks
// are tensor_hooks.cpp.
#include "torch/values.h"

#include <fmt/format.h>

#include <memory>

#include "print/tensor_str.h"
#include "py/exceptions.h"
#include "py/ints.h"
#include "py/signature.h"
#include "torch/session.h"

namespace attn::torch {

using py::InstanceObj;

namespace {

const char kTensorTag = 0, kDtypeTag = 0, kDeviceTag = 0, kGeneratorTag = 0;

// Instances of these C types have no __dict__ in PyTorch: `torch.float32.x = 1` is an
// AttributeError (and the objects are shared by every session, so they must not change).
bool no_new_attributes(Interpreter&, const Value& self, const std::string& name, const Value&) {
  throw py::AttributeError("'" + py::type_name(self) + "' object has no attribute '" + name + "'");
}

struct DtypeObject : InstanceObj {
  core::DType dtype = core::DType::float32;
};

struct DeviceObject : InstanceObj {
  std::string type;
  Value index;   // None or an int
};

// A torch.Generator: the session's default one (points at TorchState's) or one the lesson made.
struct GeneratorObject : InstanceObj {
  std::unique_ptr<core::Generator> own;   // torch.Generator(): its own stream
  core::Generator* gen = nullptr;         // own.get(), or the session's
  uint64_t* seed = nullptr;               // where its initial seed is kept
  uint64_t own_seed = 67280421310721ULL;  // PyTorch's default seed
};

}  // namespace

// ---- Tensor, Parameter ----

const ClassPtr& tensor_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = py::make_native_class("Tensor", "torch");
    cls->native_tag = &kTensorTag;
    install_tensor_hooks(*cls);
    return cls;
  }();
  return c;
}

const ClassPtr& parameter_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = py::make_native_class("Parameter", "torch.nn.parameter", {tensor_class()});
    // nn.Parameter(data=None, requires_grad=True): the same storage, as a leaf that requires grad.
    cls->slots.make = [](Interpreter&, const ClassPtr&, CallArgs& a) {
      static const py::Signature sig = py::Signature::parse("def Parameter.__new__(cls, data=None, requires_grad=True)");
      CallArgs with_cls = a;
      with_cls.pos.insert(with_cls.pos.begin(), Value::none());
      py::Args b = py::bind_args(sig, with_cls, "torch.nn.Parameter");
      const Value& data = b.get("data");
      const bool requires_grad = b.flag("requires_grad");
      b.get("cls");
      b.check_all_read();
      core::Tensor t = core::detach(data.is_none() ? core::zeros({0}) : as_tensor(data));
      if (requires_grad && !t.is_float()) throw py::error("RuntimeError", "Only Tensors of floating point and complex dtype can require gradients");
      t.set_requires_grad(requires_grad);
      t.set_parameter(true);
      return tensor_value(std::move(t));
    };
    cls->slots.init = [](Interpreter&, const Value&, CallArgs&) {};   // __new__ took the arguments
    return cls;
  }();
  return c;
}

// One Python object per variable, as PyTorch keeps one per TensorImpl: a handle onto a variable
// that already has a live object (x.grad twice, a view's _base, an in-place op's result) gives
// that object, so `x.grad is x.grad` holds.
Value tensor_value(core::Tensor t) {
  if (auto known = std::static_pointer_cast<TensorObject>(t.autograd().owner.lock()))
    if (&known->t.autograd() == &t.autograd()) return Value::of_instance(std::move(known));
  auto o = std::make_shared<TensorObject>();
  o->cls = t.is_parameter() ? parameter_class() : tensor_class();
  o->t = std::move(t);
  o->t.autograd().owner = o;
  return Value::of_instance(std::move(o));
}

bool is_tensor(const Value& v) { return py::native_cast<TensorObject>(v, &kTensorTag) != nullptr; }

core::Tensor& as_tensor(const Value& v) {
  if (auto* o = py::native_cast<TensorObject>(v, &kTensorTag)) return o->t;
  throw py::TypeError("expected a Tensor, got " + py_typename(v));
}

// ---- torch.Size ----

const ClassPtr& size_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = py::make_native_class("Size", "torch", {py::builtin_class("tuple")});
    cls->qualified_name = true;
    install_size_hooks(*cls);
    return cls;
  }();
  return c;
}

Value size_value(const core::Shape& shape) {
  std::vector<Value> items;
  items.reserve(shape.size());
  for (int64_t d : shape) items.push_back(Value::integer(d));
  Value v = Value::tuple(std::move(items));
  static_cast<py::SeqObj*>(v.obj.get())->cls = size_class();
  return v;
}

bool is_size(const Value& v) { return v.kind == Value::Tuple && static_cast<const py::SeqObj*>(v.obj.get())->cls == size_class(); }

// ---- torch.dtype ----

const ClassPtr& dtype_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = py::make_native_class("dtype", "torch");
    cls->qualified_name = true;
    cls->native_tag = &kDtypeTag;
    cls->slots.repr = [](Interpreter&, const Value& self) { return dtype_name(dtype_of(self)); };
    cls->slots.setattr = no_new_attributes;
    cls->slots.make = [](Interpreter&, const ClassPtr&, CallArgs&) -> Value {
      throw py::TypeError("cannot create 'torch.dtype' instances");
    };
    cls->slots.getattr = [](Interpreter&, const Value& self, const std::string& name) -> std::optional<Value> {
      const core::DType d = dtype_of(self);
      if (name == "is_floating_point") return Value::boolean(d == core::DType::float32);
      if (name == "itemsize") return Value::integer(core::element_size(d));
      return std::nullopt;
    };
    return cls;
  }();
  return c;
}

std::string dtype_name(core::DType d) { return print::detail::dtype_str(d); }

Value dtype_value(core::DType d) {
  static const std::vector<Value> all = [] {
    std::vector<Value> v;
    for (core::DType t : {core::DType::float32, core::DType::int64, core::DType::boolean, core::DType::uint8, core::DType::int8,
                          core::DType::int16, core::DType::int32}) {   // in the enum's order
      auto o = std::make_shared<DtypeObject>();
      o->cls = dtype_class();
      o->dtype = t;
      v.push_back(Value::of_instance(std::move(o)));
    }
    return v;
  }();
  return all.at(static_cast<size_t>(d));
}

bool is_dtype(const Value& v) { return py::native_cast<DtypeObject>(v, &kDtypeTag) != nullptr; }

core::DType dtype_of(const Value& dtype) {
  if (auto* o = py::native_cast<DtypeObject>(dtype, &kDtypeTag)) return o->dtype;
  throw py::TypeError("expected a torch.dtype, got " + py_typename(dtype));
}

// ---- torch.device ----

namespace {

DeviceObject* device_of(const Value& v) { return py::native_cast<DeviceObject>(v, &kDeviceTag); }

// torch.device('cpu'), torch.device('cuda:0'), torch.device('cuda', 1), torch.device(other_device).
Value device_new(Interpreter&, const ClassPtr&, CallArgs& a) {
  static const py::Signature sig = py::Signature::parse("def device(type, index=None)");
  py::Args b = py::bind_args(sig, a, "torch.device");
  const Value& type = b.get("type");
  Value index = b.get("index");
  if (is_device(type)) return type;
  if (type.kind != Value::Str) throw py::TypeError(fmt::format("device() received an invalid combination of arguments - got ({})", py_typename(type)));
  std::string name = type.s;
  if (auto colon = name.find(':'); colon != std::string::npos) {
    if (!index.is_none()) throw py::RuntimeError(fmt::format("type (string) must not include an index because index was passed explicitly: {}", name));
    const std::string digits = name.substr(colon + 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
      throw py::RuntimeError(fmt::format("Invalid device string: '{}'", name));
    index = Value::integer(std::stoll(digits));
    name = name.substr(0, colon);
  }
  if (!index.is_none() && py::to_int(index, "index") < 0) throw py::RuntimeError("Device index must not be negative");
  return make_device(name, index);
}

}  // namespace

const ClassPtr& device_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = py::make_native_class("device", "torch");
    cls->qualified_name = true;
    cls->native_tag = &kDeviceTag;
    cls->slots.make = device_new;
    cls->slots.init = [](Interpreter&, const Value&, CallArgs&) {};
    cls->slots.setattr = no_new_attributes;
    cls->slots.repr = [](Interpreter&, const Value& self) {
      const DeviceObject& d = *device_of(self);
      return std::string("device(type=").append(print::py_str_repr(d.type)).append(d.index.is_none() ? std::string() : ", index=" + py::repr(d.index)).append(")");
    };
    cls->slots.str = [](Interpreter&, const Value& self) {
      const DeviceObject& d = *device_of(self);
      return d.index.is_none() ? d.type : d.type + ":" + py::repr(d.index);
    };
    cls->slots.getattr = [](Interpreter&, const Value& self, const std::string& name) -> std::optional<Value> {
      if (name == "type") return Value::str(device_of(self)->type);
      if (name == "index") return device_of(self)->index;
      return std::nullopt;
    };
    cls->slots.compare = [](Interpreter&, const std::string& op, const Value& self, const Value& other) -> std::optional<Value> {
      if ((op != "==" && op != "!=") || !is_device(other)) return std::nullopt;
      const DeviceObject &a = *device_of(self), &b = *device_of(other);
      const bool same = a.type == b.type && py::equal(a.index, b.index);
      return Value::boolean(op == "==" ? same : !same);
    };
    cls->slots.hash = [](const Value& self) { return static_cast<int64_t>(std::hash<std::string>()(device_of(self)->type)); };
    return cls;
  }();
  return c;
}

Value make_device(const std::string& type, const Value& index) {
  static const char* const kTypes[] = {"cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                                       "fpga", "ort", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "privateuseone"};
  bool known = false;
  for (const char* t : kTypes) known = known || type == t;
  if (!known)
    throw py::RuntimeError(fmt::format("Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                                       "fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone device type at start of device "
                                       "string: {}", type));
  auto o = std::make_shared<DeviceObject>();
  o->cls = device_class();
  o->type = type;
  o->index = index;
  return Value::of_instance(std::move(o));
}

Value cpu_device() { return make_device("cpu", Value::none()); }

bool is_device(const Value& v) { return device_of(v) != nullptr; }

bool is_cpu_device(const Value& v) {
  if (v.kind == Value::Str) return v.s == "cpu" || v.s == "cpu:0";
  const DeviceObject* d = device_of(v);
  return d && d->type == "cpu" && (d->index.is_none() || (d->index.kind == Value::Int && d->index.i == 0));
}

// ---- torch.Generator ----

namespace {

GeneratorObject& generator_of(const Value& v) {
  if (auto* g = py::native_cast<GeneratorObject>(v, &kGeneratorTag)) return *g;
  throw py::TypeError("expected a torch.Generator, got " + py_typename(v));
}

// Generator.manual_seed(seed): PyTorch takes -2**63 to 2**64 - 1 (a negative seed wraps to uint64).
uint64_t seed_of(const Value& s) {
  if (s.kind != Value::Int) throw py::TypeError("manual_seed expected an int, got " + py::type_name(s));
  if (s.is_big() && !s.big().fits_uint64()) throw py::RuntimeError("Overflow when unpacking long");
  return s.is_big() ? s.big().to_uint64() : static_cast<uint64_t>(s.i);
}

}  // namespace

Value seed_value(uint64_t seed) {   // an int up to 2**64 - 1
  if (seed <= static_cast<uint64_t>(INT64_MAX)) return Value::integer(static_cast<int64_t>(seed));
  using py::BigInt;
  return Value::integer(BigInt(static_cast<int64_t>(seed >> 32)) * BigInt(int64_t{1} << 32) + BigInt(static_cast<int64_t>(seed & 0xffffffffu)));
}

const ClassPtr& generator_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = py::make_native_class("Generator", "torch._C");
    cls->qualified_name = true;
    cls->native_tag = &kGeneratorTag;
    cls->no_instance_dict = true;
    cls->slots.make = [](Interpreter& in, const ClassPtr& self_cls, CallArgs& a) {
      static const py::Signature sig = py::Signature::parse("def Generator(device='cpu')");
      py::Args b = py::bind_args(sig, a, "torch.Generator");
      if (!is_cpu_device(b.get("device"))) throw py::NotImplementedError("torch.Generator(): attn computes on the CPU only");
      auto o = std::make_shared<GeneratorObject>();
      o->cls = self_cls;
      o->own = std::make_unique<core::Generator>(state(in).cpu);
      o->gen = o->own.get();
      o->seed = &o->own_seed;
      return Value::of_instance(std::move(o));
    };
    cls->slots.init = [](Interpreter&, const Value&, CallArgs&) {};
    cls->slots.repr = [](Interpreter&, const Value&) { return std::string("<torch._C.Generator object>"); };   // PyTorch adds the address
    cls->methods["manual_seed"] = py::method("Generator.manual_seed", [](Interpreter&, CallArgs& a) {
      GeneratorObject& g = generator_of(py::arg(a, 0, "self"));
      const uint64_t s = seed_of(py::arg(a, 1, "seed"));
      g.gen->manual_seed(s);
      *g.seed = s;
      return a.pos.at(0);
    });
    cls->methods["initial_seed"] = py::method("Generator.initial_seed", [](Interpreter&, CallArgs& a) {
      return seed_value(*generator_of(py::arg(a, 0, "self")).seed);
    });
    cls->slots.getattr = [](Interpreter&, const Value&, const std::string& name) -> std::optional<Value> {
      if (name == "device") return cpu_device();
      return std::nullopt;
    };
    return cls;
  }();
  return c;
}

Value default_generator(Interpreter& in) {
  TorchState& s = state(in);
  if (s.default_generator.is_none()) {
    auto o = std::make_shared<GeneratorObject>();
    o->cls = generator_class();
    o->gen = &s.generator;
    o->seed = &s.initial_seed;
    s.default_generator = Value::of_instance(std::move(o));
  }
  return s.default_generator;
}

core::Generator* generator_ptr(const Value& v) {
  auto* g = py::native_cast<GeneratorObject>(v, &kGeneratorTag);
  return g ? g->gen : nullptr;
}

// ---- numbers and names ----

double torch_scalar(const Value& v, const char* what) {
  if (v.is_big()) throw py::RuntimeError("Overflow when unpacking long");
  if (v.kind == Value::Float) return v.f;
  if (py::is_int(v)) return static_cast<double>(py::small_of(v));
  if (is_tensor(v) && as_tensor(v).numel() == 1) return core::item(as_tensor(v));
  throw py::TypeError(std::string() + what + " must be a number, not " + py_typename(v));
}

std::string py_typename(const Value& v) { return py::type_name(v); }   // Tensor, Parameter, torch.Size, int, ...

}  // namespace attn::torch
