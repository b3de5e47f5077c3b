// torch/ops_creation.cpp: the rows of the op table that make tensors: torch.tensor, manual_seed,
// rand, randn, randint, randperm, multinomial, Tensor.random_, ones, zeros, empty, full, arange,
// linspace, zeros_like, ones_like; and torch._attn_multinomial_double (WeightedRandomSampler's).
//
// What it is: signatures as PyTorch 1.13's parser writes them, and adapters onto core/.
// dtype= and requires_grad= are implemented for the dtypes attn has (float32, bool, the integers).
// What it is not: numerics (core/) or the random generator (core/random.cpp).
#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "core/ops.h"
#include "core/random.h"
#include "py/ints.h"
#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/limits.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::DType;
using core::Tensor;


// dtype= and requires_grad= of a factory, applied to the tensor it made in `natural` dtype.
Value finish(Args& a, Tensor t) {
  if (std::optional<DType> d = a.dtype("dtype")) t = cast(t, *d);
  if (a.flag("requires_grad")) {
    if (!t.is_float()) throw RuntimeError("Only Tensors of floating point and complex dtype can require gradients");
    t.set_requires_grad(true);
  }
  return tensor_value(std::move(t));
}

// rand and randn draw float32 only; PyTorch's own error for the integer dtypes.
void float_only(Args& a, const char* kernel) {
  const Value& d = a.get("dtype");
  if (!d.is_none() && dtype_of(d) != DType::float32)
    throw RuntimeError(fmt::format("\"{}\" not implemented for '{}'", kernel, core::dtype_title(dtype_of(d))));
}

// Nested Python lists of numbers -> tensor (float32 if any float, bool if all bools, else int64).
// The numbers are kept as they are (an int beyond 2**53 is not rounded through a float) until
// the dtype is known.
void flatten(const Value& v, core::Shape& shape, size_t depth, std::vector<Value>& out, bool& any_float, bool& all_bool) {
  if (v.kind == Value::Range) {   // torch.tensor(range(5))
    const auto& r = *static_cast<const RangeObj*>(v.obj.get());
    check_items("a tensor made from a range", r.length());
    std::vector<Value> items;
    for (unsigned __int128 k = 0; k < r.length(); ++k) items.push_back(Value::integer(r.at(k)));
    return flatten(Value::list(std::move(items)), shape, depth, out, any_float, all_bool);
  }
  if (v.kind == Value::List || v.kind == Value::Tuple) {
    ValueDepthGuard guard("while converting a nested list to a tensor");
    if (depth >= 128) throw ValueError(fmt::format("too many dimensions '{}'", type_name(v)));   // torch's MAX_DIMS
    auto& items = as_seq(v);
    if (shape.size() <= depth) shape.push_back(static_cast<int64_t>(items.size()));
    else if (shape[depth] != static_cast<int64_t>(items.size()))
      throw ValueError(fmt::format("expected sequence of length {} at dim {} (got {})", shape[depth], depth, items.size()));
    for (const Value& x : items) flatten(x, shape, depth + 1, out, any_float, all_bool);
    return;
  }
  if (is_tensor(v) && as_tensor(v).numel() == 1) {
    any_float = any_float || as_tensor(v).is_float();
    all_bool = false;
    out.push_back(Value::number(as_tensor(v).at(0)));
    return;
  }
  if (!v.is_number()) throw TypeError("torch.tensor() takes numbers or nested lists of numbers, not " + type_name(v));
  any_float = any_float || v.kind == Value::Float;
  all_bool = all_bool && v.kind == Value::Bool;
  out.push_back(v);
}

