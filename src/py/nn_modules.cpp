// py/nn_modules.cpp: torch.nn for lesson cells: Module (the base of the articles' own
// classes), Parameter, Embedding, Linear, Dropout, ModuleList, and attribute lookup on instances.
//
// What it is: modules that draw their random numbers in PyTorch's order (core/random.cpp) and
// compute forward passes with core:: ops, plus the Module machinery user classes rely on
// (parameters() order, register_buffer, train/eval, module(x) -> forward(x)). Constructors and
// methods bind their arguments to PyTorch's Python signatures (signature.h), so an unknown or
// unimplemented keyword raises.
// What it is not: autograd (core/autograd.h) or optimisers.
#include <fmt/format.h>

#include <algorithm>

#include "core/ops.h"
#include "core/random.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/nn_support.h"
#include "py/signature.h"

namespace attn::py {

using core::Tensor;

InstanceObj& inst(const Value& v) { return *static_cast<InstanceObj*>(v.obj.get()); }

// nn.Parameter(t): the same storage, as a leaf that requires grad.
Value make_parameter(const Tensor& data) {
  Tensor t = core::detach(data);
  t.set_requires_grad(true);
  t.set_parameter(true);
  return Value::tensor(std::move(t));
}

std::shared_ptr<ClassObj> module_class(const std::string& name, const std::shared_ptr<ClassObj>& base) {
  auto c = std::make_shared<ClassObj>();
  c->name = name;
  c->is_module = true;
  if (base) c->bases.push_back(base);
  return c;
}

Value class_value(const std::shared_ptr<ClassObj>& c) {
  Value v;
  v.kind = Value::Class;
  v.obj = c;
  return v;
}

int64_t positive(const Value& v, const char* what, int pos) {
  if (v.is_big())
    throw TypeError(fmt::format("empty(): argument 'size' must be tuple of SymInts, but found element of type int at pos {}", pos));
  int64_t n = to_int(v, what);
  if (n <= 0) throw ValueError(fmt::format("{} must be a positive integer, got {}", what, n));
  return n;
}

namespace {

// PyTorch's Python signatures of the modules' constructors and methods, parsed once; sig(name).
const Signature& sig(std::string_view name) {
  static const std::map<std::string, Signature, std::less<>> all = [] {
    std::map<std::string, Signature, std::less<>> m;
    for (const char* text : {
             "def Linear.__init__(self, in_features, out_features, bias=True, device=None, dtype=None)",
             "def Linear.forward(self, input)",
             "def Embedding.__init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0, "
             "scale_grad_by_freq=False, sparse=False, _weight=None, device=None, dtype=None)",
             "def Embedding.forward(self, input)",
             "def _DropoutNd.__init__(self, p=0.5, inplace=False)",
             "def Dropout.forward(self, input)",
             "def ModuleList.__init__(self, modules=None)",
             "def Parameter.__new__(cls, data=None, requires_grad=True)",
             "def Module.parameters(self, recurse=True)",
             "def Module.eval(self)",
             "def Module.train(self, mode=True)",
             "def Module.register_buffer(self, name, tensor, persistent=True)",
             "def Module.named_parameters(self, prefix='', recurse=True)",
             "def Module.state_dict(self)",
             "def Module.register_parameter(self, name, param)",
             "def Module.to(self, device=None, dtype=None, non_blocking=False)",
             "def Module.cpu(self)",
             "def MSELoss.__init__(self, size_average=None, reduce=None, reduction='mean')",
             "def MSELoss.forward(self, input, target)"}) {
      Signature s = Signature::parse(text);
      m.emplace(s.name, std::move(s));
    }
    return m;
  }();
  return all.at(std::string(name));
}

}  // namespace

// Bind `self` and a call to one of those signatures. device= must be the CPU; the caller reads
// the rest and ends with done(b).
Args bind_self(const Signature& sig, const Value& self, const CallArgs& a) {
  CallArgs with_self = a;
  with_self.pos.insert(with_self.pos.begin(), self);
  Args b = bind_args(sig, with_self, sig.name);
  b.get(sig.params[0].name);
  b.check_environment();
  return b;
}

void done(const Args& b) { b.check_all_read(); }

// dtype= of a module's parameters: attn's are float32.
void float32_only(Args& b) {
  const Value& d = b.get("dtype");
  if (!d.is_none() && dtype_of(d) != core::DType::float32) b.unsupported("dtype", "attn's parameters are float32");
}

namespace {

// ---- Linear ----

void linear_init(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("Linear.__init__"), self, a);
  int64_t fin = positive(b.get("in_features"), "in_features", 2), fout = positive(b.get("out_features"), "out_features", 1);
  bool bias = b.flag("bias");
  float32_only(b);
  done(b);
  core::LinearParams p = core::linear_init(in.state.generator, fin, fout, bias);
  inst(self).set("in_features", Value::integer(fin));
  inst(self).set("out_features", Value::integer(fout));
  inst(self).set("weight", make_parameter(p.weight));
  inst(self).set("bias", bias ? make_parameter(p.bias) : Value::none());
}

// x @ W.T (+ b), with the grad_fn PyTorch 1.13 records for each input rank (docs/pytorch-numerics.md §4):
// with a bias, aten::linear uses addmm for 2-D input and a flattened addmm (a view) for a
// contiguous 3-D one; anything else is matmul followed by an in-place add_ (AddBackward0).
Value linear_forward(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("Linear.forward"), self, a);
  Tensor x = b.tensor("input");
  done(b);
  const Value bias = *inst(self).find("bias");
  return Value::tensor(linear_apply(x, as_tensor(*inst(self).find("weight")), bias.is_none() ? nullptr : &as_tensor(bias)));
}

