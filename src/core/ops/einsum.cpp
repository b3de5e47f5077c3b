// core/ops/einsum.cpp: torch.einsum, forward and backward (ops/einsum.h).
//
// What it is: the general two- (or one-) operand einsum, computed as PyTorch does for these
// shapes: every output element is a sum over the contracted letters, taken in row-major order
// of the contracted letters, of separately rounded products (the order of a bmm through
// reference BLAS; a two-operand contraction runs as that bmm, kernels/gemm.h). With nothing to
// contract (a permute, an elementwise or outer product) each element is the product itself.
// The backward: PyTorch 1.13 computes a two-operand einsum with a contraction as one bmm of the
// operands permuted and reshaped (sumproduct_pair), so its backward is BmmBackward0's two
// products: each operand's gradient element is a sum, from +0, of separately rounded products
// g * other over the other operand's own letters, in the row-major order those letters have in
// the output (the order of the reshaped bmm dims), i.e. the reference-BLAS order of §12. A
// one-operand permute gives the gradient back permuted.
// Integer and bool operands compute in their dtype (einsum_ints), as ATen's kernels do; three or
// more end in the dtype of 1.13's left-to-right pairwise chain (sum, mul or bmm at each step).
// Float operands, any number of them, run as ATen 1.13's einsum does, op by op
// through core's recorded ops (einsum_aten: diagonals, unsqueeze, permute, then left to right a
// letter summed inside one operand as soon as no other operand left has it, sumproduct_pair's
// bmm; a size-0 dim counts as a real one, as 1.13's `!= 1` tests), so values round and grad_fn
// chains nest as PyTorch's; with an empty operand too, but for one or two operands (below).
// What it is not: ellipsis ('...').
#include "core/ops/einsum.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/binary.h"
#include "core/ops/inplace.h"
#include "core/ops/linalg.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"

