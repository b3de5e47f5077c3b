// torch/optim.cpp: the steps of torch.optim.SGD, Adam and AdamW as PyTorch 1.13 runs them on the
// CPU (the for-loop implementations, _single_tensor_sgd / _single_tensor_adam /
// _single_tensor_adamw, which foreach=None picks for CPU tensors). python/optim.py keeps the
// optimizers' groups and state and calls these with their lists of tensors (torch._attn_sgd,
// torch._attn_adam, torch._attn_adamw).
//
// SGD, per parameter with a .grad, in the order given, under no_grad:
//   d_p = grad (-grad when maximize); weight_decay: d_p = d_p.add(param, alpha=wd)
//   momentum: buf = clone(d_p) the first time, else buf.mul_(momentum).add_(d_p, alpha=1 - dampening);
//             nesterov: d_p = d_p.add(buf, alpha=momentum), else d_p = buf
//   param.add_(d_p, alpha=-lr)
// Adam and AdamW: step_t += 1 (a float32 tensor); Adam's L2 penalty grad = grad.add(param,
//   alpha=wd), AdamW's decoupled param.mul_(1 - lr*wd); exp_avg.mul_(b1).add_(g, alpha=1-b1);
//   exp_avg_sq.mul_(b2).addcmul_(g, g, value=1-b2); amsgrad: max_exp_avg_sq = maximum(it, exp_avg_sq);
//   bias corrections in double from step;
//   denom = (sqrt(exp_avg_sq) / fl32(sqrt(bc2))) + fl32(eps); param.addcdiv_(exp_avg, denom, value=-lr/bc1).
// `a.add(b, alpha=s)` is ATen's ufunc add: a + fl32(s)*b, one FMA in the AVX2 build (vec::fmadd,
// and GCC contracts the scalar tail alike), two roundings in the scalar family (add_scaled, also
// Tensor.add_/sub_ with alpha=); addcmul is fma(fl(value*g), g, self) in AVX2 (unfused: 10 of 21
// printed lines differ), addcdiv never fuses (docs/pytorch-numerics.md §12). What it is not: the
// bookkeeping (python/optim.py), the foreach/fused/capturable paths, or learning-rate schedulers
// (python/lr_scheduler.py, which only set each group's lr).
#include <fmt/format.h>

#include <cmath>

#include "core/autograd.h"
#include "core/tensor.h"
#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"

