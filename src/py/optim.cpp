// py/optim.cpp: torch.optim.SGD and torch.optim.AdamW as PyTorch 1.13 runs them on the CPU (the
// for-loop implementations, _single_tensor_sgd / _single_tensor_adamw, which foreach=None picks
// for CPU tensors): step(), zero_grad(set_to_none=False) and SGD's repr.
//
// SGD, per parameter with a .grad, in the order given, under no_grad:
//   d_p = grad (-grad when maximize); weight_decay: d_p = d_p.add(param, alpha=wd)
//   momentum: buf = clone(d_p) the first time, else buf.mul_(momentum).add_(d_p, alpha=1 - dampening);
//             nesterov: d_p = d_p.add(buf, alpha=momentum), else d_p = buf
//   param.add_(d_p, alpha=-lr)
// AdamW: step_t += 1 (a float32 tensor); param.mul_(1 - lr*wd); exp_avg.mul_(b1).add_(g, alpha=1-b1);
//   exp_avg_sq.mul_(b2).addcmul_(g, g, value=1-b2); bias corrections in double from step;
//   denom = (sqrt(exp_avg_sq) / fl32(sqrt(bc2))) + fl32(eps); param.addcdiv_(exp_avg, denom, value=-lr/bc1).
// `a.add(b, alpha=s)` is ATen's ufunc add: a + fl32(s)*b, one FMA in the AVX2 build (vec::fmadd,
// and GCC contracts the scalar tail alike), two roundings in the scalar family; addcmul is
// fma(fl(value*g), g, self) in AVX2 (unfused: 10 of 21 printed lines differ), addcdiv never fuses
// (docs/pytorch-numerics.md §12). What it is not: param groups given as dicts, state_dict, Adam,
// or learning-rate schedulers.
#include <fmt/format.h>

#include <cmath>

#include "core/autograd.h"
#include "core/tensor.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/nn_support.h"

