// print/tensor_str.cpp: PyTorch 1.13's tensor printer (torch/_tensor_str.py), ported function by
// function, plus Parameter.__repr__ (torch/nn/parameter.py) and torch.Size's repr.
//
// What it is: the strided, dense, CPU, unnamed, non-complex path of _str_intern for float32, int64
// and bool tensors. Each C++ function below carries the name of the Python function it mirrors and
// quotes the Python line it follows where the correspondence is not obvious. Python floats are
// doubles, so every float32 element is widened to double before it is formatted, exactly as
// `tensor.tolist()` / `tensor.item()` do; fmt's "{:.4f}" / "{:.4e}" on a double round the exact
// binary value ties-to-even, as Python's format() does (0.03125 -> "0.0312").
// What it is not: sparse / quantized / nested / complex / named / meta tensors, devices other than
// the default CPU, or dtypes other than float32 / int64 / bool (the only ones core::Tensor has).
// A tensor of any layout (a transposed or sliced view) is printed from its contiguous() copy, so
// the functions below read row-major elements; sub-tensors are read through a small View.
//
// Test vectors: tools/make_print_vectors.py prints the same tensors with real PyTorch 1.13 and
// tests/test_printer.cpp compares this printer's output with them character for character.
#include "print/tensor_str.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::print {
namespace detail {

// ---------------------------------------------------------------------------------------------
// Python's format() of a float (a double), as used by PyTorch's _Formatter.

namespace {

// Python never prints a sign for nan ('{:.4f}'.format(float('-nan')) == 'nan'); fmt would.
std::string py_nonfinite(double value) {
  if (std::isnan(value)) return "nan";
  return value < 0 ? "-inf" : "inf";
}

}  // namespace

// '{:.{precision}f}'.format(value)
std::string py_format_f(double value, int precision) {
  if (!std::isfinite(value)) return py_nonfinite(value);
  return fmt::format("{:.{}f}", value, precision);
}

// '{:.{precision}e}'.format(value): at least two exponent digits, like C's printf.
std::string py_format_e(double value, int precision) {
  if (!std::isfinite(value)) return py_nonfinite(value);
  return fmt::format("{:.{}e}", value, precision);
}

// '{}'.format(value) for an element of an int64 or bool tensor (str(int) / str(bool)).
std::string py_format_int(int64_t value, bool is_bool) {
  if (is_bool) return value != 0 ? "True" : "False";
  return fmt::format("{}", value);
}

// ---------------------------------------------------------------------------------------------
// View: `self[i]` of a contiguous row-major tensor is again contiguous, so a sub-tensor is the
// parent tensor, an element offset and the trailing part of the shape.

View View::of(const core::Tensor& t) { return View{&t, 0, t.shape()}; }

int64_t View::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// self[i] (i may be negative, as in Python).
View View::operator[](int64_t i) const {
  if (i < 0) i += shape.at(0);
  View sub{tensor, 0, core::Shape(shape.begin() + 1, shape.end())};
  sub.offset = offset + i * sub.numel();
  return sub;
}

double View::float_at(int64_t k) const { return static_cast<double>(tensor->data<float>()[offset + k]); }
int64_t View::int_at(int64_t k) const { return tensor->int_at_offset(offset + k); }

// ---------------------------------------------------------------------------------------------
// get_summarized_data: the edge items of every dimension, as a new tensor.

namespace {

// The elements picked so far, row-major, and the shape they make.
struct Picked {
  core::Shape shape;
  std::vector<float> f;     // float32 elements
  std::vector<int64_t> i;   // int64 / bool elements
};

void append_elements(const View& v, Picked& out) {
  const int64_t n = v.numel();
  for (int64_t k = 0; k < n; ++k) {
    if (v.tensor->is_float()) out.f.push_back(static_cast<float>(v.float_at(k)));
    else out.i.push_back(v.int_at(k));
  }
}

core::Tensor to_tensor(const Picked& p, const View& like) {
  if (like.tensor->is_float()) return core::from_floats(p.shape, p.f);
  return core::from_ints(p.shape, p.i, like.tensor->dtype());
}

// torch.cat / torch.stack of equally shaped pieces along a new or the first dimension.
core::Tensor stack(const std::vector<core::Tensor>& parts, const View& like) {
  Picked out;
  out.shape = {static_cast<int64_t>(parts.size())};
  if (!parts.empty()) out.shape.insert(out.shape.end(), parts[0].shape().begin(), parts[0].shape().end());
  for (const core::Tensor& p : parts) {
    if (p.is_float()) {
      const std::vector<float> f = p.floats();
      out.f.insert(out.f.end(), f.begin(), f.end());
    } else {
      const std::vector<int64_t> i = p.ints();
      out.i.insert(out.i.end(), i.begin(), i.end());
    }
  }
  return to_tensor(out, like);
}

core::Tensor copy_of(const View& v) {
  Picked out;
  out.shape = v.shape;
  append_elements(v, out);
  return to_tensor(out, v);
}

// Python's self[:e] and self[-e:] of a dim of `size` (e may be 0 or negative, as
// set_printoptions(edgeitems=-1) leaves it): [0, head_end) and [tail_begin, size).
int64_t head_end(int64_t size, int64_t e) { return e < 0 ? std::max<int64_t>(0, size + e) : std::min(e, size); }
int64_t tail_begin(int64_t size, int64_t e) {
  if (e == 0) return 0;   // self[-0:] is self[0:]
  return e > 0 ? std::max<int64_t>(0, size - e) : std::min(-e, size);
}

bool beyond_edges(int64_t size0, int64_t edgeitems) {   // size0 > 2 * edgeitems, without overflow
  return static_cast<__int128>(size0) > 2 * static_cast<__int128>(edgeitems);
}

}  // namespace

core::Tensor get_summarized_data(const View& self, const PrintOptions& opts) {
  const int64_t dim = self.dim();
  if (dim == 0) return copy_of(self);
  const int64_t size0 = self.shape[0], e = opts.edgeitems;
  if (dim == 1) {
    if (!beyond_edges(size0, e)) return copy_of(self);
    // torch.cat((self[:edgeitems], self[-edgeitems:]))
    Picked out;
    const int64_t head = head_end(size0, e), tail = tail_begin(size0, e);
    out.shape = {head + (size0 - tail)};
    for (int64_t k = 0; k < head; ++k) append_elements(self[k], out);
    for (int64_t k = tail; k < size0; ++k) append_elements(self[k], out);
    return to_tensor(out, self);
  }
  std::vector<core::Tensor> parts;
  if (beyond_edges(size0, e)) {   // range(0, e) and range(len - e, len): both empty when e <= 0
    for (int64_t k = 0; k < e; ++k) parts.push_back(get_summarized_data(self[k], opts));
    for (int64_t k = size0 - std::max<int64_t>(e, 0); k < size0; ++k) parts.push_back(get_summarized_data(self[k], opts));
  } else {
    for (int64_t k = 0; k < size0; ++k) parts.push_back(get_summarized_data(self[k], opts));
  }
  if (parts.empty()) throw core::TensorError("stack expects a non-empty TensorList");   // torch.stack([])
  return stack(parts, self);
}

// ---------------------------------------------------------------------------------------------
// Formatter (PyTorch's _Formatter)

Formatter::Formatter(const core::Tensor& tensor, const PrintOptions& opts)
    : floating_dtype(tensor.is_float()),
      bool_dtype(tensor.dtype() == core::DType::boolean),
      precision(opts.precision) {
  if (!floating_dtype) {
    for (int64_t value : tensor.ints()) {
      max_width = std::max(max_width, static_cast<int>(py_format_int(value, bool_dtype).size()));
    }
  } else {
    init_floating(tensor, opts);
  }
}

// The floating branch of PyTorch's _Formatter.__init__.
void Formatter::init_floating(const core::Tensor& tensor, const PrintOptions& opts) {
  // nonzero_finite_vals = torch.masked_select(tensor_view, torch.isfinite(tensor_view) & tensor_view.ne(0))
  std::vector<double> nonzero_finite_vals;
  for (float v : tensor.floats()) {
    if (std::isfinite(v) && v != 0.0f) nonzero_finite_vals.push_back(static_cast<double>(v));
  }
  if (nonzero_finite_vals.empty()) return;  // "no valid number, do nothing" (sci_mode option unread)

  double nonzero_finite_min = std::fabs(nonzero_finite_vals[0]);
  double nonzero_finite_max = nonzero_finite_min;
  for (double v : nonzero_finite_vals) {
    nonzero_finite_min = std::min(nonzero_finite_min, std::fabs(v));
    nonzero_finite_max = std::max(nonzero_finite_max, std::fabs(v));
  }
  for (double value : nonzero_finite_vals) {
    if (value != std::ceil(value)) {
      int_mode = false;
      break;
    }
  }

  const bool wide_range = nonzero_finite_max / nonzero_finite_min > 1000.0 || nonzero_finite_max > 1.0e8;
  if (int_mode) {
    // "in int_mode for floats, all numbers are integers, and we append a decimal to nonfinites"
    if (wide_range) {
      sci_mode = true;
      for (double value : nonzero_finite_vals) widen(py_format_e(value, precision).size());
    } else {
      for (double value : nonzero_finite_vals) widen(py_format_f(value, 0).size() + 1);
    }
  } else {
    if (wide_range || nonzero_finite_min < 1.0e-4) {
      sci_mode = true;
      for (double value : nonzero_finite_vals) widen(py_format_e(value, precision).size());
    } else {
      for (double value : nonzero_finite_vals) widen(py_format_f(value, precision).size());
    }
  }

  if (opts.sci_mode >= 0) sci_mode = opts.sci_mode == 1;
}

void Formatter::widen(std::size_t len) { max_width = std::max(max_width, static_cast<int>(len)); }

int Formatter::width() const { return max_width; }

// format(value) for a float element.
std::string Formatter::format(double value) const {
  std::string ret;
  if (sci_mode) {
    ret = py_format_e(value, precision);  // '{:{max_width}.{precision}e}': padded below
  } else if (int_mode) {
    ret = py_format_f(value, 0);
    if (!(std::isinf(value) || std::isnan(value))) ret += ".";
  } else {
    ret = py_format_f(value, precision);
  }
  return pad(ret);
}

// format(value) for an int64 / bool element: ret = "{}".format(value)
std::string Formatter::format(int64_t value) const { return pad(py_format_int(value, bool_dtype)); }

// (self.max_width - len(ret)) * " " + ret
std::string Formatter::pad(const std::string& ret) const {
  const int n = max_width - static_cast<int>(ret.size());
  return n > 0 ? std::string(static_cast<std::size_t>(n), ' ') + ret : ret;
}

// formatter1.format(val) for element k of a view, whichever the dtype.
std::string Formatter::format_element(const View& v, int64_t k) const {
  return floating_dtype ? format(v.float_at(k)) : format(v.int_at(k));
}

// ---------------------------------------------------------------------------------------------
// _scalar_str / _vector_str / _tensor_str_with_formatter / _tensor_str

// _scalar_str(self, formatter1): formatter1.format(self.item())
std::string _scalar_str(const View& self, const Formatter& formatter1) {
  return formatter1.format_element(self, 0);
}

namespace {

// ("," + "\n" * newlines + " " * spaces).join(items)
std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k > 0) out += sep;
    out += items[k];
  }
  return out;
}

}  // namespace

