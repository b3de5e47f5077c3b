// py/nn_modules.cpp: torch.nn for lesson cells: Module (the base of the articles' own
// classes), Parameter, Embedding, Linear, Dropout, ModuleList, and attribute lookup on instances.
//
// What it is: modules that draw their random numbers in PyTorch's order (core/random.cpp) and
// compute forward passes with core:: ops, plus the Module machinery user classes rely on
// (parameters() order, register_buffer, train/eval, module(x) -> forward(x)).
// What it is not: autograd or optimisers; no gradient is ever computed.
#include <fmt/format.h>

#include "core/random.h"
#include "py/interpreter.h"

namespace attn::py {

namespace {

using core::Tensor;

InstanceObj& inst(const Value& v) { return *static_cast<InstanceObj*>(v.obj.get()); }

Value make_parameter(Tensor t) {
  t.requires_grad = true;
  t.is_parameter = true;
  t.grad_fn.clear();
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

int64_t positive(const Value& v, const char* what) {
  int64_t n = to_int(v, what);
  if (n <= 0) throw std::runtime_error(fmt::format("ValueError: {} must be a positive integer, got {}", what, n));
  return n;
}

// ---- Linear ----

void linear_init(Interpreter& in, Value& self, CallArgs& a) {
  int64_t fin = positive(arg(a, 0, "in_features"), "in_features"), fout = positive(arg(a, 1, "out_features"), "out_features");
  bool bias = truthy(arg_or(a, 2, "bias", Value::boolean(true)));
  core::LinearParams p = core::linear_init(in.generator, fin, fout, bias);
  inst(self).set("in_features", Value::integer(fin));
  inst(self).set("out_features", Value::integer(fout));
  inst(self).set("weight", make_parameter(p.weight));
  inst(self).set("bias", bias ? make_parameter(p.bias) : Value::none());
}

// x @ W.T (+ b), with the grad_fn PyTorch 1.13 records for each input rank (pytorch-facts §4).
Value linear_forward(Interpreter&, Value& self, CallArgs& a) {
  Tensor x = as_tensor(arg(a, 0, "input"));
  const Tensor& w = as_tensor(*inst(self).find("weight"));
  Value bias = *inst(self).find("bias");
  Tensor y = core::matmul(x, core::t(w));
  if (!bias.is_none()) y = core::binary(core::BinOp::add, y, as_tensor(bias));
  const char* name = bias.is_none() ? (x.dim() == 1 ? "SqueezeBackward3" : x.dim() == 2 ? "MmBackward0" : "UnsafeViewBackward0")
                                    : (x.dim() == 1 ? "AddBackward0" : x.dim() == 2 ? "AddmmBackward0" : "ViewBackward0");
  return Value::tensor(core::with_grad(y, {&x, &w}, name));
}

std::string linear_repr(const Value& self) {
  return fmt::format("Linear(in_features={}, out_features={}, bias={})", inst(self).find("in_features")->i,
                     inst(self).find("out_features")->i, inst(self).find("bias")->is_none() ? "False" : "True");
}

// ---- Embedding, Dropout, ModuleList ----

void embedding_init(Interpreter& in, Value& self, CallArgs& a) {
  int64_t num = positive(arg(a, 0, "num_embeddings"), "num_embeddings"), dim = positive(arg(a, 1, "embedding_dim"), "embedding_dim");
  if (num * dim > 50'000'000) throw std::runtime_error("RuntimeError: embedding too large for a lesson (over 50 million weights)");
  inst(self).set("num_embeddings", Value::integer(num));
  inst(self).set("embedding_dim", Value::integer(dim));
  inst(self).set("weight", make_parameter(core::embedding_weight(in.generator, num, dim)));
}

Value embedding_forward(Interpreter&, Value& self, CallArgs& a) {
  return Value::tensor(core::index_select_rows(as_tensor(*inst(self).find("weight")), as_tensor(arg(a, 0, "input"))));
}

void dropout_init(Interpreter&, Value& self, CallArgs& a) {
  double p = to_double(arg_or(a, 0, "p", Value::number(0.5)), "p");
  if (p < 0.0 || p > 1.0) throw std::runtime_error(fmt::format("ValueError: dropout probability has to be between 0 and 1, but got {}", p));
  inst(self).set("p", Value::number(p));
}

Value dropout_forward(Interpreter& in, Value& self, CallArgs& a) {
  Value x = arg(a, 0, "input");
  if (!inst(self).training) return x;
  return Value::tensor(core::dropout(in.generator, as_tensor(x), inst(self).find("p")->f, in.dropout_rng));
}

void modulelist_init(Interpreter& in, Value& self, CallArgs& a) {
  std::vector<Value> mods = a.pos.empty() ? std::vector<Value>{} : in.iterate(a.pos[0]);
  inst(self).set("_modules", Value::list(mods));
}

std::string modulelist_repr(const Value& self) {
  std::string out = "ModuleList(";
  auto& mods = as_seq(*inst(self).find("_modules"));
  for (size_t k = 0; k < mods.size(); ++k) {
    std::string r = repr(mods[k]), ind;
    for (char ch : r) ind += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
    out += fmt::format("\n  ({}): {}", k, ind);
  }
  return out + (mods.empty() ? ")" : "\n)");
}

// parameters(): own parameters in registration order, then each child's, depth first.
void collect_parameters(const Value& m, std::vector<Value>& out) {
  for (auto& [name, v] : inst(m).attrs)
    if (v.kind == Value::Tensor && as_tensor(v).is_parameter) out.push_back(v);
  for (auto& [name, v] : inst(m).attrs) {
    if (v.kind == Value::Instance) collect_parameters(v, out);
    if (name == "_modules")
      for (const Value& c : as_seq(v)) collect_parameters(c, out);
  }
}

void set_training(const Value& m, bool on) {
  inst(m).training = on;
  for (auto& [name, v] : inst(m).attrs) {
    if (v.kind == Value::Instance) set_training(v, on);
    if (name == "_modules")
      for (const Value& c : as_seq(v)) set_training(c, on);
  }
}

}  // namespace

void add_nn_modules(NamespaceObj& nn) {
  auto module = module_class("Module", nullptr);
  nn.names["Module"] = class_value(module);
  nn.names["Parameter"] = builtin("torch.nn.Parameter", [](Interpreter&, CallArgs& a) {
    Value p = make_parameter(as_tensor(arg(a, 0, "data")));
    as_tensor(p).requires_grad = truthy(arg_or(a, 1, "requires_grad", Value::boolean(true)));
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
  emb->native_repr = [](const Value& s) { return fmt::format("Embedding({}, {})", inst(s).find("num_embeddings")->i, inst(s).find("embedding_dim")->i); };
  nn.names["Embedding"] = class_value(emb);
  auto drop = module_class("Dropout", module);
  drop->native_init = dropout_init;
  drop->native_forward = dropout_forward;
  drop->native_repr = [](const Value& s) { return "Dropout(p=" + repr(*inst(s).find("p")) + ", inplace=False)"; };
  nn.names["Dropout"] = class_value(drop);
  auto list = module_class("ModuleList", module);
  list->native_init = modulelist_init;
  list->native_repr = modulelist_repr;
  nn.names["ModuleList"] = class_value(list);
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
    return builtin("Module.parameters", [self](Interpreter&, CallArgs&) {
      std::vector<Value> out;
      collect_parameters(self, out);
      return Value::list(out);
    });
  if (name == "eval" || name == "train")
    return builtin("Module." + name, [self, name](Interpreter&, CallArgs& a) {
      set_training(self, name == "train" && truthy(arg_or(a, 0, "mode", Value::boolean(true))));
      return self;
    });
  if (name == "register_buffer")
    return builtin("Module.register_buffer", [self](Interpreter&, CallArgs& a) {
      inst(self).set(str(arg(a, 0, "name")), arg(a, 1, "tensor"));
      return Value::none();
    });
  (void)in;
  throw std::runtime_error("AttributeError: '" + o.cls->name + "' object has no attribute '" + name + "'");
}

}  // namespace attn::py