// A Python number stored into an integer or bool element by torch.tensor(data, dtype=...): c10's
// overflow check first (core::value_overflows), then truncation; from_ints wraps (-1 -> 255).
int64_t stored_int(const Value& x, DType target) {
  if (x.is_big()) throw RuntimeError("Overflow when unpacking long");   // PyTorch's, for an integer or bool tensor
  if (target == DType::boolean) return x.kind == Value::Float ? x.f != 0 : x.i != 0 || (x.kind == Value::Bool && x.b);
  if (x.kind == Value::Bool) return x.b;
  const bool integral = x.kind != Value::Float;
  if (integral && target == DType::int64) return x.i;   // any int64 fits (its double, 2**63, would not)
  const double v = integral ? static_cast<double>(x.i) : x.f;
  if (core::value_overflows(v, integral, target))
    throw RuntimeError(fmt::format("value cannot be converted to type {} without overflow", core::dtype_short_name(target)));
  return integral ? x.i : static_cast<int64_t>(x.f);
}

Value tensor_fn(Interpreter&, Args& a) {
  const Value& data = a.get("data");
  if (is_tensor(data)) return finish(a, core::detach(as_tensor(data)).clone());   // torch.tensor(t) copies
  core::Shape shape;
  std::vector<Value> vals;
  bool any_float = false, all_bool = true;
  flatten(data, shape, 0, vals, any_float, all_bool);
  if (vals.empty()) all_bool = false;
  std::optional<DType> d = a.dtype("dtype");   // PyTorch stores each number straight into this dtype
  DType target = d ? *d : (any_float || vals.empty()) ? DType::float32 : all_bool ? DType::boolean : DType::int64;
  if (target == DType::float32) {
    std::vector<float> f;
    for (const Value& x : vals) f.push_back(static_cast<float>(to_double(x, "value")));
    return finish(a, core::from_floats(shape, f));
  }
  std::vector<int64_t> i;
  for (const Value& x : vals) i.push_back(stored_int(x, target));
  return finish(a, core::from_ints(shape, i, target));
}

// torch.manual_seed(seed): default_generator.manual_seed(int(seed)), which it returns (torch/random.py
// calls int(): 1.5 seeds as 1, NaN is int()'s ValueError).
Value manual_seed_fn(Interpreter& in, Args& a) {
  Value g = default_generator(in);
  CallArgs c;
  const Value& seed = a.get("seed");
  c.pos = {g, seed.kind == Value::Float ? py::int_from_double(seed.f) : seed.kind == Value::Bool ? Value::integer(seed.b ? 1 : 0) : seed};
  return in.call(py::type_of(g)->methods.at("manual_seed"), c);
}

// generator=g draws from g's stream; without it, from the session's default generator.
core::Generator& generator_arg(Interpreter& in, Args& a) {
  if (a.signature().index_of("generator") < 0) return state(in).generator;   // the out= and names= overloads
  const Value& g = a.get("generator");
  return g.is_none() ? state(in).generator : *generator_ptr(g);
}

Value rand_fn(Interpreter& in, Args& a) {
  float_only(a, "check_uniform_bounds");
  core::Shape shape = shape_arg(a, "size");
  bool grad = a.flag("requires_grad");
  Tensor t = core::rand(generator_arg(in, a), shape);
  t.set_requires_grad(grad);
  return tensor_value(std::move(t));
}

Value randn_fn(Interpreter& in, Args& a) {
  float_only(a, "normal_kernel_cpu");
  core::Shape shape = shape_arg(a, "size");
  bool grad = a.flag("requires_grad");
  Tensor t = core::randn(generator_arg(in, a), shape);
  t.set_requires_grad(grad);
  return tensor_value(std::move(t));
}

// torch.randint([low,] high, size) (int64 unless dtype=), torch.randperm(n), torch.normal(mean,
// std, size): draws in memory order from generator= or the session's generator (core/ops/random.h).
Value randint_fn(Interpreter& in, Args& a) {
  const bool has_low = a.signature().index_of("low") >= 0;
  const int64_t low = has_low ? a.integer("low") : 0;
  return finish(a, core::randint(generator_arg(in, a), low, a.integer("high"), shape_arg(a, "size")));
}

