// torch/values.h: torch's types as Python values: Tensor (and nn.Parameter), torch.Size,
// torch.dtype and torch.device, registered with the interpreter as native classes.
//
// What it is: the bridge between py/ (a Python that knows nothing of tensors) and core/ (the
// tensors): a Tensor value is an instance of the native class torch.Tensor whose payload is a
// core::Tensor handle; torch.Size is a tuple tagged with its own class (type(x.shape) is
// torch.Size, and it is still a tuple); a dtype or device is a small native object. The classes'
// hooks (py/value.h's Slots) give tensors Python's protocol: attributes and methods (the op
// table), indexing, operators, comparisons, iteration, len, bool, repr (tensor_hooks.cpp).
// What it is not: the ops themselves (op_table.h, core/), or session state (session.h).
#pragma once

#include <optional>
#include <string>

#include "core/random.h"
#include "core/tensor.h"
#include "py/interpreter.h"
#include "py/value.h"

namespace attn::torch {

using py::CallArgs;
using py::ClassPtr;
using py::Interpreter;
using py::Value;

// A Tensor value's object: its class is torch.Tensor (or nn.Parameter, a subclass).
struct TensorObject : py::InstanceObj {
  core::Tensor t;
};

const ClassPtr& tensor_class();      // torch.Tensor
const ClassPtr& parameter_class();   // torch.nn.Parameter (torch.nn.parameter.Parameter)
const ClassPtr& size_class();        // torch.Size, a subclass of tuple
const ClassPtr& dtype_class();       // torch.dtype
const ClassPtr& device_class();      // torch.device
const ClassPtr& generator_class();   // torch.Generator (torch._C.Generator)

// A core tensor as a Python value: a Parameter when t.is_parameter(), else a Tensor.
Value tensor_value(core::Tensor t);
bool is_tensor(const Value& v);
// The tensor of a Tensor value; TypeError "expected a Tensor, got int" for anything else.
core::Tensor& as_tensor(const Value& v);

Value size_value(const core::Shape& shape);   // torch.Size([...])
bool is_size(const Value& v);

Value dtype_value(core::DType d);             // torch.float32, torch.int64, torch.uint8, ... (one object each)
bool is_dtype(const Value& v);
core::DType dtype_of(const Value& dtype);     // TypeError for a value that is no dtype
std::string dtype_name(core::DType d);        // "torch.float32"

Value make_device(const std::string& type, const Value& index);   // RuntimeError for an unknown type
Value cpu_device();                           // torch.device('cpu'): what Tensor.device is in attn
bool is_device(const Value& v);
bool is_cpu_device(const Value& v);           // "cpu", "cpu:0" or torch.device('cpu')

// The session's default generator as a Python object (torch.default_generator, what
// torch.manual_seed returns); draws through it are the session's own (TorchState::generator).
Value default_generator(Interpreter& in);
// The core generator of a torch.Generator value (generator= of rand, randn), or nullptr.
core::Generator* generator_ptr(const Value& v);
Value seed_value(uint64_t seed);   // a seed (0 to 2**64 - 1) as a Python int

// A number handed to torch as a Scalar (an int, float, bool or one-element tensor): an int
// beyond int64 is PyTorch's "Overflow when unpacking long".
double torch_scalar(const Value& v, const char* what);
// PyTorch's name for a value's type in its messages: "int", "Tensor", "Parameter", "torch.Size".
std::string py_typename(const Value& v);

// The classes' hooks (tensor_hooks.cpp), installed once with the classes.
void install_tensor_hooks(py::ClassObj& tensor);
void install_size_hooks(py::ClassObj& size);

}  // namespace attn::torch
