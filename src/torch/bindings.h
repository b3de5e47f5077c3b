// torch/bindings.h: what the files of src/torch share: the names they use from py/ (the public
// API a native library is written against), and the functions one binding file offers another.
//
// What it is: declarations only, one line each with the file that defines it. What it is not:
// a public header for lesson/ or lab/ (those use session.h, printed.h and values.h).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops.h"
#include "core/tensor.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/limits.h"
#include "torch/session.h"
#include "torch/signature.h"
#include "torch/values.h"

namespace attn::torch {

// ---- from py/: the whole public API (values, calls, Python's errors, limits). torch's own Args
// and bind_call (signature.h) are the ones meant where py has a namesake.
using namespace py;   // NOLINT(google-build-using-namespace): internal to src/torch
using Args = torch::Args;

// ---- between the binding files ----
// tensor.grad_fn: None for a leaf, else the node as a Python object (grad_fn.cpp).
Value grad_fn_value(const core::Tensor& t);
// `x += y` & co. on a tensor x (and x.add_(y), ...): written in place, x returned (ops_autograd.cpp).
// Through a view, its base takes CopySlices (core::autograd::in_place).
Value tensor_inplace(Interpreter& in, core::BinOp op, const Value& self, const Value& other);
// x (op) other with the operator's promotion and grad_fn: "+", "-", "*", "/", "//", "%", "&",
// "|", "^", "<<", ">>", "**" and the six comparisons; reflected: other (op) x (tensor_hooks.cpp).
Value tensor_operator(Interpreter& in, const std::string& op, const Value& self, const Value& other, bool reflected = false);
// x <<= other, x >>= other (and bitwise_left_shift_ / bitwise_right_shift_): PyTorch's cast check
// (a float other into an integer x), then the shift written back into x (tensor_hooks.cpp).
Value shift_inplace(Interpreter& in, const std::string& op, const Value& self, const Value& other);
// The grad_fn of self // other or self % other (a number operand: no edge), over r (ops_elem.cpp).
core::Tensor record_floor_op(core::Tensor r, const core::Tensor& self, const core::Tensor& other, bool remainder,
                             bool self_number, bool other_number);
// torch.isclose (input, other, rtol, atol, equal_nan of a; ops_elem.cpp): a bool tensor.
Value isclose_fn(Interpreter& in, Args& a);
// torch.add / torch.sub with alpha= (input, other, alpha of a; ops_elem.cpp), a new tensor.
Value add_sub(Interpreter& in, Args& a, bool sub);
// a + fl32(alpha)*b (b broadcast to a's shape), float32, as ATen's add with alpha (optim.cpp).
core::Tensor add_scaled(const core::Tensor& a, const core::Tensor& b, double alpha, core::CpuKernels cpu);
// An out-of-place op's result written back into self (PyTorch's in-place variants: clamp_,
// relu_, scatter_, index_fill_): op gets a private copy of self carrying its history, self keeps
// its storage and object and takes the result's grad_fn (or its base CopySlices, for a view);
// PyTorch's leaf and view checks first (core::autograd::in_place; ops_autograd.cpp).
// result_saved: the node reads its result (relu_), so writing into self again makes backward()
// raise, as PyTorch's version check does.
// others_require_grad: an operand besides self does (pow_ with a tensor exponent).
// self op= other when PyTorch's overlap check calls them TOO_HARD (core::overlapping_apply): op
// computes each block of ATen's loop (vectorised: cpu_kernel_vec's blocks, else one element at a
// time), reading what earlier blocks wrote. False (nothing done) when other is no tensor, the
// overlap is another, or autograd records the write (then the caller's own path runs).
bool overlapping_write(const Value& self, const Value& other, bool vectorised,
                       const std::function<core::Tensor(const core::Tensor&, const core::Tensor&)>& op);
Value write_back(const Value& self, const std::function<core::Tensor(const core::Tensor&)>& op, bool result_saved = false,
                 bool others_require_grad = false);
// Tensor.index_put_: self[indices] = values (accumulate: added in), recorded as `x[idx] = v` is
// (IndexPutBackward0). tensor_hooks.cpp.
void index_put_method(core::Tensor& t, const std::vector<Value>& indices, const core::Tensor& values, bool accumulate);
// pow of an integer (or bool) tensor to a negative Python int: ATen's RuntimeError (a float
// exponent, or an exponent tensor, computes). ops_math.cpp.
void check_integer_power(const core::Tensor& base, const Value& exponent);
// F.linear / nn.Linear's forward: x @ W.T (+ b), with the grad_fn 1.13 records for x's rank
// (nn_functional.cpp).
core::Tensor linear_apply(const core::Tensor& x, const core::Tensor& w, const core::Tensor* bias);

// Registration of torch's namespaces (each in the file named).
void add_grad_mode(NamespaceObj& torch);           // grad_mode.cpp: no_grad, enable_grad, set_grad_enabled, is_grad_enabled
void add_torch_environment(NamespaceObj& torch);   // torch_env.cpp: cuda, backends, set_printoptions, pi, typename, ...
void add_optim_kernels(NamespaceObj& torch);       // optim.cpp: the for-loop SGD and AdamW steps optim.py calls
void add_data_natives(NamespaceObj& torch);        // ops_creation.cpp: float64 multinomial for WeightedRandomSampler
void add_nn_natives(NamespaceObj& torch);          // nn_functional.cpp: the native part of MultiheadAttention, Module.to's check
void add_tensor_types(NamespaceObj& torch);
void add_autograd_natives(NamespaceObj& torch);    // autograd_natives.cpp: engine calls for torch.autograd, Variable        // tensor_types.cpp: torch.uint8, torch.int, torch.LongTensor, ...
// tensor_types.cpp: NotImplementedError naming a float64 or float16 name (torch.float64, Tensor.double).
[[noreturn]] void refuse_float64(const std::string& what);
// tensor_types.cpp: PyTorch 1.13's UserWarning (through Python's warnings, on stderr) for a uint8
// mask given to masked_fill or x[mask] = v (which is masked_fill_), taken as a bool one.
void warn_uint8_mask(Interpreter& in, const core::Tensor& mask);
// tensor_types.cpp: torch.where's condition as 1.13's where_self_out takes it: bool, or uint8 with
// a UserWarning once a session (TORCH_WARN_ONCE); any other dtype is its RuntimeError.
void check_where_condition(Interpreter& in, const core::Tensor& cond);
// Tensor.uniform_ / normal_ (and nn.init's): t filled in place from g, PyTorch's checks (nn_init.cpp).
void uniform_fill(core::Generator& g, core::Tensor& t, double a, double b);
void normal_fill(core::Generator& g, core::Tensor& t, double mean, double std);
// warnings.warn(msg, UserWarning), as PyTorch's Python code warns (tensor_types.cpp).
void user_warning(Interpreter& in, const std::string& msg);
// A size argument (torch.rand(2, 3), size=(2, 3)): PyTorch's negative-dimension error, attn's 50-million-element cap.
core::Shape shape_arg(Args& a, const char* name);
Value make_nn_init();                              // nn_init.cpp: torch.nn.init

// The Python files of src/torch/python/, embedded at build time (cmake/embed_python.cmake):
// (file name, source) pairs.
const std::vector<std::pair<std::string_view, std::string_view>>& python_sources();   // the binary's text: never copied
std::string_view python_source(std::string_view file);

}  // namespace attn::torch
