// tests/core/test_autograd.cpp: backward() against gradients recorded from real PyTorch 1.13.1.
//
// What it is: a replay of tests/vectors/grad_kernels.txt (written by tools/make_grad_vectors.py
// with Debian's torch and the reference BLAS, one thread; see its docstring for the format): each
// case runs attn's forward op on leaves that require grad, calls backward() with the recorded
// upstream gradient and compares every .grad with torch's, bit for bit. grad_kernels.txt comes
// from torch's AVX2 kernels (replayed with CpuKernels::avx2), grad_scalar_kernels.txt from
// ATEN_CPU_CAPABILITY=default (CpuKernels::scalar). Plus the engine's rules (accumulation
// order, errors) on small hand-made graphs whose expected values are worked out in comments.
// What it is not: a PyTorch run; regenerating the vectors is a deliberate, reviewable step.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/autograd.h"
#include "core/ops.h"
#include "core/tensor.h"

namespace core = attn::core;
namespace autograd = attn::core::autograd;
using core::CpuKernels;
using core::Shape;
using core::Tensor;

namespace {

// ---- reading the vector files ----

struct GradCase {
  std::string op;
  std::string line;                                     // the "case ..." line, for messages
  std::map<std::string, std::string> keys;              // e.g. m=6, shape=2,6,3
  std::map<std::string, std::vector<uint32_t>> arrays;  // name -> float bit patterns
  std::map<std::string, std::vector<int64_t>> ints;     // idx arrays

  int64_t num(const std::string& k) const { return std::stoll(keys.at(k)); }
  Shape shape(const std::string& k) const {
    Shape s;
    if (keys.at(k) == "scalar") return s;
    std::istringstream in(keys.at(k));
    for (std::string part; std::getline(in, part, ',');) s.push_back(std::stoll(part));
    return s;
  }
  std::vector<float> floats(const std::string& name) const {
    const auto& bits = arrays.at(name);
    std::vector<float> out(bits.size());
    std::memcpy(out.data(), bits.data(), bits.size() * sizeof(float));
    return out;
  }
  Tensor tensor(const std::string& name, const Shape& shape) const { return core::from_floats(shape, floats(name)); }
  Tensor leaf(const std::string& name, const Shape& shape) const {
    Tensor t = tensor(name, shape);
    t.set_requires_grad(true);
    return t;
  }
};

std::vector<GradCase> read_grad_cases(const std::string& file) {
  const std::string path = std::string(ATTN_TEST_DATA) + "/vectors/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<GradCase> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string head;
    words >> head;
    if (head == "case") {
      GradCase c;
      c.line = line;
      words >> c.op;
      for (std::string kv; words >> kv;) c.keys[kv.substr(0, kv.find('='))] = kv.substr(kv.find('=') + 1);
      cases.push_back(std::move(c));
      continue;
    }
    REQUIRE_MESSAGE(!cases.empty(), "array line before any case in " << path);
    if (head == "src") continue;
    size_t count = 0;
    words >> count;
    if (head == "idx") {
      std::vector<int64_t> v(count);
      for (auto& x : v) words >> x;
      cases.back().ints[head] = v;
    } else {
      std::vector<uint32_t> bits(count);
      for (auto& b : bits) {
        std::string hex;
        words >> hex;
        b = static_cast<uint32_t>(std::stoul(hex, nullptr, 16));
      }
      cases.back().arrays[head] = bits;
    }
    REQUIRE_MESSAGE(!words.fail(), "short array line in " << path << ": " << head);
  }
  return cases;
}

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// Every element of `got` has torch's bit pattern (any NaN matches any NaN).
void check_bits(const GradCase& c, const std::string& name, const Tensor& got) {
  const std::vector<uint32_t>& want = c.arrays.at(name);
  REQUIRE_MESSAGE(got.numel() == static_cast<int64_t>(want.size()), c.line << ": " << name << " has " << got.numel() << " elements");
  const std::vector<float> v = got.floats();
  int bad = 0;
  for (size_t k = 0; k < want.size(); ++k) {
    const uint32_t g = bits_of(v[k]);
    const bool nan_both = std::isnan(v[k]) && (want[k] & 0x7f800000u) == 0x7f800000u && (want[k] & 0x007fffffu);
    if (g != want[k] && !nan_both && bad++ < 3)
      FAIL_CHECK(c.line << ": " << name << "[" << k << "] is " << std::hex << g << ", torch has " << want[k]);
  }
  CHECK_MESSAGE(bad == 0, c.line << ": " << name << ": " << bad << " of " << want.size() << " differ");
}