std::string linear_repr(const Value& self) {
  return fmt::format("Linear(in_features={}, out_features={}, bias={})", inst(self).find("in_features")->i,
                     inst(self).find("out_features")->i, inst(self).find("bias")->is_none() ? "False" : "True");
}

// ---- Embedding, Dropout, ModuleList ----

void embedding_init(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("Embedding.__init__"), self, a);
  int64_t num = positive(b.get("num_embeddings"), "num_embeddings", 1), dim = positive(b.get("embedding_dim"), "embedding_dim", 2);
  std::optional<int64_t> padding = b.opt_integer("padding_idx");
  if (b.given("max_norm")) b.unsupported("max_norm", "attn does not renormalise embeddings");
  if (b.number("norm_type") != 2.0) b.unsupported("norm_type", "it only matters with max_norm");
  if (b.flag("scale_grad_by_freq")) b.unsupported("scale_grad_by_freq", "attn does not scale embedding gradients by frequency");
  if (b.flag("sparse")) b.unsupported("sparse", "attn computes dense gradients");
  if (b.given("_weight")) b.unsupported("_weight");
  float32_only(b);
  done(b);
  if (padding && (*padding >= num || *padding < -num))   // nn.Embedding's own check, before any weight is drawn
    throw AssertionError("Padding_idx must be within num_embeddings");
  if (padding && *padding < 0) *padding += num;
  int64_t weights = 0;   // num * dim may overflow int64: nn.Embedding(2**62, 4)
  if (__builtin_mul_overflow(num, dim, &weights) || weights > 50'000'000) throw RuntimeError("embedding too large for a lesson (over 50 million weights)");
    Tensor w = core::embedding_weight(in.state.generator, num, dim);
  if (padding)   // reset_parameters(): normal_ init, then the padding row filled with zeros
    std::fill_n(w.data<float>() + *padding * dim, dim, 0.0f);
  inst(self).set("num_embeddings", Value::integer(num));
  inst(self).set("embedding_dim", Value::integer(dim));
  inst(self).set("padding_idx", padding ? Value::integer(*padding) : Value::none());
  inst(self).set("weight", make_parameter(w));
}

Value embedding_forward(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("Embedding.forward"), self, a);
  Tensor ids = b.tensor("input");
  done(b);
  const Tensor& w = as_tensor(*inst(self).find("weight"));
  Tensor out = core::index_select_rows(w, ids);
  const Value& padding = *inst(self).find("padding_idx");
  if (!padding.is_none())   // the padding row gets no gradient
    out = core::autograd::record(out, {&w}, "EmbeddingBackward0", core::grad::embedding(ids, w.shape()[0], padding.i));
  return Value::tensor(out);
}

std::string embedding_repr(const Value& s) {
  const Value& padding = *inst(s).find("padding_idx");
  return fmt::format("Embedding({}, {}{})", inst(s).find("num_embeddings")->i, inst(s).find("embedding_dim")->i,
                     padding.is_none() ? "" : fmt::format(", padding_idx={}", padding.i));
}

void dropout_init(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("_DropoutNd.__init__"), self, a);
  double p = b.number("p");
  bool inplace = b.flag("inplace");
  done(b);
  if (p < 0.0 || p > 1.0) throw ValueError(fmt::format("dropout probability has to be between 0 and 1, but got {}", p));
  inst(self).set("p", Value::number(p));
  inst(self).set("inplace", Value::boolean(inplace));
}

