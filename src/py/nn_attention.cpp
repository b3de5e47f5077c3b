// py/nn_attention.cpp: torch.nn.MultiheadAttention and F.scaled_dot_product_attention.
//
// What it is: MultiheadAttention's constructor (PyTorch 1.13's parameters, drawn in its order:
// out_proj's Linear init first, then xavier_uniform_ on in_proj_weight, then both biases zeroed),
// its repr, and a forward that picks 1.13's fast or slow path by PyTorch's own conditions
// (docs/pytorch-numerics.md §17) and computes it with core/attention.h; and the functional
// scaled_dot_product_attention of PyTorch >= 2.0 (math path, 2.1's rounding).
// What it is not: add_bias_kv, add_zero_attn, kdim/vdim other than embed_dim, key_padding_mask on
// the fast path (each raises NotImplementedError naming itself), or the maths (core/attention.cpp).
#include <fmt/format.h>

#include <cmath>

#include "core/ops/attention.h"
#include "py/exceptions.h"
#include "py/nn_support.h"
#include "py/op_table.h"

namespace attn::py {

namespace {

using core::Tensor;

const Signature& sig(const std::string& name) {
  static const std::map<std::string, Signature> all = [] {
    std::map<std::string, Signature> m;
    for (const char* text : {
             "def MultiheadAttention.__init__(self, embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, "
             "add_zero_attn=False, kdim=None, vdim=None, batch_first=False, device=None, dtype=None)",
             "def MultiheadAttention.forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None, "
             "average_attn_weights=True)"}) {
      Signature s = Signature::parse(text);
      m.emplace(s.name, std::move(s));
    }
    return m;
  }();
  return all.at(name);
}

void mha_init(Interpreter& in, Value& self, CallArgs& a, const std::shared_ptr<ClassObj>& out_proj_class) {
  Args b = bind_self(sig("MultiheadAttention.__init__"), self, a);
  const int64_t E = positive(b.get("embed_dim"), "embed_dim"), H = positive(b.get("num_heads"), "num_heads");
  const double dropout = b.number("dropout");
  const bool bias = b.flag("bias"), batch_first = b.flag("batch_first");
  if (b.flag("add_bias_kv")) b.unsupported("add_bias_kv");
  if (b.flag("add_zero_attn")) b.unsupported("add_zero_attn");
  for (const char* kv : {"kdim", "vdim"})
    if (b.given(kv) && to_int(b.get(kv), kv) != E) b.unsupported(kv, "attn's MultiheadAttention has kdim == vdim == embed_dim");
  float32_only(b);
  done(b);
  if (E / H * H != E) throw AssertionError("embed_dim must be divisible by num_heads");
  // out_proj = NonDynamicallyQuantizableLinear(E, E, bias) is made first: its draws come first.
  CallArgs lin;
  lin.pos = {Value::integer(E), Value::integer(E)};
  lin.kw = {{"bias", Value::boolean(bias)}};
  Value out_proj = in.call(class_value(out_proj_class), lin);
  Tensor w = core::empty({3 * E, E});
  const double bound = std::sqrt(3.0) * std::sqrt(2.0 / static_cast<double>(E + 3 * E));   // xavier_uniform_
  in.state.generator.fill_uniform(w.data<float>(), w.numel(), -bound, bound);
  InstanceObj& o = inst(self);
  for (auto& [k, v] : std::vector<std::pair<std::string, Value>>{
           {"embed_dim", Value::integer(E)}, {"kdim", Value::integer(E)}, {"vdim", Value::integer(E)},
           {"_qkv_same_embed_dim", Value::boolean(true)}, {"num_heads", Value::integer(H)}, {"dropout", Value::number(dropout)},
           {"batch_first", Value::boolean(batch_first)}, {"head_dim", Value::integer(E / H)}})
    o.set(k, v);
  o.set("in_proj_weight", make_parameter(w));
  o.set("in_proj_bias", bias ? make_parameter(core::zeros({3 * E})) : Value::none());
  if (bias) core::fill_(as_tensor(*inst(out_proj).find("bias")), 0.0);   // drawn, then zeroed
  o.set("out_proj", out_proj);
  o.set("bias_k", Value::none());
  o.set("bias_v", Value::none());
}

bool requires_grad(const Value& v) { return v.kind == Value::Tensor && as_tensor(v).requires_grad(); }

Value mha_forward(Interpreter& in, Value& self, CallArgs& a) {
  Args b = bind_self(sig("MultiheadAttention.forward"), self, a);
  const Value query = b.get("query"), key = b.get("key"), value = b.get("value");
  const Tensor &q = as_tensor(query), &k = as_tensor(key), &v = as_tensor(value);
  core::MhaCall call;
  const Value kpm = b.get("key_padding_mask");
  if (!kpm.is_none()) call.key_padding_mask = &as_tensor(kpm);
  call.need_weights = b.flag("need_weights");
  call.average = b.flag("average_attn_weights");
  const Value mask = b.get("attn_mask");
  if (!mask.is_none()) call.attn_mask = &as_tensor(mask);
  done(b);
  InstanceObj& o = inst(self);
  const InstanceObj& op = inst(*o.find("out_proj"));
  core::MhaParams p;
  p.embed_dim = o.find("embed_dim")->i;
  p.num_heads = o.find("num_heads")->i;
  p.dropout = o.find("dropout")->f;
  p.in_proj_weight = as_tensor(*o.find("in_proj_weight"));
  if (!o.find("in_proj_bias")->is_none()) p.in_proj_bias = as_tensor(*o.find("in_proj_bias"));
  p.out_proj_weight = as_tensor(*const_cast<InstanceObj&>(op).find("weight"));
  const Value out_bias = *const_cast<InstanceObj&>(op).find("bias");
  if (!out_bias.is_none()) p.out_proj_bias = as_tensor(out_bias);
  if (q.dim() != 3) b.unsupported("query", "attn's MultiheadAttention takes batched (3-D) inputs");
  if (q.shape().back() != p.embed_dim)
    throw AssertionError(fmt::format("was expecting embedding dimension of {}, but got {}", p.embed_dim, q.shape().back()));
  call.batch_first = o.find("batch_first")->b;
  call.training = o.training;
  // MultiheadAttention.forward's fast-path test (1.13): `torch.is_grad_enabled() and any(
  // x.requires_grad ...)` over query, key, value and the parameters rules it out, so under
  // torch.no_grad() (grad_mode.cpp) an eval-mode self-attention call takes the fast path even
  // though its parameters require grad.
  const bool grad_involved = in.state.grad_enabled && (requires_grad(query) || requires_grad(key) || requires_grad(value) ||
                             requires_grad(*o.find("in_proj_weight")) || requires_grad(*o.find("in_proj_bias")) ||
                             p.out_proj_weight.requires_grad() || requires_grad(out_bias));
  call.fast = query.obj == key.obj && key.obj == value.obj && !call.training && call.batch_first && p.dropout == 0.0 &&
              call.attn_mask == nullptr && p.num_heads % 2 == 0 && !grad_involved;
  if (call.fast && call.key_padding_mask)   // 1.13's fast path masks its softmax: not reproduced
    throw NotImplementedError("MultiheadAttention.forward(): attn does not implement key_padding_mask on "
                             "PyTorch's fast path (eval mode under no_grad); call it in training mode or with attn_mask");
  core::MhaResult r = core::multi_head_attention(q, k, v, p, call, in.state.generator, in.state.rng, in.state.cpu);
  return Value::tuple({Value::tensor(r.output), r.weights ? Value::tensor(*r.weights) : Value::none()});
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
  return Value::tensor(core::scaled_dot_product_attention(q, k, v, mask.is_none() ? nullptr : &as_tensor(mask), p, causal, scale,
                                                          in.state.generator, in.state.rng, in.state.cpu));
}

}  // namespace

void add_nn_attention(NamespaceObj& nn, const std::shared_ptr<ClassObj>& module) {
  auto linear = std::static_pointer_cast<ClassObj>(nn.names.at("Linear").obj);
  auto ndq = module_class("NonDynamicallyQuantizableLinear", linear);
  ndq->native_repr = [linear](const Value& s) { return "NonDynamicallyQuantizable" + linear->native_repr(s); };
  auto mha = module_class("MultiheadAttention", module);
  mha->native_init = [ndq](Interpreter& in, Value& self, CallArgs& a) { mha_init(in, self, a, ndq); };
  mha->native_forward = mha_forward;
  mha->native_repr = [](const Value& s) { return module_tree_repr(s, ""); };
  nn.names["MultiheadAttention"] = class_value(mha);
}

void add_attention_ops(std::vector<OpRow>& rows) {
  rows.push_back({"nn.functional.scaled_dot_product_attention", kFunction,
                  {"scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, double dropout_p=0.0, "
                   "bool is_causal=False, *, double? scale=None)"},
                  sdpa_fn});
}

}  // namespace attn::py