namespace attn::py {

namespace {

using core::Tensor;

// a + fl32(alpha)*b for equal shapes, as ATen's add with alpha rounds it (a new tensor).
Tensor add_scaled(const Tensor& a, const Tensor& b, double alpha, core::CpuKernels cpu) {
  const float s = static_cast<float>(alpha);
  const Tensor ac = a.contiguous(), bc = b.contiguous();
  Tensor r = core::empty(a.shape());
  const float *pa = ac.data<float>(), *pb = bc.data<float>();
  float* o = r.data<float>();
  for (int64_t k = 0; k < r.numel(); ++k) o[k] = cpu == core::CpuKernels::avx2 ? std::fma(s, pb[k], pa[k]) : pa[k] + s * pb[k];
  return r;
}

// self.add_(b, alpha=s): the same values written into self's storage (version bumped).
void add_scaled_(Tensor& self, const Tensor& b, double alpha, core::CpuKernels cpu) {
  core::copy_(self, add_scaled(self, b, alpha, cpu));
}

std::string str_value(Interpreter& in, const Value& v) { return in.str_of(v); }

const char* const kKeys[] = {"dampening", "differentiable", "foreach", "lr", "maximize", "momentum", "nesterov", "weight_decay"};

void sgd_init(Interpreter& in, Value& self, CallArgs& a) {
  static const Signature sig = Signature::parse(
      "def SGD(self, params, lr=None, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False, "
      "foreach=None, differentiable=False)");
  Args b = bind_self(sig, self, a);
  InstanceObj& o = inst(self);
  if (b.get("lr").is_none()) throw TypeError("SGD.__init__() missing 1 required positional argument: 'lr'");
  const double lr = b.number("lr"), momentum = b.number("momentum"), dampening = b.number("dampening");
  const double wd = b.number("weight_decay");
  if (lr < 0) throw ValueError(fmt::format("Invalid learning rate: {}", str_value(in, b.get("lr"))));
  if (momentum < 0) throw ValueError(fmt::format("Invalid momentum value: {}", str_value(in, b.get("momentum"))));
  if (wd < 0) throw ValueError(fmt::format("Invalid weight_decay value: {}", str_value(in, b.get("weight_decay"))));
  if (b.flag("nesterov") && (momentum <= 0 || dampening != 0))
    throw ValueError("Nesterov momentum requires a momentum and zero dampening");
  if (b.flag("differentiable")) b.unsupported("differentiable", "attn's optimizers step without recording a graph");
  std::vector<Value> params;
  for (const Value& p : in.iterate(b.get("params"))) {
    if (p.kind != Value::Tensor)
      throw TypeError("optimizer can only optimize Tensors, but one of the params is " + type_name(p));
    params.push_back(p);
  }
  if (params.empty()) throw ValueError("optimizer got an empty parameter list");
  o.set("_params", Value::list(params));
  o.set("_buffers", Value::list(std::vector<Value>(params.size(), Value::none())));
  for (const char* key : kKeys) o.set(key, b.get(key));
  done(b);
}

Value sgd_step(Interpreter& in, CallArgs& a) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw NotImplementedError("attn's SGD.step() takes no closure");
  InstanceObj& o = inst(a.pos[0]);
  const auto num = [&](const char* k) { return to_double(*o.find(k), k); };
  const double lr = num("lr"), momentum = num("momentum"), dampening = num("dampening"), wd = num("weight_decay");
  const bool nesterov = truthy(*o.find("nesterov")), maximize = truthy(*o.find("maximize"));
  const core::CpuKernels cpu = in.state.cpu;
  auto& params = as_seq(*o.find("_params"));
  auto& buffers = as_seq(*o.find("_buffers"));
  for (size_t i = 0; i < params.size(); ++i) {
    Tensor& p = as_tensor(params[i]);
    std::optional<Tensor> g = core::autograd::grad(p);
    if (!g) continue;
    Tensor d = maximize ? core::neg(*g) : *g;
    if (wd != 0) d = add_scaled(d, p, wd, cpu);   // d_p.add(param, alpha=weight_decay): a new tensor
    if (momentum != 0) {
      if (buffers[i].is_none()) {
        buffers[i] = Value::tensor(core::detach(d).clone());
      } else {
        Tensor& buf = as_tensor(buffers[i]);
        core::binary_scalar_(core::BinOp::mul, buf, momentum);
        add_scaled_(buf, d, 1.0 - dampening, cpu);
      }
      const Tensor& buf = as_tensor(buffers[i]);
      d = nesterov ? add_scaled(d, buf, momentum, cpu) : buf;
    }
    add_scaled_(p, d, -lr, cpu);
  }
  return Value::none();
}

Value sgd_zero_grad(Interpreter&, CallArgs& a) {
  static const Signature sig = Signature::parse("def zero_grad(self, set_to_none=False)");
  Args b = bind_args(sig, a, "Optimizer.zero_grad");
  const bool to_none = b.flag("set_to_none");
  for (const Value& v : as_seq(*inst(b.get("self")).find("_params"))) {
    const Tensor& p = as_tensor(v);
    std::optional<Tensor> g = core::autograd::grad(p);
    if (!g) continue;
    if (to_none) {
      core::autograd::set_grad(p, std::nullopt);
    } else {
      core::fill_(*g, 0.0);   // the same tensor, zeroed in place (1.13's default)
    }
  }
  return Value::none();
}

// ---- AdamW (_single_tensor_adamw, capturable=False) ----
const char* const kAdamKeys[] = {"amsgrad", "betas", "capturable", "eps", "foreach", "lr", "maximize", "weight_decay"};

void adamw_init(Interpreter& in, Value& self, CallArgs& a) {
  static const Signature sig = Signature::parse(
      "def AdamW(self, params, lr=0.001, betas=None, eps=1e-08, weight_decay=0.01, amsgrad=False, *, "
      "maximize=False, foreach=None, capturable=False)");
  Args b = bind_self(sig, self, a);
  InstanceObj& o = inst(self);
  if (b.get("betas").is_none()) b.set(static_cast<size_t>(b.signature().index_of("betas")), Value::tuple({Value::number(0.9), Value::number(0.999)}), true);   // (0.9, 0.999)
  const std::vector<Value>& betas = as_seq(b.get("betas"));
  if (betas.size() != 2) throw ValueError("betas must be a pair of numbers");
  if (b.number("lr") < 0) throw ValueError("Invalid learning rate: " + in.str_of(b.get("lr")));
  if (b.number("eps") < 0) throw ValueError("Invalid epsilon value: " + in.str_of(b.get("eps")));
  for (int k = 0; k < 2; ++k) {
    const double beta = to_double(betas[k], "betas");
    if (!(0.0 <= beta && beta < 1.0))
      throw ValueError(fmt::format("Invalid beta parameter at index {}: {}", k, in.str_of(betas[k])));
  }
  if (b.number("weight_decay") < 0) throw ValueError("Invalid weight_decay value: " + in.str_of(b.get("weight_decay")));
  if (b.flag("capturable")) b.unsupported("capturable", "attn runs on the CPU");
  std::vector<Value> params;
  for (const Value& p : in.iterate(b.get("params"))) {
    if (p.kind != Value::Tensor)
      throw TypeError("optimizer can only optimize Tensors, but one of the params is " + type_name(p));
    params.push_back(p);
  }
  if (params.empty()) throw ValueError("optimizer got an empty parameter list");
  o.set("_params", Value::list(params));
  o.set("_state", Value::list(std::vector<Value>(params.size(), Value::none())));   // (step, exp_avg, exp_avg_sq, max)
  for (const char* key : kAdamKeys) o.set(key, b.get(key));
  done(b);
}

Value adamw_step(Interpreter& in, CallArgs& a) {
  if (a.pos.size() != 1 || !a.kw.empty()) throw NotImplementedError("attn's AdamW.step() takes no closure");
  InstanceObj& o = inst(a.pos[0]);
  const auto num = [&](const char* k) { return to_double(*o.find(k), k); };
  const double lr = num("lr"), eps = num("eps"), wd = num("weight_decay");
  const double beta1 = to_double(as_seq(*o.find("betas"))[0], "betas"), beta2 = to_double(as_seq(*o.find("betas"))[1], "betas");
  const bool amsgrad = truthy(*o.find("amsgrad")), maximize = truthy(*o.find("maximize"));
  const bool avx2 = in.state.cpu == core::CpuKernels::avx2;
  auto& params = as_seq(*o.find("_params"));
  auto& states = as_seq(*o.find("_state"));
  for (size_t i = 0; i < params.size(); ++i) {
    Tensor& p = as_tensor(params[i]);
    std::optional<Tensor> g0 = core::autograd::grad(p);
    if (!g0) continue;
    if (states[i].is_none()) {
      states[i] = Value::tuple({Value::tensor(core::scalar(0.0f)), Value::tensor(core::zeros(p.shape())),
                                Value::tensor(core::zeros(p.shape())), Value::tensor(core::zeros(p.shape()))});
    }
    auto& st = as_seq(states[i]);
    Tensor &step_t = as_tensor(st[0]), &m = as_tensor(st[1]), &v = as_tensor(st[2]), &vmax = as_tensor(st[3]);
    const Tensor g = (maximize ? core::neg(*g0) : *g0).contiguous();
    step_t.data<float>()[0] = step_t.data<float>()[0] + 1.0f;                       // step_t += 1 (float32)
    core::binary_scalar_(core::BinOp::mul, p, 1.0 - lr * wd);                      // param.mul_(1 - lr * wd)
    core::binary_scalar_(core::BinOp::mul, m, beta1);                              // exp_avg.mul_(beta1)
    add_scaled_(m, g, 1.0 - beta1, in.state.cpu);                                  //   .add_(grad, alpha=1 - beta1)
    core::binary_scalar_(core::BinOp::mul, v, beta2);                              // exp_avg_sq.mul_(beta2)
    {   // .addcmul_(grad, grad, value=1 - beta2): self + (value*g)*g, the add fused in AVX2
      const float c = static_cast<float>(1.0 - beta2);
      float* pv = v.data<float>();
      const float* pg = g.data<float>();
      for (int64_t k = 0; k < v.numel(); ++k) pv[k] = avx2 ? std::fma(c * pg[k], pg[k], pv[k]) : pv[k] + (c * pg[k]) * pg[k];
      v.mark_written();
    }
    const double step = step_t.data<float>()[0];
    const double bias_correction1 = 1 - std::pow(beta1, step), bias_correction2 = 1 - std::pow(beta2, step);
    const double step_size = lr / bias_correction1, bc2_sqrt = std::sqrt(bias_correction2);
    const float fbc2 = static_cast<float>(bc2_sqrt), feps = static_cast<float>(eps), fval = static_cast<float>(-step_size);
    const float* src = v.data<float>();
    if (amsgrad) {   // torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
      float* pm = vmax.data<float>();
      for (int64_t k = 0; k < v.numel(); ++k) pm[k] = std::isnan(src[k]) || src[k] > pm[k] ? src[k] : pm[k];
      src = pm;
    }
    Tensor pc = p.contiguous();
    float* pp = pc.data<float>();
    const float* pmv = m.data<float>();
    for (int64_t k = 0; k < p.numel(); ++k) {   // denom = sqrt(v) / bc2_sqrt + eps; p += (value*m) / denom
      const float denom = std::sqrt(src[k]) / fbc2 + feps;
      pp[k] = pp[k] + (fval * pmv[k]) / denom;
    }
    if (!pc.shares_storage(p)) core::copy_(p, pc);
    else p.mark_written();
  }
  return Value::none();
}

Value method(const std::string& name, NativeFn fn) {
  Value m = builtin(name, std::move(fn));
  static_cast<BuiltinObj*>(m.obj.get())->method = true;
  return m;
}

}  // namespace

