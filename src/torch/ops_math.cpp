// torch/ops_math.cpp: the rows of the op table that compute: softmax, sum, mean, prod, var, std, amax,
// argmax, exp, tanh, sigmoid, sigmoid_, reciprocal, log, erf, sin, cos, rsqrt, pow, sqrt, abs, isnan, isinf, dot, matmul, allclose, equal, where, einsum, tril,
// triu, masked_fill, masked_fill_, and torch.nn.functional.softmax, sigmoid, tanh.
//
// What it is: signatures as PyTorch 1.13's parser writes them, and adapters onto core/.
// What it is not: numerics; every number is computed in core/.
#include <fmt/format.h>

#include <cmath>

#include "core/ops.h"
#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::DType;
using core::Tensor;

Value softmax_fn(Interpreter& in, Args& a) {
  Tensor x = a.tensor("input");
  int64_t dim = a.integer("dim");
  if (std::optional<DType> d = a.dtype("dtype")) {   // softmax(x, dim, dtype=torch.float32) casts first
    if (*d != DType::float32) a.unsupported("dtype", "attn computes softmax in float32");
    x = cast(x, *d);
  }
  return tensor_value(core::softmax(x, dim, state(in).cpu));
}

// torch.nn.functional.softmax(input, dim=None): without dim, PyTorch's deprecated implicit choice
// (_get_softmax_dim: dim 0 for 0-, 1- and 3-d inputs, else 1).
Value functional_softmax_fn(Interpreter& in, Args& a) {
  Tensor x = a.tensor("input");
  std::optional<int64_t> dim = a.opt_integer("dim");
  a.get("_stacklevel");   // where PyTorch's deprecation warning points: nothing to compute
  if (!dim) dim = (x.dim() == 0 || x.dim() == 1 || x.dim() == 3) ? 0 : 1;
  if (std::optional<DType> d = a.dtype("dtype")) {
    if (*d != DType::float32) a.unsupported("dtype", "attn computes softmax in float32");
    x = cast(x, *d);
  }
  return tensor_value(core::softmax(x, *dim, state(in).cpu));
}

// keepdim over every dim: the same value, every dim kept with size 1 (grad_fn unchanged).
Tensor keep_all(const Tensor& r, const core::Shape& of) {
  const core::Shape ones(of.size(), 1);
  return core::make_view(r, ones, ones, r.offset());
}

Value sum_fn(Interpreter&, Args& a) {
  Tensor t = a.tensor("input");
  if (std::optional<DType> d = a.dtype("dtype")) {   // PyTorch casts the input to dtype first
    if (*d == DType::boolean) a.unsupported("dtype", "attn sums numbers");
    t = cast(t, *d);
  }
  // An integer sum is made in int64; with a narrower dtype= it wraps into it (the same bits:
  // sums and products wrap the same whichever width they were made in).
  auto in_dtype = [&a](Tensor r) { return a.dtype("dtype") && r.dtype() != *a.dtype("dtype") ? cast(r, *a.dtype("dtype")) : r; };
  if (a.overload() == 0) return tensor_value(in_dtype(core::sum(t)));
  const std::vector<int64_t> dims = a.ints("dim");
  bool keepdim = a.flag("keepdim");
  if (!dims.empty()) return tensor_value(in_dtype(core::sum(t, dims, keepdim)));
  Tensor r = core::sum(t);
  if (a.given("dim")) core::autograd::rename(r, "SumBackward1");   // sum(dim=None): 1.13's overload name
  return tensor_value(in_dtype(keepdim ? keep_all(r, t.shape()) : r));
}

Value mean_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  require_dtype(a, DType::float32);
  if (!t.is_float())
    throw RuntimeError(fmt::format("mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: {}",
                                   core::dtype_title(t.dtype())));
  const std::vector<int64_t> dims = a.overload() == 0 ? std::vector<int64_t>{} : a.ints("dim");
  bool keepdim = a.overload() == 0 ? false : a.flag("keepdim");
  if (!dims.empty()) return tensor_value(core::mean(t, dims, keepdim));
  Tensor r = core::mean(t);   // mean of all elements
  if (a.overload() == 1 && a.given("dim")) core::autograd::rename(r, "MeanBackward1");
  return tensor_value(keepdim ? keep_all(r, t.shape()) : r);
}

