// torch/op_table.h: one table for every `torch.X` function and `Tensor.X` method.
//
// What it is: rows like PyTorch's native_functions.yaml entries. A row names the op, says which
// variants exist (torch.X, Tensor.X or both), gives its signatures in PyTorch's own notation (the
// overloads in the order PyTorch's generated parser tries them) and one implementation:
//
//   {"tril", kFunction | kMethod, {"tril(Tensor input, int64_t diagonal=0, *, Tensor out=None)"},
//    [](Interpreter&, Args& a) { return tensor_value(core::tril(a.tensor("input"), a.integer("diagonal"))); }},
//
// `/usr/bin/python3 tools/torch_signatures.py tril` prints those signatures from Debian's torch.
// For the method the first parameter (`input`, or `self` in a method-only row) is the tensor the
// method is called on, and `out` is dropped, as in PyTorch. The table refuses a name registered
// twice for the same variant when it is built (SignatureError); it parses a row's signatures when
// it is built (OpTable(rows)) or, for attn's own table, on the row's first call (OpTable(rows,
// kLazy): `import torch` then costs no parsing; tests/torch/test_ops_table.cpp builds every row
// eagerly so a bad signature still fails a test, not a lesson).
// A call binds its arguments (signature.h), refuses device=/out=/layout=... that attn does not
// have, runs the implementation, and raises if the implementation left an argument unread.
// Overloads taking named dimensions (Dimname) are left out: attn has none.
// What it is not: the numerics (core/), or nn modules (python/nn/*.py) and Python builtins.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "py/interpreter.h"
#include "torch/signature.h"

namespace attn::torch {

using py::Interpreter;

enum Variant : unsigned { kFunction = 1, kMethod = 2 };
using OpFn = Value (*)(Interpreter&, Args&);

struct OpRow {
  std::string name;                      // "sum"; "nn.functional.softmax" for torch.nn.functional
  unsigned variants = kFunction;         // kFunction | kMethod
  std::vector<std::string> signatures;   // overloads, in PyTorch's order; `def ...` = a Python function
  OpFn impl = nullptr;
};

class OpTable {
 public:
  class Op {
   public:
    std::string name;
    OpFn impl = nullptr;
    bool iterator_layout = false;   // elementwise: the result laid out as TensorIterator does (op_table.cpp)

    // The row's signatures, parsed on first use (once, also across threads); SignatureError
    // for a bad one.
    const std::vector<Signature>& overloads() const { parse(); return parsed_.overloads; }      // as written (torch.X)
    const std::vector<Signature>& method_forms() const { parse(); return parsed_.method_forms; }   // Tensor.X: without self and out
    const std::vector<size_t>& method_overload() const { parse(); return parsed_.method_overload; }   // method_forms[k] is overloads[...[k]]

   private:
    friend class OpTable;
    struct Parsed {
      std::vector<Signature> overloads, method_forms;
      std::vector<size_t> method_overload;
    };
    void parse() const { std::call_once(once_, [this] { parsed_ = parse_rows(); }); }
    Parsed parse_rows() const;
    unsigned variants_ = kFunction;
    std::vector<std::string> texts_;   // the signatures as written, until parsed
    mutable std::once_flag once_;
    mutable Parsed parsed_;
  };

  enum Parsing { kEager, kLazy };
  // SignatureError for a name registered twice and, when eager, for a bad signature.
  explicit OpTable(std::vector<OpRow> rows, Parsing parsing = kEager);

  const Op* function(const std::string& name) const;   // nullptr when absent
  const Op* method(const std::string& name) const;
  std::vector<std::string> function_names() const;
  std::vector<std::string> method_names() const;

  Value call_function(Interpreter& in, const Op& op, const CallArgs& call) const;
  Value call_method(Interpreter& in, const Op& op, const Value& self, const CallArgs& call) const;

 private:
  std::vector<std::unique_ptr<Op>> ops_;   // stable addresses: Args point into them
  std::map<std::string, const Op*> functions_, methods_;
};

// attn's table, built on first use (the Interpreter's constructor): every row of ops_*.cpp,
// each parsed on its first call.
const OpTable& torch_ops();
// Those rows (for building the table eagerly in a test).
std::vector<OpRow> torch_op_rows();

// The rows, by family; each file holds its rows and their implementations.
void add_creation_ops(std::vector<OpRow>& rows);   // ops_creation.cpp: tensor, rand, ones, arange, ...
void add_math_ops(std::vector<OpRow>& rows);       // ops_math.cpp: softmax, sum, var, where, ...
void add_shape_ops(std::vector<OpRow>& rows);      // ops_shape.cpp: view, transpose, cat, item, ...
void add_layer_ops(std::vector<OpRow>& rows);      // nn_layers.cpp: relu, F.gelu, F.layer_norm
void add_attention_ops(std::vector<OpRow>& rows);  // nn_attention.cpp: F.scaled_dot_product_attention
void add_autograd_ops(std::vector<OpRow>& rows);   // ops_autograd.cpp: backward, requires_grad_, mse_loss
void add_select_ops(std::vector<OpRow>& rows);     // ops_select.cpp: max/min(dim), sort, topk, flip, all, any, bmm, ...
void add_loss_ops(std::vector<OpRow>& rows);       // nn_losses.cpp: log_softmax, F.nll_loss, F.cross_entropy
void add_index_ops(std::vector<OpRow>& rows);      // ops_index.cpp: clamp, norm, scatter, index_fill, nonzero, unique, repeat, F.pad
void add_shape_extra_ops(std::vector<OpRow>& rows);  // ops_shape_extra.cpp: new_zeros, movedim, index_select, F.one_hot, ...
void add_functional_extra_ops(std::vector<OpRow>& rows);  // nn_functional_extra.cpp: F.silu, leaky_relu, hardtanh, relu6
void add_type_ops(std::vector<OpRow>& rows);       // tensor_types.cpp: Tensor.type
void add_elem_ops(std::vector<OpRow>& rows);       // ops_elem.cpp: the named arithmetic, comparisons, in-place unary forms, cumsum, logsumexp, ...

// ---- helpers the rows share ----
core::Tensor cast(const core::Tensor& t, core::DType dtype);   // .float() / .long() / .bool()
// The dtype= of an op whose result is `natural`: None or that dtype; anything else raises.
void require_dtype(Args& a, core::DType natural);
// Reduce over `dims` (an int list argument: [] means all dims, one dim, or more = not implemented).
std::optional<int64_t> one_dim(Args& a, const char* name);
// A factory's schema: `head` ("zeros(SymInt[] size, *, ") and the keywords every factory takes
// after its size, in PyTorch's order (ops_creation.cpp and ops_shape_extra.cpp).
inline constexpr const char* kFactory = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=False, bool? requires_grad=False)";
inline std::string factory(const std::string& head) { return head + kFactory; }

}  // namespace attn::torch