// With inplace=True the input tensor itself takes the result (PyTorch's _dropout<inplace> draws
// and rounds exactly as the out-of-place form), and the input is returned.
Value dropout_forward(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("Dropout.forward"), self, a);
  Value x = b.get("input");
  done(b);
  double p = inst(self).find("p")->f;
  if (!inst(self).training) return x;
  Tensor& t = as_tensor(x);
  Tensor y = core::dropout(in.state.generator, t, p, in.state.rng);
  if (!inst(self).find("inplace")->b) return Value::tensor(std::move(y));
  if (p == 0.0 || t.numel() == 0) return x;
  if (t.requires_grad() && t.grad_fn().empty())
    throw RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.");
  core::copy_(t, y);   // through t's storage: every view of it sees the dropout
  t.autograd() = y.autograd();   // t's history continues through y's MulBackward0
  return x;
}

// nn.MSELoss (core/loss.cpp): reduction 'mean', 'sum' or 'none'; size_average/reduce are refused.
void mseloss_init(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("MSELoss.__init__"), self, a);
  if (!b.get("size_average").is_none()) b.unsupported("size_average", "use reduction=");
  if (!b.get("reduce").is_none()) b.unsupported("reduce", "use reduction=");
  const std::string reduction = b.string("reduction");
  done(b);
  inst(self).set("reduction", Value::str(reduction));
}

Value mseloss_forward(Interpreter&, Value& self, CallArgs& a) {
  Args b = bind_self(sig("MSELoss.forward"), self, a);
  const Tensor& x = b.tensor("input");
  const Tensor& t = b.tensor("target");
  done(b);
  return Value::tensor(core::mse_loss(x, t, str(*inst(self).find("reduction"))));
}

void modulelist_init(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("ModuleList.__init__"), self, a);
  const Value& modules = b.get("modules");
  done(b);
  std::vector<Value> mods = modules.is_none() ? std::vector<Value>{} : in.iterate(modules), names;
  for (size_t k = 0; k < mods.size(); ++k) names.push_back(Value::str(std::to_string(k)));
  inst(self).set("_modules", Value::list(mods));
  inst(self).set("_module_names", Value::list(names));
}

void set_training(const Value& m, bool on) {
  inst(m).training = on;
  for (auto& [name, child] : children(m)) set_training(child, on);
}

void named_parameters_into(const Value& m, const std::string& prefix, bool recurse, std::vector<std::pair<std::string, Value>>& out,
                           std::vector<const Obj*>& seen) {
  for (auto& [name, v] : inst(m).attrs)
    if (v.kind == Value::Tensor && as_tensor(v).is_parameter() &&
        std::find(seen.begin(), seen.end(), v.obj.get()) == seen.end()) {
      seen.push_back(v.obj.get());
      out.emplace_back(prefix + name, v);
    }
  if (!recurse) return;
  for (auto& [name, child] : children(m)) named_parameters_into(child, prefix + name + ".", true, out, seen);
}

// state_dict(): PyTorch's _save_to_state_dict order, module by module: its parameters in
// registration order, then its persistent buffers, then each child's under "child.". Values are
// detached (keep_vars=False); a parameter shared by two modules appears under both names.
void state_dict_into(const Value& m, const std::string& prefix, DictObj& out) {
  for (auto& [name, v] : inst(m).attrs)
    if (v.kind == Value::Tensor && as_tensor(v).is_parameter()) out.set(Value::str(prefix + name), Value::tensor(core::detach(as_tensor(v))));
  if (const Value* buffers = inst(m).find("_state_buffers"))
    for (const Value& n : as_seq(*buffers))
      if (const Value* v = inst(m).find(n.s); v && v->kind == Value::Tensor)
        out.set(Value::str(prefix + n.s), Value::tensor(core::detach(as_tensor(*v))));
  for (auto& [name, child] : children(m)) state_dict_into(child, prefix + name + ".", out);
}

}  // namespace

Tensor linear_apply(const Tensor& x, const Tensor& w, const Tensor* bias) {
  Tensor y = core::matmul(x, core::t(w));
  if (bias && x.dim() == 3 && x.is_contiguous()) {
    // aten::linear's flattened addmm: (B*T, out) + bias, viewed back. Its backward reshapes the
    // incoming gradient to (B*T, out) (a contiguous copy when the strides do not allow a view)
    // before the bias's sum over rows, which decides the order of that sum.
    const core::Shape shape = y.shape();
    y = core::view(core::binary(core::BinOp::add, core::reshape(y, {-1, shape[2]}), *bias), shape);
  } else if (bias) {
    y = core::binary(core::BinOp::add, y, *bias);
  }
  const char* name = !bias ? (x.dim() == 1 ? "SqueezeBackward3" : x.dim() == 2 ? "MmBackward0" : "UnsafeViewBackward0")
                           : (x.dim() == 2 ? "AddmmBackward0" : x.dim() == 3 && x.is_contiguous() ? "ViewBackward0" : "AddBackward0");
  core::autograd::rename(y, name);   // the gradient flows through matmul and add; the name is PyTorch's
  return y;
}

