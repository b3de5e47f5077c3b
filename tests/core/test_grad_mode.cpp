// tests/core/test_grad_mode.cpp: core's grad mode (core/autograd.h: grad_enabled, set_grad_enabled,
// GradModeGuard), the switch torch.no_grad() and torch.set_grad_enabled() flip in PyTorch.
//
// What it is: with the mode off, an op on a tensor that requires grad returns a plain tensor (no
// grad_fn, requires_grad false), as PyTorch's ops do under no_grad; a guard restores the mode it
// found, nested guards unwind in order, and the mode belongs to one thread.
// What it is not: the interpreter's `with torch.no_grad():` (py keeps its own flag, RunState;
// tests/torch/test_torch_scripts.cpp and the tutorials cover it), or numbers (nothing here rounds).
#include <doctest/doctest.h>

#include <optional>
#include <thread>
#include <vector>

#include "core/autograd.h"
#include "core/ops.h"

namespace core = attn::core;
namespace autograd = attn::core::autograd;
using core::BinOp;
using core::Tensor;

namespace {

Tensor leaf(const std::vector<float>& values) {
  Tensor t = core::from_floats({static_cast<int64_t>(values.size())}, values);
  t.set_requires_grad(true);
  return t;
}

// Recorded as PyTorch records it: a grad_fn, requires_grad.
void check_recorded(const Tensor& t, const char* grad_fn) {
  CHECK(t.requires_grad());
  CHECK(t.grad_fn() == grad_fn);
  CHECK_FALSE(t.is_leaf());
}

// A no_grad result: a leaf that does not require grad.
void check_plain(const Tensor& t) {
  CHECK_FALSE(t.requires_grad());
  CHECK(t.grad_fn().empty());
  CHECK(t.is_leaf());
}

}  // namespace

TEST_CASE("grad mode: on by default; with it off an op's result has no grad_fn and does not require grad") {
  REQUIRE(autograd::grad_enabled());
  const Tensor x = leaf({1.0f, 2.0f, 3.0f});
  check_recorded(core::binary(BinOp::mul, x, x), "MulBackward0");
  {
    autograd::GradModeGuard no_grad(false);
    CHECK_FALSE(autograd::grad_enabled());
    const Tensor y = core::binary(BinOp::mul, x, x);   // arithmetic
    check_plain(y);
    CHECK(y.floats() == std::vector<float>{1.0f, 4.0f, 9.0f});   // computed all the same
    check_plain(core::sum(y));
    // views: no grad_fn, but PyTorch's requires_grad of a view of a base that requires grad
    const Tensor v = core::transpose(core::unsqueeze(x, 0), 0, 1);
    CHECK(v.requires_grad());
    CHECK(v.grad_fn().empty());
    CHECK(v.is_leaf());
    for (const Tensor& part : core::split(x, 2, 0)) CHECK(part.grad_fn().empty());   // several outputs of one node
    check_plain(core::with_grad(core::clone(x), {&x}, "CloneBackward0"));   // a node for its name only
    CHECK(x.requires_grad());   // the inputs keep theirs
    CHECK_THROWS_WITH_AS(autograd::backward(core::sum(y), std::nullopt, false),
                         "element 0 of tensors does not require grad and does not have a grad_fn", core::TensorError);
  }
  CHECK(autograd::grad_enabled());
  check_recorded(core::binary(BinOp::mul, x, x), "MulBackward0");
}

TEST_CASE("grad mode: a guard restores the mode it found, also one set by set_grad_enabled") {
  autograd::set_grad_enabled(false);
  CHECK_FALSE(autograd::grad_enabled());
  {
    autograd::GradModeGuard enable_grad(true);
    CHECK(autograd::grad_enabled());
    check_recorded(core::neg(leaf({1.0f})), "NegBackward0");
  }
  CHECK_FALSE(autograd::grad_enabled());   // back to what set_grad_enabled left
  check_plain(core::neg(leaf({1.0f})));
  autograd::set_grad_enabled(true);
  CHECK(autograd::grad_enabled());
}

TEST_CASE("grad mode: nested guards unwind in order") {
  const Tensor x = leaf({2.0f});
  {
    autograd::GradModeGuard outer(false);
    {
      autograd::GradModeGuard inner(true);
      CHECK(autograd::grad_enabled());
      check_recorded(core::binary_scalar(BinOp::add, x, 1.0), "AddBackward0");
      {
        autograd::GradModeGuard innermost(false);
        check_plain(core::binary_scalar(BinOp::add, x, 1.0));
      }
      CHECK(autograd::grad_enabled());
    }
    CHECK_FALSE(autograd::grad_enabled());
    check_plain(core::binary_scalar(BinOp::add, x, 1.0));
  }
  CHECK(autograd::grad_enabled());
}

TEST_CASE("grad mode: a graph recorded before no_grad still runs backward inside it") {
  const Tensor x = leaf({3.0f});
  const Tensor y = core::sum(core::binary(BinOp::mul, x, x));
  autograd::GradModeGuard no_grad(false);
  autograd::backward(y, std::nullopt, false);   // as loss.backward() under torch.no_grad()
  REQUIRE(autograd::grad(x).has_value());
  CHECK(autograd::grad(x)->floats() == std::vector<float>{6.0f});
}

TEST_CASE("grad mode: the mode is per thread") {
  autograd::GradModeGuard no_grad(false);
  bool other_thread = false;
  std::thread([&] { other_thread = autograd::grad_enabled(); }).join();
  CHECK(other_thread);   // a new thread starts enabled, as in PyTorch
  CHECK_FALSE(autograd::grad_enabled());
}