// prod(input, *, dtype) / prod(input, dim, keepdim=False, *, dtype): integers and bool multiply
// in int64, dtype=torch.bool as logical and.
Value prod_fn(Interpreter&, Args& a) {
  Tensor t = a.tensor("input");
  std::optional<DType> d = a.dtype("dtype");
  if (d) t = cast(t, *d);
  if (a.overload() == 2) a.unsupported("dim", "attn names no dims");
  Tensor r = a.overload() == 0 ? core::prod(t) : core::prod(t, a.integer("dim"), a.flag("keepdim"));
  return tensor_value(d && r.dtype() != *d ? cast(r, *d) : r);   // int64's product wrapped into an int8 dtype=, as torch's
}

// var/std overloads: (dim, *, correction, keepdim), (dim, unbiased, keepdim), (unbiased).
Value var_like(Args& a, bool take_sqrt) {
  const Tensor& t = a.tensor("input");
  int64_t correction = 1;
  bool keepdim = false;
  std::vector<int64_t> dims;
  if (a.overload() == 0) correction = a.opt_integer("correction").value_or(1);   // None: the default, 1
  else correction = a.flag("unbiased") ? 1 : 0;
  if (a.overload() != 2) {
    dims = a.ints("dim");
    keepdim = a.flag("keepdim");
  }
  if (dims.size() > 1) return tensor_value(core::var_std(t, dims, correction, keepdim, take_sqrt));
  const std::optional<int64_t> dim = dims.empty() ? std::nullopt : std::optional<int64_t>(dims[0]);
  return tensor_value(core::var_std(t, dim, correction, keepdim, take_sqrt));   // docs/pytorch-numerics.md §19
}

Value amax_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  bool keepdim = a.flag("keepdim");
  const std::vector<int64_t> dims = a.ints("dim");   // several dims, or every dim of a float tensor kept
  if (dims.size() > 1 || (dims.empty() && t.is_float())) return tensor_value(core::amax(t, dims, keepdim));
  std::optional<int64_t> dim = one_dim(a, "dim");
  if (dim) return tensor_value(core::amax(t, *dim, keepdim));
  Tensor r = core::amax(t);   // over every element
  return tensor_value(keepdim ? keep_all(r, t.shape()) : r);
}

Value argmax_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  std::optional<int64_t> dim = a.opt_integer("dim");
  bool keepdim = a.flag("keepdim");
  if (t.dtype() == DType::boolean && t.numel() > 0) throw RuntimeError("\"argmax_cpu\" not implemented for 'Bool'");
  if (dim) return tensor_value(core::argmax(t, *dim, keepdim));
  Tensor r = core::argmax(t);   // the index into the flattened tensor
  return tensor_value(keepdim ? keep_all(r, t.shape()) : r);
}

// 1.13's allclose: isclose(...).all().item(), so any dtype isclose takes.
Value allclose_fn(Interpreter& in, Args& a) {
  for (int64_t v : as_tensor(isclose_fn(in, a)).ints())
    if (v == 0) return Value::boolean(false);
  return Value::boolean(true);
}

// where's operand: a tensor, or a Python number as a 0-d tensor of its category (int64, float32, bool).
Tensor where_operand(const Value& v) {
  if (is_tensor(v)) return as_tensor(v);
  if (v.kind == Value::Float) return core::scalar(static_cast<float>(v.f));
  return core::from_ints({}, {py::to_int(v, "value")}, v.kind == Value::Bool ? DType::boolean : DType::int64);
}

// The dtype of where(c, x, y): result_type of the tensors; a number counts by its category only.
DType where_dtype(const Value& x, const Value& y, const Tensor& tx, const Tensor& ty) {
  if (is_tensor(x) == is_tensor(y)) return core::result_type(tx, ty);   // two tensors, or two numbers (both 0-d)
  return is_tensor(x) ? core::result_type(tx, ty.dtype()) : core::result_type(ty, tx.dtype());
}

}  // namespace