std::string _vector_str(const View& self, int indent, bool summarize, const Formatter& formatter1,
                        const PrintOptions& opts) {
  // "length includes spaces and comma between elements"
  const int element_length = formatter1.width() + 2;
  // max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / (element_length))))
  const double per_line = std::floor(static_cast<double>(opts.linewidth - indent) / element_length);
  const int64_t elements_per_line = std::max<int64_t>(1, static_cast<int64_t>(per_line));

  const int64_t size0 = self.shape[0];
  std::vector<std::string> data;
  if (summarize && beyond_edges(size0, opts.edgeitems)) {   // self[:edgeitems], ' ...', self[-edgeitems:] (1.13: edgeitems=0 too)
    const int64_t head = head_end(size0, opts.edgeitems), tail = tail_begin(size0, opts.edgeitems);
    for (int64_t k = 0; k < head; ++k) data.push_back(formatter1.format_element(self, k));
    data.push_back(" ...");
    for (int64_t k = tail; k < size0; ++k) data.push_back(formatter1.format_element(self, k));
  } else {
    for (int64_t k = 0; k < size0; ++k) data.push_back(formatter1.format_element(self, k));
  }

  // data_lines = [data[i : i + elements_per_line] for i in range(0, len(data), elements_per_line)]
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < data.size(); start += static_cast<std::size_t>(elements_per_line)) {
    const std::size_t stop = std::min(data.size(), start + static_cast<std::size_t>(elements_per_line));
    lines.push_back(join(std::vector<std::string>(data.begin() + static_cast<std::ptrdiff_t>(start),
                                                  data.begin() + static_cast<std::ptrdiff_t>(stop)),
                         ", "));
  }
  return "[" + join(lines, ",\n" + std::string(static_cast<std::size_t>(indent + 1), ' ')) + "]";
}