bool is_module(const Value& v) { return v.kind == Value::Instance && inst(v).cls->is_module; }

std::vector<std::pair<std::string, Value>> children(const Value& m) {
  std::vector<std::pair<std::string, Value>> out;
  const Value* names = inst(m).find("_module_names");
  for (auto& [name, v] : inst(m).attrs) {
    if (is_module(v)) out.emplace_back(name, v);
    if (name == "_modules") {
      const auto& mods = as_seq(v);
      for (size_t k = 0; k < mods.size(); ++k)
        out.emplace_back(names && k < as_seq(*names).size() ? as_seq(*names)[k].s : std::to_string(k), mods[k]);
    }
  }
  return out;
}

std::vector<std::pair<std::string, Value>> named_parameters(const Value& m, bool recurse) {
  std::vector<std::pair<std::string, Value>> out;
  std::vector<const Obj*> seen;
  named_parameters_into(m, "", recurse, out, seen);
  return out;
}

// torch/nn/modules/module.py Module.__repr__ (1.13: every child printed, no "2 x" collapsing).
std::string module_tree_repr(const Value& m, const std::string& extra) {
  std::string out = inst(m).cls->name + "(" + extra;
  const auto kids = children(m);
  for (auto& [name, child] : kids) {
    std::string r = repr(child), ind;
    for (char ch : r) ind += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
    out += "\n  (" + name + "): " + ind;
  }
  return out + (kids.empty() ? ")" : "\n)");
}

void add_nn_modules(NamespaceObj& nn) {
  auto module = module_class("Module", nullptr);
  nn.names["Module"] = class_value(module);
  nn.names["Parameter"] = builtin("torch.nn.Parameter", [](Interpreter&, CallArgs& a) {
    Args b = bind_self(sig("Parameter.__new__"), Value::none(), a);
    const Value& data = b.get("data");
    bool requires_grad = b.flag("requires_grad");
    done(b);
    Value p = make_parameter(data.is_none() ? core::zeros({0}) : as_tensor(data));
    as_tensor(p).set_requires_grad(requires_grad);
    return p;
  });
  auto linear = module_class("Linear", module);
  linear->native_init = linear_init;
  linear->native_forward = linear_forward;
  linear->native_repr = linear_repr;
  nn.names["Linear"] = class_value(linear);
  auto emb = module_class("Embedding", module);
  emb->native_init = embedding_init;
  emb->native_forward = embedding_forward;
  emb->native_repr = embedding_repr;
  nn.names["Embedding"] = class_value(emb);
  auto drop = module_class("Dropout", module);
  drop->native_init = dropout_init;
  drop->native_forward = dropout_forward;
  drop->native_repr = [](const Value& s) {
    return "Dropout(p=" + repr(*inst(s).find("p")) + ", inplace=" + repr(*inst(s).find("inplace")) + ")";
  };
  nn.names["Dropout"] = class_value(drop);
  auto mse = module_class("MSELoss", module);
  mse->native_init = mseloss_init;
  mse->native_forward = mseloss_forward;
  mse->native_repr = [](const Value&) { return std::string("MSELoss()"); };
  nn.names["MSELoss"] = class_value(mse);
  auto list = module_class("ModuleList", module);
  list->native_init = modulelist_init;
  list->native_repr = [](const Value& s) { return module_tree_repr(s, ""); };
  nn.names["ModuleList"] = class_value(list);
  add_nn_layers(nn, module);
  add_nn_init(nn);
  add_nn_attention(nn, module);
}

