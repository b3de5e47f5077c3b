// torch/ops_elem.cpp: the named forms tutorials call where attn had only the operators, and
// the elementwise / cumulative ops beside them: add sub (alpha=) mul div (rounding_mode=)
// true_divide floor_divide remainder fmod (and fmod_ remainder_) neg, eq ne lt le gt ge (and greater/less/... aliases),
// logical_and/xor, bitwise_and/or/xor, bitwise_left/right_shift(_) (logical_or/not and bitwise_not are in ops_index/ops_select); the in-place unary forms (exp_ sqrt_ abs_
// neg_ log_ ...); floor ceil trunc round frac sign square clamp_min clamp_max; cumsum cumprod
// logsumexp argsort count_nonzero isfinite isclose nan_to_num trace amin; mm mv outer diag; Tensor.where.
//
// What it is: signatures as PyTorch 1.13's parser writes them, and adapters: the named binary
// forms call the operators' own path (tensor_operator), so `x.add(y)` and `x + y` promote, print
// and record the same; the new numerics follow ATen's CPU kernels (cited per function).
// What it is not: the shape/creation/indexing ops (ops_shape.cpp, ops_creation.cpp), or the
// operators themselves (tensor_hooks.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include "core/deadline.h"
#include "core/ops.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

namespace {

using core::DType;
using core::Tensor;
using core::autograd::Backward;
using core::autograd::Grads;

// ---- the named binary forms ----

// The tensor other is, for ops whose 1.13 kernel reads a number as a wrapped 0-d tensor.
Value operand(Args& a) { return a.get("other"); }

// The operator a named comparison or bitwise op is ("greater_equal" -> ">=").
const char* operator_of(const std::string& name) {
  static const std::map<std::string, const char*> ops = {
      {"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}, {"not_equal", "!="}, {"less", "<"},
      {"less_equal", "<="}, {"greater", ">"}, {"greater_equal", ">="}, {"bitwise_and", "&"}, {"bitwise_or", "|"}, {"bitwise_xor", "^"}};
  return ops.at(name);
}

// A Python number's category in type promotion (bool, int64, float32) and its 0-d tensor.
DType number_category(const Value& v) {
  return v.kind == Value::Bool ? DType::boolean : v.kind == Value::Float ? DType::float32 : DType::int64;
}

Tensor number_tensor(const Value& v) {
  const double x = torch_scalar(v, "other");
  if (number_category(v) == DType::float32) return core::scalar(static_cast<float>(x));
  return core::from_ints({}, {core::float_to_int(x, DType::int64)});
}

}  // namespace

// 1.13's grad_fn of `self // other` and `self % other` (r computed from detached operands; a number
// operand is no edge): RemainderBackward1 (tensors: g, and -g * self.div(other, rounding_mode=
// 'floor'), saving both), RemainderBackward0 (a number other: g), else NotImplemented, whose
// backward raises PyTorch's "derivative for aten::floor_divide is not implemented".
Tensor record_floor_op(Tensor r, const Tensor& self, const Tensor& other, bool remainder, bool self_number, bool other_number) {
  if (!core::autograd::grad_enabled() || !(self.requires_grad() || other.requires_grad()) || !r.is_float()) return r;
  std::vector<const Tensor*> inputs;   // NotImplemented: an edge for each operand that requires grad only
  const bool all = remainder && !self_number;
  if (!self_number && (all || self.requires_grad())) inputs.push_back(&self);
  if (!other_number && (all || other.requires_grad())) inputs.push_back(&other);
  if (remainder && !self_number && other_number)
    return core::autograd::record(r, inputs, "RemainderBackward0", Backward{[](const Grads& g) { return Grads{*g[0]}; }, false});
  if (remainder && !self_number) {
    Backward back{[x = core::detach(self), y = core::detach(other)](const Grads& g) {
                    const Tensor q = core::floor_divide_or_remainder(false, x, y, DType::float32);
                    return Grads{*g[0], core::binary(core::BinOp::mul, core::neg(*g[0]), q)};
                  },
                  true, {self, other}};
    return core::autograd::record(r, inputs, "RemainderBackward1", std::move(back));
  }
  const std::string message = fmt::format("derivative for aten::{} is not implemented", remainder ? "remainder" : "floor_divide");
  return core::autograd::record(r, inputs, "NotImplemented", Backward{[message](const Grads&) -> Grads {
                                  throw core::TensorError(message);
                                }, false});
}

namespace {

Value named(Interpreter& in, Args& a, const char* op) {
  return tensor_operator(in, op, a.get(a.signature().params[0].name), operand(a));
}

// Every gradient zero (Floor/Ceil/Round/Trunc/SignBackward0, div with a rounding mode).
Tensor zero_grad(const Tensor& out, std::vector<const Tensor*> inputs, const char* name) {
  if (!out.is_float()) return out;
  const size_t n = inputs.size();
  Backward zeros{[n](const Grads& g) { return Grads(n, core::zeros(g[0]->shape())); }, false};
  return core::autograd::record(out, inputs, name, std::move(zeros));
}

// a / b rounded toward zero (ATen's div_trunc: trunc(a / b) for float32, C's integer division).
Tensor div_trunc(const Tensor& t, const Tensor& o, DType common) {
  const core::Shape shape = core::broadcast_shapes(t.shape(), o.shape());
  if (common == DType::boolean) throw RuntimeError("\"div_trunc_cpu\" not implemented for 'Bool'");
  if (common == DType::float32) {
    std::vector<float> q = core::detach(core::binary(core::BinOp::div, core::to_float(t), core::to_float(o))).floats();
    for (float& x : q) x = std::trunc(x);
    return core::from_floats(shape, q);
  }
  const std::vector<int64_t> x = core::expand(core::to_dtype(t, common), shape).ints();
  const std::vector<int64_t> y = core::expand(core::to_dtype(o, common), shape).ints();
  std::vector<int64_t> q(x.size());
  for (size_t k = 0; k < q.size(); ++k) {
    if (y[k] == 0) throw RuntimeError("ZeroDivisionError");
    q[k] = (x[k] == INT64_MIN && y[k] == -1) ? x[k] : x[k] / y[k];
  }
  return core::to_dtype(core::from_ints(shape, q), common);
}

// div(input, other, *, rounding_mode): None is `/`; 'floor' is `//`; 'trunc' rounds toward zero.
// With a rounding mode every gradient is zero (DivBackward2).
Value div_fn(Interpreter& in, Args& a) {
  const Value& self = a.get("input");
  const Value& other = operand(a);
  const bool has_mode = a.signature().index_of("rounding_mode") >= 0;
  if (!has_mode || !a.given("rounding_mode")) {
    if (has_mode) a.get("rounding_mode");
    return tensor_operator(in, "/", self, other);
  }
  const std::string mode = a.string("rounding_mode");
  if (mode != "trunc" && mode != "floor")
    throw RuntimeError(fmt::format("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", mode));
  const Tensor& t = as_tensor(self);
  const Tensor o = is_tensor(other) ? as_tensor(other) : number_tensor(other);
  const DType common = is_tensor(other) ? core::result_type(t, o) : core::result_type(t, number_category(other));
  Tensor r = mode == "floor" ? core::floor_divide_or_remainder(false, core::detach(t), core::detach(o), common) : div_trunc(t, o, common);
  if (!core::autograd::grad_enabled() || !(t.requires_grad() || o.requires_grad())) return tensor_value(r);
  return tensor_value(zero_grad(r, {&t, &o}, "DivBackward2"));   // a number is a wrapped tensor: the Tensor_mode overload
}

// remainder(input, other): the sign of other (`%`), through tensor_operator's "%".
Value remainder_fn(Interpreter& in, Args& a) {
  if (a.overload() == 1) return tensor_operator(in, "%", a.get("other"), a.get("self"), true);
  return tensor_operator(in, "%", a.get("input"), operand(a));
}

// fmod(input, other): the sign of input (ATen's fmod kernels, core::fmod), in the promoted dtype.
// 1.13's grad_fn: FmodBackward0 for a number other (g), FmodBackward1 for a tensor (g, and
// -g * self.div(other, rounding_mode='trunc'), saving both).
Tensor fmod_of(const Tensor& t, const Value& other) {
  const Tensor o = is_tensor(other) ? as_tensor(other) : number_tensor(other);
  const DType common = is_tensor(other) ? core::result_type(t, o) : core::result_type(t, number_category(other));
  Tensor r = core::fmod(core::detach(t), core::detach(o), common);
  if (!core::autograd::grad_enabled() || !(t.requires_grad() || o.requires_grad()) || !r.is_float()) return r;
  if (!is_tensor(other)) return core::autograd::record(r, {&t}, "FmodBackward0", Backward{[](const Grads& g) { return Grads{*g[0]}; }, false});
  Backward back{[x = core::detach(t), y = core::detach(o)](const Grads& g) {
                  const Tensor q = div_trunc(x, y, DType::float32);
                  return Grads{*g[0], core::binary(core::BinOp::mul, core::neg(*g[0]), q)};
                },
                true, {t, o}};
  return core::autograd::record(r, {&t, &o}, "FmodBackward1", std::move(back));
}

Value fmod_fn(Interpreter&, Args& a) { return tensor_value(fmod_of(a.tensor("input"), operand(a))); }

// fmod_ / remainder_: the out-of-place result written back into self (its dtype kept: an integer
// self with a float other is PyTorch's cast error); autograd records it in place.
Value fmod_inplace(Interpreter& in, Args& a, bool remainder) {
  const Value other = operand(a);
  const bool other_grad = is_tensor(other) && as_tensor(other).requires_grad();
  if (is_tensor(other)) core::check_inplace_operand(a.tensor("self"), as_tensor(other));
  // ATen's fmod and remainder kernels are vectorised for floats, one element at a time for integers
  if (overlapping_write(a.get("self"), other, a.tensor("self").is_float(), [&](const Tensor& x, const Tensor& y) {
        return remainder ? as_tensor(tensor_operator(in, "%", tensor_value(x), tensor_value(y))) : fmod_of(x, tensor_value(y));
      }))
    return a.get("self");
  return write_back(a.get("self"), [&](const Tensor& t) {
    return remainder ? as_tensor(tensor_operator(in, "%", tensor_value(t), other)) : fmod_of(t, other);
  }, false, other_grad);
}

// logical_and/or/xor: both sides as bool (nonzero is True), then & | ^; logical_not: == 0.
Tensor truth(const Tensor& t) {
  const Tensor zero = t.is_float() ? core::scalar(0.0f) : core::from_ints({}, {0}, t.dtype());
  return core::compare(core::CmpOp::ne, core::detach(t), zero);
}

Value logical(Args& a, core::BitOp op) {
  return tensor_value(core::bitwise(op, truth(a.tensor("input")), truth(a.tensor("other"))));
}

// ---- in-place unary forms: the out-of-place op written back into self ----

using UnaryFn = Tensor (*)(const Tensor&, core::CpuKernels);

Tensor exp_k(const Tensor& t, core::CpuKernels c) { return core::exp(t, c); }
Tensor tanh_k(const Tensor& t, core::CpuKernels c) { return core::tanh(t, c); }
Tensor log_k(const Tensor& t, core::CpuKernels c) { return core::log(t, c); }
Tensor sin_k(const Tensor& t, core::CpuKernels c) { return core::sin(t, c); }
Tensor cos_k(const Tensor& t, core::CpuKernels c) { return core::cos(t, c); }
Tensor erf_k(const Tensor& t, core::CpuKernels c) { return core::erf(t, c); }
Tensor sqrt_k(const Tensor& t, core::CpuKernels) { return core::unary(t, "sqrt"); }
Tensor abs_k(const Tensor& t, core::CpuKernels) { return core::unary(t, "abs"); }
Tensor rsqrt_k(const Tensor& t, core::CpuKernels) { return core::rsqrt(t); }
Tensor reciprocal_k(const Tensor& t, core::CpuKernels) { return core::reciprocal(t); }
Tensor neg_k(const Tensor& t, core::CpuKernels) { return core::neg(t); }

Value inplace_unary(Interpreter& in, Args& a, UnaryFn f, bool result_saved) {
  const core::CpuKernels cpu = state(in).cpu;
  return write_back(a.get("self"), [f, cpu](const Tensor& t) { return f(t, cpu); }, result_saved);
}

// ---- rounding and sign: exact in float32 ----

// f applied to every element of a float32 tensor (a new contiguous tensor); integers unchanged
// (1.13's floor/ceil/round/trunc of an integer tensor is a copy).
Tensor map_floats(const Tensor& t, float (*f)(float)) {
  if (!t.is_float()) return core::detach(t).clone();
  std::vector<float> v = core::detach(t).floats();
  for (float& x : v) x = f(x);
  return core::from_floats(t.shape(), v);
}

float round_half_even(float x) { return std::nearbyint(x); }
float trunc_f(float x) { return std::trunc(x); }
float floor_f(float x) { return std::floor(x); }
float ceil_f(float x) { return std::ceil(x); }
float frac_f(float x) { return x - std::trunc(x); }
float sign_f(float x) { return static_cast<float>((0.0f < x) - (x < 0.0f)); }   // NaN: 0, as 1.13

Tensor rounded(const Tensor& t, float (*f)(float), const char* grad_fn) {
  if (t.dtype() == DType::boolean) {   // ATen's vml kernels take no bool: "floor_vml_cpu" from FloorBackward0
    std::string op = std::string(grad_fn).substr(0, std::string(grad_fn).find("Backward"));
    for (char& c : op) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    throw RuntimeError(fmt::format("\"{}_vml_cpu\" not implemented for 'Bool'", op));
  }
  Tensor r = map_floats(t, f);
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return r;
  return zero_grad(r, {&t}, grad_fn);
}

Value rounding(Args& a, float (*f)(float), const char* grad_fn) { return tensor_value(rounded(a.tensor("input"), f, grad_fn)); }

// round(input, *, decimals): ATen's round_decimals kernel, with ten_pow = 10^|decimals| in float32:
// nearbyint(x * ten_pow) / ten_pow, or nearbyint(x / ten_pow) * ten_pow for negative decimals.
Value round_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  if (a.overload() == 0) return rounding(a, round_half_even, "RoundBackward0");
  const int64_t decimals = a.integer("decimals");
  if (!t.is_float()) throw RuntimeError(fmt::format("\"round_cpu\" not implemented for '{}'", core::dtype_title(t.dtype())));
  const bool neg = decimals < 0;
  const float ten_pow = static_cast<float>(std::pow(10, static_cast<double>(neg ? -decimals : decimals)));
  std::vector<float> v = core::detach(t).floats();
  for (float& x : v) x = neg ? std::nearbyint(x / ten_pow) * ten_pow : std::nearbyint(x * ten_pow) / ten_pow;
  Tensor r = core::from_floats(t.shape(), v);
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  return tensor_value(zero_grad(r, {&t}, "RoundBackward1"));
}

// sign: -1, 0, 1 (NaN gives 0; integers and bool in their dtype); SignBackward0 is zero.
Value sign_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  if (t.is_float()) return rounding(a, sign_f, "SignBackward0");
  std::vector<int64_t> v = t.ints();
  for (int64_t& x : v) x = (0 < x) - (x < 0);
  return tensor_value(core::from_ints(t.shape(), v, t.dtype()));
}