std::string _tensor_str_with_formatter(const View& self, int indent, bool summarize,
                                       const Formatter& formatter1, const PrintOptions& opts) {
  const int64_t dim = self.dim();
  if (dim == 0) return _scalar_str(self, formatter1);
  if (dim == 1) return _vector_str(self, indent, summarize, formatter1, opts);

  const int64_t size0 = self.shape[0];
  std::vector<std::string> slices;
  if (summarize && beyond_edges(size0, opts.edgeitems)) {   // edgeitems > 0 here: get_summarized_data raised otherwise
    for (int64_t k = 0; k < opts.edgeitems; ++k) {
      slices.push_back(_tensor_str_with_formatter(self[k], indent + 1, summarize, formatter1, opts));
    }
    slices.push_back("...");
    for (int64_t k = size0 - opts.edgeitems; k < size0; ++k) {
      slices.push_back(_tensor_str_with_formatter(self[k], indent + 1, summarize, formatter1, opts));
    }
  } else {
    for (int64_t k = 0; k < size0; ++k) {
      slices.push_back(_tensor_str_with_formatter(self[k], indent + 1, summarize, formatter1, opts));
    }
  }
  // ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices)
  const std::string sep = "," + std::string(static_cast<std::size_t>(dim - 1), '\n') +
                          std::string(static_cast<std::size_t>(indent + 1), ' ');
  return "[" + join(slices, sep) + "]";
}

