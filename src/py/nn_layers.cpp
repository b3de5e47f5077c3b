// py/nn_layers.cpp: torch.nn.ReLU, GELU, LayerNorm and Sequential, and the functional forms
// F.relu, F.gelu, F.layer_norm, F.linear, F.dropout (op-table rows "nn.functional.*", plus
// torch.relu / Tensor.relu).
//
// What it is: the modules' constructors bound to PyTorch 1.13's Python signatures, their state
// (LayerNorm's weight = ones, bias = zeros: no random draw) and reprs, and forwards that call
// core/math_ops.h with the run's kernel family. Sequential(*modules) or Sequential(OrderedDict)
// keeps its children as nn_support.h describes and runs them in order.
// What it is not: the numerics (core/activations.cpp) or Module's shared methods (nn_modules.cpp).
#include <fmt/format.h>

#include "core/ops.h"
#include "core/random.h"
#include "py/exceptions.h"
#include "py/nn_support.h"
#include "py/op_table.h"

namespace attn::py {

namespace {

using core::Tensor;

const Signature& sig(const std::string& name) {
  static const std::map<std::string, Signature> all = [] {
    std::map<std::string, Signature> m;
    for (const char* text : {"def ReLU.__init__(self, inplace=False)", "def ReLU.forward(self, input)",
                             "def GELU.__init__(self, approximate='none')", "def GELU.forward(self, input)",
                             "def LayerNorm.__init__(self, normalized_shape, eps=1e-05, elementwise_affine=True, device=None, dtype=None)",
                             "def LayerNorm.forward(self, input)", "def Sequential.__init__(self, *args)",
                             "def Sequential.forward(self, input)"}) {
      Signature s = Signature::parse(text);
      m.emplace(s.name, std::move(s));
    }
    return m;
  }();
  return all.at(name);
}

// ---- ReLU ----

void relu_init(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("ReLU.__init__"), self, a);
  const bool inplace = b.flag("inplace");
  done(b);
  inst(self).set("inplace", Value::boolean(inplace));
}

// relu_ writes the result through the input's storage (every view of it sees it) and returns it.
Value relu_apply(const Value& x, bool inplace) {
  const Tensor& t = as_tensor(x);
  Tensor y = core::relu(t);
  if (!inplace) return Value::tensor(std::move(y));
  if (t.requires_grad() && t.grad_fn().empty())
    throw RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.");
  Tensor& target = as_tensor(x);
  core::copy_(target, y);
  target = core::with_grad(target, {&target}, "ReluBackward0");
  return x;
}

Value relu_forward(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("ReLU.forward"), self, a);
  Value x = b.get("input");
  as_tensor(x);
  done(b);
  return relu_apply(x, inst(self).find("inplace")->b);
}

// ---- GELU ----

bool tanh_approximation(const std::string& approximate) {
  if (approximate == "none") return false;
  if (approximate == "tanh") return true;
  throw RuntimeError("approximate argument must be either none or tanh.");
}

void gelu_init(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("GELU.__init__"), self, a);
  const Value approximate = b.get("approximate");
  done(b);
  inst(self).set("approximate", approximate);
}

Value gelu_forward(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("GELU.forward"), self, a);
  const Tensor& x = b.tensor("input");
  done(b);
  return Value::tensor(core::gelu(x, tanh_approximation(str(*inst(self).find("approximate"))), in.state.cpu));
}

// ---- LayerNorm ----

void layernorm_init(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("LayerNorm.__init__"), self, a);
  const Value& shape_v = b.get("normalized_shape");
  std::vector<Value> dims = shape_v.kind == Value::Int ? std::vector<Value>{shape_v} : as_seq(shape_v);
  core::Shape shape;
  for (const Value& d : dims) shape.push_back(to_int(d, "normalized_shape"));
  const double eps = b.number("eps");
  const bool affine = b.flag("elementwise_affine");
  float32_only(b);
  done(b);
  inst(self).set("normalized_shape", Value::tuple(dims));
  inst(self).set("eps", Value::number(eps));
  inst(self).set("elementwise_affine", Value::boolean(affine));
  inst(self).set("weight", affine ? make_parameter(core::ones(shape)) : Value::none());   // init.ones_, no draw
  inst(self).set("bias", affine ? make_parameter(core::zeros(shape)) : Value::none());
}

// F.layer_norm's checks, then the kernel over the last len(normalized_shape) dims.
Tensor layer_norm(const Tensor& x, const std::vector<int64_t>& shape, const Value& weight, const Value& bias, double eps,
                  core::CpuKernels cpu) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  bool ok = nd >= 1 && nd <= x.dim();
  for (int64_t k = 0; ok && k < nd; ++k) ok = x.shape()[x.dim() - nd + k] == shape[k];
  if (!ok)
    throw RuntimeError(fmt::format("Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
                                         core::shape_str(shape), core::shape_str(shape).substr(1, core::shape_str(shape).size() - 2),
                                         core::shape_str(x.shape())));
  const Tensor* w = weight.is_none() ? nullptr : &as_tensor(weight);
  const Tensor* b = bias.is_none() ? nullptr : &as_tensor(bias);
  return core::layer_norm(x, nd, w, b, eps, cpu);
}

Value layernorm_forward(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("LayerNorm.forward"), self, a);
  const Tensor& x = b.tensor("input");
  done(b);
  std::vector<int64_t> shape;
  for (const Value& d : as_seq(*inst(self).find("normalized_shape"))) shape.push_back(d.i);
  return Value::tensor(layer_norm(x, shape, *inst(self).find("weight"), *inst(self).find("bias"), inst(self).find("eps")->f, in.state.cpu));
}

