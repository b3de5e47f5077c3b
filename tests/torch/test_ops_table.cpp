// tests/torch/test_ops_table.cpp: the op table (torch/op_table.h) and its binder (torch/signature.h).
//
// Every expected error message and printed tensor here is what PyTorch 1.13 (Debian's
// python3-torch) printed for the same code, unless the test says it is attn's own
// NotImplementedError (an argument PyTorch accepts and attn does not implement).
#include <doctest/doctest.h>

#include "torch/session.h"
#include "torch/values.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "torch/op_table.h"
#include "torch/signature.h"

namespace {

using attn::py::CallArgs;
using attn::py::Value;
using attn::torch::Args;
using attn::torch::OpRow;
using attn::torch::OpTable;
using attn::torch::Signature;
using attn::torch::SignatureError;

// Run a cell after `import torch` / `x = torch.ones(2, 3)`; its output, or "line: error".
std::string run(const std::string& code, attn::core::DropoutRng rng = attn::core::DropoutRng::mkl) {
  attn::torch::Session in(attn::core::CpuKernels::avx2, rng);
  try {
    in.run_cell("import torch\nimport torch.nn as nn\nx = torch.ones(2, 3)\n" + code);
  } catch (const attn::py::ScriptError& e) {
    return e.what();
  }
  return in.take_output();
}

CallArgs call(std::vector<Value> pos, std::vector<std::pair<std::string, Value>> kw = {}) {
  CallArgs c;
  c.pos = std::move(pos);
  c.kw = std::move(kw);
  return c;
}

std::string bind_error(const std::vector<Signature>& sigs, const CallArgs& c) {
  try {
    attn::torch::bind_call(sigs, c, "test");
  } catch (const attn::py::PyError& e) {
    return e.what();
  }
  return "bound";
}

const Value I2 = Value::integer(2), I3 = Value::integer(3);

}  // namespace

TEST_CASE("signatures parse PyTorch's notation and print as PyTorch 1.13 lists them") {
  Signature s = attn::torch::parse_signature("sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor out=None)");
  CHECK(s.name == "sum");
  CHECK(attn::torch::signature_string(s) == "(Tensor input, tuple of ints dim, bool keepdim, *, torch.dtype dtype, Tensor out)");
  CHECK(s.min_args == 2);        // input, and dim: nullable but without a default
  CHECK(s.max_pos_args == 3);
  auto m = attn::torch::as_method(s);        // Tensor.sum: no self, no out
  REQUIRE(m);
  CHECK(attn::torch::signature_string(*m) == "(tuple of ints dim, bool keepdim, *, torch.dtype dtype)");
  // native_functions.yaml's spelling works too.
  CHECK(attn::torch::signature_string(attn::torch::parse_signature("softmax(Tensor input, int dim, *, ScalarType? dtype=None)")) ==
        "(Tensor input, int dim, *, torch.dtype dtype)");
  CHECK(attn::torch::signature_string(attn::torch::parse_signature("f(int[] size, Tensor[] xs, SymInt[] s)")) == "(tuple of ints size, tuple of Tensors xs, tuple of SymInts s)");
  CHECK_FALSE(attn::torch::as_method(attn::torch::parse_signature("repeat_interleave(Tensor repeats, *, int64_t? output_size=None)")));
  CHECK(attn::torch::parse_signature("rand(IntArrayRef size, *, Tensor out=None)").varargs_intlist);
  CHECK_FALSE(attn::torch::parse_signature("permute(Tensor input, IntArrayRef dims)").varargs_intlist);
  CHECK(attn::torch::as_method(attn::torch::parse_signature("permute(Tensor input, IntArrayRef dims)"))->varargs_intlist);
  CHECK_THROWS_WITH_AS(attn::torch::parse_signature("sum(Tensor input"), "signature 'sum(Tensor input': expected name(parameters)", SignatureError);
  CHECK_THROWS_WITH_AS(attn::torch::parse_signature("f(Tensr x)"), "signature 'f(Tensr x)': unknown type 'Tensr'", SignatureError);
  CHECK_THROWS_WITH_AS(attn::torch::parse_signature("f(x)"), "signature 'f(x)': parameter 'x' has no type", SignatureError);
  CHECK_THROWS_WITH_AS(attn::torch::parse_signature("f(int a, int a)"), "signature 'f(int a, int a)': parameter 'a' appears twice", SignatureError);
}