namespace {

// where(condition, input, other): overloads 1-4 differ only in which of input/other is a number
// (PyTorch names a number `self`).
Value where_fn(Interpreter& in, Args& a) {
  const Tensor& cond = a.tensor("condition");
  if (a.overload() == 0) {   // torch.where(condition) is condition.nonzero(as_tuple=True), any dtype
    CallArgs c;
    c.kw.emplace_back("as_tuple", Value::boolean(true));
    return in.call(in.getattr(a.get("condition"), "nonzero"), c);
  }
  const std::string& input = a.signature().params[1].name;
  const Value &x = a.get(input), &y = a.get("other");
  check_where_condition(in, cond);
  const Tensor tx = where_operand(x), ty = where_operand(y);
  return tensor_value(core::where(cond, tx, ty, where_dtype(x, y, tx, ty)));
}

Value einsum_fn(Interpreter& in, Args& a) {
  std::vector<Value> args = as_seq(a.get("args"));
  if (args.empty() || args[0].kind != Value::Str)
    throw ValueError("einsum(): must specify the equation string and at least one operand, "
                             "or at least one operand and its subscripts list");
  std::vector<Tensor> ops;
  for (size_t k = 1; k < args.size(); ++k) {
    if (args[k].kind == Value::List || args[k].kind == Value::Tuple) {
      for (const Value& x : in.iterate(args[k])) ops.push_back(as_tensor(x));
    } else {
      ops.push_back(as_tensor(args[k]));
    }
  }
  return tensor_value(core::einsum(args[0].s, ops));
}

// masked_fill's value: a number or a 0-d tensor.
// Whether masked_fill's value is a Python int or bool (an integer tensor takes it unrounded: -1 is
// 255 in uint8) rather than a float (checked against the dtype's range, then truncated).
bool integral_value(Args& a) {
  const Value& v = a.get("value");
  return is_tensor(v) ? !as_tensor(v).is_float() : v.kind != Value::Float;
}

float masked_fill_value(Args& a) {
  const Value& value = a.get("value");
  if (is_tensor(value) && as_tensor(value).dim() != 0)
    throw RuntimeError(fmt::format("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
                                         as_tensor(value).dim()));
  if (is_tensor(value) && as_tensor(value).requires_grad() && core::autograd::grad_enabled())
    throw NotImplementedError("attn does not implement the gradient of masked_fill's value tensor (MaskedFillBackward1); "
                              "pass value.item() or use torch.where(mask, value, input)");
  return static_cast<float>(to_double(value, "value"));
}

Tensor masked_fill(Interpreter& in, Args& a, const char* self) {
  const Tensor& t = a.tensor(self);
  const Tensor& mask = a.tensor("mask");
  warn_uint8_mask(in, mask);
  return core::masked_fill(t, mask, masked_fill_value(a), integral_value(a));
}

// Writes through self's storage: every name bound to it, and every view of it, sees the change.
// Under torch.no_grad() a leaf may be written and nothing is recorded, as in PyTorch.
Value masked_fill_inplace(Interpreter& in, Args& a) {
  Tensor& t = a.tensor("self");
  const Tensor& mask = a.tensor("mask");
  const float value = masked_fill_value(a);
  warn_uint8_mask(in, mask);
  core::autograd::in_place(t, false, [&](const Tensor& before) {
    core::masked_fill_(t, mask, value, integral_value(a));
    return core::autograd::record(t, {&before}, "MaskedFillBackward0", core::grad::masked_fill(mask));
  });
  return a.get("self");
}

Value unary(Args& a, Tensor (*f)(const Tensor&)) { return tensor_value(f(a.tensor("input"))); }

}  // namespace

void check_integer_power(const Tensor& base, const Value& exponent) {
  if (base.is_float() || (exponent.kind != Value::Int && exponent.kind != Value::Bool)) return;
  if (py::big_of(exponent).negative())
    throw py::error("RuntimeError", "Integers to negative integer powers are not allowed.");
}

namespace {

// pow(Tensor, Tensor) / pow(Scalar self, Tensor) / pow(Tensor, Scalar): docs/pytorch-numerics.md §13.
Value pow_fn(Interpreter& in, Args& a) {
  const size_t k = a.overload();
  if (k == 1) {
    const Value& self = a.get("self");
    const Tensor& e = a.tensor("exponent");
    if (!e.is_float() && self.kind != Value::Float)   // an integer base and exponent: integer powers (result_type)
      return tensor_value(core::pow(core::from_ints({}, {py::to_int(self, "self")}, self.kind == Value::Bool ? DType::boolean : DType::int64), e, state(in).cpu));
    return tensor_value(core::pow(to_double(self, "self"), e, state(in).cpu));
  }
  const Tensor& x = a.tensor(a.signature().params[0].name);
  if (k == 0) return tensor_value(core::pow(x, a.tensor("exponent"), state(in).cpu));
  check_integer_power(x, a.get("exponent"));
  return tensor_value(core::pow(x, to_double(a.get("exponent"), "exponent"), state(in).cpu));
}

// copy_ / fill_ / zero_: write through self's storage (every view sees it), recorded as PyTorch's
// in-place ops are (core::autograd::in_place): self's part of the gradient is zeros; copy_'s
// source gets the gradient (CopyBackwards), reduced to its shape by the engine.
Value write_in_place(Interpreter&, Args& a, const Tensor* src, const char* grad_fn, void (*write)(Tensor&, Args&)) {
  Tensor& t = a.tensor("self");
  core::autograd::in_place(t, src && src->requires_grad(), [&](const Tensor& before) {
    write(t, a);
    core::autograd::Backward backward{[](const core::autograd::Grads& g) {   // zeros_like(grad), grad
                                        return core::autograd::Grads{core::zeros(g[0]->shape()), g[0]};
                                      },
                                      false};
    if (src) return core::autograd::record(t, {&before, src}, grad_fn, std::move(backward));
    return core::autograd::record(t, {&before}, grad_fn, std::move(backward));
  });
  return a.get("self");
}

}  // namespace

