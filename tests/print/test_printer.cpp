// tests/print/test_printer.cpp: the tensor printer (src/print/tensor_str.cpp) against PyTorch 1.13.
//
// What it is: first a few hand-written cases, readable as documentation of what print(t) looks
// like; then every case of tests/vectors/print_cases.txt (written by tools/make_print_vectors.py
// from real PyTorch), compared exactly, each failure naming its case.
// What it is not: a test of tensor arithmetic; the tensors are built field by field, so these
// tests need neither PyTorch nor core/tensor.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/autograd.h"
#include "core/tensor.h"
#include "print/tensor_str.h"

namespace {

using attn::core::DType;
using attn::core::Shape;
using attn::core::Tensor;
using attn::print::PrintOptions;
using attn::print::py_float_repr;
using attn::print::py_str_repr;
using attn::print::size_repr;
using attn::print::tensor_repr;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// A grad_fn node that only carries the name the printer shows.
std::shared_ptr<attn::core::autograd::Node> named_node(const std::string& name) {
  return std::make_shared<attn::core::autograd::Node>(name, 0);
}

Tensor floats(Shape shape, std::vector<float> data, std::string grad_fn = "") {
  Tensor t = attn::core::from_floats(shape, data);
  t.set_requires_grad(!grad_fn.empty());
  if (!grad_fn.empty()) t.autograd().grad_fn = named_node(grad_fn);
  return t;
}

Tensor ints(Shape shape, std::vector<int64_t> data, DType dtype = DType::int64) {
  return attn::core::from_ints(shape, data, dtype);
}

}  // namespace

// ---- hand-written cases (the verification list of docs/pytorch-numerics.md §3) ----

TEST_CASE("printer: float formatting modes") {
  CHECK(tensor_repr(floats({3}, {1, 0, -3})) == "tensor([ 1.,  0., -3.])");
  CHECK(tensor_repr(floats({3}, {0, 0, 0})) == "tensor([0., 0., 0.])");
  CHECK(tensor_repr(floats({2}, {0, kNan})) == "tensor([0., nan])");
  CHECK(tensor_repr(floats({2}, {1e-5f, 1})) == "tensor([1.0000e-05, 1.0000e+00])");
  CHECK(tensor_repr(floats({2}, {1, 1001})) == "tensor([1.0000e+00, 1.0010e+03])");
  CHECK(tensor_repr(floats({2}, {1, 1000})) == "tensor([   1., 1000.])");
  CHECK(tensor_repr(floats({4}, {1.5f, kInf, kNan, -kInf})) == "tensor([1.5000,    inf,    nan,   -inf])");
  CHECK(tensor_repr(floats({3}, {1, kInf, kNan})) == "tensor([1., inf, nan])");
  CHECK(tensor_repr(floats({2}, {-0.0f, 1})) == "tensor([-0., 1.])");
  CHECK(tensor_repr(floats({3}, {kInf, 1e-5f, -2})) == "tensor([        inf,  1.0000e-05, -2.0000e+00])");
  CHECK(tensor_repr(floats({2}, {-1.5f, 0})) == "tensor([-1.5000,  0.0000])");
  CHECK(tensor_repr(floats({2}, {0.03125f, 1})) == "tensor([0.0312, 1.0000])");  // ties-to-even
}

TEST_CASE("printer: scalars, ints, bools, empties") {
  CHECK(tensor_repr(floats({}, {1.2903f})) == "tensor(1.2903)");
  CHECK(tensor_repr(floats({}, {2})) == "tensor(2.)");
  CHECK(tensor_repr(ints({}, {3})) == "tensor(3)");
  CHECK(tensor_repr(ints({}, {1}, DType::boolean)) == "tensor(True)");
  CHECK(tensor_repr(ints({3}, {1, 22, -3})) == "tensor([ 1, 22, -3])");
  CHECK(tensor_repr(ints({2}, {1, 0}, DType::boolean)) == "tensor([ True, False])");
  CHECK(tensor_repr(floats({0}, {})) == "tensor([])");
  CHECK(tensor_repr(floats({2, 0}, {})) == "tensor([], size=(2, 0))");
  CHECK(tensor_repr(ints({0}, {})) == "tensor([], dtype=torch.int64)");
}