TEST_CASE("binding: positional, keyword, keyword-only, defaults, None, varargs") {
  std::vector<Signature> sum = {attn::torch::parse_signature("sum(Tensor input, IntArrayRef[1]? dim, bool keepdim=False, *, ScalarType? dtype=None)")};
  Value t = attn::torch::tensor_value(attn::core::ones({2, 3}));
  Args a = attn::torch::bind_call(sum, call({t, Value::integer(1)}, {{"keepdim", Value::boolean(true)}}), "torch.sum");
  CHECK(a.ints("dim") == std::vector<int64_t>{1});   // int[1]: one int stands for [int]
  CHECK(a.flag("keepdim"));
  CHECK_FALSE(a.given("dtype"));
  CHECK(a.get("dtype").is_none());
  Args b = attn::torch::bind_call(sum, call({t}, {{"dim", Value::tuple({Value::integer(0)})}, {"dtype", attn::torch::dtype_value(attn::core::DType::int64)}}), "torch.sum");
  CHECK(b.ints("dim") == std::vector<int64_t>{0});
  CHECK_FALSE(b.flag("keepdim"));                     // the default
  CHECK(b.dtype("dtype") == attn::core::DType::int64);
  Args c = attn::torch::bind_call(sum, call({t, Value::none()}), "torch.sum");   // None: not given
  CHECK_FALSE(c.given("dim"));
  // rand(2, 3) == rand((2, 3)) == rand(size=(2, 3)): one positional int list takes them all.
  std::vector<Signature> rand = {attn::torch::parse_signature("rand(IntArrayRef size, *, ScalarType? dtype=None)")};
  for (const CallArgs& args : {call({I2, I3}), call({Value::tuple({I2, I3})}), call({Value::list({I2, I3})}), call({}, {{"size", Value::tuple({I2, I3})}})})
    CHECK(attn::torch::bind_call(rand, args, "torch.rand").ints("size") == std::vector<int64_t>{2, 3});
  // Overloads: the first that fits wins, and the implementation learns which.
  std::vector<Signature> view = {attn::torch::parse_signature("view(ScalarType dtype)"), attn::torch::parse_signature("view(SymIntArrayRef size)")};
  CHECK(attn::torch::bind_call(view, call({attn::torch::dtype_value(attn::core::DType::float32)}), "Tensor.view").overload() == 0);
  CHECK(attn::torch::bind_call(view, call({I2, I3}), "Tensor.view").overload() == 1);
  // Python style: *args, keyword-only, positional-only.
  Signature py = attn::torch::parse_signature("def f(a, /, b=1, *args, c, d=None)");
  Args p = attn::torch::bind_call(py, call({I2, I3, Value::integer(4), Value::integer(5)}, {{"c", Value::integer(6)}}), "f");
  CHECK(p.integer("a") == 2);
  CHECK(p.integer("b") == 3);
  CHECK(p.ints("args") == std::vector<int64_t>{4, 5});
  CHECK(p.integer("c") == 6);
  CHECK(p.get("d").is_none());
}