Tensor leaf(const Shape& shape, const std::vector<float>& v) {
  Tensor t = core::from_floats(shape, v);
  t.set_requires_grad(true);
  return t;
}

Tensor grad_of(const Tensor& t) {
  std::optional<Tensor> g = autograd::grad(t);
  REQUIRE(g.has_value());
  return *g;
}

// Replays one kernel case; returns false for ops this file does not cover yet.
bool replay(const GradCase& c, CpuKernels cpu) {
  if (c.op == "sum_to") {
    const Tensor g = c.tensor("g", c.shape("shape"));
    check_bits(c, "out", autograd::sum_to(g, c.shape("to")));
    // The same reduction through the engine: x (to) + zeros (shape), so x's gradient is reduced.
    Tensor x = c.leaf("out", c.shape("to"));
    autograd::backward(core::binary(core::BinOp::add, x, core::zeros(c.shape("shape"))), g, false);
    check_bits(c, "out", grad_of(x));
    return true;
  }
  if (c.op == "mm" || c.op == "bmm") {
    const bool batched = c.op == "bmm";
    const int64_t m = c.num("m"), k = c.num("k"), n = c.num("n");
    Shape sa{m, k}, sb{k, n}, sg{m, n};
    if (batched) {
      for (Shape* s : {&sa, &sb, &sg}) s->insert(s->begin(), c.num("batch"));
    }
    Tensor a = c.leaf("a", sa), b = c.leaf("b", sb);
    autograd::backward(core::matmul(a, b), c.tensor("g", sg), false);
    check_bits(c, "ga", grad_of(a));
    check_bits(c, "gb", grad_of(b));
    return true;
  }
  if (c.op == "div") {
    const Shape s{c.num("n")};
    Tensor a = c.leaf("a", s), b = c.leaf("b", s);
    autograd::backward(core::binary(core::BinOp::div, a, b), c.tensor("g", s), false);
    check_bits(c, "ga", grad_of(a));
    check_bits(c, "gb", grad_of(b));
    return true;
  }
  if (c.op == "softmax") {   // SoftmaxBackward0 from the saved result y
    const Shape s = c.shape("shape");
    const autograd::Grads out = attn::core::grad::softmax(c.tensor("y", s), c.num("dim"), cpu).fn({c.tensor("g", s)});
    check_bits(c, "gx", *out[0]);
    return true;
  }
  if (c.op == "linear") {   // nn.Linear as attn runs it: x @ W.t() (+ b)
    const int64_t m = c.num("m"), k = c.num("k"), n = c.num("n");
    Tensor x = c.leaf("x", {m, k}), w = c.leaf("w", {n, k}), b = leaf({n}, std::vector<float>(static_cast<size_t>(n), 0.0f));
    Tensor y = core::matmul(x, core::t(w));
    if (c.num("bias")) y = core::binary(core::BinOp::add, y, b);
    autograd::backward(y, c.tensor("g", {m, n}), false);
    check_bits(c, "gx", grad_of(x));
    check_bits(c, "gw", grad_of(w));
    if (c.num("bias")) check_bits(c, "gb", grad_of(b));
    return true;
  }
  if (c.op == "layer_norm") {   // from the forward's saved per-row mean and rstd
    const int64_t m = c.num("m"), n = c.num("n");
    const Tensor w = c.tensor("w", {n});
    const autograd::Grads out = attn::core::grad::layer_norm(c.tensor("x", {m, n}), &w, c.floats("mean"),
                                                              c.floats("rstd"), cpu).fn({c.tensor("g", {m, n})});
    check_bits(c, "gx", *out[0]);
    check_bits(c, "gw", *out[1]);
    check_bits(c, "gb", *out[2]);
    return true;
  }
  if (c.op == "gelu") {   // nn.GELU's forward, then GeluBackward0 through the engine
    const Shape s{c.num("n")};
    Tensor x = c.leaf("x", s);
    autograd::backward(core::gelu(x, c.keys.at("approximate") == "tanh", cpu), c.tensor("g", s), false);
    check_bits(c, "gx", grad_of(x));
    return true;
  }
  if (c.op == "tanh") {   // TanhBackward0 from the saved result y
    const Shape s{c.num("n")};
    check_bits(c, "gx", *attn::core::grad::tanh(c.tensor("y", s), cpu).fn({c.tensor("g", s)})[0]);
    return true;
  }
  if (c.op == "mse") {
    const Shape s{c.num("n")};
    Tensor x = c.leaf("x", s);
    autograd::backward(core::mse_loss(x, c.tensor("t", s), "mean"), std::nullopt, false);
    check_bits(c, "gx", grad_of(x));
    return true;
  }
  if (c.op == "dropout") {   // MulBackward0 of input * noise (the mask divided by 1 - p)
    const Shape s{c.num("n")};
    Tensor x = leaf(s, std::vector<float>(static_cast<size_t>(c.num("n")), 1.0f));
    autograd::backward(core::binary(core::BinOp::mul, x, c.tensor("noise", s)), c.tensor("g", s), false);
    check_bits(c, "gx", grad_of(x));
    return true;
  }
  if (c.op == "embedding") {
    const int64_t v = c.num("v"), w = c.num("c");
    const std::vector<int64_t>& ids = c.ints.at("idx");
    Tensor table = leaf({v, w}, std::vector<float>(static_cast<size_t>(v * w), 0.5f));
    const Tensor h = core::index_select_rows(table, core::from_ints({static_cast<int64_t>(ids.size())}, ids));
    autograd::backward(h, c.tensor("g", {static_cast<int64_t>(ids.size()), w}), false);
    check_bits(c, "gw", grad_of(table));
    return true;
  }
  return false;
}