std::string _tensor_str(const core::Tensor& tensor, int indent, const PrintOptions& opts) {
  if (tensor.numel() == 0) return "[]";
  const core::Tensor self = tensor.contiguous();   // View reads row-major elements
  const bool summarize = self.numel() > opts.threshold;
  const View view = View::of(self);
  if (summarize) {
    const Formatter formatter(get_summarized_data(view, opts), opts);
    return _tensor_str_with_formatter(view, indent, summarize, formatter, opts);
  }
  const Formatter formatter(self, opts);
  return _tensor_str_with_formatter(view, indent, summarize, formatter, opts);
}

// ---------------------------------------------------------------------------------------------
// _add_suffixes / _str_intern

std::string _add_suffixes(const std::string& tensor_str, const std::vector<std::string>& suffixes, int indent,
                          bool force_newline, const PrintOptions& opts) {
  std::string out = tensor_str;
  // last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1   (rfind gives -1 if absent)
  const std::size_t nl = tensor_str.rfind('\n');
  const int64_t rfind = nl == std::string::npos ? -1 : static_cast<int64_t>(nl);
  int64_t last_line_len = static_cast<int64_t>(tensor_str.size()) - rfind + 1;
  for (const std::string& suffix : suffixes) {
    const auto suffix_len = static_cast<int64_t>(suffix.size());
    if (force_newline || last_line_len + suffix_len + 2 > opts.linewidth) {
      out += ",\n" + std::string(static_cast<std::size_t>(indent), ' ') + suffix;
      last_line_len = indent + suffix_len;
      force_newline = false;
    } else {
      out += ", " + suffix;
      last_line_len += suffix_len + 2;
    }
  }
  return out + ")";
}

// str(dtype)
std::string dtype_str(core::DType dtype) {
  switch (dtype) {
    case core::DType::float32: return "torch.float32";
    case core::DType::int64: return "torch.int64";
    case core::DType::boolean: return "torch.bool";
    case core::DType::uint8: return "torch.uint8";
    case core::DType::int8: return "torch.int8";
    case core::DType::int16: return "torch.int16";
    case core::DType::int32: return "torch.int32";
  }
  return "torch.float32";
}

// str(tuple(shape)): "(2, 0)", "(0,)", "()"
std::string tuple_str(const core::Shape& shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

std::string _str_intern(const core::Tensor& inp, const PrintOptions& opts) {
  const std::string prefix = "tensor(";  // is_plain_tensor: Tensor or Parameter
  const int indent = static_cast<int>(prefix.size());
  std::vector<std::string> suffixes;
  std::string tensor_str;

  // has_default_dtype: float32 (the default dtype), int64 or bool.
  const bool has_default_dtype = inp.dtype() == core::DType::float32 || inp.dtype() == core::DType::int64 ||
                                 inp.dtype() == core::DType::boolean;
  if (inp.numel() == 0) {
    // "Explicitly print the shape if it is not (0,), to match NumPy behavior"
    if (inp.dim() != 1) suffixes.push_back("size=" + tuple_str(inp.shape()));
    // "In an empty tensor, there are no elements to infer if the dtype should be int64"
    if (inp.dtype() != core::DType::float32) suffixes.push_back("dtype=" + dtype_str(inp.dtype()));
    tensor_str = "[]";
  } else {
    if (!has_default_dtype) suffixes.push_back("dtype=" + dtype_str(inp.dtype()));
    tensor_str = _tensor_str(inp, indent, opts);
  }

  if (!inp.grad_fn().empty()) {
    suffixes.push_back("grad_fn=<" + inp.grad_fn() + ">");
  } else if (inp.requires_grad()) {   // a frozen Parameter (requires_grad=False) prints none
    suffixes.push_back("requires_grad=True");
  }
  return _add_suffixes(prefix + tensor_str, suffixes, indent, /*force_newline=*/false, opts);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Public API

// Tensor.__repr__ -> _str -> _str_intern; Parameter.__repr__ prefixes "Parameter containing:\n".
std::string tensor_repr(const core::Tensor& t, const PrintOptions& opts) {
  const std::string repr = detail::_str_intern(t, opts);
  return t.is_parameter() ? "Parameter containing:\n" + repr : repr;
}

// torch.Size.__repr__: "torch.Size([6, 3])"
std::string size_repr(const core::Shape& shape) { return fmt::format("torch.Size([{}])", fmt::join(shape, ", ")); }

}  // namespace attn::print