TEST_CASE("binding errors are PyTorch 1.13's, word for word") {
  std::vector<Signature> softmax = {attn::torch::parse_signature("softmax(Tensor input, int64_t dim, ScalarType? dtype=None, *, Tensor out=None)")};
  Value t = attn::torch::tensor_value(attn::core::ones({2, 3}));
  CHECK(bind_error(softmax, call({t, Value::integer(1), Value::none(), I2})) ==
        "TypeError: softmax() takes from 2 to 3 positional arguments but 4 were given");
  std::vector<Signature> transpose = {attn::torch::parse_signature("transpose(Tensor input, int64_t dim0, int64_t dim1)")};
  CHECK(bind_error(transpose, call({t, I2, I2, I2})) == "TypeError: transpose() takes 3 positional arguments but 4 were given");
  // PyTorch writes "arguments" for exactly one missing argument (and quotes it with ").
  CHECK(bind_error(softmax, call({t})) == "TypeError: softmax() missing 1 required positional arguments: \"dim\"");
  CHECK(bind_error(transpose, call({t})) == "TypeError: transpose() missing 2 required positional argument: \"dim0\", \"dim1\"");
  CHECK(bind_error(softmax, call({t}, {{"dimm", I2}, {"dim", I2}})) == "TypeError: softmax() got an unexpected keyword argument 'dimm'");
  CHECK(bind_error(softmax, call({t, I2}, {{"dim", I2}})) == "TypeError: softmax() got multiple values for argument 'dim'");
  CHECK(bind_error(softmax, call({t, Value::number(1.5)})) == "TypeError: softmax(): argument 'dim' (position 2) must be int, not float");
  CHECK(bind_error(softmax, call({t}, {{"dim", Value::boolean(true)}})) == "TypeError: softmax(): argument 'dim' must be int, not bool");
  std::vector<Signature> rand = {attn::torch::parse_signature("rand(IntArrayRef size, *, ScalarType? dtype=None)")};
  CHECK(bind_error(rand, call({I2, Value::number(3.0)})) ==
        "TypeError: rand(): argument 'size' must be tuple of ints, but found element of type float at pos 2");
  CHECK(bind_error(rand, call({I2}, {{"dtype", I2}})) == "TypeError: rand(): argument 'dtype' must be torch.dtype, not int");
  CHECK(bind_error(rand, call({I2, I3}, {{"size", I2}})) == "TypeError: rand() got multiple values for argument 'size'");
}

TEST_CASE("no overload fits: PyTorch's 'invalid combination' list, with its quirks") {
  // The method forms of sum, as PyTorch lists them; keywords in std::unordered_map order, and a
  // trailing ", " kept when only keywords were given.
  CHECK(run("x.sum(dimm=0)") ==
        "TypeError: sum() received an invalid combination of arguments - got (dimm=int, ), but expected one of:\n"
        " * (*, torch.dtype dtype)\n"
        " * (tuple of ints dim, bool keepdim, *, torch.dtype dtype)\n"
        " * (tuple of names dim, bool keepdim, *, torch.dtype dtype)\n");
  CHECK(run("x.sum(dim=1, keepdim=True, foo=1)") ==
        "TypeError: sum() received an invalid combination of arguments - got (foo=int, keepdim=bool, dim=int, ), but expected one of:\n"
        " * (*, torch.dtype dtype)\n"
        " * (tuple of ints dim, bool keepdim, *, torch.dtype dtype)\n"
        " * (tuple of names dim, bool keepdim, *, torch.dtype dtype)\n");
  CHECK(run("torch.sum(x, dimm=0)") ==
        "TypeError: sum() received an invalid combination of arguments - got (Tensor, dimm=int), but expected one of:\n"
        " * (Tensor input, *, torch.dtype dtype)\n"
        " * (Tensor input, tuple of ints dim, bool keepdim, *, torch.dtype dtype, Tensor out)\n"
        " * (Tensor input, tuple of names dim, bool keepdim, *, torch.dtype dtype, Tensor out)\n");
  // "didn't match" reasons where the argument count fits an option (a bare * counts as one).
  CHECK(run("x.sum(0, dim=0)") ==
        "TypeError: sum() received an invalid combination of arguments - got (int, dim=int), but expected one of:\n"
        " * (*, torch.dtype dtype)\n"
        "      didn't match because some of the keywords were incorrect: dim\n"
        " * (tuple of ints dim, bool keepdim, *, torch.dtype dtype)\n"
        " * (tuple of names dim, bool keepdim, *, torch.dtype dtype)\n");
  CHECK(run("x.transpose(0, '1')") ==
        "TypeError: transpose() received an invalid combination of arguments - got (int, str), but expected one of:\n"
        " * (int dim0, int dim1)\n"
        "      didn't match because some of the arguments have invalid types: (int, !str!)\n"
        " * (name dim0, name dim1)\n"
        "      didn't match because some of the arguments have invalid types: (!int!, !str!)\n");
  CHECK(run("x.size(foo=1)") ==
        "TypeError: size() received an invalid combination of arguments - got (foo=int, ), but expected one of:\n"
        " * (int dim)\n"
        "      didn't match because some of the keywords were incorrect: foo\n"
        " * ()\n"
        "      didn't match because some of the keywords were incorrect: foo\n"
        " * (name dim)\n"
        "      didn't match because some of the keywords were incorrect: foo\n");
  CHECK(run("torch.rand(2, foo=1)") ==
        "TypeError: rand() received an invalid combination of arguments - got (int, foo=int), but expected one of:\n"
        " * (tuple of ints size, *, torch.Generator generator, tuple of names names, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)\n"
        " * (tuple of ints size, *, torch.Generator generator, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)\n"
        " * (tuple of ints size, *, Tensor out, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)\n"
        " * (tuple of ints size, *, tuple of names names, torch.dtype dtype, torch.layout layout, torch.device device, bool pin_memory, bool requires_grad)\n");
  // When only one overload has room for that many arguments, its own error.
  CHECK(run("torch.softmax(x, 1, None, None)") == "TypeError: softmax() takes from 2 to 3 positional arguments but 4 were given");
  CHECK(run("torch.sum(x, 1, 2, 3, 4)") ==
        "TypeError: sum() received an invalid combination of arguments - got (Tensor, int, int, int, int), but expected one of:\n"
        " * (Tensor input, *, torch.dtype dtype)\n"
        " * (Tensor input, tuple of ints dim, bool keepdim, *, torch.dtype dtype, Tensor out)\n"
        " * (Tensor input, tuple of names dim, bool keepdim, *, torch.dtype dtype, Tensor out)\n");
  CHECK(run("x.masked_fill(x > 0)") ==
        "TypeError: masked_fill() received an invalid combination of arguments - got (Tensor), but expected one of:\n"
        " * (Tensor mask, Tensor value)\n"
        " * (Tensor mask, Number value)\n");
}