void add_math_ops(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  rows.push_back({"softmax", both, {"softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)", "softmax(Tensor input, Dimname dim, *, ScalarType? dtype=None)"}, softmax_fn});
  rows.push_back({"nn.functional.softmax", kFunction, {"def softmax(input, dim=None, _stacklevel=3, dtype=None)"}, functional_softmax_fn});
  rows.push_back({"sum", both,
                  {"sum(Tensor input, *, ScalarType? dtype=None)",
                   "sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)",
                   "sum(Tensor input, DimnameList[1] dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)"},
                  sum_fn});
  rows.push_back({"mean", both,
                  {"mean(Tensor input, *, ScalarType? dtype=None)",
                   "mean(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)",
                   "mean(Tensor input, DimnameList[1] dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)"},
                  mean_fn});
  rows.push_back({"prod", both,
                  {"prod(Tensor input, *, ScalarType? dtype=None)",
                   "prod(Tensor input, int64_t dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)",
                   "prod(Tensor input, Dimname dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)"},
                  prod_fn});
  for (const char* name : {"var", "std"}) {
    std::string n = name;
    rows.push_back({n, both,
                    {n + "(Tensor input, IntArrayRef[1]? dim, *, int64_t? correction, bool keepdim=False, Tensor out=None)",
                     n + "(Tensor input, IntArrayRef[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor out=None)",
                     n + "(Tensor input, bool unbiased=True)",
                     n + "(Tensor input, DimnameList[1] dim, *, int64_t? correction, bool keepdim=False, Tensor out=None)",
                     n + "(Tensor input, DimnameList[1] dim, bool unbiased=True, bool keepdim=False, *, Tensor out=None)"},
                    n == "var" ? OpFn([](Interpreter&, Args& a) { return var_like(a, false); })
                               : OpFn([](Interpreter&, Args& a) { return var_like(a, true); })});
  }
  rows.push_back({"amax", both, {"amax(Tensor input, IntArrayRef[1] dim=None, bool keepdim=False, *, Tensor out=None)"}, amax_fn});
  rows.push_back({"argmax", both, {"argmax(Tensor input, int64_t? dim=None, bool keepdim=False, *, Tensor out=None)"}, argmax_fn});
  rows.push_back({"exp", both, {"exp(Tensor input, *, Tensor out=None)"}, [](Interpreter& in, Args& a) { return tensor_value(core::exp(a.tensor("input"), state(in).cpu)); }});
  rows.push_back({"tanh", both, {"tanh(Tensor input, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(core::tanh(a.tensor("input"), state(in).cpu)); }});
  rows.push_back({"sigmoid", both, {"sigmoid(Tensor input, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(core::sigmoid(a.tensor("input"), state(in).cpu)); }});
  rows.push_back({"sigmoid_", both, {"sigmoid_(Tensor input)"}, [](Interpreter& in, Args& a) {
                    const core::CpuKernels cpu = state(in).cpu;
                    return write_back(a.get("input"), [cpu](const Tensor& t) { return core::sigmoid(t, cpu); }, true);
                  }});
  // F.sigmoid and F.tanh: 1.13 warns that they are deprecated, then calls the method.
  rows.push_back({"nn.functional.sigmoid", kFunction, {"def sigmoid(input)"}, [](Interpreter& in, Args& a) {
                    user_warning(in, "nn.functional.sigmoid is deprecated. Use torch.sigmoid instead.");
                    return tensor_value(core::sigmoid(a.tensor("input"), state(in).cpu));
                  }});
  rows.push_back({"nn.functional.tanh", kFunction, {"def tanh(input)"}, [](Interpreter& in, Args& a) {
                    user_warning(in, "nn.functional.tanh is deprecated. Use torch.tanh instead.");
                    return tensor_value(core::tanh(a.tensor("input"), state(in).cpu));
                  }});
  rows.push_back({"reciprocal", both, {"reciprocal(Tensor input, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::reciprocal(a.tensor("input"))); }});
  rows.push_back({"log", both, {"log(Tensor input, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(core::log(a.tensor("input"), state(in).cpu)); }});
  rows.push_back({"erf", both, {"erf(Tensor input, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(core::erf(a.tensor("input"), state(in).cpu)); }});
  rows.push_back({"sin", both, {"sin(Tensor input, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(core::sin(a.tensor("input"), state(in).cpu)); }});
  rows.push_back({"cos", both, {"cos(Tensor input, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(core::cos(a.tensor("input"), state(in).cpu)); }});
  rows.push_back({"rsqrt", both, {"rsqrt(Tensor input, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::rsqrt(a.tensor("input"))); }});
  rows.push_back({"pow", both,
                  {"pow(Tensor input, Tensor exponent, *, Tensor out=None)", "pow(Scalar self, Tensor exponent, *, Tensor out=None)",
                   "pow(Tensor input, Scalar exponent, *, Tensor out=None)"},
                  pow_fn});
  rows.push_back({"sqrt", both, {"sqrt(Tensor input, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::unary(a.tensor("input"), "sqrt")); }});
  rows.push_back({"abs", both, {"abs(Tensor input, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::unary(a.tensor("input"), "abs")); }});
  rows.push_back({"isnan", both, {"isnan(Tensor input)"}, [](Interpreter&, Args& a) { return unary(a, core::isnan); }});
  rows.push_back({"isinf", both, {"isinf(Tensor input)"}, [](Interpreter&, Args& a) { return unary(a, core::isinf); }});
  rows.push_back({"dot", both, {"dot(Tensor input, Tensor tensor, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::dot(a.tensor("input"), a.tensor("tensor"))); }});
  rows.push_back({"matmul", both, {"matmul(Tensor input, Tensor other, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::matmul_op(a.tensor("input"), a.tensor("other"))); }});
  rows.push_back({"allclose", both, {"allclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)"},
                  allclose_fn});
  rows.push_back({"equal", both, {"equal(Tensor input, Tensor other)"},
                  [](Interpreter&, Args& a) { return Value::boolean(core::equal(a.tensor("input"), a.tensor("other"))); }});
  rows.push_back({"where", kFunction,
                  {"where(Tensor condition)", "where(Tensor condition, Tensor input, Tensor other, *, Tensor out=None)",
                   "where(Tensor condition, Scalar self, Tensor other)", "where(Tensor condition, Tensor input, Scalar other)",
                   "where(Tensor condition, Scalar self, Scalar other)"},
                  where_fn});
  rows.push_back({"einsum", kFunction, {"def einsum(*args)"}, einsum_fn});
  rows.push_back({"tril", both, {"tril(Tensor input, int64_t diagonal=0, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::tril(a.tensor("input"), a.integer("diagonal"))); }});
  rows.push_back({"triu", both, {"triu(Tensor input, int64_t diagonal=0, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::triu(a.tensor("input"), a.integer("diagonal"))); }});
  rows.push_back({"masked_fill", both,
                  {"masked_fill(Tensor input, Tensor mask, Tensor value)", "masked_fill(Tensor input, Tensor mask, Scalar value)"},
                  [](Interpreter& in, Args& a) { return tensor_value(masked_fill(in, a, "input")); }});
  rows.push_back({"copy_", kMethod, {"copy_(Tensor self, Tensor src, bool non_blocking=False)"}, [](Interpreter& in, Args& a) {
                    a.get("non_blocking");
                    const Tensor src = a.tensor("src");
                    return write_in_place(in, a, &src, "CopyBackwards", [](Tensor& t, Args& b) { core::copy_(t, b.tensor("src")); });
                  }});
  rows.push_back({"fill_", kMethod, {"fill_(Tensor self, Tensor value)", "fill_(Tensor self, Scalar value)"}, [](Interpreter& in, Args& a) {
                    if (a.overload() == 0 && a.tensor("value").dim() != 0)
                      throw RuntimeError(fmt::format("fill_ only supports 0-dimension value tensor but got tensor with {} dimensions.",
                                                           a.tensor("value").dim()));
                    return write_in_place(in, a, nullptr, a.overload() == 0 ? "FillBackward3" : "FillBackward2",
                                          [](Tensor& t, Args& b) { core::fill_(t, to_double(b.get("value"), "value"), integral_value(b)); });
                  }});
  rows.push_back({"zero_", kMethod, {"zero_(Tensor self)"}, [](Interpreter& in, Args& a) {
                    return write_in_place(in, a, nullptr, "ZeroBackward0", [](Tensor& t, Args&) { core::fill_(t, 0.0); });
                  }});
  rows.push_back({"masked_fill_", kMethod,
                  {"masked_fill_(Tensor self, Tensor mask, Tensor value)", "masked_fill_(Tensor self, Tensor mask, Scalar value)"},
                  masked_fill_inplace});
}

}  // namespace attn::torch
