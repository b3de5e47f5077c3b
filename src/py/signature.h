// py/signature.h: function signatures in PyTorch's (or Python's) own notation, and the binder
// that matches a call's positional and keyword arguments to them with PyTorch's errors.
//
// What it is: `Signature::parse("sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *,
// ScalarType? dtype=None)")` once at start-up; `bind_args(overloads, call)` per call, which picks the
// first overload the arguments fit (PyTorch's python_arg_parser.cpp rules: types checked, `*`
// keyword-only, defaults, `rand(2, 3)` == `rand((2, 3))`) and raises PyTorch 1.13's TypeError
// otherwise ("sum() received an invalid combination of arguments - got (dimm=int, ), but expected
// one of: ..."). A signature starting with `def ` is a Python function (`def manual_seed(seed)`,
// `def Linear.__init__(self, in_features, ...)`): untyped, `/`, `*args`, and CPython's messages.
// What it is not: the implementations (op_table.h holds the rows) or Python's own `def` calls
// (interpreter.cpp).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "py/value.h"

namespace attn::py {

// A signature text that cannot be parsed, or a table that registers a name twice: a bug in attn,
// found when the table is built (at start-up, and by the tests).
struct SignatureError : std::logic_error {
  using std::logic_error::logic_error;
};

struct Param {
  // PyTorch's parameter types (python_arg_parser.h), plus `any` for Python-style parameters.
  enum class Type { any, tensor, tensor_list, scalar, int64, int_list, float64, boolean, dtype,
                    device, layout, memory_format, generator, str, object, dimname, dimname_list };
  std::string name;
  Type type = Type::any;
  std::string type_text;        // PyTorch's name for it in messages: "tuple of ints", "torch.dtype"
  int list_size = 0;            // int[1]: a single int stands for a list of that size
  bool nullable = false;        // `?`: None is accepted and means "not given"
  bool has_default = false;     // `=...`: may be left out
  Value default_value;          // None unless the signature gives another
  bool keyword_only = false;    // after `*`
  bool positional_only = false; // Python style, before `/`
  bool star_args = false;       // Python style `*args`: takes the remaining positional arguments
  bool required() const { return !has_default && !star_args; }
};

struct Signature {
  enum class Style { torch, python };
  Style style = Style::torch;
  std::string name;             // "sum", "Linear.__init__"
  std::vector<Param> params;
  size_t min_args = 0;          // parameters without a default (PyTorch's min_args)
  size_t max_pos_args = 0;      // parameters before `*`
  bool varargs_intlist = false; // one positional int list: rand(2, 3) means rand((2, 3))
  bool noargs_method = false;   // a Tensor method without parameters: CPython's METH_NOARGS errors

  // Throws SignatureError naming the text when it is not a signature.
  static Signature parse(std::string_view text);
  // The Tensor.X form of a torch.X signature: without its first parameter (`input`/`self`, which
  // the tensor fills) and without `out`. Nullopt when the first parameter is not a Tensor named
  // input or self (an overload only the function has, e.g. repeat_interleave(Tensor repeats)).
  std::optional<Signature> as_method() const;
  // PyTorch 1.13's FunctionSignature::toString(): "(Tensor input, int dim, *, torch.dtype dtype)".
  std::string to_string() const;
  int index_of(std::string_view param) const;   // -1 when absent
};

// A call bound to one overload. Accessors read by parameter name and return the default for an
// argument the call left out. The op table checks afterwards that every argument the call gave
// was read, so an implementation cannot ignore one silently.
class Args {
 public:
  Args(const Signature& sig, size_t overload, std::string qualname);

  size_t overload() const { return overload_; }          // index among the row's signatures
  const std::string& qualname() const { return qualname_; }   // "torch.sum", "Tensor.sum"
  bool given(std::string_view name) const;                // passed, and not None
  const Value& get(std::string_view name);                // the value, or the default

  core::Tensor& tensor(std::string_view name);
  int64_t integer(std::string_view name);
  std::optional<int64_t> opt_integer(std::string_view name);   // None -> nullopt
  double number(std::string_view name);
  bool flag(std::string_view name);
  std::vector<int64_t> ints(std::string_view name);      // int list (a single int is [int])
  std::vector<core::Tensor> tensors(std::string_view name);
  std::optional<core::DType> dtype(std::string_view name);   // None -> nullopt
  std::string string(std::string_view name);

  // Raise NotImplementedError for an argument attn does not implement, naming it and its value.
  [[noreturn]] void unsupported(std::string_view name, std::string_view why = "");
  // Arguments attn has no use for raise NotImplementedError, before the implementation runs:
  // device= other than the CPU, out=, layout=, pin_memory=True, generator=, memory_format=, and
  // named dimensions (a Dimname parameter: x.sum('rows'), torch.ones(2, names=...)).
  void check_environment();
  // After the implementation ran: an argument it never read raises NotImplementedError.
  void check_all_read() const;

  // Used by the binder.
  void set(size_t k, Value v, bool given);
  const Signature& signature() const { return *sig_; }

 private:
  const Signature* sig_;
  size_t overload_;
  std::string qualname_;
  std::vector<Value> values_;
  std::vector<bool> given_;
  std::vector<bool> read_;
  size_t at(std::string_view name) const;
};

// Bind a call to the first overload it fits, in order; when none fits, raise PyTorch's error for
// the torch style (one overload: its own message; several: "received an invalid combination") or
// CPython's for the Python style. For a method, `sigs` are the method forms (Signature::as_method).
// The returned Args is laid out for `sigs[k]`; `overload_of[k]` is its index in the row.
Args bind_args(const std::vector<Signature>& sigs, const CallArgs& call, const std::string& qualname,
          const std::vector<size_t>& overload_of = {});
// One Python-style or torch-style signature: bind or raise.
Args bind_args(const Signature& sig, const CallArgs& call, const std::string& qualname);

// PyTorch's name for a value's type in messages: "int", "Tensor", "torch.Size", "NoneType".
std::string py_typename(const Value& v);
core::DType dtype_of(const Value& dtype);   // torch.float32 / int64 / bool

}  // namespace attn::py