namespace attn::core {

// ---- backward ----

namespace grad {
namespace {

using autograd::Backward;
using autograd::Grads;
using autograd::detail::reads;

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

// torch.einsum of two operands with a contraction (BmmBackward0's products) or a one-operand
// permute; other equations get an empty Backward (not implemented).
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

}  // namespace
}  // namespace grad

// ---- forward ----

namespace {

struct Equation {
  std::vector<std::string> inputs;
  std::string output;
};

// ATen 1.13's parse, in its order and with its messages: the inputs' subscripts (a ',' past the
// last operand, a character that is not a letter), the operand count, each operand's number of
// subscripts, then the output's (a letter no input has, or one given twice). Spaces are skipped;
// an ellipsis is refused (attn names every dimension).
Equation parse_equation(const std::string& eq, const std::vector<Tensor>& operands) {
  constexpr const char* kInvalid = "einsum(): invalid subscript given at index {} in the equation string, subscripts must be in [a-zA-Z]";
  const auto no_ellipsis = [] { return TensorError("einsum(): attn does not support '...' (an ellipsis) in the equation; name each dimension with a letter"); };
  Equation e;
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  e.inputs.emplace_back();
  for (size_t i = 0; i < lhs.size(); ++i) {
    const char c = lhs[i];
    if (c == ' ') continue;
    if (c == '.') throw no_ellipsis();
    if (c == ',') {
      e.inputs.emplace_back();
      if (e.inputs.size() > operands.size()) throw TensorError("einsum(): fewer operands were provided than specified in the equation");
      continue;
    }
    if (!std::isalpha(static_cast<unsigned char>(c))) throw TensorError(fmt::format(kInvalid, i));
    e.inputs.back() += c;
  }
  if (e.inputs.size() != operands.size()) throw TensorError("einsum(): more operands were provided than specified in the equation");
  for (size_t k = 0; k < operands.size(); ++k)
    if (static_cast<int64_t>(e.inputs[k].size()) != operands[k].dim())
      throw TensorError(fmt::format("einsum(): the number of subscripts in the equation ({}) does not match the number of dimensions ({}) "
                                    "for operand {} and no ellipsis was given", e.inputs[k].size(), operands[k].dim(), k));
  if (arrow == std::string::npos) {   // implicit output: letters that appear once, in alphabetical order
    std::map<char, int> count;
    for (const auto& in : e.inputs)
      for (char c : in) ++count[c];
    for (auto [c, n] : count)
      if (n == 1) e.output += c;
    return e;
  }
  const std::string rhs = eq.substr(arrow + 2);
  for (size_t i = 0; i < rhs.size(); ++i) {
    const char c = rhs[i];
    if (c == ' ') continue;
    if (c == '.') throw no_ellipsis();
    if (!std::isalpha(static_cast<unsigned char>(c))) throw TensorError(fmt::format(kInvalid, lhs.size() + 2 + i));
    if (std::none_of(e.inputs.begin(), e.inputs.end(), [c](const std::string& in) { return in.find(c) != std::string::npos; }))
      throw TensorError(fmt::format("einsum(): output subscript {} does not appear in the equation for any input operand", c));
    if (e.output.find(c) != std::string::npos) throw TensorError(fmt::format("einsum(): output subscript {} appears more than once in the output", c));
    e.output += c;
  }
  return e;
}

// Two operands where every letter has one extent and every contracted letter is in both (the
// tutorials' 'bnd,do->bno', 'bhnd,bhmd->bhnm'): a batched matmul [batch, m, k] @ [batch, k, n]
// (core/kernels/gemm.cpp), batch = letters of both inputs and the output, m = of the first and the
// output, n = of the second and the output, k = `contracted` in its order. The bits are the loop's
// in einsum() below: gemm too starts each element at +0 and adds the separately rounded products
// in k order, here the contracted letters' row-major order. nullopt: use the loop.
std::optional<Tensor> einsum_as_matmul(const Equation& e, std::map<char, int64_t>& size, const std::string& contracted,
                                       const std::vector<Tensor>& fs) {
  if (fs.size() != 2 || contracted.empty()) return std::nullopt;
  const std::string &a = e.inputs[0], &b = e.inputs[1], &o = e.output;
  auto has = [](const std::string& s, char c) { return s.find(c) != std::string::npos; };
  for (size_t k = 0; k < 2; ++k)
    for (size_t d = 0; d < e.inputs[k].size(); ++d) {
      char c = e.inputs[k][d];
      if (fs[k].shape()[d] != size[c] || e.inputs[k].find(c) != d) return std::nullopt;   // broadcast or repeated letter
    }
  std::string batch, m, n;
  for (char c : o) (has(a, c) && has(b, c) ? batch : has(a, c) ? m : n) += c;
  for (char c : contracted)
    if (!has(a, c) || !has(b, c)) return std::nullopt;
  auto dims_of = [](const std::string& in, const std::string& letters) {
    Shape dims;
    for (char c : letters) dims.push_back(static_cast<int64_t>(in.find(c)));
    return dims;
  };
  auto extent = [&](const std::string& letters) {
    int64_t p = 1;
    for (char c : letters) p *= size[c];
    return p;
  };
  Tensor lhs = reshape(permute(detach(fs[0]), dims_of(a, batch + m + contracted)), {extent(batch), extent(m), extent(contracted)});
  Tensor rhs = reshape(permute(detach(fs[1]), dims_of(b, batch + contracted + n)), {extent(batch), extent(contracted), extent(n)});
  Shape grouped;   // the product's dims as batch letters, then m, then n
  for (char c : batch + m + n) grouped.push_back(size[c]);
  return permute(reshape(matmul(lhs, rhs), grouped), dims_of(batch + m + n, o)).contiguous();
}

}  // namespace

namespace {

// Each letter's extent across the operands (a letter of extent 1 broadcasts; a letter repeated in
// one operand, a diagonal, has one extent there), with PyTorch's errors.
std::map<char, int64_t> letter_sizes(const Equation& e, const std::vector<Tensor>& operands) {
  std::map<char, int64_t> size;
  for (size_t k = 0; k < operands.size(); ++k) {
    const Tensor& t = operands[k];
    std::map<char, int64_t> own;   // this operand's letters: a repeated one (a diagonal) has one extent
    for (size_t d = 0; d < e.inputs[k].size(); ++d) {
      const char c = e.inputs[k][d];
      const int64_t n = t.shape()[d];
      if (own.count(c)) {
        if (own[c] != n) throw TensorError(fmt::format("einsum(): subscript {} is repeated for operand {} but the sizes don't match, {} != {}", c, k, n, own[c]));
        continue;
      }
      own[c] = n;
      if (size.count(c) && size[c] != n && size[c] != 1 && n != 1)
        throw TensorError(fmt::format("einsum(): subscript {} has size {} for operand {} which does not broadcast with previously seen size {}", c, n, k, size[c]));
      if (!size.count(c) || size[c] == 1) size[c] = n;   // an extent of 0 stays 0 (max(1, 0) read past an empty operand)
    }
  }
  return size;
}

// The general case, one output element at a time in row-major order of the output letters:
// the sum from +0 over the contracted letters (row-major) of the operands' rounded product, or,
// with nothing contracted, the product itself. vals: the operands' elements, row-major (float
// for float32; uint64_t for integers, which wrap as ATen's integer loops do, in any order).
template <typename T>
std::vector<T> einsum_loop(const Equation& e, std::map<char, int64_t>& size, const std::string& contracted,
                           const std::vector<std::vector<T>>& vals, const std::vector<Shape>& shapes, int64_t n_out) {
  std::vector<T> out(static_cast<size_t>(n_out));
  std::map<char, int64_t> idx;
  int64_t n_sum = 1;
  for (char c : contracted) n_sum *= size[c];
  auto offset = [&](size_t k) {
    int64_t off = 0;
    for (size_t d = 0; d < e.inputs[k].size(); ++d) {
      int64_t extent = shapes[k][d];
      off = off * extent + (extent == 1 ? 0 : idx[e.inputs[k][d]]);
    }
    return static_cast<size_t>(off);
  };
  auto product = [&]() {
    T prod = vals[0][offset(0)];
    for (size_t k = 1; k < vals.size(); ++k) prod *= vals[k][offset(k)];
    return prod;
  };
  // A naive loop over n_out * n_sum terms, which a few small operands can make 10^11 long: it
  // looks at the deadline (core/deadline.h) every 2^16 terms.
  int64_t since_check = 0;
  for (int64_t o = 0; o < n_out; ++o) {
    if (++since_check >= (int64_t{1} << 16)) {
      since_check = 0;
      check_deadline();
    }
    int64_t rem = o;
    for (int64_t d = static_cast<int64_t>(e.output.size()) - 1; d >= 0; --d) {
      idx[e.output[d]] = rem % size[e.output[d]];
      rem /= size[e.output[d]];
    }
    if (contracted.empty()) {   // with nothing to contract, the product is stored as is
      out[static_cast<size_t>(o)] = product();
      continue;
    }
    T acc = 0;   // bmm starts from 0
    for (int64_t s = 0; s < n_sum; ++s) {
      if (++since_check >= (int64_t{1} << 16)) {
        since_check = 0;
        check_deadline();
      }
      int64_t r = s;
      for (int64_t d = static_cast<int64_t>(contracted.size()) - 1; d >= 0; --d) {
        idx[contracted[d]] = r % size[contracted[d]];
        r /= size[contracted[d]];
      }
      acc += product();
    }
    out[static_cast<size_t>(o)] = acc;
  }
  return out;
}

// The dtype ATen 1.13's einsum ends in for three or more operands, contracted left to right: a
// letter seen for the last time is summed out (sum: int64 for integers and bool) when one side lacks
// it, else contracted by bmm (one dtype on both sides; no bool kernel); with nothing to contract the
// pair multiplies (promoted). Throws bmm's errors.
DType einsum_chain_dtype(const Equation& e, std::map<char, int64_t>& size, const std::vector<Tensor>& operands) {
  const auto summed = [](DType d) { return is_integral(d) || d == DType::boolean ? DType::int64 : d; };
  const auto last_op = [&](char c) {
    size_t last = 0;
    for (size_t i = 0; i < e.inputs.size(); ++i)
      if (e.inputs[i].find(c) != std::string::npos) last = i;
    return last;
  };
  const auto has = [](const std::string& s, char c) { return s.find(c) != std::string::npos; };
  std::string held = e.inputs[0];   // the running result's letters of size > 1 (and the output's)
  DType dr = operands[0].dtype();
  for (char c : e.inputs[0])
    if (!has(e.output, c) && last_op(c) == 0) {
      if (size[c] != 1) dr = summed(dr);
      held.erase(held.find(c), 1);
    }
  for (size_t i = 1; i < operands.size(); ++i) {
    DType d = operands[i].dtype();
    bool contracts = false;
    std::string next = held;
    for (char c : e.inputs[i])
      if (!has(next, c)) next += c;
    for (auto [c, n] : size) {
      if (has(e.output, c) || last_op(c) != i) continue;
      const bool in_result = has(held, c) && n != 1, in_operand = has(e.inputs[i], c) && n != 1;
      if (!in_result) d = summed(d);
      else if (!in_operand) dr = summed(dr);
      else contracts = true;
      if (has(next, c)) next.erase(next.find(c), 1);
    }
    if (!contracts) {
      dr = promote_types(dr, d);
    } else {
      if (d != dr) throw TensorError(fmt::format("expected scalar type {} but found {}", dtype_title(dr), dtype_title(d)));
      if (dr == DType::boolean) throw TensorError("\"bmm\" not implemented for 'Bool'");
    }
    held = next;
  }
  return dr;
}

// An integer operand or intermediate: its letters, shape (1 where it broadcasts) and values as
// unsigned, so products and sums wrap as ATen's integer kernels do, in any order.
struct IntTerm {
  std::string letters;
  Shape shape;
  std::vector<uint64_t> vals;
};

std::string unique_letters(const std::string& s) {
  std::string out;
  for (char c : s)
    if (out.find(c) == std::string::npos) out += c;
  return out;
}

// einsum_loop over one or two terms into `keep`'s letters (each once), summing the others: the
// work is the kept letters' extent times the summed ones', as a sum or a bmm step's.
IntTerm contract_terms(const std::vector<const IntTerm*>& terms, const std::string& keep, std::map<char, int64_t>& size) {
  Equation step;
  std::vector<std::vector<uint64_t>> vals;
  std::vector<Shape> shapes;
  std::string all;
  for (const IntTerm* t : terms) {
    step.inputs.push_back(t->letters);
    vals.push_back(t->vals);
    shapes.push_back(t->shape);
    all += t->letters;
  }
  step.output = keep;
  std::string summed;
  for (char c : unique_letters(all))
    if (keep.find(c) == std::string::npos) summed += c;
  IntTerm r{keep, {}, {}};
  for (char c : keep) r.shape.push_back(size[c]);
  r.vals = einsum_loop(step, size, summed, vals, shapes, numel_of(r.shape));
  return r;
}

// The integer einsum of `operands`, wrapped into dtype, with the float path's step structure: a
// letter only one operand has (and not the output) summed inside it first, then the operands
// contracted left to right, each step keeping the letters the output or a later operand needs.
// (Integers wrap, so the order of the additions does not change the values.)
Tensor einsum_int_values(const Equation& e, std::map<char, int64_t>& size, const std::string&,
                         const std::vector<Tensor>& operands, const Shape& out_shape, DType dtype) {
  std::vector<IntTerm> terms;
  for (size_t k = 0; k < operands.size(); ++k) {
    const std::vector<int64_t> v = operands[k].ints();
    terms.push_back({e.inputs[k], operands[k].shape(), std::vector<uint64_t>(v.begin(), v.end())});
  }
  const auto needed = [&](size_t from, char c) {   // by the output or an operand from `from` on
    if (e.output.find(c) != std::string::npos) return true;
    for (size_t k = from; k < terms.size(); ++k)
      if (terms[k].letters.find(c) != std::string::npos) return true;
    return false;
  };
  for (size_t k = 0; k < terms.size(); ++k) {   // letters of this operand alone: summed in it first
    std::string keep;
    for (char c : unique_letters(terms[k].letters)) {
      bool elsewhere = e.output.find(c) != std::string::npos;
      for (size_t j = 0; j < terms.size(); ++j) elsewhere = elsewhere || (j != k && terms[j].letters.find(c) != std::string::npos);
      if (elsewhere) keep += c;
    }
    if (keep.size() < terms[k].letters.size()) terms[k] = contract_terms({&terms[k]}, keep, size);
  }
  IntTerm run = std::move(terms[0]);
  for (size_t k = 1; k < terms.size(); ++k) {
    std::string keep;
    if (k + 1 == terms.size()) keep = e.output;
    else
      for (char c : unique_letters(run.letters + terms[k].letters))
        if (needed(k + 1, c)) keep += c;
    run = contract_terms({&run, &terms[k]}, keep, size);
  }
  if (run.letters != e.output) run = contract_terms({&run}, e.output, size);   // one operand: its permute
  return from_ints(out_shape, std::vector<int64_t>(run.vals.begin(), run.vals.end()), dtype);
}

// einsum of integer or bool operands, in their dtype as ATen computes it: a permute keeps it, a
// one-operand sum gives int64, two operands multiply (mul: promoted) or contract (bmm: the dtypes
// must match, and bmm has no bool kernel). Nullopt when an operand is float32 and nothing
// requires the integer kernels (the float path promotes).
std::optional<Tensor> einsum_ints(const Equation& e, std::map<char, int64_t>& size, const std::string& contracted,
                                  const std::vector<Tensor>& operands, const Shape& out_shape) {
  const DType d0 = operands[0].dtype();
  if (operands.size() > 2) {   // pairwise, left to right: the dtype of the chain; integers wrap the same in any order
    const DType chain = einsum_chain_dtype(e, size, operands);
    if (chain == DType::float32) return std::nullopt;
    return einsum_int_values(e, size, contracted, operands, out_shape, chain);
  }
  const bool bmm = operands.size() == 2 && !contracted.empty();
  for (const Tensor& t : operands)
    if (bmm && t.dtype() != d0) throw TensorError(fmt::format("expected scalar type {} but found {}", dtype_title(d0), dtype_title(t.dtype())));
  if (bmm && d0 == DType::boolean) throw TensorError("\"bmm\" not implemented for 'Bool'");
  if (std::any_of(operands.begin(), operands.end(), [](const Tensor& t) { return t.is_float(); })) return std::nullopt;
  DType dtype = operands.size() == 1 ? (contracted.empty() ? d0 : DType::int64) : bmm ? d0 : result_type(operands[0], operands[1]);
  return einsum_int_values(e, size, contracted, operands, out_shape, dtype);
}

}  // namespace

namespace {

Tensor diagonal(const Tensor& op, int64_t d0, int64_t d1);   // below, with einsum_aten

// Operand `op` with letters `letters`, each repeated letter taken as its diagonal first (a view:
// "jj" becomes "j"), the diagonal moved back to the letter's first place, as ATen 1.13 does for
// every operand before anything else. Returns the letters left, each once.
std::string take_diagonals(Tensor& op, std::string letters) {
  for (size_t dim = 0; dim < letters.size();) {
    const size_t first = letters.find(letters[dim]);
    if (first == dim) {
      ++dim;
      continue;
    }
    op = diagonal(op, static_cast<int64_t>(first), static_cast<int64_t>(dim));
    Shape back;
    for (int64_t d = 0; d < op.dim() - 1; ++d) back.push_back(d);
    back.insert(back.begin() + static_cast<int64_t>(first), op.dim() - 1);
    op = permute(op, back);
    letters.erase(dim, 1);
  }
  return letters;
}

}  // namespace

namespace {

// op.diagonal(0, d0, d1) (d0 < d1): the dims d0 and d1 replaced by their diagonal, last; a view.
Tensor diagonal(const Tensor& op, int64_t d0, int64_t d1) {
  Shape shape, strides;
  for (int64_t d = 0; d < op.dim(); ++d)
    if (d != d0 && d != d1) {
      shape.push_back(op.shape()[d]);
      strides.push_back(op.strides()[d]);
    }
  shape.push_back(std::min(op.shape()[d0], op.shape()[d1]));
  strides.push_back(op.strides()[d0] + op.strides()[d1]);
  autograd::Backward backward{[from = op.shape(), d0, d1](const autograd::Grads& g) {   // zeros with grad on the diagonal
                                Tensor z = zeros(from);
                                const Shape st = z.strides();
                                Shape dst_shape, dst_strides;
                                for (int64_t d = 0; d < static_cast<int64_t>(from.size()); ++d)
                                  if (d != d0 && d != d1) {
                                    dst_shape.push_back(from[d]);
                                    dst_strides.push_back(st[d]);
                                  }
                                dst_shape.push_back(std::min(from[d0], from[d1]));
                                dst_strides.push_back(st[d0] + st[d1]);
                                Tensor diag = make_view(z, dst_shape, dst_strides, 0);
                                copy_(diag, detach(*g[0]));
                                return autograd::Grads{z};
                              },
                              false};
  return autograd::record_view(make_view(op, shape, strides, op.offset()), op, "DiagonalBackward0", std::move(backward));
}

// ATen's sumproduct_pair(left, right, sum_dims, keepdim=true): the dims both have (lro), only
// left (lo), only right (ro) and summed, permuted and reshaped into one bmm, viewed back.
Tensor sumproduct_pair(Tensor left, Tensor right, const std::vector<int64_t>& sum_dims) {
  if (sum_dims.empty()) return keep_layout(binary(BinOp::mul, left, right), {&left, &right});   // at::mul's layout: a later reshape views it or copies it as ATen's does
  Shape lro, lo, ro;
  int64_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1;
  for (int64_t i = 0; i < left.dim(); ++i) {
    const bool sl = left.shape()[i] != 1, sr = right.shape()[i] != 1;   // 1.13: != 1, so a size-0 dim is not broadcast
    if (std::find(sum_dims.begin(), sum_dims.end(), i) != sum_dims.end()) {
      if (sl && sr) sum_size *= left.shape()[i];
      else if (sl) left = sum(left, i, true);
      else if (sr) right = sum(right, i, true);
    } else if (sl && sr) {
      lro.push_back(i);
      lro_size *= left.shape()[i];
    } else if (sl) {
      lo.push_back(i);
      lo_size *= left.shape()[i];
    } else {
      ro.push_back(i);
      ro_size *= right.shape()[i];
    }
  }
  Shape out_size, lperm, rperm;
  for (int64_t d : lro) out_size.push_back(left.shape()[d]);
  for (int64_t d : lo) out_size.push_back(left.shape()[d]);
  out_size.insert(out_size.end(), sum_dims.size(), 1);
  for (int64_t d : ro) out_size.push_back(right.shape()[d]);
  lperm = lro;
  for (const Shape& part : {lo, sum_dims, ro}) lperm.insert(lperm.end(), part.begin(), part.end());
  rperm = lro;
  for (const Shape& part : {sum_dims, ro, lo}) rperm.insert(rperm.end(), part.begin(), part.end());
  Shape operm(lperm.size());
  for (size_t k = 0; k < lperm.size(); ++k) operm[static_cast<size_t>(lperm[k])] = static_cast<int64_t>(k);
  left = reshape(permute(left, lperm), {lro_size, lo_size, sum_size});
  right = reshape(permute(right, rperm), {lro_size, sum_size, ro_size});
  return permute(view(bmm(left, right), out_size), operm);
}

// ATen 1.13's einsum of one or two float operands op by op (Linear.cpp): each operand's repeated
// letters taken as diagonals, missing letters unsqueezed, permuted to the output's letters and
// then the others in ASCII order; with two, the letters only one has summed in it first (sum
// over those dims at once, keepdim), the shared ones contracted by sumproduct_pair's bmm, the
// summed dims viewed away; with one, one sum over the letters the output lacks. So the values
// round, and the gradients flow, as PyTorch's recorded ops do.
Tensor einsum_aten(const Equation& e, const std::vector<Tensor>& operands) {
  std::string order = e.output, rest;
  for (const std::string& in : e.inputs)
    for (char c : in)
      if (order.find(c) == std::string::npos && rest.find(c) == std::string::npos) rest += c;
  std::sort(rest.begin(), rest.end());
  order += rest;
  const int64_t out_dims = static_cast<int64_t>(e.output.size()), perm = static_cast<int64_t>(order.size());
  std::vector<int64_t> dim_counts(static_cast<size_t>(perm), 0);
  std::vector<Tensor> ops;
  for (size_t k = 0; k < operands.size(); ++k) {
    Tensor op = to_float(operands[k]);
    Shape permutation(static_cast<size_t>(perm), -1);
    int64_t dim = 0;
    for (char c : take_diagonals(op, e.inputs[k])) {   // a repeated letter: its diagonal, at its first place
      const size_t li = order.find(c);
      if (op.shape()[dim] != 1) ++dim_counts[li];
      permutation[li] = dim++;
    }
    for (int64_t& v : permutation)
      if (v == -1) {
        op = unsqueeze(op, dim);
        v = dim++;
      }
    ops.push_back(permute(op, permutation));
  }
  std::vector<int64_t> summed;
  for (int64_t d = out_dims; d < perm; ++d) summed.push_back(d);
  if (ops.size() == 1) return summed.empty() ? ops[0] : sum(ops[0], summed, false);
  // Left to right (no opt_einsum path on Debian's build): the first two contracted, the result put
  // first, until one is left. A letter is summed as soon as no other operand left has it.
  std::deque<Tensor> left(ops.begin(), ops.end());
  while (left.size() > 1) {
    Tensor a = left[0], b = left[1];
    left.pop_front();
    left.pop_front();
    std::vector<int64_t> sum_dims, a_sum, b_sum;
    for (int64_t d = out_dims; d < perm; ++d) {
      const bool sa = a.shape()[d] != 1, sb = b.shape()[d] != 1;
      int64_t& count = dim_counts[static_cast<size_t>(d)];
      if (sa && sb) {
        if (--count == 1) {
          sum_dims.push_back(d);
          count = 0;
        }
      } else if (count == 1 && (sa || sb)) {   // in one of them alone, and no other operand left has it
        (sa ? a_sum : b_sum).push_back(d);
        count = 0;
      }
    }
    if (!a_sum.empty()) a = sum(a, a_sum, true);
    if (!b_sum.empty()) b = sum(b, b_sum, true);
    left.push_front(sumproduct_pair(a, b, sum_dims));
  }
  Tensor r = left[0];
  if (summed.empty()) return r;
  return view(r, Shape(r.shape().begin(), r.shape().begin() + out_dims));
}

}  // namespace

Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands) {
  Equation e = parse_equation(equation, operands);
  std::map<char, int64_t> size = letter_sizes(e, operands);
  std::string contracted;
  for (auto [c, n] : size)
    if (e.output.find(c) == std::string::npos) contracted += c;
  Shape out_shape;
  for (char c : e.output) out_shape.push_back(size[c]);
  if (std::optional<Tensor> r = einsum_ints(e, size, contracted, operands, out_shape)) return *r;
  const bool empty = std::any_of(operands.begin(), operands.end(), [](const Tensor& t) { return t.numel() == 0; });
  if (!empty || operands.size() > 2) return einsum_aten(e, operands);
  std::vector<Tensor> fs;
  for (const Tensor& t : operands) fs.push_back(to_float(t).contiguous());
  std::vector<const Tensor*> ins;
  for (const Tensor& t : operands) ins.push_back(&t);
  // PyTorch 1.13: one operand is a permute (or a sum); two end in mul, or in the view of a bmm.
  const char* name = fs.size() == 1 ? (contracted.empty() ? "PermuteBackward0" : "SumBackward1")
                                    : (contracted.empty() ? "MulBackward0" : "ViewBackward0");
  std::optional<Tensor> out;
  // An operand with no elements: the output is empty, or every sum is over nothing (+0).
  if (std::any_of(fs.begin(), fs.end(), [](const Tensor& t) { return t.numel() == 0; })) out = zeros(out_shape);
  if (!out) out = einsum_as_matmul(e, size, contracted, fs);
  if (!out) {
    std::vector<std::vector<float>> vals;
    std::vector<Shape> shapes;
    for (const Tensor& t : fs) {
      vals.push_back(t.floats());
      shapes.push_back(t.shape());
    }
    out = from_floats(out_shape, einsum_loop(e, size, contracted, vals, shapes, numel_of(out_shape)));
  }
  return autograd::record(std::move(*out), ins, name, grad::einsum(e.inputs, e.output, operands));
}

}  // namespace attn::core