// frac: x - trunc(x); FracBackward0 passes the gradient through.
Value frac_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  if (!t.is_float()) throw RuntimeError(fmt::format("\"frac_cpu\" not implemented for '{}'", core::dtype_title(t.dtype())));
  Tensor r = map_floats(t, frac_f);
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  Backward back{[](const Grads& g) { return Grads{*g[0]}; }, false};
  return tensor_value(core::autograd::record(r, {&t}, "FracBackward0", std::move(back)));
}

// clamp_min / clamp_max: clamp with one bound, renamed as 1.13 names the node.
Value clamp_one(Args& a, bool is_min) {
  const Tensor& t = a.tensor("input");
  const char* bound = is_min ? "min" : "max";
  Tensor r;
  if (a.overload() == 0) {
    const Tensor& b = a.tensor(bound);
    r = is_min ? core::clamp(t, &b, nullptr) : core::clamp(t, nullptr, &b);
  } else {
    const double b = a.number(bound);
    const bool ints = a.get(bound).kind != Value::Float;
    r = is_min ? core::clamp(t, b, std::nullopt, ints) : core::clamp(t, std::nullopt, b, ints);
  }
  static const char* const names[2][2] = {{"ClampMaxBackward1", "ClampMaxBackward0"}, {"ClampMinBackward1", "ClampMinBackward0"}};
  core::autograd::rename(r, names[is_min][a.overload()]);
  return tensor_value(r);
}