Value instance_attribute(Interpreter& in, const Value& self, const std::string& name) {
  InstanceObj& o = inst(self);
  if (Value* v = o.find(name)) return *v;
  if (const Value* m = o.cls->find_method(name)) {
    Value method = *m;
    return builtin(o.cls->name + "." + name, [self, method](Interpreter& inner, CallArgs& a) {
      CallArgs b = a;
      b.pos.insert(b.pos.begin(), self);
      return inner.call(method, b);
    });
  }
  if (name == "forward")
    for (auto c = o.cls; c; c = c->bases.empty() ? nullptr : c->bases.front())
      if (c->native_forward)
        return builtin(o.cls->name + ".forward", [self, c](Interpreter& inner, CallArgs& a) {
          Value s = self;
          return c->native_forward(inner, s, a);
        });
  if (name == "training") return Value::boolean(o.training);
  if (name == "parameters")
    return builtin("Module.parameters", [self](Interpreter&, CallArgs& a) {
      Args b = bind_self(sig("Module.parameters"), self, a);
      bool recurse = b.flag("recurse");
      done(b);
      std::vector<Value> out;
      for (auto& [n, p] : named_parameters(self, recurse)) out.push_back(p);
      return Value::list(out);
    });
  if (name == "named_parameters")
    return builtin("Module.named_parameters", [self](Interpreter&, CallArgs& a) {
      Args b = bind_self(sig("Module.named_parameters"), self, a);
      const std::string prefix = str(b.get("prefix"));
      bool recurse = b.flag("recurse");
      done(b);
      std::vector<Value> out;
      for (auto& [n, p] : named_parameters(self, recurse))
        out.push_back(Value::tuple({Value::str(prefix.empty() ? n : prefix + "." + n), p}));
      return Value::list(out);
    });
  if (name == "state_dict")
    return builtin("Module.state_dict", [self](Interpreter&, CallArgs& a) {
      Args b = bind_self(sig("Module.state_dict"), self, a);
      done(b);
      auto d = std::make_shared<DictObj>();
      d->ordered = true;
      state_dict_into(self, "", *d);
      Value v;
      v.kind = Value::Dict;
      v.obj = d;
      return v;
    });
  if (name == "register_parameter")
    return builtin("Module.register_parameter", [self](Interpreter&, CallArgs& a) {
      Args b = bind_self(sig("Module.register_parameter"), self, a);
      const Value& n = b.get("name");
      Value p = b.get("param");
      done(b);
      if (n.kind != Value::Str) throw TypeError("parameter name should be a string. Got " + type_name(n));
      if (n.s.find('.') != std::string::npos) throw KeyError(Value::str("parameter name can't contain \".\""));
      if (n.s.empty()) throw KeyError(Value::str("parameter name can't be empty string \"\""));
      if (!p.is_none() && !(p.kind == Value::Tensor && as_tensor(p).is_parameter()))
        throw TypeError("cannot assign '" + py_typename(p) + "' object to parameter '" + n.s +
                                 "' (torch.nn.Parameter or None required)");
      inst(self).set(n.s, p);
      return Value::none();
    });
  if (name == "to" || name == "cpu")   // the CPU is the only device: the module itself, as PyTorch returns it
    return builtin("Module." + name, [self, name](Interpreter&, CallArgs& a) {
      Args b = bind_self(sig(name == "to" ? "Module.to" : "Module.cpu"), self, a);
      if (name == "to") {
        const Value& d = b.get("device");
        if (!d.is_none() && d.kind == Value::Dtype) {
          if (dtype_of(d) != core::DType::float32) b.unsupported("device", "attn's parameters are float32");
        } else if (!d.is_none() && !is_cpu_device(d)) {
          throw NotImplementedError("Module.to(): attn computes on the CPU only, not device=" + repr(d));
        }
        float32_only(b);
        b.get("non_blocking");
      }
      done(b);
      return self;
    });
  if (name == "eval")
    return builtin("Module.eval", [self](Interpreter&, CallArgs& a) {
      done(bind_self(sig("Module.eval"), self, a));
      set_training(self, false);
      return self;
    });
  if (name == "train")
    return builtin("Module.train", [self](Interpreter&, CallArgs& a) {
      Args b = bind_self(sig("Module.train"), self, a);
      bool mode = b.flag("mode");
      done(b);
      set_training(self, mode);
      return self;
    });
  if (name == "register_buffer")
    return builtin("Module.register_buffer", [self](Interpreter&, CallArgs& a) {
      Args b = bind_self(sig("Module.register_buffer"), self, a);
      std::string n = str(b.get("name"));
      Value t = b.get("tensor");
      const bool persistent = b.flag("persistent");   // whether state_dict() saves it
      done(b);
      inst(self).set(n, t);
      if (persistent) {   // the names state_dict() saves, in registration order (not shown by repr)
        Value* names = inst(self).find("_state_buffers");
        if (!names) {
          inst(self).set("_state_buffers", Value::list({}));
          names = inst(self).find("_state_buffers");
        }
        auto& items = as_seq(*names);
        if (std::none_of(items.begin(), items.end(), [&](const Value& x) { return x.s == n; })) items.push_back(Value::str(n));
      }
      return Value::none();
    });
  (void)in;
  throw AttributeError("'" + o.cls->name + "' object has no attribute '" + name + "'");
}

}  // namespace attn::py
