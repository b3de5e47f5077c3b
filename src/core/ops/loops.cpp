// core/ops/loops.cpp: scalar_tail and binary_loop, where ATen's vectorised elementwise loop hands
// elements to its scalar tail, and vml_runs, the runs a vml kernel sees (ops/loops.h).
//
// What it is: TensorIterator's coalescing of the input's dims, then the tail of each run, or the
// runs themselves in memory order.
// What it is not: the loops themselves (ops/loops.h, templates).
#include "core/ops/loops.h"

#include <algorithm>

namespace attn::core::detail {

// TensorIterator's view of an elementwise op's input: dims sorted by stride (memory order; a
// broadcast dim keeps its place), neighbours coalesced where contiguous. Each run of the innermost
// coalesced dim (stride 1, or 0: one broadcast value) goes to the vectorised loop, whose last
// `run % 16` elements take the scalar lambda; another innermost stride runs everything scalar.
// A contiguous tensor is one run.
std::vector<uint8_t> scalar_tail(const Tensor& x) {
  const int64_t n = x.numel();
  std::vector<uint8_t> tail(static_cast<size_t>(n), 0);
  if (x.is_contiguous()) {   // one run
    std::fill(tail.begin() + (n - n % kVecStep), tail.end(), 1);
    return tail;
  }
  // reorder_dimensions: a broadcast (stride-0) dim is not compared, so x.expand(4, n) keeps its
  // rows (runs of n), not a run of 4 copies innermost; then coalesce_dimensions (the output,
  // dense in this order, always chains): perm[0..group) merge into the run.
  const std::vector<size_t> perm = iterator_order(x.shape(), {x.strides()});
  size_t group = 0;
  int64_t run = 1, stride = 0;
  for (; group < perm.size(); ++group) {
    const int64_t size = x.shape()[perm[group]], st = x.strides()[perm[group]];
    if (run != 1 && size != 1 && stride * run != st) break;
    if (run == 1) stride = st;
    run *= size;
  }
  // cpu_kernel_vec vectorises an input of stride 1 along the run, or 0 (is_contiguous_scalar)
  if (run > 1 && stride != 1 && stride != 0) {
    std::fill(tail.begin(), tail.end(), 1);
    return tail;
  }
  Shape pos_strides(static_cast<size_t>(x.dim()), 0);   // an element's place in its run
  int64_t scale = 1;
  for (size_t p = 0; p < group; ++p) {
    pos_strides[perm[p]] = scale;
    scale *= x.shape()[perm[p]];
  }
  const int64_t body = run - run % kVecStep;
  for_each_offset(x.shape(), [&](int64_t k, int64_t pos) { tail[static_cast<size_t>(k)] = pos >= body; }, pos_strides);
  return tail;
}

namespace {

// TensorIterator::reorder_dimensions for one input (the output is allocated afterwards; the
// insertion sort is core::iterator_order's). perm[0] is the innermost dim.
std::vector<int64_t> iterator_perm(const Tensor& x) {
  const std::vector<size_t> order = iterator_order(x.shape(), {x.strides()});
  return std::vector<int64_t>(order.begin(), order.end());
}

}  // namespace

// The innermost dims (in perm order) that coalesce_dimensions merges into the first: a size-1
// dim always merges, else stride * size of the merged dim must equal the next dim's stride.
VmlRuns vml_runs(const Tensor& x) {
  const int64_t n = x.numel();
  VmlRuns r;
  r.offset.resize(static_cast<size_t>(n));
  r.index.resize(static_cast<size_t>(n));
  const std::vector<int64_t> perm = iterator_perm(x);
  size_t inner = 0;   // perm[0..inner) form the run
  int64_t size = 1, stride = 0;
  while (inner < perm.size()) {
    const int64_t d = perm[inner], sd = x.shape()[d];
    if (size != 1 && sd != 1 && stride * size != x.strides()[d]) break;
    if (size == 1) stride = x.strides()[d];
    size *= sd;
    ++inner;
  }
  r.run = size;
  for_each_offset(x.shape(), [&](int64_t k, int64_t off) {
    int64_t rest = k, pos = 0, run_id = 0, pos_scale = 1, run_scale = 1;
    std::vector<int64_t> idx(static_cast<size_t>(x.dim()));
    for (int64_t d = x.dim() - 1; d >= 0; --d) {
      idx[static_cast<size_t>(d)] = rest % x.shape()[d];
      rest /= x.shape()[d];
    }
    for (size_t p = 0; p < perm.size(); ++p) {
      const int64_t d = perm[p], i = idx[static_cast<size_t>(d)];
      if (p < inner) {
        pos += i * pos_scale;
        pos_scale *= x.shape()[d];
      } else {
        run_id += i * run_scale;
        run_scale *= x.shape()[d];
      }
    }
    const size_t at = static_cast<size_t>(run_id * size + pos);
    r.offset[at] = off;
    r.index[at] = k;
  }, x.strides());
  return r;
}

namespace {

// The innermost loop TensorIterator runs over a binary op after coalesce_dimensions: how many of
// the perm-ordered dims (innermost first) merge into it, its size, and whether cpu_kernel_vec
// vectorises it (every operand's stride 1, or one input's 0: is_contiguous_scalar).
struct InnerRun {
  size_t dims = 0;
  int64_t size = 1;
  bool vectorised = false;
  bool scalar_b = false;   // vectorised with b's stride 0 (cpu_kernel_vec's S = 2)
};

InnerRun binary_inner_run(const Shape& shape, const std::vector<size_t>& perm, const std::vector<Shape>& strides) {
  // strides: output, a, b, each in the tensor's dim order; walked in perm order.
  InnerRun r;
  std::vector<int64_t> inner(strides.size());
  for (size_t i = 0; i < strides.size(); ++i) inner[i] = strides[i][perm[0]];
  r.size = shape[perm[0]];
  r.dims = 1;
  for (; r.dims < perm.size(); ++r.dims) {
    const size_t d = perm[r.dims];
    bool merge = true;   // can_coalesce: a size-1 side, or every operand's strides chain
    if (r.size != 1 && shape[d] != 1)
      for (size_t i = 0; i < strides.size(); ++i) merge = merge && r.size * inner[i] == strides[i][d];
    if (!merge) break;
    if (r.size == 1)
      for (size_t i = 0; i < strides.size(); ++i) inner[i] = strides[i][d];
    r.size *= shape[d];
  }
  const bool all_one = inner[0] == 1 && inner[1] == 1 && inner[2] == 1;
  const bool scalar_a = inner[0] == 1 && inner[1] == 0 && inner[2] == 1;
  const bool scalar_b = inner[0] == 1 && inner[1] == 1 && inner[2] == 0;
  r.vectorised = all_one || scalar_a || scalar_b;
  r.scalar_b = scalar_b && !all_one;
  return r;
}

// Tail flags of one run over the whole tensor in the memory order of `strides` (fast set-up).
std::vector<uint8_t> memory_order_tail(const Tensor& x, const Shape& strides, int64_t step) {
  const int64_t n = x.numel(), body = n - n % step;
  std::vector<uint8_t> tail(static_cast<size_t>(n), 0);
  for_each_offset(x.shape(), [&](int64_t k, int64_t pos) { tail[static_cast<size_t>(k)] = pos >= body; }, strides);
  return tail;
}

}  // namespace

BinaryLoop binary_loop(const Tensor& a, const Tensor& b, int64_t step) {
  const Shape& shape = a.shape();
  BinaryLoop r;
  if (a.is_contiguous() && b.is_contiguous()) {   // FastSetupType::CONTIGUOUS
    r.out_strides = contiguous_strides(shape);
    r.tail = memory_order_tail(a, r.out_strides, step);
    return r;
  }
  if (a.strides() == b.strides() && dense_layout(shape, a.strides())) {   // NON_OVERLAPPING_DENSE
    r.out_strides = b.strides();
    r.tail = memory_order_tail(a, r.out_strides, step);
    return r;
  }
  const std::vector<size_t> perm = iterator_order(shape, {a.strides(), b.strides()});
  r.out_strides.assign(shape.size(), 0);
  int64_t acc = 1;   // compatible_stride over the permuted shape
  for (size_t d : perm) {
    r.out_strides[d] = acc;
    acc *= shape[d];
  }
  r.tail.assign(static_cast<size_t>(a.numel()), 1);
  if (shape.empty() || a.numel() == 0) return r;
  const InnerRun run = binary_inner_run(shape, perm, {r.out_strides, a.strides(), b.strides()});
  if (!run.vectorised) return r;
  r.scalar_b = run.scalar_b;
  r.run = run.size;
  Shape pos_strides(shape.size(), 0);   // an element's place in its inner run
  int64_t scale = 1;
  for (size_t p = 0; p < run.dims; ++p) {
    pos_strides[perm[p]] = scale;
    scale *= shape[perm[p]];
  }
  const int64_t body = run.size - run.size % step;
  for_each_offset(shape, [&](int64_t k, int64_t pos) { r.tail[static_cast<size_t>(k)] = pos >= body ? static_cast<uint8_t>(pos - body + 1) : 0; },
                  pos_strides);
  return r;
}

}  // namespace attn::core::detail