TEST_CASE("printer: layout") {
  std::vector<float> sevenths;
  for (int k = 0; k < 12; ++k) sevenths.push_back(static_cast<float>(k) / 7.0f);
  CHECK(tensor_repr(floats({2, 2, 3}, sevenths)) ==
        "tensor([[[0.0000, 0.1429, 0.2857],\n"
        "         [0.4286, 0.5714, 0.7143]],\n"
        "\n"
        "        [[0.8571, 1.0000, 1.1429],\n"
        "         [1.2857, 1.4286, 1.5714]]])");

  std::vector<int64_t> range(2000);
  for (int64_t k = 0; k < 2000; ++k) range[static_cast<std::size_t>(k)] = k;
  CHECK(tensor_repr(ints({2000}, range)) == "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");

  // 8 values of width 7 per line at indent 8: continuation lines start with 9 spaces + padding.
  CHECK(tensor_repr(floats({2, 12}, {-1.1258f, -1.1524f, -0.2506f, -0.4339f, 0.8487f, 0.6920f, -0.3160f, -2.1152f,
                                     0.4681f, -0.1577f, 1.4437f, 0.2660f, 0.1665f, 0.8744f, -0.1435f, -0.1116f,
                                     0.9318f, 1.2590f, 2.0050f, 0.0537f, 0.6181f, -0.4128f, -0.8411f, -2.3160f})) ==
        "tensor([[-1.1258, -1.1524, -0.2506, -0.4339,  0.8487,  0.6920, -0.3160, -2.1152,\n"
        "          0.4681, -0.1577,  1.4437,  0.2660],\n"
        "        [ 0.1665,  0.8744, -0.1435, -0.1116,  0.9318,  1.2590,  2.0050,  0.0537,\n"
        "          0.6181, -0.4128, -0.8411, -2.3160]])");
}

TEST_CASE("printer: suffixes and Parameter") {
  // A suffix goes to a new line when last line + 4 + suffix would pass 80 columns.
  CHECK(tensor_repr(floats({2, 2}, {1.5f, -2, 0.25f, 3}, "MmBackward0")) ==
        "tensor([[ 1.5000, -2.0000],\n"
        "        [ 0.2500,  3.0000]], grad_fn=<MmBackward0>)");
  CHECK(tensor_repr(floats({1, 6}, {-1.7756f, 4.6332f, 2.7655f, 3.7894f, -2.0420f, -0.3026f}, "MmBackward0")) ==
        "tensor([[-1.7756,  4.6332,  2.7655,  3.7894, -2.0420, -0.3026]],\n"
        "       grad_fn=<MmBackward0>)");
  // float64 is not a core::DType, so this facts-list case is checked on _add_suffixes itself.
  CHECK(attn::print::detail::_add_suffixes("tensor([-0.0404,  0.2881, -0.0075]",
                                           {"dtype=torch.float64", "grad_fn=<MulBackward0>"}, 7, false, {}) ==
        "tensor([-0.0404,  0.2881, -0.0075], dtype=torch.float64,\n"
        "       grad_fn=<MulBackward0>)");
  Tensor w = floats({2}, {0.5f, -1});
  w.set_parameter(true);
  w.set_requires_grad(true);
  CHECK(tensor_repr(w) == "Parameter containing:\ntensor([ 0.5000, -1.0000], requires_grad=True)");
}

TEST_CASE("printer: Python reprs and torch.Size") {
  CHECK(size_repr({6, 3}) == "torch.Size([6, 3])");
  CHECK(size_repr({}) == "torch.Size([])");
  CHECK(py_float_repr(std::sqrt(2.0)) == "1.4142135623730951");
  CHECK(py_float_repr(1e-05) == "1e-05");
  CHECK(py_float_repr(1e16) == "1e+16");
  CHECK(py_float_repr(1e15) == "1000000000000000.0");
  CHECK(py_float_repr(50000.0) == "50000.0");
  CHECK(py_float_repr(0.1) == "0.1");
  CHECK(py_float_repr(-0.0) == "-0.0");
  CHECK(py_str_repr("it's") == "\"it's\"");
  CHECK(py_str_repr("a\\b\n\t\x07ω") == "'a\\\\b\\n\\t\\x07ω'");
}

// ---- PyTorch's own output: tests/vectors/print_cases.txt ----

