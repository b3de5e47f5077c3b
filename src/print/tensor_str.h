// print/tensor_str.h: PyTorch's printer (torch/_tensor_str.py, 1.13), character for character.
//
// What it is: repr() of a core::Tensor as `print(t)` shows it (default print options, automatic
// scientific mode, integer-valued floats, integer and bool tensors, 0-d tensors, 1-D to 4-D layout
// with 80-column wrapping, summarisation, inf/nan padding, dtype / grad_fn / requires_grad suffixes,
// "Parameter containing:") and torch.Size. Python's own reprs of float and str: pyrepr.h.
// The functions mirror _tensor_str.py (_Formatter, here Formatter; _vector_str, _tensor_str_with_formatter,
// _add_suffixes) so each can be argued line by line against the original.
// What it is not: a general Python repr; dicts and lists are assembled by the lesson layer from
// these pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "print/pyrepr.h"

namespace attn::print {

struct PrintOptions {   // torch.set_printoptions defaults
  int precision = 4;
  int64_t threshold = 1000;
  int64_t edgeitems = 3;
  int linewidth = 80;
  int sci_mode = -1;    // -1: automatic (None), 0: False, 1: True
};

// str(t) / repr(t): exactly what print(t) writes, without the trailing newline.
std::string tensor_repr(const core::Tensor& t, const PrintOptions& opts = {});

// "torch.Size([6, 3])"
std::string size_repr(const core::Shape& shape);

// ---- internals, named after the functions of torch/_tensor_str.py (exposed for the tests) ----
namespace detail {

// A sub-tensor `self[i]...` of a contiguous row-major tensor: the parent, an element offset and
// the trailing shape.
struct View {
  const core::Tensor* tensor = nullptr;
  int64_t offset = 0;
  core::Shape shape;

  static View of(const core::Tensor& t);
  int64_t dim() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const;
  View operator[](int64_t i) const;      // self[i]
  double float_at(int64_t k) const;      // element k (row-major within the view) widened to double
  int64_t int_at(int64_t k) const;
};

// '{:.Nf}'.format(v), '{:.Ne}'.format(v), '{}'.format(int or bool) as Python writes them.
std::string py_format_f(double value, int precision);
std::string py_format_e(double value, int precision);
std::string py_format_int(int64_t value, bool is_bool);

// Formatter (PyTorch's class _Formatter; C++ reserves names of an underscore and a capital):
// chooses int_mode / sci_mode and the common width from the given values.
class Formatter {
 public:
  Formatter(const core::Tensor& tensor, const PrintOptions& opts);
  int width() const;
  std::string format(double value) const;    // float element
  std::string format(int64_t value) const;   // int64 / bool element
  std::string format_element(const View& v, int64_t k) const;

  bool floating_dtype;
  bool bool_dtype;
  bool int_mode = true;
  bool sci_mode = false;
  int max_width = 1;

 private:
  void init_floating(const core::Tensor& tensor, const PrintOptions& opts);
  void widen(std::size_t len);
  std::string pad(const std::string& ret) const;
  int precision;
};

core::Tensor get_summarized_data(const View& self, const PrintOptions& opts);
std::string _scalar_str(const View& self, const Formatter& formatter1);
std::string _vector_str(const View& self, int indent, bool summarize, const Formatter& formatter1,
                        const PrintOptions& opts);
std::string _tensor_str_with_formatter(const View& self, int indent, bool summarize,
                                       const Formatter& formatter1, const PrintOptions& opts);
std::string _tensor_str(const core::Tensor& self, int indent, const PrintOptions& opts);
// Appends ", suffix" or ",\n" + indent + suffix per suffix, then ")".
std::string _add_suffixes(const std::string& tensor_str, const std::vector<std::string>& suffixes, int indent,
                          bool force_newline, const PrintOptions& opts);
std::string _str_intern(const core::Tensor& inp, const PrintOptions& opts);
std::string dtype_str(core::DType dtype);        // "torch.int64"
std::string tuple_str(const core::Shape& shape);  // str(tuple(shape)): "(2, 0)", "(0,)"

}  // namespace detail

}  // namespace attn::print
