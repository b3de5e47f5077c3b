// tests/torch/test_opinfo.cpp: PyTorch 1.13's own OpInfo samples, replayed as Python calls in a
// torch::Session, forward and backward bit for bit.
//
// What it is: tests/vectors/opinfo.txt (torch's AVX2 kernels, replayed with --cpu avx2) and
// opinfo_scalar.txt (ATEN_CPU_CAPABILITY=default, --cpu scalar: the cases whose bits differ;
// the others are replayed from opinfo.txt in the scalar family too), made by
// tools/make_opinfo_vectors.py from the float32 sample inputs of op_db for every op the op table
// has. Each sample's inputs are injected with torch's exact bits (module `_opinfo`), each `call`
// line (torch.X(...) and t0.X(...)) is run as Python, so binding and keyword arguments are tested
// with the numbers, the outputs must have torch's dtype, shape and bits (any NaN matches any
// NaN), and after the `back` line every input's .grad must have torch's bits. Samples the tool
// skipped are counted in the vector file's header with their reason. What it is not: the op
// table's error texts (test_ops_table.cpp).
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "py/interpreter.h"
#include "py/value.h"
#include "torch/session.h"
#include "torch/values.h"

namespace {

using attn::core::Tensor;

struct Array {
  std::string name, dtype, shape;
  bool grad = false;
  std::vector<std::string> values;   // hex bits (float32) or decimal (int64, bool 0/1)
};

struct Sample {
  std::string op, line;
  std::vector<Array> inputs, outputs, grads;   // grads: name, values ("none": no .grad)
  std::vector<std::string> calls;
  std::string value, back;
};

Array read_array(std::istringstream& words, bool with_grad_flag) {
  Array a;
  words >> a.name >> a.dtype >> a.shape;
  if (with_grad_flag) words >> a.grad;
  size_t n = 0;
  words >> n;
  a.values.resize(n);
  for (auto& v : a.values) words >> v;
  REQUIRE_MESSAGE(!words.fail(), "short line: " << a.name);
  return a;
}

std::vector<Sample> read_samples(const std::string& file) {
  const std::string path = std::string(ATTN_TEST_DATA) + "/vectors/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<Sample> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string head;
    words >> head;
    const std::string rest = line.size() > head.size() + 1 ? line.substr(head.size() + 1) : "";
    if (head == "case") {
      out.push_back({});
      out.back().line = line;
      words >> out.back().op;
      continue;
    }
    REQUIRE(!out.empty());
    Sample& s = out.back();
    if (head == "in") s.inputs.push_back(read_array(words, true));
    else if (head == "out") s.outputs.push_back(read_array(words, false));
    else if (head == "call") s.calls.push_back(rest);
    else if (head == "value") s.value = rest;
    else if (head == "back") s.back = rest;
    else if (head == "grad") {
      Array g;
      words >> g.name;
      std::string n;
      words >> n;
      if (n == "none") g.dtype = "none";
      g.values.resize(n == "none" ? 0 : std::stoul(n));
      for (auto& v : g.values) words >> v;
      s.grads.push_back(g);
    } else FAIL("unknown line in " << path << ": " << line);
  }
  return out;
}

attn::core::Shape shape_of(const std::string& text) {
  attn::core::Shape s;
  if (text == "-") return s;
  std::istringstream in(text);
  for (std::string d; std::getline(in, d, ',');) s.push_back(std::stoll(d));
  return s;
}