// A result of more than 50 million elements is refused, as torch.zeros's is (its shape is not a size argument).
constexpr const char* kTooLarge = "tensor too large for a lesson (over 50 million elements)";
void check_lesson_size(int64_t numel) {
  if (numel > 50'000'000) throw RuntimeError(kTooLarge);
}

Value randperm_fn(Interpreter& in, Args& a) {
  check_lesson_size(a.integer("n"));
  return finish(a, core::randperm(generator_arg(in, a), a.integer("n")));
}

// torch.normal with a tensor mean and/or std (normal_out_impl): N(0, 1) draws of the broadcast
// shape, then output.mul_(std).add_(mean), as 1.13 computes them. No gradient flows to mean/std.
Value normal_tensor_fn(Interpreter& in, Args& a) {
  const int over = a.overload();
  const Tensor mean = over == 2 ? Tensor() : a.tensor("mean");
  const Tensor std = over == 1 ? Tensor() : a.tensor("std");
  if (over != 1 && !std.is_float()) throw RuntimeError("\"normal_kernel_cpu\" not implemented for 'Long'");
  if (over != 2 && !mean.is_float()) throw RuntimeError("\"normal_kernel_cpu\" not implemented for 'Long'");
  if (over != 1 && std.numel() > 0 && core::item(core::min(std, state(in).cpu)) < 0) throw RuntimeError("normal expects all elements of std >= 0.0");
  if (over == 1 && a.number("std") < 0) throw RuntimeError(fmt::format("normal expects std >= 0.0, but found std {}", a.number("std")));
  const core::Shape shape = over == 0 ? core::broadcast_shapes(mean.shape(), std.shape()) : over == 1 ? mean.shape() : std.shape();
  Tensor out = core::normal(generator_arg(in, a), 0.0, 1.0, shape);
  out = over == 1 ? core::binary_scalar(core::BinOp::mul, out, a.number("std")) : core::binary(core::BinOp::mul, out, std);
  out = over == 2 ? core::binary_scalar(core::BinOp::add, out, a.number("mean")) : core::binary(core::BinOp::add, out, mean);
  return tensor_value(std::move(out));
}

Value normal_fn(Interpreter& in, Args& a) {
  if (a.overload() != 3) return normal_tensor_fn(in, a);
  float_only(a, "normal_kernel_cpu");
  return finish(a, core::normal(generator_arg(in, a), a.number("mean"), a.number("std"), shape_arg(a, "size")));
}

// 1.13's refusals of n <= 0 and of too many samples without replacement come first (core).
Value multinomial_fn(Interpreter& in, Args& a) {
  const Tensor& p = a.tensor("input");
  const int64_t n = a.integer("num_samples");
  const int64_t rows = p.dim() == 2 ? p.shape()[0] : 1, categories = p.dim() > 0 ? p.shape().back() : 0;
  const bool drawn = n > 0 && (a.flag("replacement") || n <= categories);
  if (drawn && rows > 0 && n > 50'000'000 / rows) throw RuntimeError(kTooLarge);
  return tensor_value(core::multinomial(generator_arg(in, a), a.tensor("input"), a.integer("num_samples"), a.flag("replacement")));
}

// Tensor.random_(), random_(to), random_(from, to): in place, from generator= or the session's
// generator (core/ops/random.h); a leaf that requires grad refuses, as for every in-place op.
Value random_fn(Interpreter& in, Args& a) {
  Tensor& t = a.tensor("self");
  core::autograd::check_inplace(t, false);
  core::Generator& g = generator_arg(in, a);
  if (a.overload() == 0) {
    core::random_(g, t);
  } else if (a.overload() == 2) {
    core::random_(g, t, 0, a.integer("to"));
  } else {
    const bool open = a.get("to").is_none();
    core::random_(g, t, a.integer("from"), open ? std::nullopt : std::optional<int64_t>(a.integer("to")));
  }
  return a.get("self");
}

