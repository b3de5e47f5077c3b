// core/ops/sum_to.cpp: float32 sums over any set of dims of a tensor of any strides, in the order
// ATen's TensorIterator and cascade_sum (SumKernel.cpp) add, and at::sum_to on top of it
// (ops/sum_to.h).
//
// What it is: the reduction every backward needs to undo a broadcast (a Linear bias over B*T
// rows, a causal mask over heads, a keepdim mean). TensorIterator sorts the dims (reduced ones
// first, then by stride), merges dims whose strides chain, runs cascade_sum's 2-D loop over the
// two fastest dims and loops the rest in index order, each block adding into the output
// (which starts at +0). docs/pytorch-numerics.md §12; the research emulation (bwdemu/core.py
// sum_dims) matched torch on 246 reduction cases, including transposed inputs.
// What it is not: the forward torch.sum (ops/reduce.cpp, one dim of a contiguous input, same
// kernel) or the cascade sum's loops (kernels/reduce.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "core/ops/sum_to.h"

#include "core/deadline.h"
#include "core/kernels/reduce.h"
#include "core/kernels/vec.h"

namespace attn::core::autograd {

namespace {

using kernels::detail::kLanes;   // Vectorized<float>::size()

// TensorIteratorBase::reorder_dimensions for a reduction (operands: output, then input).
// Returns the iterator's dims fastest first, as indices into shape.
std::vector<size_t> reorder(const Shape& shape, const Shape& in, const Shape& out) {
  const size_t nd = shape.size();
  std::vector<size_t> perm(nd);
  for (size_t k = 0; k < nd; ++k) perm[k] = nd - 1 - k;
  if (nd == 1) return perm;
  auto should_swap = [&](size_t d0, size_t d1) -> int {
    for (int op = 0; op < 2; ++op) {
      const Shape& s = op == 0 ? out : in;
      const int64_t s0 = s[d0], s1 = s[d1];
      if (op == 0 && ((s0 == 0) != (s1 == 0))) return s1 == 0 ? 1 : -1;
      if (s0 == 0 || s1 == 0) continue;
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < nd; ++i) {
    size_t dim1 = i;
    for (size_t dim0 = i; dim0-- > 0;) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  return perm;
}

// TensorIteratorBase::coalesce_dimensions over (shape, output strides, input strides).
void coalesce(Shape& shape, Shape& out, Shape& in) {
  if (shape.size() <= 1) return;
  size_t prev = 0;
  for (size_t dim = 1; dim < shape.size(); ++dim) {
    const bool ok = shape[prev] == 1 || shape[dim] == 1 ||
                    (shape[prev] * out[prev] == out[dim] && shape[prev] * in[prev] == in[dim]);
    if (ok) {
      if (shape[prev] == 1) {
        out[prev] = out[dim];
        in[prev] = in[dim];
      }
      shape[prev] *= shape[dim];
    } else {
      ++prev;
      if (prev != dim) {
        out[prev] = out[dim];
        in[prev] = in[dim];
        shape[prev] = shape[dim];
      }
    }
  }
  shape.resize(prev + 1);
  out.resize(prev + 1);
  in.resize(prev + 1);
}

// cascade_sum's 2-D loop: a (size0, size1) block of the input at `x` with strides si, whose
// results land in the output at strides so (one of them 0: the reduced dim). Adds each result
// into out (CastStoreAccumulate).
void loop2d(const float* x, int64_t size0, int64_t size1, int64_t si0, int64_t si1, int64_t so0, int64_t so1, float* out) {
  if (so0 != 0 && so1 == 0) {   // cascade_sum moves the reduction to dim 0
    std::swap(size0, size1);
    std::swap(si0, si1);
    std::swap(so0, so1);
  }
  DeadlineMeter meter;   // core/deadline.h: a sum over an expanded 30000 x 30000 view stops at --time-limit
  if (so0 != 0 && so1 != 0) {   // "not a true reduction" (only size-1 dims reduced): out + in, element by element
    for (int64_t j = 0; j < size1; ++j) {
      meter.add(size0);
      for (int64_t i = 0; i < size0; ++i) out[i * so0 + j * so1] = out[i * so0 + j * so1] + x[i * si0 + j * si1];
    }
    return;
  }
  for (int64_t j = 0; j < size1; ++j) {
    meter.add(size0);
    const float* col = x + j * si1;
    float v;
    if (si0 == 1 && size0 >= kLanes) {
      v = kernels::inner_row_sum(col, size0);                       // vectorized_inner_sum
    } else if (si1 == 1 && size1 >= kLanes) {                       // vectorized_outer_sum
      const int64_t big = size1 - size1 % (4 * kLanes);
      v = j < big ? kernels::strided_multi_row_sum(col, size0, si0) : kernels::strided_row_sum(col, size0, si0);
    } else if (si0 < si1) {                                         // scalar_inner_sum
      v = kernels::strided_row_sum(col, size0, si0);
    } else {                                                        // scalar_outer_sum
      const int64_t big = size1 - size1 % 4;
      v = j < big ? kernels::strided_multi_row_sum(col, size0, si0) : kernels::strided_row_sum(col, size0, si0);
    }
    out[j * so1] = out[j * so1] + v;
  }
}

// TensorIterator's iteration of x reduced over dims (all when empty): dims fastest first,
// coalesced, strides in elements (the output's row-major, 0 where reduced). x has a dim and elements.
struct IterPlan {
  Shape shape, out, in;
};

IterPlan plan_of(const Tensor& x, const std::vector<int64_t>& dims_in) {
  const int64_t nd = x.dim();
  std::vector<bool> reduced(static_cast<size_t>(nd), dims_in.empty());
  for (int64_t d : dims_in) reduced[static_cast<size_t>(normalize_dim(d, nd))] = true;
  const Shape& shape = x.shape();
  Shape out_str(static_cast<size_t>(nd), 0);
  int64_t n_out = 1;
  for (int64_t d = nd - 1; d >= 0; --d) {
    if (reduced[d]) continue;
    out_str[d] = n_out;
    n_out *= shape[d];
  }
  IterPlan plan;
  for (size_t p : reorder(shape, x.strides(), out_str)) {
    plan.shape.push_back(shape[p]);
    plan.out.push_back(out_str[p]);
    plan.in.push_back(x.strides()[p]);
  }
  coalesce(plan.shape, plan.out, plan.in);
  return plan;
}

}  // namespace

// One reduction of g over dims (all when empty), any strides, in TensorIterator's order: `loop`
// is the kernel's 2-D loop, the output starts at `init` (sum 0, prod 1).
Tensor reduce_dims(const Tensor& g, const std::vector<int64_t>& dims_in, bool keepdim, float init, ReduceLoop2d loop) {
  const Tensor x = to_float(g);
  const int64_t nd = x.dim();
  std::vector<bool> reduced(static_cast<size_t>(nd), dims_in.empty());
  for (int64_t d : dims_in) reduced[static_cast<size_t>(normalize_dim(d, nd))] = true;
  const Shape& shape = x.shape();
  Shape kept, keep_shape;
  for (int64_t d = 0; d < nd; ++d) {
    if (!reduced[d]) kept.push_back(shape[d]);
    keep_shape.push_back(reduced[d] ? 1 : shape[d]);
  }
  Tensor out = full(keepdim ? keep_shape : kept, init);   // [kept dims]
  if (x.numel() == 0) return out;
  if (nd == 0) {   // one element, one 1-element loop
    loop(x.data<float>(), 1, 1, 1, 1, 0, 0, out.data<float>());
    return out;
  }
  IterPlan plan = plan_of(x, dims_in);
  Shape &cshape = plan.shape, &cout = plan.out, &cin = plan.in;
  if (cshape.size() == 1) {   // a 1-D iteration: the 2-D loop sees size1 = 1
    cshape.push_back(1);
    cout.push_back(0);
    cin.push_back(0);
  }
  const Shape outer(cshape.begin() + 2, cshape.end());
  const Shape outer_in(cin.begin() + 2, cin.end()), outer_out(cout.begin() + 2, cout.end());
  const float* base = x.data<float>();
  float* o = out.data<float>();
  // The outer dims in index order, the last one fastest (as the research emulation, which matched).
  const int64_t blocks = numel_of(outer);
  Shape idx(outer.size(), 0);
  for (int64_t b = 0; b < blocks; ++b) {
    int64_t oi = 0, oo = 0;
    for (size_t k = 0; k < idx.size(); ++k) {
      oi += idx[k] * outer_in[k];
      oo += idx[k] * outer_out[k];
    }
    loop(base + oi, cshape[0], cshape[1], cin[0], cin[1], cout[0], cout[1], o + oo);
    for (size_t k = 0; k < idx.size(); ++k) {   // DimCounter::increment: the fastest outer dim first
      if (++idx[k] < outer[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}


// binary_kernel_reduce_lastdim's condition: one reduced dim left, dim 0, contiguous.
bool reduction_lastdim(const Tensor& g, const std::vector<int64_t>& dims) {
  if (g.dim() == 0) return true;
  if (g.numel() == 0) return false;
  const IterPlan plan = plan_of(g, dims);
  return std::count(plan.out.begin(), plan.out.end(), 0) == 1 && plan.out[0] == 0 && plan.in[0] == 1;
}

// g's elements reduced over dims as runs of the iterator's dim 0, in TensorIterator's order (the
// higher dims in DimCounter's order), read in place.
void reduction_rows(const Tensor& g, const std::vector<int64_t>& dims, const ReduceRow& row) {
  const Tensor x = to_float(g);
  if (x.dim() == 0) return row(0, x.data<float>(), 1, 1, 0);
  if (x.numel() == 0) return;
  const IterPlan plan = plan_of(x, dims);
  const float* base = x.data<float>();
  Shape idx(plan.shape.size(), 0);   // idx[0] stays 0: one run per step
  DeadlineMeter meter;               // core/deadline.h
  for (int64_t k = 0; k < x.numel(); k += plan.shape[0]) {
    meter.add(plan.shape[0]);
    int64_t oi = 0, oo = 0;
    for (size_t d = 1; d < idx.size(); ++d) {
      oi += idx[d] * plan.in[d];
      oo += idx[d] * plan.out[d];
    }
    row(oo, base + oi, plan.shape[0], plan.in[0], plan.out[0]);
    for (size_t d = 1; d < idx.size(); ++d) {
      if (++idx[d] < plan.shape[d]) break;
      idx[d] = 0;
    }
  }
}

// g.sum(dims, keepdim) for any dims (all when empty) and any strides of g, in ATen's order.
Tensor sum_dims(const Tensor& g, const std::vector<int64_t>& dims, bool keepdim) {
  if (g.dim() == 0) return scalar(0.0f + to_float(g).float_at(0));
  return reduce_dims(g, dims, keepdim, 0.0f, loop2d);
}

Tensor sum_to(const Tensor& g, const Shape& shape) {
  if (shape.empty()) return sum_dims(g, {}, false);
  const int64_t lead = g.dim() - static_cast<int64_t>(shape.size());
  if (lead < 0)
    throw TensorError(fmt::format("sum_to: gradient of shape {} cannot be summed to {}", shape_str(g.shape()), shape_str(shape)));
  std::vector<int64_t> red;
  for (int64_t d = 0; d < lead; ++d) red.push_back(d);
  for (int64_t d = lead; d < g.dim(); ++d) {
    const int64_t want = shape[static_cast<size_t>(d - lead)];
    if (want == 1 && g.shape()[d] != 1) red.push_back(d);
    else if (want != g.shape()[d])
      throw TensorError(fmt::format("sum_to: gradient of shape {} cannot be summed to {}", shape_str(g.shape()), shape_str(shape)));
  }
  Tensor r = red.empty() ? g : sum_dims(g, red, true);
  if (lead > 0) r = make_view(r.contiguous(), shape, contiguous_strides(shape), r.contiguous().offset());
  return r;
}

}  // namespace attn::core::autograd
