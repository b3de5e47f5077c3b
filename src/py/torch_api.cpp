// py/torch_api.cpp: the `torch` names lesson cells call, and the methods of a Tensor.
//
// What it is: thin adapters from Python call conventions (positional/keyword arguments,
// `*size` or a tuple) to core:: operations, with PyTorch's argument names.
// What it is not: numerics; every number is computed in core/.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/random.h"
#include "py/interpreter.h"

namespace attn::py {

namespace {

using core::Tensor;

// torch.rand(2, 3) / torch.rand((2, 3)) / torch.rand(size=(2, 3)).
core::Shape size_args(CallArgs& a) {
  std::vector<Value> dims = a.pos;
  if (dims.size() == 1 && (dims[0].kind == Value::Tuple || dims[0].kind == Value::List || dims[0].kind == Value::Size)) dims = as_seq(dims[0]);
  if (dims.empty())
    if (const Value* s = find_arg(a, 99, "size")) dims = as_seq(*s);
  core::Shape shape;
  for (const Value& d : dims) {
    int64_t n = to_int(d, "size");
    if (n < 0) throw std::runtime_error(fmt::format("RuntimeError: Trying to create tensor with negative dimension {}", n));
    shape.push_back(n);
  }
  if (core::numel_of(shape) > 50'000'000) throw std::runtime_error("RuntimeError: tensor too large for a lesson (over 50 million elements)");
  return shape;
}

int64_t dim_arg(CallArgs& a, size_t k, const char* fn) {
  const Value* d = find_arg(a, k, "dim");
  if (!d || d->is_none()) throw std::runtime_error(std::string("TypeError: ") + fn + "() missing required argument 'dim'");
  return to_int(*d, "dim");
}

// Nested Python lists of numbers -> tensor (float32 if any float, bool if all bools, else int64).
void flatten(const Value& v, core::Shape& shape, size_t depth, std::vector<double>& out, bool& any_float, bool& all_bool) {
  if (v.kind == Value::List || v.kind == Value::Tuple) {
    auto& items = as_seq(v);
    if (shape.size() <= depth) shape.push_back(static_cast<int64_t>(items.size()));
    else if (shape[depth] != static_cast<int64_t>(items.size()))
      throw std::runtime_error(fmt::format("ValueError: expected sequence of length {} at dim {} (got {})", shape[depth], depth, items.size()));
    for (const Value& x : items) flatten(x, shape, depth + 1, out, any_float, all_bool);
    return;
  }
  if (v.kind == Value::Tensor && as_tensor(v).numel() == 1) {
    any_float = any_float || as_tensor(v).is_float();
    all_bool = false;
    out.push_back(as_tensor(v).at(0));
    return;
  }
  if (!v.is_number()) throw std::runtime_error("TypeError: torch.tensor() takes numbers or nested lists of numbers, not " + type_name(v));
  any_float = any_float || v.kind == Value::Float;
  all_bool = all_bool && v.kind == Value::Bool;
  out.push_back(to_double(v, "value"));
}

Value tensor_fn(Interpreter&, CallArgs& a) {
  Value data = arg(a, 0, "data");
  if (data.kind == Value::Tensor) return Value::tensor(core::detach(as_tensor(data)));
  core::Shape shape;
  std::vector<double> vals;
  bool any_float = false, all_bool = true;
  flatten(data, shape, 0, vals, any_float, all_bool);
  if (vals.empty()) all_bool = false;
  Value dt = arg_or(a, 99, "dtype", Value::none());
  if (!dt.is_none()) any_float = dt.s == "torch.float32";
  if (any_float) {
    std::vector<float> f(vals.begin(), vals.end());
    return Value::tensor(core::from_floats(shape, f));
  }
  std::vector<int64_t> i;
  for (double x : vals) i.push_back(static_cast<int64_t>(x));
  return Value::tensor(core::from_ints(shape, i, all_bool ? core::DType::boolean : core::DType::int64));
}

Value manual_seed_fn(Interpreter& in, CallArgs& a) {
  Value s = arg(a, 0, "seed");
  if (s.kind != Value::Int) throw std::runtime_error("TypeError: manual_seed expected an int, got " + type_name(s));
  in.generator.manual_seed(static_cast<uint64_t>(s.i));   // negative seeds wrap as in PyTorch
  return Value::none();
}

Value softmax_fn(Interpreter&, CallArgs& a) {
  return Value::tensor(core::softmax(as_tensor(arg(a, 0, "input")), dim_arg(a, 1, "softmax")));
}

std::vector<Tensor> tensor_list(Interpreter& in, const Value& v) {
  std::vector<Tensor> out;
  for (const Value& x : in.iterate(v)) out.push_back(as_tensor(x));
  return out;
}

Value sum_method(const Tensor& t, CallArgs& a) {
  const Value* d = find_arg(a, 0, "dim");
  bool keepdim = truthy(arg_or(a, 1, "keepdim", Value::boolean(false)));
  if (!d || d->is_none()) return Value::tensor(core::sum(t));
  return Value::tensor(core::sum(t, to_int(*d, "dim"), keepdim));
}

Value allclose_fn(Interpreter&, CallArgs& a) {
  const Tensor &x = as_tensor(arg(a, 0, "input")), &y = as_tensor(arg(a, 1, "other"));
  double rtol = to_double(arg_or(a, 2, "rtol", Value::number(1e-5)), "rtol");
  double atol = to_double(arg_or(a, 3, "atol", Value::number(1e-8)), "atol");
  Tensor diff = core::binary(core::BinOp::sub, x, y);   // broadcasts, raises on mismatch
  Tensor yb = core::binary(core::BinOp::add, core::zeros(diff.shape), core::to_float(y));
  for (int64_t k = 0; k < diff.numel(); ++k)
    if (!(std::fabs(diff.f[k]) <= atol + rtol * std::fabs(yb.f[k]))) return Value::boolean(false);
  return Value::boolean(true);
}

Value ns_value(std::shared_ptr<NamespaceObj> ns, const std::string& name) {
  Value v;
  v.kind = Value::Namespace;
  v.s = name;
  v.obj = std::move(ns);
  return v;
}

void add_creation(NamespaceObj& t) {
  t.names["tensor"] = builtin("torch.tensor", tensor_fn);
  t.names["manual_seed"] = builtin("torch.manual_seed", manual_seed_fn);
  t.names["rand"] = builtin("torch.rand", [](Interpreter& in, CallArgs& a) { return Value::tensor(core::rand(in.generator, size_args(a))); });
  t.names["randn"] = builtin("torch.randn", [](Interpreter& in, CallArgs& a) { return Value::tensor(core::randn(in.generator, size_args(a))); });
  t.names["ones"] = builtin("torch.ones", [](Interpreter&, CallArgs& a) { return Value::tensor(core::ones(size_args(a))); });
  t.names["zeros"] = builtin("torch.zeros", [](Interpreter&, CallArgs& a) { return Value::tensor(core::zeros(size_args(a))); });
  t.names["empty"] = builtin("torch.empty", [](Interpreter&, CallArgs& a) { return Value::tensor(core::zeros(size_args(a))); });
  t.names["arange"] = builtin("torch.arange", [](Interpreter&, CallArgs& a) { return Value::tensor(core::arange(to_int(arg(a, 0, "end"), "end"))); });
}

void add_math(NamespaceObj& t) {
  t.names["softmax"] = builtin("torch.softmax", softmax_fn);
  t.names["tril"] = builtin("torch.tril", [](Interpreter&, CallArgs& a) {
    return Value::tensor(core::tril(as_tensor(arg(a, 0, "input")), to_int(arg_or(a, 1, "diagonal", Value::integer(0)), "diagonal")));
  });
  t.names["triu"] = builtin("torch.triu", [](Interpreter&, CallArgs& a) {
    return Value::tensor(core::triu(as_tensor(arg(a, 0, "input")), to_int(arg_or(a, 1, "diagonal", Value::integer(0)), "diagonal")));
  });
  t.names["cat"] = builtin("torch.cat", [](Interpreter& in, CallArgs& a) {
    return Value::tensor(core::cat(tensor_list(in, arg(a, 0, "tensors")), to_int(arg_or(a, 1, "dim", Value::integer(0)), "dim")));
  });
  t.names["stack"] = builtin("torch.stack", [](Interpreter& in, CallArgs& a) {
    return Value::tensor(core::stack(tensor_list(in, arg(a, 0, "tensors")), to_int(arg_or(a, 1, "dim", Value::integer(0)), "dim")));
  });
  t.names["dot"] = builtin("torch.dot", [](Interpreter&, CallArgs& a) { return Value::tensor(core::dot(as_tensor(arg(a, 0, "input")), as_tensor(arg(a, 1, "other")))); });
  t.names["matmul"] = builtin("torch.matmul", [](Interpreter&, CallArgs& a) { return Value::tensor(core::matmul(as_tensor(arg(a, 0, "input")), as_tensor(arg(a, 1, "other")))); });
  t.names["exp"] = builtin("torch.exp", [](Interpreter&, CallArgs& a) { return Value::tensor(core::exp(as_tensor(arg(a, 0, "input")))); });
  t.names["sum"] = builtin("torch.sum", [](Interpreter&, CallArgs& a) {
    CallArgs rest = a;
    rest.pos.erase(rest.pos.begin());
    return sum_method(as_tensor(arg(a, 0, "input")), rest);
  });
  t.names["allclose"] = builtin("torch.allclose", allclose_fn);
}

Value var_like(const Tensor& t, CallArgs& a, bool take_sqrt) {
  const Value* d = find_arg(a, 0, "dim");
  bool unbiased = truthy(arg_or(a, 1, "unbiased", Value::boolean(true)));
  bool keepdim = truthy(arg_or(a, 2, "keepdim", Value::boolean(false)));
  Tensor v = (!d || d->is_none()) ? core::var(t, unbiased) : core::var(t, to_int(*d, "dim"), unbiased, keepdim);
  if (!take_sqrt) return Value::tensor(v);
  Tensor s = core::unary(v, "sqrt");
  return Value::tensor(core::with_grad(s, {&t}, "StdBackward0"));
}

Tensor as_tensor_or_scalar(const Value& v) {
  return v.kind == Value::Tensor ? as_tensor(v) : core::scalar(static_cast<float>(to_double(v, "value")));
}

void add_concepts(NamespaceObj& t) {
  t.names["einsum"] = builtin("torch.einsum", [](Interpreter& in, CallArgs& a) {
    std::string eq = str(arg(a, 0, "equation"));
    std::vector<Tensor> ops;
    for (size_t k = 1; k < a.pos.size(); ++k) {
      if (a.pos[k].kind == Value::List || a.pos[k].kind == Value::Tuple) {
        for (const Tensor& x : tensor_list(in, a.pos[k])) ops.push_back(x);
      } else {
        ops.push_back(as_tensor(a.pos[k]));
      }
    }
    return Value::tensor(core::einsum(eq, ops));
  });
  t.names["var"] = builtin("torch.var", [](Interpreter&, CallArgs& a) {
    CallArgs rest = a;
    rest.pos.erase(rest.pos.begin());
    return var_like(as_tensor(arg(a, 0, "input")), rest, false);
  });
  t.names["std"] = builtin("torch.std", [](Interpreter&, CallArgs& a) {
    CallArgs rest = a;
    rest.pos.erase(rest.pos.begin());
    return var_like(as_tensor(arg(a, 0, "input")), rest, true);
  });
  t.names["where"] = builtin("torch.where", [](Interpreter&, CallArgs& a) {
    return Value::tensor(core::where(as_tensor(arg(a, 0, "condition")), as_tensor_or_scalar(arg(a, 1, "input")),
                                     as_tensor_or_scalar(arg(a, 2, "other"))));
  });
  t.names["isnan"] = builtin("torch.isnan", [](Interpreter&, CallArgs& a) { return Value::tensor(core::isnan(as_tensor(arg(a, 0, "input")))); });
  t.names["isinf"] = builtin("torch.isinf", [](Interpreter&, CallArgs& a) { return Value::tensor(core::isinf(as_tensor(arg(a, 0, "input")))); });
  t.names["sqrt"] = builtin("torch.sqrt", [](Interpreter&, CallArgs& a) { return Value::tensor(core::unary(as_tensor(arg(a, 0, "input")), "sqrt")); });
  t.names["abs"] = builtin("torch.abs", [](Interpreter&, CallArgs& a) { return Value::tensor(core::unary(as_tensor(arg(a, 0, "input")), "abs")); });
  t.names["full"] = builtin("torch.full", [](Interpreter&, CallArgs& a) {
    CallArgs size;
    size.pos.push_back(arg(a, 0, "size"));
    return Value::tensor(core::full(size_args(size), static_cast<float>(to_double(arg(a, 1, "fill_value"), "fill_value"))));
  });
  t.names["zeros_like"] = builtin("torch.zeros_like", [](Interpreter&, CallArgs& a) { return Value::tensor(core::zeros(as_tensor(arg(a, 0, "input")).shape)); });
  t.names["ones_like"] = builtin("torch.ones_like", [](Interpreter&, CallArgs& a) { return Value::tensor(core::ones(as_tensor(arg(a, 0, "input")).shape)); });
  t.names["repeat_interleave"] = builtin("torch.repeat_interleave", [](Interpreter&, CallArgs& a) {
    const Tensor& x = as_tensor(arg(a, 0, "input"));
    int64_t repeats = to_int(arg(a, 1, "repeats"), "repeats");
    const Value* d = find_arg(a, 2, "dim");
    if (!d || d->is_none()) return Value::tensor(core::repeat_interleave(core::view(x, {-1}), repeats, 0));   // flattened
    return Value::tensor(core::repeat_interleave(x, repeats, to_int(*d, "dim")));
  });
  t.names["arange"] = builtin("torch.arange", [](Interpreter&, CallArgs& a) {
    if (a.pos.size() <= 1) return Value::tensor(core::arange(to_int(arg(a, 0, "end"), "end")));
    int64_t start = to_int(a.pos[0], "start"), end = to_int(a.pos[1], "end"), step = a.pos.size() > 2 ? to_int(a.pos[2], "step") : 1;
    if (step == 0) throw std::runtime_error("RuntimeError: step must be nonzero");
    std::vector<int64_t> v;
    for (int64_t x = start; step > 0 ? x < end : x > end; x += step) v.push_back(x);
    return Value::tensor(core::from_ints({static_cast<int64_t>(v.size())}, v));
  });
  t.names["equal"] = builtin("torch.equal", [](Interpreter&, CallArgs& a) {
    return Value::boolean(core::equal(as_tensor(arg(a, 0, "input")), as_tensor(arg(a, 1, "other"))));
  });
  t.names["amax"] = builtin("torch.amax", [](Interpreter&, CallArgs& a) {
    return Value::tensor(core::amax(as_tensor(arg(a, 0, "input")), to_int(arg(a, 1, "dim"), "dim"),
                                    truthy(arg_or(a, 2, "keepdim", Value::boolean(false)))));
  });
  t.names["permute"] = builtin("torch.permute", [](Interpreter& in, CallArgs& a) {
    core::Shape dims;
    for (const Value& d : in.iterate(arg(a, 1, "dims"))) dims.push_back(to_int(d, "dims"));
    return Value::tensor(core::permute(as_tensor(arg(a, 0, "input")), dims));
  });
  t.names["mean"] = builtin("torch.mean", [](Interpreter& in, CallArgs& a) {
    CallArgs rest = a;
    rest.pos.erase(rest.pos.begin());
    return in.call(tensor_attribute(in, arg(a, 0, "input"), "mean"), rest);
  });
}

}  // namespace

Value var_method(const core::Tensor& t, CallArgs& a, bool take_sqrt) { return var_like(t, a, take_sqrt); }

Value make_torch_namespace() {
  auto t = std::make_shared<NamespaceObj>();
  add_creation(*t);
  add_math(*t);
  add_concepts(*t);
  t->names["inf"] = Value::number(std::numeric_limits<double>::infinity());
  t->names["nan"] = Value::number(std::numeric_limits<double>::quiet_NaN());
  t->names["float32"] = t->names["float"] = Value::dtype("torch.float32");
  t->names["int64"] = t->names["long"] = Value::dtype("torch.int64");
  t->names["bool"] = Value::dtype("torch.bool");
  t->names["__version__"] = Value::str("1.13.1");
  auto nn = std::make_shared<NamespaceObj>();
  add_nn_modules(*nn);
  auto functional = std::make_shared<NamespaceObj>();
  functional->names["softmax"] = builtin("torch.nn.functional.softmax", softmax_fn);
  // nn.Softmax(dim=1): a callable that applies softmax along dim, as the module's forward does.
  nn->names["Softmax"] = builtin("torch.nn.Softmax", [](Interpreter&, CallArgs& a) {
    int64_t dim = dim_arg(a, 0, "Softmax");
    return builtin(fmt::format("Softmax(dim={})", dim), [dim](Interpreter&, CallArgs& b) {
      return Value::tensor(core::softmax(as_tensor(arg(b, 0, "input")), dim));
    });
  });
  nn->names["functional"] = ns_value(functional, "torch.nn.functional");
  t->names["nn"] = ns_value(nn, "torch.nn");
  auto math = std::make_shared<NamespaceObj>();
  math->names["sqrt"] = builtin("math.sqrt", [](Interpreter&, CallArgs& a) { return Value::number(std::sqrt(to_double(arg(a, 0, "x"), "x"))); });
  math->names["pi"] = Value::number(M_PI);
  math->names["inf"] = Value::number(std::numeric_limits<double>::infinity());
  math->names["exp"] = builtin("math.exp", [](Interpreter&, CallArgs& a) { return Value::number(std::exp(to_double(arg(a, 0, "x"), "x"))); });
  math->names["log"] = builtin("math.log", [](Interpreter&, CallArgs& a) { return Value::number(std::log(to_double(arg(a, 0, "x"), "x"))); });
  t->names["__math__"] = ns_value(math, "math");
  return ns_value(t, "torch");
}

}  // namespace attn::py