// Tensor.uniform_(from, to) / normal_(mean, std): the draws of nn.init's, in place.
Value fill_random_fn(Interpreter& in, Args& a, bool uniform) {
  Tensor& t = a.tensor("self");
  core::autograd::check_inplace(t, false);
  core::Generator& g = generator_arg(in, a);
  if (uniform) uniform_fill(g, t, a.number("from"), a.number("to"));
  else normal_fill(g, t, a.number("mean"), a.number("std"));
  return a.get("self");
}

// torch._attn_multinomial_double(weights, num_samples, replacement, *, generator=None):
// torch.multinomial over float64 weights (a list of Python floats), for WeightedRandomSampler.
Value multinomial_double_fn(Interpreter& in, CallArgs& c) {
  static const Signature sig = parse_signature("def _attn_multinomial_double(weights, num_samples, replacement, *, generator=None)");
  Args b = bind_call(sig, c, "torch._attn_multinomial_double");
  std::vector<double> w;
  for (const Value& v : py::as_seq(b.get("weights"))) w.push_back(to_double(v, "weights"));
  return tensor_value(core::multinomial(generator_arg(in, b), w, b.integer("num_samples"), b.flag("replacement")));
}

Value full_fn(Interpreter&, Args& a) {
  const Value& fill = a.get("fill_value");   // its type decides the dtype, as in PyTorch
  DType natural = fill.kind == Value::Bool ? DType::boolean
                  : fill.kind == Value::Int ? DType::int64
                  : is_tensor(fill) ? as_tensor(fill).dtype() : DType::float32;
  core::Shape shape = shape_arg(a, "size");
  double x = to_double(fill, "fill_value");
  // filled in the dtype asked for, as fill_ does (torch.full((2,), 300, dtype=torch.uint8) overflows)
  Tensor t = core::empty(shape, a.dtype("dtype").value_or(natural));
  core::fill_(t, x, natural != DType::float32);
  if (t.storage()) t.storage()->forget_own_writes();   // ATen's empty().fill_() below autograd: _version 0
  return finish(a, t);
}

int64_t arange_int(Args& a, const char* name) {
  const Value& v = a.get(name);
  if (v.kind == Value::Int || (is_tensor(v) && !as_tensor(v).is_float())) return to_int(v, name);
  a.unsupported(name, "attn's arange takes integers");
}

bool is_float_arg(Args& a, const char* name) {
  const Value& v = a.get(name);
  return v.kind == Value::Float || (is_tensor(v) && as_tensor(v).is_float());
}

// arange with a float bound or step: a float32 result (docs/pytorch-numerics.md §14).
Value arange_float_fn(Args& a) {
  double start = 0, end = 0, step = 1;
  if (a.overload() == 0) {
    end = to_double(a.get("end"), "end");
  } else {
    start = to_double(a.get("start"), "start");
    end = to_double(a.get("end"), "end");
    if (a.overload() == 2) step = to_double(a.get("step"), "step");
  }
  if (a.dtype("dtype").value_or(DType::float32) != DType::float32) a.unsupported("dtype", "attn's float arange makes float32");
  if (!std::isfinite(start) || !std::isfinite(end))   // PyTorch's check comes before any size
    throw RuntimeError(fmt::format("unsupported range: {} -> {}", start, end));
  if (step != 0 && std::fabs((end - start) / step) > 50'000'000) throw RuntimeError("tensor too large for a lesson (over 50 million elements)");
  return finish(a, core::arange_float(start, end, step));
}

// torch.linspace(start, end, steps): float32 (docs/pytorch-numerics.md §14).
Value linspace_fn(Interpreter& in, Args& a) {
  const double start = to_double(a.get("start"), "start"), end = to_double(a.get("end"), "end");
  const int64_t steps = a.integer("steps");
  if (steps < 0) throw RuntimeError("number of steps must be non-negative");
  if (steps > 50'000'000) throw RuntimeError("tensor too large for a lesson (over 50 million elements)");
  if (a.dtype("dtype").value_or(DType::float32) != DType::float32) a.unsupported("dtype", "attn's linspace makes float32");
  return finish(a, core::linspace(start, end, steps, state(in).cpu));
}