void add_optim(NamespaceObj& torch) {
  auto sgd = std::make_shared<ClassObj>();
  sgd->name = "SGD";
  sgd->module = "torch.optim.sgd";
  sgd->native_init = sgd_init;
  sgd->methods["step"] = method("SGD.step", sgd_step);
  sgd->methods["zero_grad"] = method("SGD.zero_grad", sgd_zero_grad);
  // Optimizer.__repr__: the class name, then each group's settings in sorted key order.
  sgd->native_repr = [](const Value& self) {
    InstanceObj& o = inst(self);
    std::string s = "SGD (\nParameter Group 0\n";
    for (const char* key : kKeys) {
      const Value& v = *o.find(key);
      std::string text = v.kind == Value::Bool ? (v.b ? "True" : "False") : v.is_none() ? "None" : "";
      if (text.empty()) text = v.kind == Value::Int ? std::to_string(v.i) : fmt::format("{}", to_double(v, key));
      s += fmt::format("    {}: {}\n", key, text);
    }
    return s + ")";
  };
  auto adamw = std::make_shared<ClassObj>();
  adamw->name = "AdamW";
  adamw->module = "torch.optim.adamw";
  adamw->native_init = adamw_init;
  adamw->methods["step"] = method("AdamW.step", adamw_step);
  adamw->methods["zero_grad"] = method("AdamW.zero_grad", sgd_zero_grad);
  auto optim = std::make_shared<NamespaceObj>();
  optim->names["SGD"] = class_value(sgd);
  optim->names["AdamW"] = class_value(adamw);
  Value v;
  v.kind = Value::Namespace;
  v.s = "torch.optim";
  v.obj = optim;
  torch.names["optim"] = v;
}

}  // namespace attn::py
