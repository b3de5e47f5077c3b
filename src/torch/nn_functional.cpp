// torch/nn_functional.cpp: torch.nn.functional's layers (op-table rows "nn.functional.*": relu,
// gelu, linear, dropout, layer_norm, embedding, scaled_dot_product_attention; torch.relu and
// torch.layer_norm), and the native helpers python/nn/*.py calls: the forward of
// nn.MultiheadAttention and Module.to's device/dtype check.
//
// What it is: argument handling around core/ (activations, layer norm, attention), with the run's
// kernel family and generator. The modules themselves (nn.Linear, nn.Dropout, ...) are Python
// (python/nn/*.py) and call these, as PyTorch's modules call F.
// What it is not: the numerics (core/) or the module machinery (python/nn/*.py).
#include <fmt/format.h>

#include "core/ops.h"
#include "core/random.h"
#include "torch/bindings.h"
#include "torch/op_table.h"

namespace attn::torch {

using core::Tensor;

Tensor linear_apply(const Tensor& x, const Tensor& w, const Tensor* bias) {
  Tensor y = core::matmul(x, core::t(w));
  if (bias && x.dim() == 3 && x.is_contiguous()) {
    // aten::linear's flattened addmm: (B*T, out) + bias, viewed back. Its backward reshapes the
    // incoming gradient to (B*T, out) (a contiguous copy when the strides do not allow a view)
    // before the bias's sum over rows, which decides the order of that sum.
    const core::Shape shape = y.shape();
    y = core::view(core::binary(core::BinOp::add, core::reshape(y, {-1, shape[2]}), *bias), shape);
  } else if (bias) {
    y = core::binary(core::BinOp::add, y, *bias);
  }
  const char* name = !bias ? (x.dim() == 1 ? "SqueezeBackward3" : x.dim() == 2 ? "MmBackward0" : "UnsafeViewBackward0")
                           : (x.dim() == 2 ? "AddmmBackward0" : x.dim() == 3 && x.is_contiguous() ? "ViewBackward0" : "AddBackward0");
  core::autograd::rename(y, name);   // the gradient flows through matmul and add; the name is PyTorch's
  return y;
}

namespace {

// relu_ writes the result through the input's storage (every view of it sees it) and returns
// it, its grad_fn ReluBackward0 over the input's history (reading the result, as 1.13's relu_).
Value relu_apply(const Value& x, bool inplace) {
  if (!inplace) return tensor_value(core::relu(as_tensor(x)));
  return write_back(x, [](const Tensor& t) { return core::relu(t); }, true);
}

bool tanh_approximation(const std::string& approximate) {
  if (approximate == "none") return false;
  if (approximate == "tanh") return true;
  throw RuntimeError("approximate argument must be either none or tanh.");
}

// F.layer_norm's checks, then the kernel over the last len(normalized_shape) dims.
Tensor layer_norm(const Tensor& x, const std::vector<int64_t>& shape, const Value& weight, const Value& bias, double eps,
                  core::CpuKernels cpu) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (nd == 0)
    throw RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []");
  bool ok = nd >= 1 && nd <= x.dim();
  for (int64_t k = 0; ok && k < nd; ++k) ok = x.shape()[x.dim() - nd + k] == shape[k];
  if (!ok)
    throw RuntimeError(fmt::format("Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
                                   core::shape_str(shape), core::shape_str(shape).substr(1, core::shape_str(shape).size() - 2),
                                   core::shape_str(x.shape())));
  if (!x.is_float()) throw RuntimeError(fmt::format("\"LayerNormKernelImpl\" not implemented for '{}'", core::dtype_title(x.dtype())));
  const Tensor* w = weight.is_none() ? nullptr : &as_tensor(weight);
  const Tensor* b = bias.is_none() ? nullptr : &as_tensor(bias);
  return core::layer_norm(x, nd, w, b, eps, cpu);
}

Value functional_layer_norm(Interpreter& in, Args& a) {
  const Tensor& x = a.tensor("input");
  const std::vector<int64_t> shape = a.ints("normalized_shape");
  return tensor_value(layer_norm(x, shape, a.get("weight"), a.get("bias"), a.number("eps"), state(in).cpu));
}

// F.dropout: the mask and scaling of PyTorch's CPU dropout (core/random.h); the input itself when
// not training or p == 0. With inplace=True the input tensor itself takes the result (PyTorch's
// _dropout<inplace> draws and rounds exactly as the out-of-place form), and the input is returned.
Value dropout_fn(Interpreter& in, Args& a) {
  Value x = a.get("input");
  const double p = a.number("p");
  const bool training = a.flag("training"), inplace = a.flag("inplace");
  if (p < 0.0 || p > 1.0) throw ValueError(fmt::format("dropout probability has to be between 0 and 1, but got {}", p));
  if (!training) return x;
  Tensor& t = as_tensor(x);
  Tensor y = core::dropout(state(in).generator, t, p, state(in).rng);
  if (!inplace) return tensor_value(std::move(y));
  if (p == 0.0 || t.numel() == 0) return x;
  core::autograd::in_place(t, false, [&](const Tensor&) {   // y's MulBackward0 continues t's history
    core::copy_(t, y);   // through t's storage: every view of it sees the dropout
    return y;
  });
  return x;
}

// F.embedding(input, weight, padding_idx=None, ...): rows of weight; the padding row gets no gradient.
Value embedding_fn(Interpreter&, Args& a) {
  const Tensor& ids = a.tensor("input");
  const Tensor& w = a.tensor("weight");
  std::optional<int64_t> padding = a.opt_integer("padding_idx");
  if (a.given("max_norm")) a.unsupported("max_norm", "attn does not renormalise embeddings");
  if (a.number("norm_type") != 2.0) a.get("norm_type");   // only matters with max_norm
  if (a.flag("scale_grad_by_freq")) a.unsupported("scale_grad_by_freq", "attn does not scale embedding gradients by frequency");
  if (a.flag("sparse")) a.unsupported("sparse", "attn computes dense gradients");
  if (padding) {
    if (*padding > 0 && *padding >= w.shape()[0]) throw AssertionError("Padding_idx must be within num_embeddings");
    if (*padding < 0) {
      if (*padding < -w.shape()[0]) throw AssertionError("Padding_idx must be within num_embeddings");
      *padding += w.shape()[0];
    }
  }
  Tensor out = core::index_select_rows(w, ids);
  if (padding) {   // the padding row gets no gradient
    core::autograd::Backward backward = core::grad::embedding(ids, w.shape()[0], *padding);
    backward.saved = {w, ids};   // EmbeddingBackward0 saves weight (the version check only) and indices
    out = core::autograd::record(out, {&w}, "EmbeddingBackward0", std::move(backward));
  }
  return tensor_value(out);
}

// F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None).
Value sdpa_fn(Interpreter& in, Args& a) {
  const Tensor &q = a.tensor("query"), &k = a.tensor("key"), &v = a.tensor("value");
  const Value mask = a.get("attn_mask");
  const double p = a.number("dropout_p");
  const bool causal = a.flag("is_causal");
  std::optional<double> scale;
  if (a.given("scale")) scale = a.number("scale");
  if (p < 0.0 || p > 1.0) throw ValueError(fmt::format("dropout probability has to be between 0 and 1, but got {}", p));
  TorchState& s = state(in);
  return tensor_value(core::scaled_dot_product_attention(q, k, v, mask.is_none() ? nullptr : &as_tensor(mask), p, causal, scale,
                                                         s.generator, s.rng, s.cpu));
}

bool requires_grad(const Value& v) { return is_tensor(v) && as_tensor(v).requires_grad(); }

// nn.MultiheadAttention.forward's native part (python/nn/*.py passes the module's state):
// 1.13's fast or slow path by PyTorch's own conditions (docs/pytorch-numerics.md §17), computed
// with core/ops/attention.h; (output, weights or None).
Value mha_forward(Interpreter& in, CallArgs& c) {
  static const Signature sig = parse_signature(
      "def _attn_multi_head_attention(query, key, value, embed_dim, num_heads, in_proj_weight, in_proj_bias, out_proj_weight, "
      "out_proj_bias, dropout, batch_first, training, key_padding_mask, need_weights, attn_mask, average_attn_weights)");
  Args b = bind_call(sig, c, "MultiheadAttention.forward");
  const Value query = b.get("query"), key = b.get("key"), value = b.get("value");
  const Tensor &q = as_tensor(query), &k = as_tensor(key), &v = as_tensor(value);
  core::MhaCall call;
  const Value kpm = b.get("key_padding_mask");
  if (!kpm.is_none()) call.key_padding_mask = &as_tensor(kpm);
  call.need_weights = b.flag("need_weights");
  call.average = b.flag("average_attn_weights");
  const Value mask = b.get("attn_mask");
  if (!mask.is_none()) call.attn_mask = &as_tensor(mask);
  core::MhaParams p;
  p.embed_dim = b.integer("embed_dim");
  p.num_heads = b.integer("num_heads");
  p.dropout = b.number("dropout");
  const Value in_w = b.get("in_proj_weight"), in_b = b.get("in_proj_bias"), out_w = b.get("out_proj_weight"), out_b = b.get("out_proj_bias");
  p.in_proj_weight = as_tensor(in_w);
  if (!in_b.is_none()) p.in_proj_bias = as_tensor(in_b);
  p.out_proj_weight = as_tensor(out_w);
  if (!out_b.is_none()) p.out_proj_bias = as_tensor(out_b);
  if (q.dim() != 3) throw NotImplementedError("MultiheadAttention.forward(): attn's MultiheadAttention takes batched (3-D) inputs");
  if (q.shape().back() != p.embed_dim)
    throw AssertionError(fmt::format("was expecting embedding dimension of {}, but got {}", p.embed_dim, q.shape().back()));
  call.batch_first = b.flag("batch_first");
  call.training = b.flag("training");
  // MultiheadAttention.forward's fast-path test (1.13): `torch.is_grad_enabled() and any(
  // x.requires_grad ...)` over query, key, value and the parameters rules it out, so under
  // torch.no_grad() an eval-mode self-attention call takes the fast path even though its
  // parameters require grad.
  const bool grad_involved = core::autograd::grad_enabled() && (requires_grad(query) || requires_grad(key) || requires_grad(value) ||
                             requires_grad(in_w) || requires_grad(in_b) || requires_grad(out_w) || requires_grad(out_b));
  call.fast = query.obj == key.obj && key.obj == value.obj && !call.training && call.batch_first && p.dropout == 0.0 &&
              call.attn_mask == nullptr && p.num_heads % 2 == 0 && !grad_involved;
  if (call.fast && call.key_padding_mask)   // 1.13's fast path masks its softmax: not reproduced
    throw NotImplementedError("MultiheadAttention.forward(): attn does not implement key_padding_mask on "
                              "PyTorch's fast path (eval mode under no_grad); call it in training mode or with attn_mask");
  b.check_all_read();
  TorchState& s = state(in);
  core::MhaResult r = core::multi_head_attention(q, k, v, p, call, s.generator, s.rng, s.cpu);
  return Value::tuple({tensor_value(r.output), r.weights ? tensor_value(*r.weights) : Value::none()});
}

// Module.to(*args, **kwargs)'s check: the CPU and float32 (attn's only device and parameter dtype).
Value check_to(Interpreter&, CallArgs& c) {
  const std::string who = str(arg(c, 0, "who"));
  std::vector<Value> given = py::as_seq(arg(c, 1, "args"));
  for (const auto& [k, v] : static_cast<py::DictObj*>(arg(c, 2, "kwargs").obj.get())->items) given.push_back(v);
  for (const Value& v : given) {
    if (v.is_none() || v.kind == Value::Bool || is_cpu_device(v)) continue;
    if (is_dtype(v)) {
      if (dtype_of(v) == core::DType::float32) continue;
      throw NotImplementedError(who + "(): attn's parameters are float32, not " + dtype_name(dtype_of(v)));
    }
    if (is_tensor(v) && as_tensor(v).is_float()) continue;   // .to(other_tensor): its dtype and device
    throw NotImplementedError(who + "(): attn computes on the CPU only, not device=" + py::shown(v));
  }
  return Value::none();
}

}  // namespace

