// torch/signature.h: PyTorch's function signatures, in its own notation, and the binder that
// matches a call's arguments to them with PyTorch 1.13's errors.
//
// What it is: `parse_signature("sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *,
// ScalarType? dtype=None)")` once at start-up; `bind_call(overloads, call)` per call, which picks
// the first overload the arguments fit (PyTorch's python_arg_parser.cpp rules: types checked, `*`
// keyword-only, defaults, `rand(2, 3)` == `rand((2, 3))`) and raises PyTorch 1.13's TypeError
// otherwise ("sum() received an invalid combination of arguments - got (dimm=int, ), but expected
// one of: ..."). A signature starting with `def ` is a Python function (`def manual_seed(seed)`,
// `def Linear.__init__(self, in_features, ...)`), parsed and bound by py/signature.h with
// CPython's messages. The signatures are py::Signature with the library's parameter types
// (ParamType); Args adds the tensor accessors.
// What it is not: the implementations (op_table.h holds the rows) or Python's own `def` calls.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tensor.h"
#include "py/signature.h"

namespace attn::torch {

using py::CallArgs;
using py::Param;
using py::Signature;
using py::SignatureError;
using py::Value;

// PyTorch's parameter types (python_arg_parser.h), kept in Param::type (0: any, Python style).
enum class ParamType : int { any = 0, tensor, tensor_list, scalar, int64, int_list, float64, boolean, dtype,
                             device, layout, memory_format, generator, str, object, dimname, dimname_list };
inline ParamType param_type(const Param& p) { return static_cast<ParamType>(p.type); }

// PyTorch's notation, or a Python signature when it starts with `def `. SignatureError for a
// text that is neither.
Signature parse_signature(std::string_view text);
// The Tensor.X form of a torch.X signature: without its first parameter (`input`/`self`, which
// the tensor fills) and without `out`. Nullopt when the first parameter is not a Tensor named
// input or self (an overload only the function has, e.g. repeat_interleave(Tensor repeats)).
std::optional<Signature> as_method(const Signature& sig);
// PyTorch 1.13's FunctionSignature::toString(): "(Tensor input, int dim, *, torch.dtype dtype)".
std::string signature_string(const Signature& sig);

// A call bound to one overload, with the accessors of torch's types.
class Args : public py::Args {
 public:
  explicit Args(py::Args bound) : py::Args(std::move(bound)) {}
  core::Tensor& tensor(std::string_view name);
  std::vector<core::Tensor> tensors(std::string_view name);
  std::optional<core::DType> dtype(std::string_view name);   // None -> nullopt
  // Arguments attn has no use for raise NotImplementedError, before the implementation runs:
  // device= other than the CPU, out=, layout=, pin_memory=True, memory_format=, and
  // named dimensions (a Dimname parameter: x.sum('rows'), torch.ones(2, names=...)).
  void check_environment();
};

// Bind a call to the first overload it fits, in order; when none fits, raise PyTorch's error for
// the torch style (one overload: its own message; several: "received an invalid combination") or
// CPython's for the Python style. For a method, `sigs` are the method forms (as_method).
// The returned Args is laid out for `sigs[k]`; `overload_of[k]` is its index in the row.
Args bind_call(const std::vector<Signature>& sigs, const CallArgs& call, const std::string& qualname,
               const std::vector<size_t>& overload_of = {});
// One Python-style or torch-style signature: bind or raise.
Args bind_call(const Signature& sig, const CallArgs& call, const std::string& qualname);

}  // namespace attn::torch