Value arange_fn(Interpreter&, Args& a) {
  bool floats = is_float_arg(a, "end");
  if (a.overload() > 0) floats = floats || is_float_arg(a, "start");
  if (a.overload() == 2) floats = floats || is_float_arg(a, "step");
  if (floats || a.dtype("dtype") == DType::float32) return arange_float_fn(a);
  int64_t start = 0, end = 0, step = 1;
  if (a.overload() == 0) {
    end = arange_int(a, "end");
  } else {
    start = arange_int(a, "start");
    end = arange_int(a, "end");
    if (a.overload() == 2) step = arange_int(a, "step");
  }
  if (a.dtype("dtype") == DType::boolean) a.unsupported("dtype", "arange makes numbers");
  if (step == 0) throw RuntimeError("step must be nonzero");
  if ((step > 0 && end < start) || (step < 0 && end > start))
    throw RuntimeError("upper bound and larger bound inconsistent with step sign");
  if ((end - start) / step > 50'000'000) throw RuntimeError("tensor too large for a lesson (over 50 million elements)");
  std::vector<int64_t> v;
  for (int64_t x = start; step > 0 ? x < end : x > end; x += step) v.push_back(x);
  return finish(a, core::from_ints({static_cast<int64_t>(v.size())}, v));
}

Value like_fn(Args& a, float fill) {
  const Tensor& t = a.tensor("input");
  return finish(a, cast(core::full(t.shape(), fill), t.dtype()));   // the input's dtype unless dtype= says otherwise
}

}  // namespace

// torch.rand(2, 3) / torch.rand((2, 3)) / torch.rand(size=(2, 3)): the binder made it one list.
core::Shape shape_arg(Args& a, const char* name) {
  core::Shape shape;
  for (int64_t n : a.ints(name)) {
    if (n < 0) throw RuntimeError(fmt::format("Trying to create tensor with negative dimension {}", n));
    shape.push_back(n);
  }
  if (core::numel_of(shape) > 50'000'000) throw RuntimeError("tensor too large for a lesson (over 50 million elements)");
  return shape;
}