// ---- cumulative sums and logsumexp ----

// The running sum along dim of a contiguous tensor, as ATen's cpu_cum_base_kernel: float32
// accumulates in double (acc_type<float, false>), each partial sum rounded to float32; integers in int64.
// A 0-d tensor is copied (impl_func_cum_ops fills the result with it: -0.0 stays -0.0).
Tensor cumsum_kernel(const Tensor& t, int64_t dim) {
  if (t.dim() == 0) return core::detach(t).clone();
  const core::Shape& shape = t.shape();
  int64_t outer = 1, inner = 1;
  const int64_t n = t.dim() == 0 ? 1 : shape[static_cast<size_t>(dim)];
  for (int64_t k = 0; k < dim; ++k) outer *= shape[static_cast<size_t>(k)];
  for (int64_t k = dim + 1; k < t.dim(); ++k) inner *= shape[static_cast<size_t>(k)];
  if (t.is_float()) {
    std::vector<float> v = core::detach(t).floats();
    core::DeadlineMeter meter;   // core/deadline.h: a cumsum of 10^9 elements stops near the time limit
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        meter.add(n);
        double acc = 0;
        for (int64_t j = 0; j < n; ++j) {
          float& x = v[static_cast<size_t>((o * n + j) * inner + i)];
          acc += x;
          x = static_cast<float>(acc);
        }
      }
    return core::from_floats(shape, v);
  }
  std::vector<int64_t> v = t.ints();
  core::DeadlineMeter meter;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      meter.add(n);
      int64_t acc = 0;
      for (int64_t j = 0; j < n; ++j) {
        int64_t& x = v[static_cast<size_t>((o * n + j) * inner + i)];
        acc = static_cast<int64_t>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(x));
        x = acc;
      }
    }
  return core::from_ints(shape, v);
}

// cumsum's and cumprod's dtype= (and their default: integers and bool in int64): t cast to it. A
// narrower integer dtype (int8, uint8, int16, int32) is returned: t then holds its values in
// int64, the accumulator ATen's cpu_cum_base_kernel keeps for every integer type (acc_type), and
// the caller wraps each running value into it. A 0-d t is fill_()ed into the result: a value
// out of the dtype's range is fill_'s overflow error.
std::optional<DType> cum_dtype(Args& a, Tensor& t, const char* op) {
  const std::optional<DType> d = a.dtype("dtype");
  if (!d) {
    if (!t.is_float()) t = cast(t, DType::int64);
    return std::nullopt;
  }
  if (*d == DType::boolean) throw RuntimeError(fmt::format("\"{}_out_cpu\" not implemented for 'Bool'", op));
  if (t.dim() == 0 && *d != DType::float32 && *d != DType::int64) {
    const double v = t.is_float() ? t.float_at(0) : static_cast<double>(t.ints()[0]);
    // c10::overflows: a signed type's range; uint8 also takes -255..-1 (two's complement wrap)
    const double hi = *d == DType::uint8 ? 255 : *d == DType::int8 ? 127 : *d == DType::int16 ? 32767 : 2147483647.0;
    const double lo = *d == DType::uint8 ? -255 : -hi - 1;
    if (!(v >= lo && v <= hi))
      throw RuntimeError(fmt::format("value cannot be converted to type {}_t without overflow",
                                     *d == DType::uint8 ? "uint8" : *d == DType::int8 ? "int8" : *d == DType::int16 ? "int16" : "int32"));
  }
  // an integer result of an input that requires grad: 1.13's autograd asserts when it records it
  if (*d != DType::float32 && t.requires_grad() && core::autograd::grad_enabled())
    throw RuntimeError("isDifferentiableType(variable.scalar_type()) INTERNAL ASSERT FAILED at "
                       "\"./torch/csrc/autograd/functions/utils.h\":75, please report a bug to PyTorch. ");
  t = cast(t, *d);
  if (*d == DType::float32 || *d == DType::int64) return std::nullopt;
  t = cast(t, DType::int64);
  return d;
}

// cumsum(input, dim, *, dtype=None): integers and bool sum in int64; CumsumBackward0 is the
// reversed cumsum of the gradient (1.13's cumsum_backward).
Value cumsum_fn(Interpreter&, Args& a) {
  Tensor t = a.tensor("input");
  const int64_t dim = core::normalize_dim(a.integer("dim"), std::max<int64_t>(t.dim(), 1));
  const std::optional<DType> narrow = cum_dtype(a, t, "cumsum");
  Tensor r = cumsum_kernel(t, dim);
  if (narrow) return tensor_value(core::to_dtype(r, *narrow));
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  const bool trivial = t.numel() <= 1 || t.dim() == 0 || t.shape()[static_cast<size_t>(dim)] == 1;
  Backward back{[dim, trivial](const Grads& g) {
                  if (trivial) return Grads{*g[0]};
                  const Tensor flipped = core::flip(core::detach(*g[0]), {dim}).contiguous();
                  return Grads{core::flip(cumsum_kernel(flipped, dim), {dim}).contiguous()};
                },
                false};
  return tensor_value(core::autograd::record(r, {&t}, "CumsumBackward0", std::move(back)));
}