std::string layernorm_repr(const Value& self) {
  return fmt::format("LayerNorm({}, eps={}, elementwise_affine={})", repr(*inst(self).find("normalized_shape")),
                     repr(*inst(self).find("eps")), repr(*inst(self).find("elementwise_affine")));
}

// ---- Sequential ----

// Sequential(*modules), or Sequential(OrderedDict / dict of name -> module).
void sequential_init(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("Sequential.__init__"), self, a);
  std::vector<Value> args = as_seq(b.get("args"));
  done(b);
  std::vector<Value> mods, names;
  if (args.size() == 1 && args[0].kind == Value::Dict) {
    for (auto& [k, v] : static_cast<DictObj*>(args[0].obj.get())->items) {
      names.push_back(Value::str(str(k)));
      mods.push_back(v);
    }
  } else {
    for (size_t k = 0; k < args.size(); ++k) {
      names.push_back(Value::str(std::to_string(k)));
      mods.push_back(args[k]);
    }
  }
  for (const Value& m : mods)
    if (!is_module(m)) throw TypeError(py_typename(m) + " is not a Module subclass");
  inst(self).set("_modules", Value::list(mods));
  inst(self).set("_module_names", Value::list(names));
}

Value sequential_forward(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("Sequential.forward"), self, a);
  Value x = b.get("input");
  done(b);
  for (const Value& m : as_seq(*inst(self).find("_modules"))) {
    CallArgs call;
    call.pos = {x};
    x = in.call(m, call);
  }
  return x;
}

// ---- functional rows ----

Value functional_gelu(Interpreter& in, Args& a) {
  return Value::tensor(core::gelu(a.tensor("input"), tanh_approximation(a.string("approximate")), in.state.cpu));
}

Value functional_layer_norm(Interpreter& in, Args& a) {
  const Tensor& x = a.tensor("input");
  const std::vector<int64_t> shape = a.ints("normalized_shape");
  return Value::tensor(layer_norm(x, shape, a.get("weight"), a.get("bias"), a.number("eps"), in.state.cpu));
}

}  // namespace

void add_nn_layers(NamespaceObj& nn, const std::shared_ptr<ClassObj>& module) {
  auto relu = module_class("ReLU", module);
  relu->native_init = relu_init;
  relu->native_forward = relu_forward;
  relu->native_repr = [](const Value& s) { return std::string(inst(s).find("inplace")->b ? "ReLU(inplace=True)" : "ReLU()"); };
  nn.names["ReLU"] = class_value(relu);
  auto gelu = module_class("GELU", module);
  gelu->native_init = gelu_init;
  gelu->native_forward = gelu_forward;
  gelu->native_repr = [](const Value& s) {   // append(): GCC 12 warns -Wrestrict on "lit" + str (bug 105651)
    return std::string("GELU(approximate=").append(repr(*inst(s).find("approximate"))).append(")");
  };
  nn.names["GELU"] = class_value(gelu);
  auto ln = module_class("LayerNorm", module);
  ln->native_init = layernorm_init;
  ln->native_forward = layernorm_forward;
  ln->native_repr = layernorm_repr;
  nn.names["LayerNorm"] = class_value(ln);
  auto seq = module_class("Sequential", module);
  seq->native_init = sequential_init;
  seq->native_forward = sequential_forward;
  seq->native_repr = [](const Value& s) { return module_tree_repr(s, ""); };
  nn.names["Sequential"] = class_value(seq);
}

void add_layer_ops(std::vector<OpRow>& rows) {
  rows.push_back({"relu", kFunction | kMethod, {"relu(Tensor input)"},
                  [](Interpreter&, Args& a) { return Value::tensor(core::relu(a.tensor("input"))); }});
  rows.push_back({"nn.functional.relu", kFunction, {"def relu(input, inplace=False)"}, [](Interpreter&, Args& a) {
                    Value x = a.get("input");
                    as_tensor(x);
                    return relu_apply(x, a.flag("inplace"));
                  }});
  rows.push_back({"nn.functional.gelu", kFunction, {"gelu(Tensor input, *, std::string approximate=\"none\")"}, functional_gelu});
  rows.push_back({"nn.functional.linear", kFunction, {"linear(Tensor input, Tensor weight, Tensor? bias=None)"}, [](Interpreter&, Args& a) {
                    const Tensor& x = a.tensor("input");
                    const Tensor& w = a.tensor("weight");
                    return Value::tensor(linear_apply(x, w, a.given("bias") ? &a.tensor("bias") : nullptr));
                  }});
  // F.dropout: the same mask and scaling as nn.Dropout; the input itself when not training or p == 0.
  rows.push_back({"nn.functional.dropout", kFunction, {"def dropout(input, p=0.5, training=True, inplace=False)"}, [](Interpreter& in, Args& a) {
                    Value x = a.get("input");
                    const double p = a.number("p");
                    const bool training = a.flag("training");
                    if (a.flag("inplace")) a.unsupported("inplace", "use nn.Dropout(p, inplace=True)");
                    if (p < 0.0 || p > 1.0)
                      throw ValueError(fmt::format("dropout probability has to be between 0 and 1, but got {}", p));
                    if (!training || p == 0.0) return x;
                    return Value::tensor(core::dropout(in.state.generator, as_tensor(x), p, in.state.rng));
                  }});
  rows.push_back({"nn.functional.layer_norm", kFunction,
                  {"def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)"}, functional_layer_norm});
  rows.push_back({"layer_norm", kFunction,
                  {"layer_norm(Tensor input, IntArrayRef normalized_shape, Tensor? weight=None, Tensor? bias=None, double eps=1e-05, bool cudnn_enable=True)"},
                  [](Interpreter& in, Args& a) {
                    a.get("cudnn_enable");   // no cuDNN on the CPU
                    return functional_layer_norm(in, a);
                  }});
}

}  // namespace attn::py