void add_creation_ops(std::vector<OpRow>& rows) {
  rows.push_back({"tensor", kFunction,
                  {"tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, bool pin_memory=False, bool requires_grad=False)"},
                  tensor_fn});
  rows.push_back({"manual_seed", kFunction, {"def manual_seed(seed)"}, manual_seed_fn});
  rows.push_back({"initial_seed", kFunction, {"def initial_seed()"}, [](Interpreter& in, Args&) {
                    return seed_value(state(in).initial_seed);
                  }});
  for (const char* name : {"rand", "randn"}) {
    std::string n = name;
    rows.push_back({n, kFunction,
                    {factory(n + "(IntArrayRef size, *, Generator? generator, DimnameList? names, "),
                     factory(n + "(IntArrayRef size, *, Generator? generator, Tensor out=None, "),
                     factory(n + "(IntArrayRef size, *, Tensor out=None, "), factory(n + "(IntArrayRef size, *, DimnameList? names, ")},
                    n == "rand" ? rand_fn : randn_fn});
  }
  rows.push_back({"randint", kFunction,
                  {factory("randint(int64_t high, IntArrayRef size, *, Generator? generator, Tensor out=None, "),
                   factory("randint(int64_t high, IntArrayRef size, *, Tensor out=None, "),
                   factory("randint(int64_t low, int64_t high, IntArrayRef size, *, Generator? generator, Tensor out=None, "),
                   factory("randint(int64_t low, int64_t high, IntArrayRef size, *, Tensor out=None, ")},
                  randint_fn});
  rows.push_back({"randperm", kFunction,
                  {factory("randperm(int64_t n, *, Generator? generator, Tensor out=None, "), factory("randperm(int64_t n, *, Tensor out=None, ")},
                  randperm_fn});
  rows.push_back({"normal", kFunction,
                  {"normal(Tensor mean, Tensor std, *, Generator? generator=None, Tensor out=None)",
                   "normal(Tensor mean, double std=1, *, Generator? generator=None, Tensor out=None)",
                   "normal(double mean, Tensor std, *, Generator? generator=None, Tensor out=None)",
                   factory("normal(double mean, double std, IntArrayRef size, *, Generator? generator=None, Tensor out=None, ")},
                  normal_fn});
  rows.push_back({"multinomial", kFunction | kMethod,
                  {"multinomial(Tensor input, int64_t num_samples, bool replacement=False, *, Generator? generator=None, Tensor out=None)"},
                  multinomial_fn});
  rows.push_back({"random_", kMethod,
                  {"random_(Tensor self, *, Generator? generator=None)",
                   "random_(Tensor self, int64_t from, int64_t? to, *, Generator? generator=None)",
                   "random_(Tensor self, int64_t to, *, Generator? generator=None)"},
                  random_fn});
  rows.push_back({"uniform_", kMethod, {"uniform_(Tensor self, double from=0, double to=1, *, Generator? generator=None)"},
                  [](Interpreter& in, Args& a) { return fill_random_fn(in, a, true); }});
  rows.push_back({"normal_", kMethod, {"normal_(Tensor self, double mean=0, double std=1, *, Generator? generator=None)"},
                  [](Interpreter& in, Args& a) { return fill_random_fn(in, a, false); }});
  rows.push_back({"ones", kFunction,
                  {factory("ones(IntArrayRef size, *, DimnameList? names, "), factory("ones(SymIntArrayRef size, *, Tensor out=None, ")},
                  [](Interpreter&, Args& a) { return finish(a, core::ones(shape_arg(a, "size"))); }});
  rows.push_back({"zeros", kFunction,
                  {factory("zeros(IntArrayRef size, *, DimnameList? names, "), factory("zeros(SymIntArrayRef size, *, Tensor out=None, ")},
                  [](Interpreter&, Args& a) { return finish(a, core::zeros(shape_arg(a, "size"))); }});
  rows.push_back({"empty", kFunction,
                  {factory("empty(IntArrayRef size, *, DimnameList? names, MemoryFormat? memory_format=None, "),
                   factory("empty(SymIntArrayRef size, *, MemoryFormat? memory_format=None, Tensor out=None, ")},
                  [](Interpreter&, Args& a) { return finish(a, core::zeros(shape_arg(a, "size"))); }});   // zero-filled: no RNG, as printed
  rows.push_back({"full", kFunction,
                  {factory("full(IntArrayRef size, Scalar fill_value, *, DimnameList? names, "),
                   factory("full(SymIntArrayRef size, Scalar fill_value, *, Tensor out=None, ")},
                  full_fn});
  rows.push_back({"linspace", kFunction,
                  {factory("linspace(Scalar start, Scalar end, int64_t steps, *, Tensor out=None, ")}, linspace_fn});
  rows.push_back({"arange", kFunction,
                  {factory("arange(Scalar end, *, Tensor out=None, "), factory("arange(Scalar start, Scalar end, *, "),
                   factory("arange(Scalar start, Scalar end, Scalar step=1, *, Tensor out=None, ")},
                  arange_fn});
  rows.push_back({"zeros_like", kFunction, {factory("zeros_like(Tensor input, *, MemoryFormat? memory_format=None, ")},
                  [](Interpreter&, Args& a) { return like_fn(a, 0.0f); }});
  rows.push_back({"ones_like", kFunction, {factory("ones_like(Tensor input, *, MemoryFormat? memory_format=None, ")},
                  [](Interpreter&, Args& a) { return like_fn(a, 1.0f); }});
}

void add_data_natives(NamespaceObj& torch) {
  torch.names["_attn_multinomial_double"] = builtin("torch._attn_multinomial_double", multinomial_double_fn);
}

}  // namespace attn::torch