// logsumexp(input, dim, keepdim=False), as 1.13's logsumexp_out_impl over one dim or several
// (a tuple, negative dims; () is every dim): m = amax(x, dims, keepdim=True) with infinite maxima
// set to 0, log(sum(exp(x - m), dims, keepdim)) + m (squeezed unless keepdim: with dims () and no
// keepdim that add_ is 1.13's broadcast error). LogsumexpBackward0: g * exp(x - result), both
// with the dims kept.
Value logsumexp_fn(Interpreter& in, Args& a) {
  const Tensor& input = a.tensor("input");
  const Tensor t = input.is_float() ? input : cast(input, DType::float32);
  std::vector<int64_t> dims = a.ints("dim");
  const bool keepdim = a.flag("keepdim");
  const core::CpuKernels cpu = state(in).cpu;
  const Tensor x = t.dim() == 0 ? core::reshape(core::detach(t), {1}) : core::detach(t);
  const bool every = dims.empty();
  if (every)
    for (int64_t d = 0; d < x.dim(); ++d) dims.push_back(d);
  for (int64_t& d : dims) d = core::normalize_dim(d, x.dim());
  core::Shape kept = x.shape();   // the result with the dims kept
  for (int64_t d : dims) kept[static_cast<size_t>(d)] = 1;
  // sum over the dims, kept or not: one dim as before, several as one reduction (TensorIterator's order)
  auto sum_dims = [&](const Tensor& v, bool keep) { return dims.size() == 1 ? core::sum(v, dims[0], keep) : core::sum(v, dims, keep); };
  const bool squeeze = !keepdim && t.dim() != 0;
  Tensor r;
  if (x.numel() == 0) {   // no max of nothing: log(sum(exp(x))), -inf where a sum is empty
    r = core::log(sum_dims(core::exp(x, cpu), squeeze ? false : true), cpu);
  } else {
    Tensor m = core::amax(x, dims, true).contiguous();
    const Tensor inf = core::isinf(m);
    core::masked_fill_(m, inf, 0.0f, false);
    if (every && squeeze && t.dim() > 0)   // squeeze_multiple(maxes, ()) keeps its 1s: add_ into the 0-d sum fails
      throw RuntimeError(fmt::format("output with shape [] doesn't match the broadcast shape {}", core::shape_str(m.shape())));
    r = core::log(sum_dims(core::exp(core::binary(core::BinOp::sub, x, m), cpu), squeeze ? false : true), cpu);
    r = core::binary(core::BinOp::add, r, squeeze ? core::reshape(m, r.shape()) : m);
  }
  if (t.dim() == 0) r = core::reshape(r, {});
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  const Tensor self = x, result = r;
  Backward back{[self, result, kept, cpu, input](const Grads& g) {
                  const Tensor gk = core::reshape(*g[0], kept), rk = core::reshape(result, kept);
                  const Tensor e = core::exp(core::binary(core::BinOp::sub, self, rk), cpu);
                  return Grads{core::reshape(core::binary(core::BinOp::mul, gk, e), input.shape())};
                },
                true, {t}, true};   // LogsumexpBackward0 saves self and result
  return tensor_value(core::autograd::record(r, {&t}, "LogsumexpBackward0", std::move(back)));
}

// CumprodBackward0 as 1.13's cumprod_backward for an input without zeros: the reversed cumsum
// of output * grad, divided by the input. An input with a zero raises (1.13's other branch).
// 1.13's cumprod_backward where the input holds a zero (its O(n) branch), line by line along dim:
// before the first zero z1, reversed_cumsum(output * grad) / input; at z1, the sum along dim (ATen's
// reduction order: core::sum) of grad * cumprod of the input between z1 and the next zero z2 (1
// elsewhere, grad 0 outside [z1, z2)), times output[z1 - 1]; after z1, zero. Running sums and
// products accumulate in double, as cumsum's and cumprod's kernels do.
Tensor cumprod_grad_zeros(const Tensor& input, const Tensor& output, const Tensor& grad, int64_t dim) {
  const core::Shape& shape = input.shape();   // input, output and grad: this shape
  int64_t outer = 1, inner = 1;
  const int64_t n = shape[static_cast<size_t>(dim)];
  for (int64_t k = 0; k < dim; ++k) outer *= shape[static_cast<size_t>(k)];
  for (int64_t k = dim + 1; k < input.dim(); ++k) inner *= shape[static_cast<size_t>(k)];
  const std::vector<float> x = input.floats(), y = output.floats(), g = core::detach(grad).floats();
  std::vector<float> d(x.size(), 0.0f), between(x.size(), 0.0f);   // between: the products summed at z1
  std::vector<int64_t> first_zero(static_cast<size_t>(outer * inner));
  core::DeadlineMeter meter;   // core/deadline.h: the time limit holds inside a long backward
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      meter.add(n);
      auto at = [&](int64_t j) { return static_cast<size_t>((o * n + j) * inner + i); };
      int64_t z1 = 0;
      while (z1 < n && x[at(z1)] != 0.0f) ++z1;
      first_zero[static_cast<size_t>(o * inner + i)] = z1;
      double acc = 0;
      for (int64_t j = z1 - 1; j >= 0; --j) {
        acc += y[at(j)] * g[at(j)];
        d[at(j)] = static_cast<float>(acc) / x[at(j)];
      }
      double prod = 1;
      for (int64_t j = z1; j < n; ++j) {
        if (j > z1 && x[at(j)] == 0.0f) break;
        if (j > z1) prod *= x[at(j)];
        between[at(j)] = static_cast<float>(prod) * g[at(j)];
      }
    }
  const Tensor sums = core::sum(core::from_floats(shape, between), dim, true).contiguous();   // [.., 1 at dim, ..]
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t z1 = first_zero[static_cast<size_t>(o * inner + i)];
      if (z1 == n) continue;
      const float s = sums.data<float>()[o * inner + i];
      d[static_cast<size_t>((o * n + z1) * inner + i)] = z1 == 0 ? s : s * y[static_cast<size_t>((o * n + z1 - 1) * inner + i)];
    }
  return core::from_floats(shape, d);
}

// CumprodBackward0, saving self and result.
Backward cumprod_backward(const Tensor& self, const Tensor& input, const Tensor& output, int64_t dim) {
  const bool trivial = input.numel() <= 1 || input.dim() == 0 || input.shape()[static_cast<size_t>(dim)] == 1;
  const Tensor out = core::detach(output);
  return Backward{[input, out, dim, trivial](const Grads& g) {
                    if (trivial) return Grads{*g[0]};
                    for (float x : input.floats())
                      if (x == 0.0f) return Grads{cumprod_grad_zeros(input, out, *g[0], dim)};
                    const Tensor w = core::binary(core::BinOp::mul, out, *g[0]).contiguous();
                    const Tensor rev = core::flip(cumsum_kernel(core::flip(w, {dim}).contiguous(), dim), {dim}).contiguous();
                    return Grads{core::binary(core::BinOp::div, rev, input)};
                  },
                  true, {self}, true};
}