float float_of(const std::string& hex) {
  const auto u = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

Tensor make_tensor(const Array& a) {
  const attn::core::Shape shape = shape_of(a.shape);
  if (a.dtype == "float32") {
    std::vector<float> v;
    for (const auto& x : a.values) v.push_back(float_of(x));
    Tensor t = attn::core::from_floats(shape, v);
    if (a.grad) t.set_requires_grad(true);
    return t;
  }
  std::vector<int64_t> v;
  for (const auto& x : a.values) v.push_back(std::stoll(x));
  return attn::core::from_ints(shape, v, a.dtype == "bool" ? attn::core::DType::boolean : attn::core::DType::int64);
}

// The upstream gradient the tool used for an output of n elements: ((3j) % 11 - 5) / 8.
Tensor upstream(const attn::core::Shape& shape) {
  std::vector<float> v(static_cast<size_t>(attn::core::numel_of(shape)));
  for (size_t j = 0; j < v.size(); ++j) v[j] = static_cast<float>(static_cast<int64_t>((3 * j) % 11) - 5) / 8.0f;
  return attn::core::from_floats(shape, v);
}

bool is_nan_bits(uint32_t u) { return (u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu) != 0; }

// The first difference between a tensor and an array of the file, or "".
std::string differs(const Tensor& got, const Array& want, const std::string& what) {
  if (std::string(attn::core::dtype_short_name(got.dtype())) != want.dtype)
    return what + " has dtype " + attn::core::dtype_short_name(got.dtype()) + ", torch's is " + want.dtype;
  std::ostringstream shape;
  for (size_t k = 0; k < got.shape().size(); ++k) shape << (k ? "," : "") << got.shape()[k];
  if ((got.dim() == 0 ? "-" : shape.str()) != want.shape) return what + " has shape " + shape.str() + ", torch's is " + want.shape;
  const Tensor c = got.contiguous();
  for (size_t k = 0; k < want.values.size(); ++k) {
    std::string mine;
    if (want.dtype == "float32") {
      uint32_t u, w = static_cast<uint32_t>(std::stoul(want.values[k], nullptr, 16));
      std::memcpy(&u, c.data<float>() + k, sizeof u);
      if (u == w || (is_nan_bits(u) && is_nan_bits(w))) continue;
      char buf[16];
      std::snprintf(buf, sizeof buf, "%08x", u);
      mine = buf;
    } else if (want.dtype == "int64") {
      if (std::to_string(c.data<int64_t>()[k]) == want.values[k]) continue;
      mine = std::to_string(c.data<int64_t>()[k]);
    } else {
      if (std::to_string(int(c.data<uint8_t>()[k] != 0)) == want.values[k]) continue;
      mine = std::to_string(int(c.data<uint8_t>()[k]));
    }
    return what + "[" + std::to_string(k) + "] is " + mine + ", torch's is " + want.values[k];
  }
  return "";
}

// Runs one spelling of a sample in a fresh session; "" when every output and .grad is torch's.
std::string replay(const Sample& s, const std::string& call, attn::core::CpuKernels cpu) {
  attn::torch::Session session(cpu, attn::core::DropoutRng::portable);
  auto ns = std::make_shared<attn::py::NamespaceObj>();
  std::string names;
  for (const Array& a : s.inputs) {
    ns->names[a.name] = attn::torch::tensor_value(make_tensor(a));
    names += (names.empty() ? "" : ", ") + a.name;
  }
  for (size_t k = 0; k < s.outputs.size(); ++k) {
    ns->names["g" + std::to_string(k)] = attn::torch::tensor_value(upstream(shape_of(s.outputs[k].shape)));
    names += (names.empty() ? "" : ", ") + ("g" + std::to_string(k));
  }
  session.python().add_module("_opinfo", [ns](attn::py::Interpreter&) { return attn::py::module_value("_opinfo", ns); });
  try {
    session.run_cell("import torch\n" + (names.empty() ? "" : "from _opinfo import " + names + "\n") + "__out = " + call + "\n");
  } catch (const std::exception& e) {
    return std::string("raised ") + e.what();
  }
  attn::py::Interpreter& py = session.python();
  const attn::py::Value out = py.lookup("__out");
  if (!s.value.empty()) return py.repr_of(out) == s.value ? "" : "returned " + py.repr_of(out) + ", torch's is " + s.value;
  std::vector<attn::py::Value> outs = attn::torch::is_tensor(out) ? std::vector<attn::py::Value>{out} : py.iterate(out);
  if (outs.size() != s.outputs.size()) return "returned " + std::to_string(outs.size()) + " tensors";
  for (size_t k = 0; k < outs.size(); ++k) {
    if (!attn::torch::is_tensor(outs[k])) return "output " + std::to_string(k) + " is not a tensor";
    std::string d = differs(attn::torch::as_tensor(outs[k]), s.outputs[k], "output " + std::to_string(k));
    if (!d.empty()) return d;
  }
  if (s.back.empty()) return "";
  try {
    session.run_cell(s.back + "\n");
    for (const Array& g : s.grads) session.run_cell("__grad_" + g.name + " = " + g.name + ".grad\n");
  } catch (const std::exception& e) {
    return std::string("backward raised ") + e.what();
  }
  for (const Array& g : s.grads) {
    const attn::py::Value got = py.lookup("__grad_" + g.name);
    if (g.dtype == "none") {
      if (!got.is_none()) return g.name + ".grad is not None";
      continue;
    }
    if (got.is_none()) return g.name + ".grad is None";
    Array want = g;
    want.dtype = "float32";
    for (const Array& in : s.inputs)
      if (in.name == g.name) want.shape = in.shape;
    std::string d = differs(attn::torch::as_tensor(got), want, g.name + ".grad");
    if (!d.empty()) return d;
  }
  return "";
}

// opinfo.txt, with the cases of `overrides` (opinfo_scalar.txt: those whose bits differ in the
// scalar family) in place of the same case lines.
void replay_file(const std::string& overrides, attn::core::CpuKernels cpu) {
  std::vector<Sample> samples = read_samples("opinfo.txt");
  if (!overrides.empty()) {
    std::map<std::string, Sample> by_line;
    for (Sample& s : read_samples(overrides)) by_line[s.line] = std::move(s);
    size_t replaced = 0;
    for (Sample& s : samples)
      if (auto it = by_line.find(s.line); it != by_line.end()) {
        s = it->second;
        ++replaced;
      }
    CHECK_MESSAGE(replaced == by_line.size(), overrides << " has cases opinfo.txt lacks");
  }
  const std::string file = overrides.empty() ? "opinfo.txt" : overrides;
  std::map<std::string, std::pair<int, int>> per_op;   // op -> (samples, passed)
  int total = 0;
  for (const Sample& s : samples) {
    bool ok = true;
    for (const std::string& call : s.calls) {
      const std::string d = replay(s, call, cpu);
      if (!d.empty()) {
        FAIL_CHECK(s.line << ": " << call << ": " << d);
        ok = false;
      }
    }
    per_op[s.op].first++;
    per_op[s.op].second += ok;
    ++total;
  }
  std::ostringstream report;
  for (const auto& [op, n] : per_op) report << " " << op << " " << n.second << "/" << n.first;
  MESSAGE(file << ": " << total << " samples; passed per op:" << report.str());
  CHECK(total > 300);
}

}  // namespace

TEST_CASE("opinfo: PyTorch's OpInfo samples, forward and .grad bit for bit, AVX2 family") {
  replay_file("", attn::core::CpuKernels::avx2);
}

TEST_CASE("opinfo: PyTorch's OpInfo samples, forward and .grad bit for bit, scalar family") {
  replay_file("opinfo_scalar.txt", attn::core::CpuKernels::scalar);
}
