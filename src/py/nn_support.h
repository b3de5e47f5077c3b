// py/nn_support.h: what the torch.nn files share (nn_modules.cpp, nn_layers.cpp, nn_init.cpp,
// nn_attention.cpp): making module classes and parameters, binding a module method's call to
// its Python signature, and the Module tree (children in order, parameters, repr).
//
// What it is: helpers, no modules. A container's children (ModuleList, Sequential) are the list
// attribute `_modules` with their names in `_module_names` (str), as nn.Module._modules keeps
// them; other children are ordinary instance attributes, in assignment order.
// What it is not: the interpreter's class machinery (interpreter.cpp) or any module's maths.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "py/interpreter.h"
#include "py/signature.h"

namespace attn::py {

InstanceObj& inst(const Value& v);
Value make_parameter(const core::Tensor& data);   // nn.Parameter(t): shares t's storage
std::shared_ptr<ClassObj> module_class(const std::string& name, const std::shared_ptr<ClassObj>& base);
Value class_value(const std::shared_ptr<ClassObj>& c);
// A module's size argument (> 0); `pos` is its place in the weight's shape, named in PyTorch's
// error for an int too large for torch.empty.
int64_t positive(const Value& v, const char* what, int pos = 1);

// Bind `self` and a call to a `def Class.method(self, ...)` signature (device= must be the CPU);
// the caller reads what it implements and ends with done(b), which refuses an unread argument.
Args bind_self(const Signature& sig, const Value& self, const CallArgs& a);
void done(const Args& b);
void float32_only(Args& b);   // dtype= of a module's parameters: float32 or None

// The module's own children in order, with their names: attributes holding modules, then the
// container list `_modules` (ModuleList, Sequential).
std::vector<std::pair<std::string, Value>> children(const Value& m);
// named_parameters(): own parameters in registration order, then each child's, depth first,
// names joined with '.'; a parameter reachable twice is listed once, as PyTorch does.
std::vector<std::pair<std::string, Value>> named_parameters(const Value& m, bool recurse = true);
// Module.__repr__: `Name(extra)` or `Name(` + one `(name): repr` line per child + `)`.
std::string module_tree_repr(const Value& m, const std::string& extra);
// F.linear / nn.Linear's forward: x @ W.T (+ b), with the grad_fn 1.13 records for x's rank.
core::Tensor linear_apply(const core::Tensor& x, const core::Tensor& w, const core::Tensor* bias);
// A module given as an instance of a class derived from nn.Module (for containers' checks).
bool is_module(const Value& v);

// Registration of the torch.nn parts that live outside nn_modules.cpp.
void add_nn_layers(NamespaceObj& nn, const std::shared_ptr<ClassObj>& module);      // nn_layers.cpp
void add_nn_init(NamespaceObj& nn);                                                 // nn_init.cpp
void add_nn_attention(NamespaceObj& nn, const std::shared_ptr<ClassObj>& module);   // nn_attention.cpp

}  // namespace attn::py