// cumprod(input, dim, *, dtype=None): the running product as cumsum's kernel runs it (double
// accumulation for float32, int64 for integers).
Value cumprod_fn(Interpreter&, Args& a) {
  Tensor t = a.tensor("input");
  const int64_t dim = core::normalize_dim(a.integer("dim"), std::max<int64_t>(t.dim(), 1));
  const std::optional<DType> narrow = cum_dtype(a, t, "cumprod");
  const core::Shape& shape = t.shape();
  int64_t outer = 1, inner = 1;
  const int64_t n = t.dim() == 0 ? 1 : shape[static_cast<size_t>(dim)];
  for (int64_t k = 0; k < dim; ++k) outer *= shape[static_cast<size_t>(k)];
  for (int64_t k = dim + 1; k < t.dim(); ++k) inner *= shape[static_cast<size_t>(k)];
  Tensor r;
  if (t.is_float()) {
    std::vector<float> v = core::detach(t).floats();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        double acc = 1;
        for (int64_t j = 0; j < n; ++j) {
          float& x = v[static_cast<size_t>((o * n + j) * inner + i)];
          acc *= x;
          x = static_cast<float>(acc);
        }
      }
    r = core::from_floats(shape, v);
  } else {
    std::vector<int64_t> v = t.ints();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        uint64_t acc = 1;
        for (int64_t j = 0; j < n; ++j) {
          int64_t& x = v[static_cast<size_t>((o * n + j) * inner + i)];
          acc *= static_cast<uint64_t>(x);
          x = static_cast<int64_t>(acc);
        }
      }
    r = core::from_ints(shape, v);
  }
  if (narrow) return tensor_value(core::to_dtype(r, *narrow));
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  return tensor_value(core::autograd::record(r, {&t}, "CumprodBackward0", cumprod_backward(t, core::detach(t), r, dim)));
}

// count_nonzero(input, dim=None): (input != 0).sum(dim), int64.
Value count_nonzero_fn(Interpreter&, Args& a) {
  const Tensor mask = truth(a.tensor("input"));
  if (a.overload() == 0) {
    std::optional<int64_t> dim = a.opt_integer("dim");
    return tensor_value(dim ? core::sum(mask, *dim, false) : core::sum(mask));
  }
  std::vector<int64_t> dims = a.ints("dim");   // counts are exact: one dim at a time, the last first
  if (dims.empty()) return tensor_value(core::sum(mask));
  for (int64_t& d : dims) d = core::normalize_dim(d, std::max<int64_t>(mask.dim(), 1));
  std::sort(dims.rbegin(), dims.rend());
  Tensor r = mask;
  for (int64_t d : dims) r = core::sum(r, d, false);
  return tensor_value(r);
}

// isfinite: neither NaN nor infinite (integers and bool: all True).
Value isfinite_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  if (!t.is_float()) return tensor_value(core::compare(core::CmpOp::eq, core::detach(t), core::detach(t)));
  std::vector<int64_t> v;
  for (float x : core::detach(t).floats()) v.push_back(std::isfinite(x) ? 1 : 0);
  return tensor_value(core::from_ints(t.shape(), v, DType::boolean));
}


// nan_to_num(input, nan=0.0, posinf=None, neginf=None): None is float32's largest / lowest.
// NanToNumBackward0: the gradient where the input was finite, 0 elsewhere.
Value nan_to_num_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  const float nan = a.given("nan") ? static_cast<float>(a.number("nan")) : 0.0f;
  const float pos = a.given("posinf") ? static_cast<float>(a.number("posinf")) : std::numeric_limits<float>::max();
  const float neg = a.given("neginf") ? static_cast<float>(a.number("neginf")) : std::numeric_limits<float>::lowest();
  if (!t.is_float()) return tensor_value(core::detach(t).clone());
  std::vector<float> v = core::detach(t).floats();
  std::vector<float> finite(v.size());
  for (size_t k = 0; k < v.size(); ++k) {
    finite[k] = std::isfinite(v[k]) ? 1.0f : 0.0f;
    v[k] = std::isnan(v[k]) ? nan : v[k] == INFINITY ? pos : v[k] == -INFINITY ? neg : v[k];
  }
  Tensor r = core::from_floats(t.shape(), v);
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  const Tensor mask = core::from_floats(t.shape(), finite);
  Backward back{[mask](const Grads& g) { return Grads{core::binary(core::BinOp::mul, *g[0], mask)}; }, false, {t}};
  return tensor_value(core::autograd::record(r, {&t}, "NanToNumBackward0", std::move(back)));   // saves self
}

// trace: the sum of a matrix's diagonal, accumulated in double for float32 (1.13's trace_cpu);
// TraceBackward0: the gradient on the diagonal, zeros elsewhere.
Value trace_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  if (t.dtype() == DType::boolean) throw RuntimeError("\"trace\" not implemented for 'Bool'");
  if (t.dim() != 2) throw RuntimeError(fmt::format("trace: expected a matrix, but got tensor with dim {}", t.dim()));
  const int64_t rows = t.shape()[0], cols = t.shape()[1], n = std::min(rows, cols);
  if (!t.is_float()) {
    const std::vector<int64_t> v = t.ints();
    int64_t s = 0;
    for (int64_t k = 0; k < n; ++k) s += v[static_cast<size_t>(k * cols + k)];
    return tensor_value(core::from_ints({}, {s}));
  }
  const std::vector<float> v = core::detach(t).floats();
  double s = 0;
  for (int64_t k = 0; k < n; ++k) s += v[static_cast<size_t>(k * cols + k)];
  Tensor r = core::scalar(static_cast<float>(s));
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  const core::Shape shape = t.shape();
  Backward back{[shape, n, cols](const Grads& g) {
                  std::vector<float> d(static_cast<size_t>(core::numel_of(shape)), 0.0f);
                  const float gv = core::detach(*g[0]).floats()[0];
                  for (int64_t k = 0; k < n; ++k) d[static_cast<size_t>(k * cols + k)] = gv;
                  return Grads{core::from_floats(shape, d)};
                },
                false};
  return tensor_value(core::autograd::record(r, {&t}, "TraceBackward0", std::move(back)));
}

// amin(input, dim=(), keepdim=False): float32 by core's amin (AminBackward0 saves its input and
// result; ties share the gradient as its scale_grad_by_count does), integers through min.
Value amin_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  const bool keepdim = a.flag("keepdim");
  const std::vector<int64_t> dims = a.ints("dim");   // several dims, or every dim of a float tensor
  if (dims.size() > 1 || (dims.empty() && t.is_float())) return tensor_value(core::amin(t, dims, keepdim));
  std::optional<int64_t> dim = one_dim(a, "dim");
  Tensor r;
  try {
    if (t.is_float()) {
      r = dim ? core::amin(t, *dim, keepdim) : core::amin(t);
    } else {
      r = dim ? core::max_dim(t, *dim, keepdim, true).first : core::min(t, core::CpuKernels::avx2);   // integers: exact, no family
    }
  } catch (const core::TensorError& e) {   // an empty reduction is amin's error, not amax's or min's
    const std::string m = e.what();
    for (const char* from : {"min(): "})
      if (m.rfind(from, 0) == 0) throw core::TensorError(fmt::format("amin(): {}", m.substr(std::string(from).size())), e.python_type());
    throw;
  }
  if (!dim && keepdim) r = core::reshape(r, core::Shape(t.shape().size(), 1));
  return tensor_value(r);
}

// The k-th diagonal of a rows x cols matrix as (row, col) pairs.
std::vector<std::pair<int64_t, int64_t>> diagonal_cells(int64_t rows, int64_t cols, int64_t k) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (int64_t i = k >= 0 ? 0 : -k; i < rows && i + k < cols; ++i) out.emplace_back(i, i + k);
  return out;
}

