// torch/nn_init.cpp: torch.nn.init: calculate_gain, uniform_, normal_, trunc_normal_, constant_,
// ones_, zeros_, xavier_uniform_, xavier_normal_, kaiming_uniform_, kaiming_normal_
// (torch/nn/init.py, 1.13).
//
// What it is: the bounds and standard deviations computed in Python doubles exactly as init.py
// writes them, then the run's generator filling the tensor in place (uniform_ / normal_ of
// core/random.h, docs/pytorch-numerics.md §2, §18), under no_grad as PyTorch does: the tensor keeps
// its identity, so a Parameter initialised here is the module's parameter.
// The deprecated forms without the underscore warn as 1.13 does, then run the in-place form.
// What it is not: orthogonal_ / sparse_ / eye_ / dirac_ (absent: AttributeError). The modules'
// own reset_parameters() call these (python/nn/*.py), as PyTorch's do.
#include <fmt/format.h>

#include <cmath>

#include "core/ops.h"
#include "torch/bindings.h"
#include "py/exceptions.h"

namespace attn::torch {

namespace {

using core::Tensor;

std::shared_ptr<Signature> parse(const std::string& text) { return std::make_shared<Signature>(parse_signature(text)); }

// Fill `t` in place with n values from `fill(out, n)`, through its storage (a view writes into its base).
template <typename Fill>
void fill_in_place(Tensor& t, Fill fill) {
  if (!t.is_float()) throw RuntimeError("\"uniform_\" not implemented for 'Long'");
  Tensor dense = t.is_contiguous() ? t : core::empty(t.shape());
  fill(dense.data<float>(), dense.numel());
  if (!t.is_contiguous()) core::copy_(t, dense);
  t.mark_written();
}

// init._calculate_fan_in_and_fan_out.
std::pair<int64_t, int64_t> fans(const Tensor& t) {
  if (t.dim() < 2)
    throw ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  int64_t receptive = 1;
  for (int64_t d = 2; d < t.dim(); ++d) receptive *= t.shape()[d];
  return {t.shape()[1] * receptive, t.shape()[0] * receptive};
}

double calculate_gain(const std::string& nl, const Value& param) {
  for (const char* linear : {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid"})
    if (nl == linear) return 1.0;
  if (nl == "tanh") return 5.0 / 3;
  if (nl == "relu") return std::sqrt(2.0);
  if (nl == "leaky_relu") {
    double slope = 0.01;
    if (!param.is_none()) {
      if (param.kind == Value::Bool || !param.is_number())
        throw ValueError("negative_slope " + repr(param) + " not a valid number");
      slope = to_double(param, "param");
    }
    return std::sqrt(2.0 / (1 + slope * slope));
  }
  if (nl == "selu") return 3.0 / 4;
  throw ValueError("Unsupported nonlinearity " + nl);
}

int64_t kaiming_fan(const Tensor& t, const std::string& mode) {
  if (mode != "fan_in" && mode != "fan_out")
    throw ValueError("Mode " + mode + " not supported, please use one of fan_in, fan_out");
  auto [fan_in, fan_out] = fans(t);
  return mode == "fan_in" ? fan_in : fan_out;
}

// A zero-element tensor: PyTorch warns "Initializing zero-element tensors is a no-op" and returns it.
bool empty_tensor(const Tensor& t) { return t.numel() == 0; }

Value init_fn(const std::string& text, std::function<void(Interpreter&, Args&, Tensor&)> body) {
  auto s = parse(text);
  return builtin("torch.nn.init." + s->name, [s, body](Interpreter& in, CallArgs& a) {
    Args b = bind_call(*s, a, "torch.nn.init." + s->name);
    Value t = b.get("tensor");
    Tensor& tensor = as_tensor(t);
    body(in, b, tensor);
    b.check_all_read();
    return t;
  });
}

void uniform(Interpreter& in, Tensor& t, double a, double b) { uniform_fill(state(in).generator, t, a, b); }
void normal(Interpreter& in, Tensor& t, double mean, double std) { normal_fill(state(in).generator, t, mean, std); }

// init.py's _make_deprecate: uniform, normal, constant, xavier_uniform, xavier_normal,
// kaiming_uniform and kaiming_normal (no trailing underscore) warn, then call the in-place form.
void add_deprecated_aliases(std::map<std::string, Value>& n) {
  for (const char* name : {"uniform", "normal", "constant", "xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal"}) {
    const std::string old_name = name, new_name = old_name + "_";
    Value target = n.at(new_name);
    n[old_name] = builtin("torch.nn.init." + old_name, [old_name, new_name, target](Interpreter& in, CallArgs& a) {
      user_warning(in, fmt::format("nn.init.{} is now deprecated in favor of nn.init.{}.", old_name, new_name));
      return in.call(target, a);
    });
  }
}

}  // namespace

void uniform_fill(core::Generator& g, Tensor& t, double a, double b) {
  if (a > b) throw RuntimeError(fmt::format("uniform_ expects to return a [from, to) range, but found from={} > to={}", a, b));
  fill_in_place(t, [&](float* out, int64_t n) { g.fill_uniform(out, n, a, b); });
}

void normal_fill(core::Generator& g, Tensor& t, double mean, double std) {
  if (std < 0) throw RuntimeError(fmt::format("normal expects std >= 0.0, but found std {}", std));
  fill_in_place(t, [&](float* out, int64_t n) { g.fill_normal(out, n, mean, std); });
}

Value make_nn_init() {
  auto init = std::make_shared<NamespaceObj>();
  auto& n = init->names;
  n["uniform_"] = init_fn("def uniform_(tensor, a=0.0, b=1.0)",
                          [](Interpreter& in, Args& b, Tensor& t) { uniform(in, t, b.number("a"), b.number("b")); });
  n["normal_"] = init_fn("def normal_(tensor, mean=0.0, std=1.0)",
                         [](Interpreter& in, Args& b, Tensor& t) { normal(in, t, b.number("mean"), b.number("std")); });
  n["constant_"] = init_fn("def constant_(tensor, val)", [](Interpreter&, Args& b, Tensor& t) { core::fill_(t, b.number("val")); });
  n["ones_"] = init_fn("def ones_(tensor)", [](Interpreter&, Args&, Tensor& t) { core::fill_(t, 1.0); });
  n["zeros_"] = init_fn("def zeros_(tensor)", [](Interpreter&, Args&, Tensor& t) { core::fill_(t, 0.0); });
  n["xavier_uniform_"] = init_fn("def xavier_uniform_(tensor, gain=1.0)", [](Interpreter& in, Args& b, Tensor& t) {
    const double gain = b.number("gain");
    auto [fan_in, fan_out] = fans(t);
    const double std = gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
    const double a = std::sqrt(3.0) * std;
    uniform(in, t, -a, a);
  });
  n["xavier_normal_"] = init_fn("def xavier_normal_(tensor, gain=1.0)", [](Interpreter& in, Args& b, Tensor& t) {
    const double gain = b.number("gain");
    auto [fan_in, fan_out] = fans(t);
    normal(in, t, 0.0, gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out)));
  });
  for (const char* kind : {"uniform", "normal"}) {
    const bool is_uniform = std::string(kind) == "uniform";
    n[std::string("kaiming_") + kind + "_"] =
        init_fn(fmt::format("def kaiming_{}_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')", kind),
                [is_uniform](Interpreter& in, Args& b, Tensor& t) {
                  const Value a = b.get("a");
                  const std::string mode = b.string("mode"), nl = b.string("nonlinearity");
                  if (empty_tensor(t)) return;
                  const int64_t fan = kaiming_fan(t, mode);
                  const double std = calculate_gain(nl, a) / std::sqrt(static_cast<double>(fan));
                  if (is_uniform) {
                    const double bound = std::sqrt(3.0) * std;
                    uniform(in, t, -bound, bound);
                  } else {
                    normal(in, t, 0.0, std);
                  }
                });
  }
  // _no_grad_trunc_normal_: uniform_(2l-1, 2u-1) with l, u the normal CDF at a and b (doubles),
  // erfinv_, mul_(std*sqrt(2)), add_(mean), clamp_(a, b); each scalar rounded to float32.
  n["trunc_normal_"] = init_fn("def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0)", [](Interpreter& in, Args& b, Tensor& t) {
    const double mean = b.number("mean"), std = b.number("std"), lo_x = b.number("a"), hi_x = b.number("b");
    const auto cdf = [](double x) { return (1.0 + std::erf(x / std::sqrt(2.0))) / 2.0; };
    const double l = cdf((lo_x - mean) / std), u = cdf((hi_x - mean) / std);
    Tensor r = core::empty(t.shape());
    state(in).generator.fill_uniform(r.data<float>(), r.numel(), 2 * l - 1, 2 * u - 1);
    r = core::erfinv(r, state(in).cpu);
    const float scale = static_cast<float>(std * std::sqrt(2.0)), shift = static_cast<float>(mean);
    const float lo = static_cast<float>(lo_x), hi = static_cast<float>(hi_x);
    float* p = r.data<float>();
    for (int64_t k = 0; k < r.numel(); ++k) p[k] = std::min(std::max(p[k] * scale + shift, lo), hi);   // clamp_: NaN stays
    core::copy_(t, r);
  });
  auto fan = parse("def _calculate_fan_in_and_fan_out(tensor)");   // private, but the einsum MHA tutorial calls it
  n["_calculate_fan_in_and_fan_out"] = builtin("torch.nn.init._calculate_fan_in_and_fan_out", [fan](Interpreter&, CallArgs& a) {
    Args b = bind_call(*fan, a, "torch.nn.init._calculate_fan_in_and_fan_out");
    auto [fan_in, fan_out] = fans(b.tensor("tensor"));
    return Value::tuple({Value::integer(fan_in), Value::integer(fan_out)});
  });
  auto gain = parse("def calculate_gain(nonlinearity, param=None)");
  n["calculate_gain"] = builtin("torch.nn.init.calculate_gain", [gain](Interpreter&, CallArgs& a) {
    Args b = bind_call(*gain, a, "torch.nn.init.calculate_gain");
    return Value::number(calculate_gain(b.string("nonlinearity"), b.get("param")));
  });
  add_deprecated_aliases(n);
  return module_value("torch.nn.init", init);
}

}  // namespace attn::torch