void add_layer_ops(std::vector<OpRow>& rows) {
  rows.push_back({"relu", kFunction | kMethod, {"relu(Tensor input)"},
                  [](Interpreter&, Args& a) { return tensor_value(core::relu(a.tensor("input"))); }});
  rows.push_back({"relu_", kFunction | kMethod, {"relu_(Tensor input)"}, [](Interpreter&, Args& a) { return relu_apply(a.get("input"), true); }});
  rows.push_back({"nn.functional.relu", kFunction, {"def relu(input, inplace=False)"}, [](Interpreter&, Args& a) {
                    Value x = a.get("input");
                    as_tensor(x);
                    return relu_apply(x, a.flag("inplace"));
                  }});
  rows.push_back({"nn.functional.gelu", kFunction, {"gelu(Tensor input, *, std::string approximate=\"none\")"}, [](Interpreter& in, Args& a) {
                    return tensor_value(core::gelu(a.tensor("input"), tanh_approximation(a.string("approximate")), state(in).cpu));
                  }});
  rows.push_back({"nn.functional.linear", kFunction, {"linear(Tensor input, Tensor weight, Tensor? bias=None)"}, [](Interpreter&, Args& a) {
                    const Tensor& x = a.tensor("input");
                    const Tensor& w = a.tensor("weight");
                    return tensor_value(linear_apply(x, w, a.given("bias") ? &a.tensor("bias") : nullptr));
                  }});
  rows.push_back({"nn.functional.dropout", kFunction, {"def dropout(input, p=0.5, training=True, inplace=False)"}, dropout_fn});
  rows.push_back({"nn.functional.layer_norm", kFunction,
                  {"def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05)"}, functional_layer_norm});
  rows.push_back({"layer_norm", kFunction,
                  {"layer_norm(Tensor input, IntArrayRef normalized_shape, Tensor? weight=None, Tensor? bias=None, double eps=1e-05, bool cudnn_enable=True)"},
                  [](Interpreter& in, Args& a) {
                    a.get("cudnn_enable");   // no cuDNN on the CPU
                    return functional_layer_norm(in, a);
                  }});
  rows.push_back({"nn.functional.embedding", kFunction,
                  {"def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False)"},
                  embedding_fn});
}

void add_attention_ops(std::vector<OpRow>& rows) {
  rows.push_back({"nn.functional.scaled_dot_product_attention", kFunction,
                  {"scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, double dropout_p=0.0, "
                   "bool is_causal=False, *, double? scale=None)"},
                  sdpa_fn});
}

void add_nn_natives(NamespaceObj& torch) {
  torch.names["_attn_multi_head_attention"] = builtin("torch._attn_multi_head_attention", mha_forward);
  torch.names["_attn_check_to"] = builtin("torch._attn_check_to", check_to);
}

}  // namespace attn::torch
