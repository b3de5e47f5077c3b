// core/grad_einsum.cpp: backward of torch.einsum for the equations attention tutorials write
// ('bnd,di->bni', 'bhnd,bhmd->bhnm', 'bhnm,bhmd->bhnd', and one-operand permutes).
//
// What it is: PyTorch 1.13 computes a two-operand einsum with a contraction as one bmm of the
// operands permuted and reshaped (sumproduct_pair), so its backward is BmmBackward0's two
// products: each operand's gradient element is a sum, from +0, of separately rounded products
// g * other over the other operand's own letters, in the row-major order those letters have in
// the output (the order of the reshaped bmm dims), i.e. the reference-BLAS order of §12.
// A one-operand permute gives the gradient back permuted.
// What it is not: equations where a letter is summed inside one operand, no contraction at all
// (PyTorch multiplies and reduces with sum_to there), broadcast size-1 letters, or three or
// more operands: those return an empty Backward, so backward() names EinsumBackward's grad_fn
// as not implemented instead of guessing.
#include <map>

#include "core/grad_fns.h"

namespace attn::core::grad {

namespace {

using autograd::Grads;

// Offset of the element whose letters take the values in idx, in a contiguous tensor of `letters`.
int64_t offset(const std::string& letters, const std::map<char, int64_t>& size, const std::map<char, int64_t>& idx) {
  int64_t off = 0;
  for (char c : letters) off = off * size.at(c) + idx.at(c);
  return off;
}

// d einsum / d x, where x has letters lx and the other operand y letters ly; g has letters lo.
Tensor operand_grad(const Tensor& g, const Tensor& y, const std::string& lx, const std::string& ly, const std::string& lo,
                    const std::map<char, int64_t>& size) {
  std::string summed;   // y's letters that x lacks, in the output's order
  for (char c : lo)
    if (lx.find(c) == std::string::npos && ly.find(c) != std::string::npos) summed += c;
  Shape shape;
  for (char c : lx) shape.push_back(size.at(c));
  Tensor out = empty(shape);
  const Tensor gc = g.contiguous(), yc = y.contiguous();
  const float *pg = gc.data<float>(), *py = yc.data<float>();
  float* po = out.data<float>();
  int64_t n_sum = 1;
  for (char c : summed) n_sum *= size.at(c);
  std::map<char, int64_t> idx;
  for (int64_t k = 0; k < out.numel(); ++k) {
    int64_t rem = k;
    for (int64_t d = static_cast<int64_t>(lx.size()) - 1; d >= 0; --d) {
      idx[lx[d]] = rem % size.at(lx[d]);
      rem /= size.at(lx[d]);
    }
    float acc = 0.0f;
    for (int64_t s = 0; s < n_sum; ++s) {
      int64_t r = s;
      for (int64_t d = static_cast<int64_t>(summed.size()) - 1; d >= 0; --d) {
        idx[summed[d]] = r % size.at(summed[d]);
        r /= size.at(summed[d]);
      }
      acc += pg[offset(lo, size, idx)] * py[offset(ly, size, idx)];
    }
    po[k] = acc;
  }
  return out;
}

}  // namespace

Backward einsum(const std::vector<std::string>& inputs, const std::string& output, const std::vector<Tensor>& operands) {
  std::map<char, int64_t> size;
  for (size_t k = 0; k < operands.size(); ++k)
    for (size_t d = 0; d < inputs[k].size(); ++d) {
      const char c = inputs[k][d];
      if (size.count(c) && size[c] != operands[k].shape()[d]) return {};   // broadcast letter: not established
      if (inputs[k].find(c) != d) return {};                                // repeated letter (a diagonal)
      size[c] = operands[k].shape()[d];
    }
  const auto in = [](char c, const std::string& s) { return s.find(c) != std::string::npos; };
  if (operands.size() == 1) {   // a permute: every letter kept
    const std::string lx = inputs[0];
    if (lx.size() != output.size()) return {};
    Shape dims;   // the output's dim of each input letter
    for (char c : lx) {
      if (!in(c, output)) return {};
      dims.push_back(static_cast<int64_t>(output.find(c)));
    }
    return {[dims](const Grads& g) { return Grads{permute(*g[0], dims)}; }, false};
  }
  if (operands.size() != 2) return {};
  const std::string &la = inputs[0], &lb = inputs[1];
  bool contracts = false;
  for (char c : la + lb) {
    const bool both = in(c, la) && in(c, lb);
    if (!both && !in(c, output)) return {};   // summed inside one operand
    contracts = contracts || (both && !in(c, output));
  }
  if (!contracts) return {};   // mul + sum_to in PyTorch: not established
  const bool need_a = operands[0].requires_grad(), need_b = operands[1].requires_grad();
  std::vector<Tensor> saved;
  if (need_b) saved.push_back(operands[0]);
  if (need_a) saved.push_back(operands[1]);
  return reads({[a = detach(operands[0]), b = detach(operands[1]), la, lb, output, size, need_a, need_b](const Grads& g) {
                 Grads out(2);
                 if (need_a) out[0] = operand_grad(*g[0], b, la, lb, output, size);
                 if (need_b) out[1] = operand_grad(*g[0], a, lb, la, output, size);
                 return out;
               }},
               saved);
}

}  // namespace attn::core::grad