void replay_file(const std::string& file, CpuKernels cpu) {
  int covered = 0;
  for (const GradCase& c : read_grad_cases(file)) {
    CAPTURE(c.line);
    if (replay(c, cpu)) ++covered;
  }
  CHECK(covered >= 56);   // sum_to, mm, bmm, linear, softmax, layer_norm, mse, div, dropout, embedding
}

}  // namespace

TEST_CASE("autograd: backward kernels give PyTorch's gradients bit for bit (AVX2 family)") {
  replay_file("grad_kernels.txt", CpuKernels::avx2);
}

TEST_CASE("autograd: backward kernels give PyTorch's gradients bit for bit (scalar family)") {
  replay_file("grad_scalar_kernels.txt", CpuKernels::scalar);
}

TEST_CASE("autograd: a tensor used several times adds its gradients latest use first") {
  // x used by three products created in the order 1, 2^-24, 2^-24: PyTorch's engine adds
  // (g_last + g_middle) + g_first = (2^-24 + 2^-24) + 1 = 1 + 2^-23, where the forward order
  // (1 + 2^-24) + 2^-24 rounds to 1 twice (docs/pytorch-numerics.md §12).
  const double tiny = 5.9604644775390625e-08;   // 2^-24
  Tensor x = leaf({1}, {1.0f});
  const Tensor y1 = core::binary_scalar(core::BinOp::mul, x, 1.0);
  const Tensor y2 = core::binary_scalar(core::BinOp::mul, x, tiny);
  const Tensor y3 = core::binary_scalar(core::BinOp::mul, x, tiny);
  const Tensor loss = core::sum(core::binary(core::BinOp::add, core::binary(core::BinOp::add, y1, y2), y3));
  autograd::backward(loss, std::nullopt, false);
  const float t = static_cast<float>(tiny);
  const float latest_first = (t + t) + 1.0f;
  const float oldest_first = (1.0f + t) + t;
  REQUIRE(latest_first != oldest_first);   // the order is visible in these numbers
  CHECK(bits_of(grad_of(x).float_at(0)) == bits_of(latest_first));
}

