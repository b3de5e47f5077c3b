// torch/op_table.cpp: building the op table, calling a row, and the helpers rows share
// (see op_table.h).
#include "torch/op_table.h"

#include <fmt/format.h>

#include <set>

#include "torch/bindings.h"
#include "py/interpreter.h"

namespace attn::torch {

namespace {

std::string last_component(const std::string& name) {
  auto dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace

// How an op's result is laid out in PyTorch when an input is not contiguous (core::keep_layout):
// as a TensorIterator over every tensor argument lays it out (elementwise ops, casts (_to_copy)
// and clone (empty_like with preserve_format) alike), or as attn made it (contiguous:
// reductions, shape ops, creation, masked_fill, softmax, which PyTorch makes contiguous too).
static bool iterator_layout(const std::string& name) {
  static const std::set<std::string> iterator = {
      "abs", "absolute", "neg", "negative", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt",
      "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "erf", "erfc", "erfinv",
      "reciprocal", "sign", "sgn", "floor", "ceil", "trunc", "round", "frac", "square", "isnan", "isinf", "isfinite",
      "isposinf", "isneginf", "nan_to_num", "logical_not", "logical_and", "logical_or", "logical_xor", "bitwise_not",
      "bitwise_and", "bitwise_or", "bitwise_xor", "add", "sub", "subtract", "mul", "multiply", "div", "divide",
      "true_divide", "floor_divide", "remainder", "fmod", "pow", "eq", "ne", "lt", "le", "gt", "ge", "greater",
      "greater_equal", "less", "less_equal", "not_equal", "clamp", "clip", "clamp_min", "clamp_max", "where", "maximum",
      "minimum", "fmax", "fmin", "atan2", "hypot", "xlogy", "lerp", "gelu", "silu", "hardtanh", "rsub",
      "nn.functional.relu", "nn.functional.gelu", "nn.functional.sigmoid", "nn.functional.silu", "nn.functional.tanh",
      "nn.functional.leaky_relu", "nn.functional.elu",
      "nn.functional.softplus", "float", "long", "int", "bool", "byte", "char", "short", "to", "type_as", "clone"};
  return iterator.count(name) != 0;
}

OpTable::OpTable(std::vector<OpRow> rows, Parsing parsing) {
  for (OpRow& row : rows) {
    auto op = std::make_unique<Op>();
    op->name = row.name;
    op->impl = row.impl;
    op->iterator_layout = iterator_layout(row.name);
    op->variants_ = row.variants;
    op->texts_ = std::move(row.signatures);
    if (!row.impl || op->texts_.empty() || !(row.variants & (kFunction | kMethod)))
      throw SignatureError("op table: row '" + row.name + "' needs signatures, an implementation and a variant");
    if (parsing == kEager) op->parse();
    if (row.variants & kMethod) {
      if (methods_.count(row.name)) throw SignatureError("op table: Tensor." + row.name + " is registered twice");
      methods_[row.name] = op.get();
    }
    if (row.variants & kFunction) {
      if (functions_.count(row.name)) throw SignatureError("op table: torch." + row.name + " is registered twice");
      functions_[row.name] = op.get();
    }
    ops_.push_back(std::move(op));
  }
}

// The row's signatures parsed; for a method, its forms without self and out.
OpTable::Op::Parsed OpTable::Op::parse_rows() const {
  Parsed p;
  for (const std::string& text : texts_) {
    Signature s = parse_signature(text);
    if (s.name != last_component(name))
      throw SignatureError(fmt::format("op table: row '{}' has a signature for '{}'", name, s.name));
    p.overloads.push_back(std::move(s));
  }
  if (variants_ & kMethod) {
    for (size_t k = 0; k < p.overloads.size(); ++k)
      if (auto m = as_method(p.overloads[k])) {
        p.method_forms.push_back(std::move(*m));
        p.method_overload.push_back(k);
      }
    if (p.method_forms.size() > 1)   // METH_NOARGS only when the method has no overloads
      for (Signature& m : p.method_forms) m.noargs_method = false;
    if (p.method_forms.empty())
      throw SignatureError("op table: Tensor." + name + " needs an overload whose first parameter is 'Tensor input' or 'Tensor self'");
  }
  return p;
}

const OpTable::Op* OpTable::function(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second;
}

const OpTable::Op* OpTable::method(const std::string& name) const {
  auto it = methods_.find(name);
  return it == methods_.end() ? nullptr : it->second;
}

std::vector<std::string> OpTable::function_names() const {
  std::vector<std::string> out;
  for (auto& [name, op] : functions_) out.push_back(name);
  return out;
}

std::vector<std::string> OpTable::method_names() const {
  std::vector<std::string> out;
  for (auto& [name, op] : methods_) out.push_back(name);
  return out;
}

// Casts and clone lay their copy out as _to_copy / clone with preserve_format do
// (core::preserve_layout), not as a TensorIterator.
static bool copy_layout(const std::string& name) {
  static const std::set<std::string> copies = {"float", "long", "int", "bool", "byte", "char", "short", "to", "type_as", "clone"};
  return copies.count(name) != 0;
}

// Ops whose Python-number operand ATen wraps into a 0-d tensor the TensorIterator sees
// (wrapped_scalar_tensor: add, eq, where, ...); clamp, pow(x, 2) and the activations take theirs
// as a kernel argument.
static bool wraps_scalar(const std::string& name) {
  static const std::set<std::string> wrapping = {
      "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "remainder", "fmod",
      "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal", "not_equal", "bitwise_and",
      "bitwise_or", "bitwise_xor", "where", "xlogy", "rsub"};
  return wrapping.count(name) != 0;
}

// An elementwise op's result in the layout TensorIterator gives it (core::keep_layout), a cast's
// or clone's as its input's (core::preserve_layout).
static Value lay_out(Value result, const Args& args, const std::string& name) {
  if (!is_tensor(result)) return result;
  std::vector<const core::Tensor*> inputs;
  bool scalar_operand = false;
  for (size_t k = 0; k < args.signature().params.size(); ++k) {
    const Value& v = args.value_at(k);
    if (is_tensor(v)) inputs.push_back(&as_tensor(v));
    const std::string& param = args.signature().params[k].name;
    if (v.is_number() && (param == "other" || param == "input" || param == "self")) scalar_operand = true;
  }
  core::Tensor& t = as_tensor(result);   // the result object's payload: the same variable, laid out anew
  for (const core::Tensor* in : inputs)
    if (t.shares_storage(*in)) return result;   // an input itself (x.float() of a float x) or a view of one
  if (copy_layout(name)) {
    if (!inputs.empty()) t = core::preserve_layout(t, *inputs[0]);
    return result;
  }
  t = core::keep_layout(t, inputs, scalar_operand && wraps_scalar(name));
  return result;
}

static Value run(Interpreter& in, const OpTable::Op& op, Args& args) {
  args.check_environment();
  Value result = op.impl(in, args);
  args.check_all_read();
  return op.iterator_layout ? lay_out(std::move(result), args, op.name) : result;
}

Value OpTable::call_function(Interpreter& in, const Op& op, const CallArgs& call) const {
  Args args = bind_call(op.overloads(), call, "torch." + op.name);
  return run(in, op, args);
}

Value OpTable::call_method(Interpreter& in, const Op& op, const Value& self, const CallArgs& call) const {
  Args bound = bind_call(op.method_forms(), call, "Tensor." + op.name, op.method_overload());
  // Lay the arguments out as the full signature, so one implementation serves both variants.
  const Signature& full = op.overloads()[bound.overload()];
  Args args(py::Args(full, bound.overload(), bound.qualname()));
  args.set(0, self, true);
  for (const Param& p : bound.signature().params) args.set(static_cast<size_t>(full.index_of(p.name)), bound.get(p.name), bound.given(p.name));
  return run(in, op, args);
}

const OpTable& torch_ops() {
  static const OpTable table(torch_op_rows(), OpTable::kLazy);
  return table;
}

std::vector<OpRow> torch_op_rows() {
  std::vector<OpRow> rows;
  add_creation_ops(rows);
  add_math_ops(rows);
  add_shape_ops(rows);
  add_layer_ops(rows);
  add_attention_ops(rows);
  add_autograd_ops(rows);
  add_select_ops(rows);
  add_loss_ops(rows);
  add_index_ops(rows);
  add_type_ops(rows);
  add_shape_extra_ops(rows);
  add_functional_extra_ops(rows);
  add_elem_ops(rows);
    return rows;
}

// ---- helpers ----

core::Tensor cast(const core::Tensor& t, core::DType dtype) { return core::to_dtype(t, dtype); }

void require_dtype(Args& a, core::DType natural) {
  std::optional<core::DType> d = a.dtype("dtype");
  if (d && *d != natural) a.unsupported("dtype", fmt::format("this op computes {} here", dtype_name(natural)));
}

std::optional<int64_t> one_dim(Args& a, const char* name) {
  std::vector<int64_t> dims = a.ints(name);
  if (dims.empty()) return std::nullopt;
  if (dims.size() > 1) a.unsupported(name, "attn reduces over one dim at a time");
  return dims[0];
}

}  // namespace attn::torch