TEST_CASE("methods without parameters, tensor(), and single-signature errors") {
  CHECK(run("x.exp(1)") == "TypeError: _TensorBase.exp() takes no arguments (1 given)");
  CHECK(run("x.item(foo=1)") == "TypeError: _TensorBase.item() takes no keyword arguments");
  CHECK(run("x.float(1)") == "TypeError: float() takes 0 positional arguments but 1 was given");
  CHECK(run("x.float(foo=1)") == "TypeError: float() got an unexpected keyword argument 'foo'");
  CHECK(run("torch.tensor()") == "TypeError: tensor() missing 1 required positional arguments: \"data\"");
  CHECK(run("torch.tensor([1.], torch.float32)") == "TypeError: tensor() takes 1 positional argument but 2 were given");
  CHECK(run("x.tril(foo=2)") == "TypeError: tril() got an unexpected keyword argument 'foo'");
  CHECK(run("torch.tril(x, 1.0)") == "TypeError: tril(): argument 'diagonal' (position 2) must be int, not float");
  CHECK(run("torch.dot(x)") == "TypeError: dot() missing 1 required positional arguments: \"tensor\"");
  CHECK(run("torch.cat(x)") == "TypeError: cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor");
  CHECK(run("torch.permute(x, 1, 0)") == "TypeError: permute() takes 2 positional arguments but 3 were given");
  CHECK(run("x.unsqueeze()") == "TypeError: unsqueeze() missing 1 required positional arguments: \"dim\"");
}

TEST_CASE("Python-style signatures raise CPython's errors (torch functions written in Python)") {
  CHECK(run("torch.manual_seed()") == "TypeError: manual_seed() missing 1 required positional argument: 'seed'");
  CHECK(run("torch.manual_seed(1, 2)") == "TypeError: manual_seed() takes 1 positional argument but 2 were given");
  CHECK(run("torch.einsum('ij->ji', x, foo=1)") == "TypeError: einsum() got an unexpected keyword argument 'foo'");
  CHECK(run("torch.nn.functional.softmax(x, 1, 3, torch.float32, 5)") == "TypeError: softmax() takes from 1 to 4 positional arguments but 5 were given");
  CHECK(run("nn.Softmax(1, 2)") == "TypeError: Softmax.__init__() takes from 1 to 2 positional arguments but 3 were given");
  // The rest of CPython's wording (checked with python3 3.11 on `def f(a, b, c, *, d, e=1)`).
  Signature f = attn::torch::parse_signature("def f(a, b, c, *, d, e=1)");
  CHECK(bind_error({f}, call({})) == "TypeError: f() missing 3 required positional arguments: 'a', 'b', and 'c'");
  CHECK(bind_error({f}, call({I2, I2, I2})) == "TypeError: f() missing 1 required keyword-only argument: 'd'");
  CHECK(bind_error({f}, call({I2, I2, I2, I2})) == "TypeError: f() takes 3 positional arguments but 4 were given");
  CHECK(bind_error({f}, call({I2, I2, I2, I2}, {{"d", I2}})) ==
        "TypeError: f() takes 3 positional arguments but 4 positional arguments (and 1 keyword-only argument) were given");
  CHECK(bind_error({f}, call({I2, I2, I2}, {{"d", I2}, {"a", I2}})) == "TypeError: f() got multiple values for argument 'a'");
  Signature g = attn::torch::parse_signature("def g(x, /)");
  CHECK(bind_error({g}, call({}, {{"x", I2}})) == "TypeError: g() got some positional-only arguments passed as keyword arguments: 'x'");
}