namespace {

std::vector<std::string> split(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The text after the first `skip` space-separated words.
std::string rest_after(const std::string& line, int skip) {
  std::size_t pos = 0;
  for (int k = 0; k < skip; ++k) pos = line.find(' ', pos) + 1;
  return line.substr(pos);
}

float float_from_bits(const std::string& hex) {
  const auto bits = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

double double_from_bits(const std::string& hex) {
  const uint64_t bits = std::stoull(hex, nullptr, 16);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

std::string bytes_from_hex(const std::string& hex) {
  std::string out;
  if (hex == "-") return out;
  for (std::size_t k = 0; k + 1 < hex.size(); k += 2) {
    out += static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
  }
  return out;
}

struct Counts {
  int tensors = 0, floats = 0, strs = 0, sizes = 0;
};

// Reads one "tensor <name> ... end" block (the "tensor" line already read) and checks it.
void check_tensor_case(std::istream& in, const std::string& name) {
  DType dtype = DType::float32;
  Shape shape;
  attn::core::AutogradMeta grad;
  std::vector<float> f;
  std::vector<int64_t> i;
  PrintOptions opts;
  std::string expected;
  for (std::string line; std::getline(in, line) && line != "end";) {
    const std::vector<std::string> w = split(line);
    const std::string key = w.empty() ? "" : w[0];
    if (key == "dtype") {
      dtype = w[1] == "float32" ? DType::float32 : w[1] == "int64" ? DType::int64 : DType::boolean;
    } else if (key == "shape") {
      for (std::size_t k = 1; k < w.size(); ++k) shape.push_back(std::stoll(w[k]));
    } else if (key == "grad") {
      grad.requires_grad = w[1] == "1";
      grad.is_parameter = w[2] == "1";
      grad.grad_fn = w[3] == "-" ? nullptr : named_node(w[3]);
    } else if (key == "options") {
      opts.precision = std::stoi(w[1]);
      opts.threshold = std::stoll(w[2]);
      opts.edgeitems = std::stoll(w[3]);
      opts.linewidth = std::stoi(w[4]);
      opts.sci_mode = std::stoi(w[5]);
    } else if (key == "data") {
      for (std::size_t k = 1; k < w.size(); ++k) {
        if (dtype == DType::float32) {
          f.push_back(float_from_bits(w[k]));
        } else {
          i.push_back(std::stoll(w[k]));
        }
      }
    } else if (key == "repr") {
      const int n = std::stoi(w[1]);
      for (int k = 0; k < n; ++k) {
        std::getline(in, line);
        expected += (k ? "\n" : "") + line;
      }
    } else {
      FAIL("bad line in case " << name << ": " << line);
    }
  }
  REQUIRE_MESSAGE(attn::core::numel_of(shape) == static_cast<int64_t>(dtype == DType::float32 ? f.size() : i.size()), name);
  Tensor t = dtype == DType::float32 ? attn::core::from_floats(shape, f) : attn::core::from_ints(shape, i, dtype);
  t.autograd() = grad;
  const std::string got = tensor_repr(t, opts);
  CHECK_MESSAGE(got == expected, "case " << name);
}

Counts check_vector_file() {
  const std::string path = std::string(ATTN_TEST_DATA) + "/vectors/print_cases.txt";
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  Counts counts;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> w = split(line);
    if (w[0] == "tensor") {
      check_tensor_case(in, w[1]);
      ++counts.tensors;
    } else if (w[0] == "float") {
      CHECK_MESSAGE(py_float_repr(double_from_bits(w[2])) == rest_after(line, 3), "case " << w[1]);
      ++counts.floats;
    } else if (w[0] == "str") {
      CHECK_MESSAGE(py_str_repr(bytes_from_hex(w[2])) == rest_after(line, 3), "case " << w[1]);
      ++counts.strs;
    } else if (w[0] == "size") {
      const int n = std::stoi(w[2]);
      Shape shape;
      for (int k = 0; k < n; ++k) shape.push_back(std::stoll(w[3 + static_cast<std::size_t>(k)]));
      CHECK_MESSAGE(size_repr(shape) == rest_after(line, 3 + n), "case " << w[1]);
      ++counts.sizes;
    } else {
      FAIL("bad line in " << path << ": " << line);
    }
  }
  return counts;
}

}  // namespace

TEST_CASE("printer: every PyTorch 1.13 case in tests/vectors/print_cases.txt") {
  const Counts counts = check_vector_file();
  MESSAGE("compared " << counts.tensors << " tensors, " << counts.floats << " floats, " << counts.strs
                      << " strs, " << counts.sizes << " sizes");
  CHECK(counts.tensors > 500);
  CHECK(counts.floats > 400);
  CHECK(counts.strs > 100);
  CHECK(counts.sizes > 5);
}