TEST_CASE("autograd: .grad accumulates over backward() calls; a freed graph refuses a second one") {
  Tensor x = leaf({3}, {1.0f, 2.0f, 3.0f});
  autograd::backward(core::sum(core::binary_scalar(core::BinOp::mul, x, 2.0)), std::nullopt, false);
  autograd::backward(core::sum(core::binary_scalar(core::BinOp::mul, x, 3.0)), std::nullopt, false);
  CHECK(grad_of(x).floats() == std::vector<float>{5.0f, 5.0f, 5.0f});

  // x * x saves x: a second backward through the same graph raises PyTorch's error...
  const Tensor sq = core::sum(core::binary(core::BinOp::mul, x, x));
  autograd::backward(sq, std::nullopt, false);
  CHECK_THROWS_WITH_AS(autograd::backward(sq, std::nullopt, false),
                       doctest::Contains("Trying to backward through the graph a second time"), core::TensorError);
  // ... unless the graph was retained; (x + 1).sum() saves nothing, so it may run twice anyway.
  const Tensor kept = core::sum(core::binary(core::BinOp::mul, x, x));
  autograd::backward(kept, std::nullopt, true);
  CHECK_NOTHROW(autograd::backward(kept, std::nullopt, false));
  const Tensor plain = core::sum(core::binary_scalar(core::BinOp::add, x, 1.0));
  autograd::backward(plain, std::nullopt, false);
  CHECK_NOTHROW(autograd::backward(plain, std::nullopt, false));
}

TEST_CASE("autograd: backward() refuses what PyTorch refuses, with its messages") {
  Tensor x = leaf({3}, {1.0f, 2.0f, 3.0f});
  const Tensor y = core::binary_scalar(core::BinOp::mul, x, 2.0);
  CHECK_THROWS_WITH_AS(autograd::backward(y, std::nullopt, false), "grad can be implicitly created only for scalar outputs",
                       core::TensorError);
  CHECK_THROWS_WITH_AS(autograd::backward(y, core::ones({2}), false),
                       "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of "
                       "torch.Size([3]).",
                       core::TensorError);
  CHECK_THROWS_WITH_AS(autograd::backward(core::ones({}), std::nullopt, false),
                       "element 0 of tensors does not require grad and does not have a grad_fn", core::TensorError);
  // A recorded op whose derivative attn lacks says so instead of giving a wrong gradient.
  // (max() has its derivative now; erfinv still has none.)
  const Tensor m = core::sum(core::erfinv(core::binary_scalar(core::BinOp::mul, x, 0.1), core::CpuKernels::avx2));
  CHECK_THROWS_WITH_AS(autograd::backward(m, std::nullopt, false), doctest::Contains("ErfinvBackward0"), core::TensorError);
}

TEST_CASE("autograd: a leaf's .grad is a plain tensor, the grad_fn names stay PyTorch's") {
  Tensor x = leaf({2}, {1.0f, 2.0f});
  CHECK_FALSE(autograd::grad(x).has_value());
  const Tensor y = core::binary(core::BinOp::mul, x, x);
  CHECK(y.grad_fn() == "MulBackward0");
  CHECK_FALSE(y.is_leaf());
  autograd::backward(core::sum(y), std::nullopt, false);
  const Tensor g = grad_of(x);
  CHECK(g.floats() == std::vector<float>{2.0f, 4.0f});   // d(x*x)/dx = x + x
  CHECK_FALSE(g.requires_grad());
  CHECK(g.grad_fn().empty());
  CHECK_FALSE(autograd::grad(y).has_value());   // not a leaf: None
}