TEST_CASE("arguments attn does not implement raise, naming the keyword and its value") {
  CHECK(run("torch.randn(2, device='cuda')") == "NotImplementedError: torch.randn(): attn computes on the CPU only, not device='cuda'");
  CHECK(run("torch.rand(2, out=x)") == "NotImplementedError: torch.rand(): attn does not implement out=Tensor: assign the result instead");
  CHECK(run("x.sum('rows')") == "NotImplementedError: Tensor.sum(): attn does not implement dim='rows': attn has no named tensors");
  CHECK(run("torch.ones(2, names=('a',))") == "NotImplementedError: torch.ones(): attn does not implement names=('a',): attn has no named tensors");
  // sum, mean, var, std, amax, amin and logsumexp reduce over several dims (tests/torch/layout.py,
  // fuzz.py, indexing_shifts_amax.py, reductions_masks.py).
  CHECK(run("y = torch.tensor([[1., 2., 4.], [3., 5., 9.]])\nprint(y.var(dim=(0, 1)), y.std((1, 0), keepdim=True, unbiased=False))") ==
        "tensor(8.) tensor([[2.5820]])\n");
  // correction= is implemented now for any int (docs/pytorch-numerics.md §19): PyTorch's values,
  // divisor 0 included (Debian torch 1.13.1 printed these).
  CHECK(run("print(x.var(0, correction=2))") == "tensor([nan, nan, nan])\n");
  CHECK(run("y = torch.tensor([[1., 2., 4.], [3., 5., 9.]])\nprint(y.var(0, correction=2), y.std(dim=1, correction=2), y.var(dim=-1, correction=5))") ==
        "tensor([inf, inf, inf]) tensor([2.1602, 4.3205]) tensor([inf, inf])\n");
  CHECK(run("torch.softmax(x, 1, dtype=torch.int64)") ==
        "NotImplementedError: torch.softmax(): attn does not implement dtype=torch.int64: attn computes softmax in float32");
  // PyTorch's own errors where PyTorch raises too.
  CHECK(run("torch.rand(2, dtype=torch.int64)") == "RuntimeError: \"check_uniform_bounds\" not implemented for 'Long'");
  CHECK(run("torch.ones(2, dtype=torch.int64, requires_grad=True)") == "RuntimeError: Only Tensors of floating point and complex dtype can require gradients");
  CHECK(run("torch.arange(5, 0)") == "RuntimeError: upper bound and larger bound inconsistent with step sign");
  // The defaults themselves are fine.
  CHECK(run("print(torch.randn(2, device='cpu', generator=None, pin_memory=False).shape, torch.ones(2, names=None))") ==
        "torch.Size([2]) tensor([1., 1.])\n");
}