// diag(v, k): a 1-D v laid on the k-th diagonal of a square matrix of zeros; diag(m, k): the k-th
// diagonal of a matrix. DiagBackward0 is the other direction. Float32 values (integers kept as such).
Tensor diag_of(const Tensor& t, int64_t k) {
  if (t.dim() != 1 && t.dim() != 2) throw RuntimeError("matrix or a vector expected");
  const bool f = t.is_float();
  const std::vector<float> fv = f ? core::detach(t).floats() : std::vector<float>{};
  const std::vector<int64_t> iv = f ? std::vector<int64_t>{} : t.ints();
  if (t.dim() == 1) {
    const int64_t n = t.numel() + (k < 0 ? -k : k);
    std::vector<float> fo(f ? static_cast<size_t>(n * n) : 0, 0.0f);
    std::vector<int64_t> io(f ? 0 : static_cast<size_t>(n * n), 0);
    size_t j = 0;
    for (auto [r, c] : diagonal_cells(n, n, k)) {
      if (f) fo[static_cast<size_t>(r * n + c)] = fv[j++];
      else io[static_cast<size_t>(r * n + c)] = iv[j++];
    }
    return f ? core::from_floats({n, n}, fo) : core::from_ints({n, n}, io, t.dtype());
  }
  const int64_t cols = t.shape()[1];
  std::vector<float> fo;
  std::vector<int64_t> io;
  for (auto [r, c] : diagonal_cells(t.shape()[0], cols, k)) {
    if (f) fo.push_back(fv[static_cast<size_t>(r * cols + c)]);
    else io.push_back(iv[static_cast<size_t>(r * cols + c)]);
  }
  const int64_t len = static_cast<int64_t>(f ? fo.size() : io.size());
  return f ? core::from_floats({len}, fo) : core::from_ints({len}, io, t.dtype());
}

Value diag_fn(Interpreter&, Args& a) {
  const Tensor& t = a.tensor("input");
  const int64_t k = a.integer("diagonal");
  Tensor r = diag_of(t, k);
  if (!core::autograd::grad_enabled() || !t.requires_grad()) return tensor_value(r);
  const core::Shape shape = t.shape();
  Backward back{[shape, k](const Grads& g) {
                  if (shape.size() == 2) {   // the gradient on the k-th diagonal of zeros
                    std::vector<float> d(static_cast<size_t>(shape[0] * shape[1]), 0.0f);
                    const std::vector<float> gv = core::detach(*g[0]).floats();
                    size_t j = 0;
                    for (auto [r, c] : diagonal_cells(shape[0], shape[1], k)) d[static_cast<size_t>(r * shape[1] + c)] = gv[j++];
                    return Grads{core::from_floats(shape, d)};
                  }
                  return Grads{diag_of(core::detach(*g[0]), k)};
                },
                false};
  return tensor_value(core::autograd::record(r, {&t}, "DiagBackward0", std::move(back)));
}

// Tensor.where(condition, other): torch.where(condition, self, other) (1.13's method takes a tensor other only).
Value where_method(Interpreter& in, Args& a) {
  check_where_condition(in, a.tensor("condition"));
  return tensor_value(core::where(a.tensor("condition"), a.tensor("self"), a.tensor("other")));
}

// ---- matrix products by name ----

Value mm_fn(Interpreter&, Args& a) {
  const Tensor &x = a.tensor("input"), &y = a.tensor("mat2");
  if (x.dim() != 2) throw RuntimeError("self must be a matrix");
  if (y.dim() != 2) throw RuntimeError("mat2 must be a matrix");
  if (x.shape()[1] != y.shape()[0])
    throw RuntimeError(fmt::format("mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", x.shape()[0], x.shape()[1], y.shape()[0], y.shape()[1]));
  return tensor_value(core::matmul(x, y));
}

Value mv_fn(Interpreter&, Args& a) {
  const Tensor &x = a.tensor("input"), &v = a.tensor("vec");
  if (x.dim() == 0) throw core::TensorError("Dimension specified as 0 but tensor has no dimensions", "IndexError");   // addmv's size(0) of self
  if (x.dim() != 2 || v.dim() != 1)
    throw RuntimeError(fmt::format("vector + matrix @ vector expected, got 1, {}, {}", x.dim(), v.dim()));
  if (x.shape()[1] != v.shape()[0])
    throw RuntimeError(fmt::format("size mismatch, got {}, {}x{},{}", x.shape()[0], x.shape()[0], x.shape()[1], v.shape()[0]));
  return tensor_value(core::matmul(x, v));
}

// outer(input, vec2): input.reshape(-1, 1) * vec2 (1.13's outer; MulBackward0).
Value outer_fn(Interpreter&, Args& a) {
  const Tensor &x = a.tensor("input"), &y = a.tensor("vec2");
  if (x.dim() != 1) throw RuntimeError(fmt::format("outer: Expected 1-D argument self, but got {}-D", x.dim()));
  if (y.dim() != 1) throw RuntimeError(fmt::format("outer: Expected 1-D argument vec2, but got {}-D", y.dim()));
  return tensor_value(core::binary(core::BinOp::mul, core::reshape(x, {x.numel(), 1}), y));
}

