// torch/printed.h: what a cell printed, as plain data: the record lessons, JSON output, exports
// and grading read.
//
// What it is: for each value print() (or a cell's echo) showed, the source text it was printed
// from, the text printed, and the value as it was at that moment, copied into plain C++ data
// (a tensor's elements cloned, containers copied at every depth), so later changes in the cell do
// not show and the record outlives the session. What it is not: an interpreter value: nothing
// here can be called, and objects other than numbers, strings, containers and tensors are kept
// as their type's name only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace attn::torch {

struct PlainValue {
  enum Kind { none, boolean, integer, real, string, sequence, mapping, tensor, object } kind = none;
  std::string type;         // Python's type name: "int", "list", "tuple", "torch.Size", "dict", "Tensor", "Linear", ...
  bool b = false;           // boolean
  int64_t i = 0;            // integer that fits int64
  std::string digits;       // integer beyond int64: its decimal digits ("" otherwise)
  double f = 0;             // real
  std::string s;            // string (a torch.dtype is its name: "torch.float32")
  std::vector<PlainValue> items;   // sequence: list, tuple, torch.Size, set (iteration order); mapping: the values
  std::vector<std::string> keys;   // mapping: str(key) of each of items, in order
  core::Tensor t;           // tensor: a copy of its elements when printed (shape, dtype, grad_fn name kept)

  bool is_number() const { return kind == boolean || kind == integer || kind == real; }
  double number() const { return kind == real ? f : kind == boolean ? (b ? 1.0 : 0.0) : static_cast<double>(i); }
};

struct Printed {
  std::string name;   // the source text it was printed from: "attn_weights", "sa(x)"; "" when unknown
  std::string text;   // exactly what was printed for it
  PlainValue value;

  bool is_tensor() const { return value.kind == PlainValue::tensor; }
  bool is_float_tensor() const { return is_tensor() && value.t.is_float(); }
  const core::Tensor& tensor() const { return value.t; }   // when is_tensor()
};

}  // namespace attn::torch