TEST_CASE("keywords that were silently ignored now compute what PyTorch computes") {
  CHECK(run("y = torch.tensor([[1., 2., 4.], [3., 5., 9.]])\nprint(y.var(dim=-1, correction=0), y.std(1, correction=0), y.var(1))") ==
        "tensor([1.5556, 6.2222]) tensor([1.2472, 2.4944]) tensor([2.3333, 9.3333])\n");
  CHECK(run("print(torch.ones(2, dtype=torch.bool), torch.full((2,), 3), torch.zeros_like(torch.tensor([1, 2])), torch.tensor([]))") ==
        "tensor([True, True]) tensor([3, 3]) tensor([0, 0]) tensor([])\n");
  CHECK(run("torch.manual_seed(0)\nprint(torch.rand(2, requires_grad=True))") == "tensor([0.4963, 0.7682], requires_grad=True)\n");
  CHECK(run("print(x.sum(dtype=torch.int64), torch.tensor([1.5, 0.]).bool(), torch.tensor([1.5, 2], dtype=torch.int64))") ==
        "tensor(6) tensor([ True, False]) tensor([1, 2])\n");
  // F.softmax / nn.Softmax without dim: PyTorch's implicit choice (dim 1 for a 2-d input).
  CHECK(run("y = torch.tensor([[1., 2., 4.], [3., 5., 9.]])\nprint(torch.nn.functional.softmax(y), nn.Softmax()(y))") ==
        "tensor([[0.0420, 0.1142, 0.8438],\n        [0.0024, 0.0179, 0.9796]]) tensor([[0.0420, 0.1142, 0.8438],\n        [0.0024, 0.0179, 0.9796]])\n");
  CHECK(run("m = x.masked_fill_(x > 5, 0.)\nprint(m is x)") == "True\n");   // in-place ops return self, as in PyTorch
}

TEST_CASE("every torch.X that is also Tensor.X gives the same result both ways") {
  const char* setup = "y = torch.tensor([[1., 2., 4.], [3., 5., 9.]])\nm = y > 2\nv = torch.tensor([1., 2., 3.])\n";
  // {function call, method call, what PyTorch prints for it}
  struct Case { const char *fn, *method, *expected; };
  const Case cases[] = {
      {"torch.sum(y, 1)", "y.sum(1)", "tensor([ 7., 17.])"},
      {"torch.sum(y)", "y.sum()", "tensor(24.)"},
      {"torch.mean(y, 0, True)", "y.mean(0, True)", "tensor([[2.0000, 3.5000, 6.5000]])"},
      {"torch.var(y, 1)", "y.var(1)", "tensor([2.3333, 9.3333])"},
      {"torch.std(y, dim=1, correction=0)", "y.std(dim=1, correction=0)", "tensor([1.2472, 2.4944])"},
      {"torch.softmax(y, 1)", "y.softmax(1)", "tensor([[0.0420, 0.1142, 0.8438],\n        [0.0024, 0.0179, 0.9796]])"},
      {"torch.amax(y, 0)", "y.amax(0)", "tensor([3., 5., 9.])"},
      {"torch.max(y)", "y.max()", "tensor(9.)"},
      {"torch.argmax(y, 1)", "y.argmax(1)", "tensor([2, 2])"},
      {"torch.exp(v)", "v.exp()", "tensor([ 2.7183,  7.3891, 20.0855])"},
      {"torch.sqrt(v)", "v.sqrt()", "tensor([1.0000, 1.4142, 1.7321])"},
      {"torch.abs(-v)", "(-v).abs()", "tensor([1., 2., 3.])"},
      {"torch.isnan(v)", "v.isnan()", "tensor([False, False, False])"},
      {"torch.isinf(v)", "v.isinf()", "tensor([False, False, False])"},
      {"torch.dot(v, v)", "v.dot(v)", "tensor(14.)"},
      {"torch.matmul(y, v)", "y.matmul(v)", "tensor([17., 40.])"},
      {"torch.allclose(v, v + 1e-9)", "v.allclose(v + 1e-9)", "True"},
      {"torch.equal(v, v)", "v.equal(v)", "True"},
      {"torch.tril(y, 1)", "y.tril(1)", "tensor([[1., 2., 0.],\n        [3., 5., 9.]])"},
      {"torch.triu(y, diagonal=1)", "y.triu(diagonal=1)", "tensor([[0., 2., 4.],\n        [0., 0., 9.]])"},
      {"torch.masked_fill(y, m, 0.)", "y.masked_fill(m, 0.)", "tensor([[1., 2., 0.],\n        [0., 0., 0.]])"},
      {"torch.reshape(y, (3, 2))", "y.reshape(3, 2)", "tensor([[1., 2.],\n        [4., 3.],\n        [5., 9.]])"},
      {"torch.permute(y, (1, 0))", "y.permute(1, 0)", "tensor([[1., 3.],\n        [2., 5.],\n        [4., 9.]])"},
      {"torch.transpose(y, 0, 1)", "y.transpose(0, 1)", "tensor([[1., 3.],\n        [2., 5.],\n        [4., 9.]])"},
      {"torch.t(y)", "y.t()", "tensor([[1., 3.],\n        [2., 5.],\n        [4., 9.]])"},
      {"torch.unsqueeze(v, 0)", "v.unsqueeze(0)", "tensor([[1., 2., 3.]])"},
      {"torch.squeeze(v.unsqueeze(0))", "v.unsqueeze(0).squeeze()", "tensor([1., 2., 3.])"},
      {"torch.repeat_interleave(v, 2)", "v.repeat_interleave(2)", "tensor([1., 1., 2., 2., 3., 3.])"},
      {"torch.clone(v)", "v.clone()", "tensor([1., 2., 3.])"},
      {"torch.detach(v)", "v.detach()", "tensor([1., 2., 3.])"},
      {"torch.numel(y)", "y.numel()", "6"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.fn);
    CHECK(run(std::string(setup) + "print(" + c.fn + ")") == std::string(c.expected) + "\n");
    CHECK(run(std::string(setup) + "print(" + c.method + ")") == std::string(c.expected) + "\n");
  }
}