// The in-place rows (Tensor.X_) of the unary ops: `result_saved` where the backward reads the result.
void add_inplace_unary(std::vector<OpRow>& rows) {
  rows.push_back({"exp_", kMethod, {"exp_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, exp_k, true); }});
  rows.push_back({"tanh_", kMethod, {"tanh_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, tanh_k, true); }});
  rows.push_back({"sqrt_", kMethod, {"sqrt_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, sqrt_k, true); }});
  rows.push_back({"rsqrt_", kMethod, {"rsqrt_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, rsqrt_k, true); }});
  rows.push_back({"reciprocal_", kMethod, {"reciprocal_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, reciprocal_k, true); }});
  rows.push_back({"log_", kMethod, {"log_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, log_k, false); }});
  rows.push_back({"sin_", kMethod, {"sin_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, sin_k, false); }});
  rows.push_back({"cos_", kMethod, {"cos_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, cos_k, false); }});
  rows.push_back({"erf_", kMethod, {"erf_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, erf_k, false); }});
  rows.push_back({"abs_", kMethod, {"abs_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, abs_k, false); }});
  rows.push_back({"pow_", kMethod, {"pow_(Tensor self, Tensor exponent)", "pow_(Tensor self, Scalar exponent)"}, [](Interpreter& in, Args& a) {
                    const core::CpuKernels cpu = state(in).cpu;
                    if (a.overload() == 0) {
                      const Tensor e = a.tensor("exponent");
                      core::check_inplace_operand(a.tensor("self"), e);
                      // ATen's pow kernel: vectorised for floats (Sleef's powf in the vector body), one element at a time for integers
                      if (overlapping_write(a.get("self"), a.get("exponent"), e.is_float(), [cpu](const Tensor& x, const Tensor& y) { return core::pow(x, y, cpu); }))
                        return a.get("self");
                      return write_back(a.get("self"), [e, cpu](const Tensor& t) { return core::pow(t, e, cpu); }, true, e.requires_grad());
                    }
                    check_integer_power(a.tensor("self"), a.get("exponent"));
                    const double e = to_double(a.get("exponent"), "exponent");
                    return write_back(a.get("self"), [e, cpu](const Tensor& t) { return core::pow(t, e, cpu); });
                  }});
  struct Round { const char* name; float (*f)(float); const char* grad_fn; };
  static const Round kRound[] = {{"floor_", floor_f, "FloorBackward0"}, {"ceil_", ceil_f, "CeilBackward0"},
                                 {"trunc_", trunc_f, "TruncBackward0"}, {"round_", round_half_even, "RoundBackward0"}};
  for (const Round& r : kRound) {
    const std::string n = r.name;
    rows.push_back({n, kMethod, {n + "(Tensor self)"}, [](Interpreter&, Args& a) {
                      const std::string& name = a.signature().name;
                      for (const Round& q : kRound)
                        if (name == q.name) return write_back(a.get("self"), [q](const Tensor& t) { return rounded(t, q.f, q.grad_fn); });
                      return a.get("self");
                    }});
  }
}

void add_elem_ops_more(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  rows.push_back({"floor", both, {"floor(Tensor input, *, Tensor out=None)"}, [](Interpreter&, Args& a) { return rounding(a, floor_f, "FloorBackward0"); }});
  rows.push_back({"ceil", both, {"ceil(Tensor input, *, Tensor out=None)"}, [](Interpreter&, Args& a) { return rounding(a, ceil_f, "CeilBackward0"); }});
  rows.push_back({"trunc", both, {"trunc(Tensor input, *, Tensor out=None)"}, [](Interpreter&, Args& a) { return rounding(a, trunc_f, "TruncBackward0"); }});
  rows.push_back({"fix", both, {"fix(Tensor input, *, Tensor out=None)"}, [](Interpreter&, Args& a) { return rounding(a, trunc_f, "TruncBackward0"); }});
  rows.push_back({"round", both, {"round(Tensor input, *, Tensor out=None)", "round(Tensor input, *, int64_t decimals, Tensor out=None)"}, round_fn});
  rows.push_back({"sign", both, {"sign(Tensor input, *, Tensor out=None)"}, sign_fn});
  rows.push_back({"frac", both, {"frac(Tensor input, *, Tensor out=None)"}, frac_fn});
  rows.push_back({"square", both, {"square(Tensor input, *, Tensor out=None)"},
                  [](Interpreter& in, Args& a) { return tensor_value(core::pow(a.tensor("input"), 2.0, state(in).cpu)); }});
  rows.push_back({"clamp_min", both, {"clamp_min(Tensor input, Tensor min, *, Tensor out=None)", "clamp_min(Tensor input, Scalar min, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return clamp_one(a, true); }});
  rows.push_back({"clamp_max", both, {"clamp_max(Tensor input, Tensor max, *, Tensor out=None)", "clamp_max(Tensor input, Scalar max, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return clamp_one(a, false); }});
  rows.push_back({"cumsum", both, {"cumsum(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)"}, cumsum_fn});
  rows.push_back({"logsumexp", both, {"logsumexp(Tensor input, IntArrayRef[1] dim, bool keepdim=False, *, Tensor out=None)"}, logsumexp_fn});
  rows.push_back({"mm", both, {"mm(Tensor input, Tensor mat2, *, Tensor out=None)"}, mm_fn});
  rows.push_back({"mv", both, {"mv(Tensor input, Tensor vec, *, Tensor out=None)"}, mv_fn});
  rows.push_back({"outer", both, {"outer(Tensor input, Tensor vec2, *, Tensor out=None)"}, outer_fn});
  rows.push_back({"ger", both, {"ger(Tensor input, Tensor vec2, *, Tensor out=None)"}, outer_fn});
  rows.push_back({"cumprod", both, {"cumprod(Tensor input, int64_t dim, *, ScalarType? dtype=None, Tensor out=None)"}, cumprod_fn});
  rows.push_back({"argsort", both,
                  {"argsort(Tensor input, *, bool stable, int64_t dim=-1, bool descending=False)", "argsort(Tensor input, int64_t dim=-1, bool descending=False)"},
                  [](Interpreter&, Args& a) {
                    const bool stable = a.overload() == 0 && a.flag("stable");
                    const Tensor& t = a.tensor("input");   // sort's indices, laid out as sort lays them out
                    return tensor_value(core::keep_layout(core::sort(t, a.integer("dim"), a.flag("descending"), stable).second, {&t}));
                  }});
  rows.push_back({"count_nonzero", both, {"count_nonzero(Tensor input, int64_t? dim=None)", "count_nonzero(Tensor input, IntArrayRef dim)"}, count_nonzero_fn});
  rows.push_back({"isfinite", both, {"isfinite(Tensor input)"}, isfinite_fn});
  rows.push_back({"isclose", both, {"isclose(Tensor input, Tensor other, double rtol=1e-05, double atol=1e-08, bool equal_nan=False)"}, isclose_fn});
  rows.push_back({"nan_to_num", both, {"nan_to_num(Tensor input, double? nan=None, double? posinf=None, double? neginf=None, *, Tensor out=None)"}, nan_to_num_fn});
  rows.push_back({"trace", both, {"trace(Tensor input)"}, trace_fn});
  rows.push_back({"amin", both, {"amin(Tensor input, IntArrayRef[1] dim=None, bool keepdim=False, *, Tensor out=None)"}, amin_fn});
  rows.push_back({"diag", both, {"diag(Tensor input, int64_t diagonal=0, *, Tensor out=None)"}, diag_fn});
  rows.push_back({"where", kMethod, {"where(Tensor self, Tensor condition, Tensor other)"}, where_method});
  add_inplace_unary(rows);
}

}  // namespace

// isclose, as 1.13's: a == b, or (equal_nan) both NaN, or |a - b| finite and <= atol + |rtol * b|,
// in float32 with rtol and atol rounded to float32 (integers: in double).
Value isclose_fn(Interpreter&, Args& a) {
  const Tensor &x = a.tensor("input"), &y = a.tensor("other");
  const double rtol = a.number("rtol"), atol = a.number("atol");
  const bool equal_nan = a.flag("equal_nan");
  if (x.dtype() != y.dtype())
    throw RuntimeError(fmt::format("{} did not match {}", core::dtype_title(x.dtype()), core::dtype_title(y.dtype())));
  if (rtol < 0) throw RuntimeError(fmt::format("rtol must be greater than or equal to zero, but got {}", rtol));
  if (atol < 0) throw RuntimeError(fmt::format("atol must be greater than or equal to zero, but got {}", atol));
  const core::Shape shape = core::broadcast_shapes(x.shape(), y.shape());
  const std::vector<float> xs = core::expand(core::to_float(core::detach(x)), shape).floats();
  const std::vector<float> ys = core::expand(core::to_float(core::detach(y)), shape).floats();
  const float rt = static_cast<float>(rtol), at = static_cast<float>(atol);
  std::vector<int64_t> out(xs.size());
  for (size_t k = 0; k < xs.size(); ++k) {
    const float p = xs[k], q = ys[k];
    bool close = p == q || (equal_nan && std::isnan(p) && std::isnan(q));
    const float allowed = at + std::fabs(rt * q), actual = std::fabs(p - q);
    if (!close && (rtol != 0 || atol != 0)) close = std::isfinite(actual) && actual <= allowed;
    out[k] = close;
  }
  return tensor_value(core::from_ints(shape, out, DType::boolean));
}

// input + alpha * other, as ATen's add kernel: a + fl32(alpha)*b (one FMA in the AVX2 family)
// for float32; integers a + alpha*b; bool a or b (alpha cast to bool). AddBackward0 /
// SubBackward0: other's gradient g * alpha.
Value add_sub(Interpreter& in, Args& a, bool sub) {
  const Value& self = a.get(a.signature().params[0].name);
  const Value& other = operand(a);
  const double alpha = a.number("alpha");
  if (alpha == 1.0) return tensor_operator(in, sub ? "-" : "+", self, other);
  const Tensor& t = as_tensor(self);
  const Tensor o = is_tensor(other) ? as_tensor(other) : number_tensor(other);
  const DType common = is_tensor(other) ? core::result_type(t, o) : core::result_type(t, number_category(other));
  if (sub) core::check_sub_dtypes(t.dtype(), is_tensor(other) ? o.dtype() : number_category(other));
  if (common != DType::float32 && a.get("alpha").kind == Value::Float)
    throw RuntimeError("For integral input tensors, argument alpha must not be a floating point number.");
  if (common == DType::boolean)   // alpha cast to bool: a or b, or a
    return tensor_value(alpha != 0.0 ? core::binary(core::BinOp::add, t, o, common) : core::to_dtype(t, common));
  const double s = sub ? -alpha : alpha;
  if (common != DType::float32) {
    Tensor scaled = core::binary_scalar(core::BinOp::mul, core::to_dtype(o, common), s, false, DType::int64);
    return tensor_value(core::to_dtype(core::binary(core::BinOp::add, core::to_dtype(t, common), scaled), common));
  }
  const core::Shape shape = core::broadcast_shapes(t.shape(), o.shape());
  const Tensor tf = core::expand(core::detach(core::to_float(t)), shape), of = core::detach(core::to_float(o));
  Tensor r = add_scaled(tf, of, s, state(in).cpu);
  if (!core::autograd::grad_enabled() || !(t.requires_grad() || o.requires_grad())) return tensor_value(r);
  Backward back{[s](const Grads& g) { return Grads{*g[0], core::binary_scalar(core::BinOp::mul, *g[0], s)}; }, false};
  return tensor_value(core::autograd::record(r, {&t, &o}, sub ? "SubBackward0" : "AddBackward0", std::move(back)));
}

void add_elem_ops(std::vector<OpRow>& rows) {
  const unsigned both = kFunction | kMethod;
  // ---- named forms of the operators ----
  rows.push_back({"add", both, {"add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)", "add(Tensor input, Scalar other, Scalar alpha=1)"},
                  [](Interpreter& in, Args& a) { return add_sub(in, a, false); }});
  rows.push_back({"sub", both, {"sub(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)", "sub(Tensor input, Scalar other, Scalar alpha=1)"},
                  [](Interpreter& in, Args& a) { return add_sub(in, a, true); }});
  rows.push_back({"subtract", both, {"subtract(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)", "subtract(Tensor input, Scalar other, Scalar alpha=1)"},
                  [](Interpreter& in, Args& a) { return add_sub(in, a, true); }});
  for (const char* name : {"mul", "multiply"}) {
    const std::string n = name;
    rows.push_back({n, both, {n + "(Tensor input, Tensor other, *, Tensor out=None)", n + "(Tensor input, Scalar other)"},
                    [](Interpreter& in, Args& a) { return named(in, a, "*"); }});
  }
  for (const char* name : {"div", "divide"}) {
    const std::string n = name;
    rows.push_back({n, both,
                    {n + "(Tensor input, Tensor other, *, Tensor out=None)", n + "(Tensor input, Tensor other, *, std::string? rounding_mode, Tensor out=None)",
                     n + "(Tensor input, Scalar other, *, std::string? rounding_mode)", n + "(Tensor input, Scalar other)"},
                    div_fn});
  }
  rows.push_back({"true_divide", both, {"true_divide(Tensor input, Tensor other, *, Tensor out=None)", "true_divide(Tensor input, Scalar other)"},
                  [](Interpreter& in, Args& a) { return named(in, a, "/"); }});
  rows.push_back({"floor_divide", both, {"floor_divide(Tensor input, Tensor other, *, Tensor out=None)", "floor_divide(Tensor input, Scalar other)"},
                  [](Interpreter& in, Args& a) { return named(in, a, "//"); }});
  rows.push_back({"remainder", both,
                  {"remainder(Tensor input, Tensor other, *, Tensor out=None)", "remainder(Scalar self, Tensor other)",
                   "remainder(Tensor input, Scalar other, *, Tensor out=None)"},
                  remainder_fn});
  rows.push_back({"fmod", both, {"fmod(Tensor input, Tensor other, *, Tensor out=None)", "fmod(Tensor input, Scalar other, *, Tensor out=None)"}, fmod_fn});
  rows.push_back({"fmod_", kMethod, {"fmod_(Tensor self, Tensor other)", "fmod_(Tensor self, Scalar other)"},
                  [](Interpreter& in, Args& a) { return fmod_inplace(in, a, false); }});
  rows.push_back({"remainder_", kMethod, {"remainder_(Tensor self, Tensor other)", "remainder_(Tensor self, Scalar other)"},
                  [](Interpreter& in, Args& a) { return fmod_inplace(in, a, true); }});
  for (const char* name : {"neg", "negative"}) {
    const std::string n = name;
    rows.push_back({n, both, {n + "(Tensor input, *, Tensor out=None)"}, [](Interpreter&, Args& a) {
                      if (a.tensor("input").dtype() == DType::boolean)
                        throw RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
                      return tensor_value(core::neg(a.tensor("input")));
                    }});
  }
  rows.push_back({"neg_", kMethod, {"neg_(Tensor self)"}, [](Interpreter& in, Args& a) { return inplace_unary(in, a, neg_k, false); }});
  for (const char* name : {"eq", "ne", "lt", "le", "gt", "ge", "not_equal", "less", "less_equal", "greater", "greater_equal"}) {
    const std::string n = name;
    rows.push_back({n, both, {n + "(Tensor input, Tensor other, *, Tensor out=None)", n + "(Tensor input, Scalar other, *, Tensor out=None)"},
                    [](Interpreter& in, Args& a) { return named(in, a, operator_of(a.signature().name)); }});
  }
  rows.push_back({"logical_and", both, {"logical_and(Tensor input, Tensor other, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return logical(a, core::BitOp::and_); }});
  rows.push_back({"logical_xor", both, {"logical_xor(Tensor input, Tensor other, *, Tensor out=None)"},
                  [](Interpreter&, Args& a) { return logical(a, core::BitOp::xor_); }});
  for (const char* name : {"bitwise_and", "bitwise_or", "bitwise_xor"}) {
    const std::string n = name;
    rows.push_back({n, both, {n + "(Tensor input, Tensor other, *, Tensor out=None)", n + "(Tensor input, Scalar other, *, Tensor out=None)"},
                    [](Interpreter& in, Args& a) { return named(in, a, operator_of(a.signature().name)); }});
  }
  for (const char* name : {"bitwise_left_shift", "bitwise_right_shift"}) {
    const std::string n = name;
    rows.push_back({n, both,
                    {n + "(Tensor input, Tensor other, *, Tensor out=None)", n + "(Tensor input, Scalar other, *, Tensor out=None)",
                     n + "(Scalar self, Tensor other)"},
                    [](Interpreter& in, Args& a) {
                      const char* op = a.signature().name == "bitwise_left_shift" ? "<<" : ">>";
                      if (a.overload() == 2) return tensor_operator(in, op, a.get("other"), a.get("self"), true);
                      return tensor_operator(in, op, a.get("input"), operand(a));
                    }});
    rows.push_back({n + "_", kMethod, {n + "_(Tensor self, Tensor other)", n + "_(Tensor self, Scalar other)"}, [](Interpreter& in, Args& a) {
                      const char* op = a.signature().name == "bitwise_left_shift_" ? "<<" : ">>";
                      return shift_inplace(in, op, a.get("self"), a.get("other"));
                    }});
  }
  add_elem_ops_more(rows);
}

}  // namespace attn::torch
