// torch/optim.cpp: the steps of torch.optim.SGD and torch.optim.AdamW as PyTorch 1.13 runs them on
// the CPU (the for-loop implementations, _single_tensor_sgd / _single_tensor_adamw, which
// foreach=None picks for CPU tensors). python/optim.py keeps the optimizers' groups and state and
// calls these with their lists of tensors (torch._attn_sgd, torch._attn_adamw).
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
// (docs/pytorch-numerics.md §12). What it is not: the bookkeeping (python/optim.py), Adam, or
// learning-rate schedulers.
#include <fmt/format.h>

#include <cmath>

#include "core/autograd.h"
#include "core/tensor.h"
#include "torch/bindings.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"

namespace attn::torch {

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

// torch._attn_adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, amsgrad,
// beta1, beta2, lr, weight_decay, eps, maximize): _single_tensor_adamw with capturable=False.
Value adamw_step(Interpreter& in, CallArgs& c) {
  static const Signature sig = parse_signature(
      "def _attn_adamw(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, amsgrad, beta1, beta2, lr, weight_decay, "
      "eps, maximize)");
  Args b = bind_call(sig, c, "torch._attn_adamw");
  const std::vector<Value>& params = py::as_seq(b.get("params"));
  const std::vector<Value>& grads = py::as_seq(b.get("grads"));
  const std::vector<Value>& exp_avgs = py::as_seq(b.get("exp_avgs"));
  const std::vector<Value>& exp_avg_sqs = py::as_seq(b.get("exp_avg_sqs"));
  const std::vector<Value>& max_exp_avg_sqs = py::as_seq(b.get("max_exp_avg_sqs"));
  const std::vector<Value>& steps = py::as_seq(b.get("state_steps"));
  const double lr = b.number("lr"), eps = b.number("eps"), wd = b.number("weight_decay");
  const double beta1 = b.number("beta1"), beta2 = b.number("beta2");
  const bool amsgrad = b.flag("amsgrad"), maximize = b.flag("maximize");
  b.check_all_read();
  const bool avx2 = state(in).cpu == core::CpuKernels::avx2;
  for (size_t i = 0; i < params.size(); ++i) {
    Tensor& p = as_tensor(params[i]);
    Tensor &step_t = as_tensor(steps[i]), &m = as_tensor(exp_avgs[i]), &v = as_tensor(exp_avg_sqs[i]);
    const Tensor g = (maximize ? core::neg(as_tensor(grads[i])) : as_tensor(grads[i])).contiguous();
    step_t.data<float>()[0] = step_t.data<float>()[0] + 1.0f;                       // step_t += 1 (float32)
    step_t.mark_written();
    core::binary_scalar_(core::BinOp::mul, p, 1.0 - lr * wd);                      // param.mul_(1 - lr * wd)
    core::binary_scalar_(core::BinOp::mul, m, beta1);                              // exp_avg.mul_(beta1)
    add_scaled_(m, g, 1.0 - beta1, state(in).cpu);                                 //   .add_(grad, alpha=1 - beta1)
    core::binary_scalar_(core::BinOp::mul, v, beta2);                              // exp_avg_sq.mul_(beta2)
    {   // .addcmul_(grad, grad, value=1 - beta2): self + (value*g)*g, the add fused in AVX2
      const float c2 = static_cast<float>(1.0 - beta2);
      float* pv = v.data<float>();
      const float* pg = g.data<float>();
      for (int64_t k = 0; k < v.numel(); ++k) pv[k] = avx2 ? std::fma(c2 * pg[k], pg[k], pv[k]) : pv[k] + (c2 * pg[k]) * pg[k];
      v.mark_written();
    }
    const double step = step_t.data<float>()[0];
    const double bias_correction1 = 1 - std::pow(beta1, step), bias_correction2 = 1 - std::pow(beta2, step);
    const double step_size = lr / bias_correction1, bc2_sqrt = std::sqrt(bias_correction2);
    const float fbc2 = static_cast<float>(bc2_sqrt), feps = static_cast<float>(eps), fval = static_cast<float>(-step_size);
    const float* src = v.data<float>();
    if (amsgrad) {   // torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
      Tensor& vmax = as_tensor(max_exp_avg_sqs.at(i));
      float* pm = vmax.data<float>();
      for (int64_t k = 0; k < v.numel(); ++k) pm[k] = std::isnan(src[k]) || src[k] > pm[k] ? src[k] : pm[k];
      vmax.mark_written();
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

}  // namespace

void add_optim_kernels(NamespaceObj& torch) {
  torch.names["_attn_sgd"] = builtin("torch._attn_sgd", sgd_step);
  torch.names["_attn_adamw"] = builtin("torch._attn_adamw", adamw_step);
}

}  // namespace attn::torch