TEST_CASE("the table: each name once per variant, checked when it is built") {
  auto impl = [](attn::py::Interpreter&, Args& a) { return attn::torch::tensor_value(a.tensor("input")); };
  const OpRow sum_fn = {"sum", attn::torch::kFunction, {"sum(Tensor input)"}, impl};
  const OpRow sum_method = {"sum", attn::torch::kMethod, {"sum(Tensor input)"}, impl};
  CHECK_THROWS_WITH_AS(OpTable({sum_fn, sum_fn}), "op table: torch.sum is registered twice", SignatureError);
  CHECK_THROWS_WITH_AS(OpTable({sum_method, {"sum", attn::torch::kFunction | attn::torch::kMethod, {"sum(Tensor input)"}, impl}}),
                       "op table: Tensor.sum is registered twice", SignatureError);
  OpTable split({sum_fn, sum_method});   // torch.sum from one row and Tensor.sum from another: allowed
  CHECK(split.function("sum") != nullptr);
  CHECK(split.method("sum") != nullptr);
  CHECK_THROWS_WITH_AS(OpTable({{"sum", attn::torch::kFunction, {"mean(Tensor input)"}, impl}}),
                       "op table: row 'sum' has a signature for 'mean'", SignatureError);
  CHECK_THROWS_WITH_AS(OpTable({{"rand", attn::torch::kMethod, {"rand(IntArrayRef size)"}, impl}}),
                       "op table: Tensor.rand needs an overload whose first parameter is 'Tensor input' or 'Tensor self'", SignatureError);
  // attn's own table parses a row on its first call (kLazy): a bad signature waits until then,
  // so every row of it is built eagerly here.
  const OpRow bad = {"sum", attn::torch::kFunction, {"mean(Tensor input)"}, impl};
  OpTable lazy({bad}, OpTable::kLazy);
  CHECK_THROWS_WITH_AS(lazy.function("sum")->overloads(), "op table: row 'sum' has a signature for 'mean'", SignatureError);
  CHECK_NOTHROW(OpTable{attn::torch::torch_op_rows()});   // braces: parenthesized, clang reads a declaration
  // attn's own table builds, and its names are PyTorch's.
  const OpTable& ops = attn::torch::torch_ops();
  CHECK(ops.function("arange") != nullptr);
  CHECK(ops.method("masked_fill_") != nullptr);
  CHECK(ops.function("masked_fill_") == nullptr);
  CHECK(ops.method("rand") == nullptr);
}

TEST_CASE("an implementation that ignores an argument it was given raises instead") {
  // A row whose implementation forgets `diagonal`: the call fails rather than dropping it.
  OpTable table({{"tril", attn::torch::kFunction, {"tril(Tensor input, int64_t diagonal=0)"},
                  [](attn::py::Interpreter&, Args& a) { return attn::torch::tensor_value(a.tensor("input")); }}});
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  Value t = attn::torch::tensor_value(attn::core::ones({2, 2}));
  CHECK(attn::torch::as_tensor(table.call_function(in.python(), *table.function("tril"), call({t}))).floats().size() == 4);   // default: fine
  CHECK_THROWS_WITH(table.call_function(in.python(), *table.function("tril"), call({t, Value::integer(1)})),
                    "NotImplementedError: torch.tril(): attn does not implement diagonal=1");
}