namespace attn::torch {

using core::Tensor;

// a + fl32(alpha)*b, b broadcast to a's shape, as ATen's add with alpha rounds it (a new tensor):
// Tensor.add_/sub_ with alpha= (ops_autograd.cpp) and the optimizers' updates.
Tensor add_scaled(const Tensor& a, const Tensor& b, double alpha, core::CpuKernels cpu) {
  return core::add_alpha(a, b, static_cast<float>(alpha), cpu);
}

namespace {

// self.add_(b, alpha=s): the same values written into self's storage (version bumped).
void add_scaled_(Tensor& self, const Tensor& b, double alpha, core::CpuKernels cpu) {
  core::copy_(self, add_scaled(self, b, alpha, cpu));
}

// grad, or -grad when maximize (a new tensor).
Tensor maximize_or_not(const Tensor& grad, bool maximize) { return maximize ? core::neg(grad) : grad; }

// torch._attn_sgd(params, d_p_list, momentum_buffer_list, weight_decay, momentum, lr, dampening,
// nesterov, maximize): _single_tensor_sgd; the list's buffers are replaced as PyTorch's are.
Value sgd_step(Interpreter& in, CallArgs& c) {
  static const Signature sig = parse_signature(
      "def _attn_sgd(params, d_p_list, momentum_buffer_list, weight_decay, momentum, lr, dampening, nesterov, maximize)");
  Args b = bind_call(sig, c, "torch._attn_sgd");
  const std::vector<Value>& params = py::as_seq(b.get("params"));
  const std::vector<Value>& grads = py::as_seq(b.get("d_p_list"));
  std::vector<Value>& buffers = py::as_seq(b.get("momentum_buffer_list"));
  const double lr = b.number("lr"), momentum = b.number("momentum"), dampening = b.number("dampening"), wd = b.number("weight_decay");
  const bool nesterov = b.flag("nesterov"), maximize = b.flag("maximize");
  b.check_all_read();
  const core::CpuKernels cpu = state(in).cpu;
  for (size_t i = 0; i < params.size(); ++i) {
    Tensor& p = as_tensor(params[i]);
    const Tensor& g = as_tensor(grads[i]);
    Tensor d = maximize ? core::neg(g) : g;
    if (wd != 0) d = add_scaled(d, p, wd, cpu);   // d_p.add(param, alpha=weight_decay): a new tensor
    if (momentum != 0) {
      if (buffers[i].is_none()) {
        buffers[i] = tensor_value(core::detach(d).clone());
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

// The settings of one param group's Adam or AdamW step. decoupled: AdamW's weight decay
// (param.mul_(1 - lr*wd)), else Adam's L2 penalty (grad = grad.add(param, alpha=wd)).
struct AdamSettings {
  double lr, eps, wd, beta1, beta2;
  bool amsgrad, maximize, decoupled;
};

// exp_avg_sq.addcmul_(grad, grad, value=c): self + (c*g)*g, the add fused in AVX2 (§12).
void addcmul_square_(Tensor& v, const Tensor& g, double value, bool avx2) {
  const float c2 = static_cast<float>(value);
  float* pv = v.data<float>();
  const float* pg = g.data<float>();
  for (int64_t k = 0; k < v.numel(); ++k) pv[k] = avx2 ? std::fma(c2 * pg[k], pg[k], pv[k]) : pv[k] + (c2 * pg[k]) * pg[k];
  v.mark_written();
}

// torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq) (NaN wins); returns its data.
const float* amsgrad_max_(Tensor& vmax, const Tensor& v) {
  const float* src = v.data<float>();
  float* pm = vmax.data<float>();
  for (int64_t k = 0; k < v.numel(); ++k) pm[k] = std::isnan(src[k]) || src[k] > pm[k] ? src[k] : pm[k];
  vmax.mark_written();
  return pm;
}

// One parameter of _single_tensor_adam / _single_tensor_adamw with capturable=False.
void adam_one(Tensor& p, const Tensor& grad, Tensor& step_t, Tensor& m, Tensor& v, Tensor* vmax, const AdamSettings& h,
              core::CpuKernels cpu) {
  const bool avx2 = cpu == core::CpuKernels::avx2;
  Tensor g = maximize_or_not(grad, h.maximize);
  step_t.data<float>()[0] = step_t.data<float>()[0] + 1.0f;                       // step_t += 1 (float32)
  step_t.mark_written();
  if (h.decoupled) core::binary_scalar_(core::BinOp::mul, p, 1.0 - h.lr * h.wd);  // AdamW: param.mul_(1 - lr * wd)
  else if (h.wd != 0) g = add_scaled(g, p, h.wd, cpu);                             // Adam: grad = grad.add(param, alpha=wd)
  g = g.contiguous();
  core::binary_scalar_(core::BinOp::mul, m, h.beta1);                              // exp_avg.mul_(beta1)
  add_scaled_(m, g, 1.0 - h.beta1, cpu);                                           //   .add_(grad, alpha=1 - beta1)
  core::binary_scalar_(core::BinOp::mul, v, h.beta2);                              // exp_avg_sq.mul_(beta2)
  addcmul_square_(v, g, 1.0 - h.beta2, avx2);                                      //   .addcmul_(grad, grad, value=1 - beta2)
  const double step = step_t.data<float>()[0];
  const double bias_correction1 = 1 - std::pow(h.beta1, step), bias_correction2 = 1 - std::pow(h.beta2, step);
  const double step_size = h.lr / bias_correction1, bc2_sqrt = std::sqrt(bias_correction2);
  const float fbc2 = static_cast<float>(bc2_sqrt), feps = static_cast<float>(h.eps), fval = static_cast<float>(-step_size);
  const float* src = vmax ? amsgrad_max_(*vmax, v) : v.data<float>();
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

// torch._attn_adam / torch._attn_adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
// state_steps, amsgrad, beta1, beta2, lr, weight_decay, eps, maximize): the for-loop over params.
Value adam_family(Interpreter& in, CallArgs& c, bool decoupled) {
  static const Signature sig = parse_signature(
      "def _attn_adam(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, amsgrad, beta1, beta2, lr, weight_decay, "
      "eps, maximize)");
  Args b = bind_call(sig, c, decoupled ? "torch._attn_adamw" : "torch._attn_adam");
  const std::vector<Value>& params = py::as_seq(b.get("params"));
  const std::vector<Value>& grads = py::as_seq(b.get("grads"));
  const std::vector<Value>& exp_avgs = py::as_seq(b.get("exp_avgs"));
  const std::vector<Value>& exp_avg_sqs = py::as_seq(b.get("exp_avg_sqs"));
  const std::vector<Value>& max_exp_avg_sqs = py::as_seq(b.get("max_exp_avg_sqs"));
  const std::vector<Value>& steps = py::as_seq(b.get("state_steps"));
  AdamSettings h{b.number("lr"), b.number("eps"), b.number("weight_decay"), b.number("beta1"), b.number("beta2"),
                 b.flag("amsgrad"), b.flag("maximize"), decoupled};
  b.check_all_read();
  for (size_t i = 0; i < params.size(); ++i)
    adam_one(as_tensor(params[i]), as_tensor(grads[i]), as_tensor(steps[i]), as_tensor(exp_avgs[i]), as_tensor(exp_avg_sqs[i]),
             h.amsgrad ? &as_tensor(max_exp_avg_sqs.at(i)) : nullptr, h, state(in).cpu);
  return Value::none();
}

Value adam_step(Interpreter& in, CallArgs& c) { return adam_family(in, c, false); }
Value adamw_step(Interpreter& in, CallArgs& c) { return adam_family(in, c, true); }

}  // namespace

void add_optim_kernels(NamespaceObj& torch) {
  torch.names["_attn_sgd"] = builtin("torch._attn_sgd", sgd_step);
  torch.names["_attn_adam"] = builtin("torch._attn_adam", adam_step);
  torch.names["_attn_adamw"] = builtin("torch._attn_adamw", adamw_step);
}

}  // namespace attn::torch