TEST_CASE("nn modules bind their arguments: unknown keywords raise, the others are implemented or refused") {
  CHECK(run("nn.Linear(3, 2, biass=False)") == "TypeError: Linear.__init__() got an unexpected keyword argument 'biass'");
  CHECK(run("nn.Linear()") == "TypeError: Linear.__init__() missing 2 required positional arguments: 'in_features' and 'out_features'");
  CHECK(run("nn.Linear(1)") == "TypeError: Linear.__init__() missing 1 required positional argument: 'out_features'");
  CHECK(run("nn.Linear(1, 2, 3, 4, 5, 6)") == "TypeError: Linear.__init__() takes from 3 to 6 positional arguments but 7 were given");
  CHECK(run("nn.Dropout(0.5, inplace=True, foo=1)") == "TypeError: _DropoutNd.__init__() got an unexpected keyword argument 'foo'");
  CHECK(run("nn.Embedding(4, 2, foo=1)") == "TypeError: Embedding.__init__() got an unexpected keyword argument 'foo'");
  CHECK(run("nn.Parameter(x, True, 3)") == "TypeError: Parameter.__new__() takes from 1 to 3 positional arguments but 4 were given");
  CHECK(run("nn.ModuleList(foo=1)") == "TypeError: ModuleList.__init__() got an unexpected keyword argument 'foo'");
  // Linear's parameters are torch.empty(..., device=device) as in PyTorch: that call refuses.
  CHECK(run("nn.Linear(3, 2, device='cuda')") == "NotImplementedError: torch.empty(): attn computes on the CPU only, not device='cuda'");
  // As in PyTorch, max_norm is kept by the module and used by F.embedding in forward: refused there.
  CHECK(run("print(nn.Embedding(4, 2, max_norm=1.0))") == "Embedding(4, 2, max_norm=1.0)\n");
  CHECK(run("nn.Embedding(4, 2, max_norm=1.0)(torch.tensor([1]))") ==
        "NotImplementedError: torch.nn.functional.embedding(): attn does not implement max_norm=1.0: attn does not renormalise embeddings");
  CHECK(run("nn.Embedding(4, 2, padding_idx=4)") == "AssertionError: Padding_idx must be within num_embeddings");
  // Embedding(padding_idx): the same draws, then the padding row zeroed (seed 123, as PyTorch).
  CHECK(run("torch.manual_seed(123)\ne = nn.Embedding(4, 2, padding_idx=-1)\nprint(e)\nprint(e.weight)") ==
        "Embedding(4, 2, padding_idx=3)\n"
        "Parameter containing:\n"
        "tensor([[-0.1115,  0.1204],\n"
        "        [-0.3696, -0.2404],\n"
        "        [-1.1969,  0.2093],\n"
        "        [ 0.0000,  0.0000]], requires_grad=True)\n");
  // Dropout(inplace=True) changes its input and returns it (portable mask: Debian's torch).
  CHECK(run("torch.manual_seed(1)\ny = torch.rand(6)\nd = nn.Dropout(0.5, inplace=True)\nz = d(y)\nprint(d, y, z is y)",
            attn::core::DropoutRng::portable) ==
        "Dropout(p=0.5, inplace=True) tensor([1.5153, 0.0000, 0.8061, 1.4694, 0.0000, 0.0000]) True\n");
  CHECK(run("torch.manual_seed(1)\ny = torch.rand(6, requires_grad=True)\nnn.Dropout(0.5, inplace=True)(y)") ==
        "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.");
  CHECK(run("torch.manual_seed(789)\nl = nn.Linear(in_features=3, out_features=2, bias=False, device='cpu', dtype=torch.float32)\nprint(l)") ==
        "Linear(in_features=3, out_features=2, bias=False)\n");
  CHECK(run("m = nn.Linear(3, 2)\nprint(len(list(m.parameters())), len(list(m.parameters(recurse=False))), m.train(mode=False).training)") == "2 2 False\n");
  CHECK(run("m = nn.Linear(3, 2)\nm.eval(1)") == "TypeError: Module.eval() takes 1 positional argument but 2 were given");
}
