// core/ops/loops.cpp: scalar_tail, where ATen's vectorised elementwise loop hands elements to its
// scalar tail, and vml_runs, the runs a vml kernel sees (ops/loops.h).
//
// What it is: TensorIterator's coalescing of the input's dims, then the tail of each run, or the
// runs themselves in memory order.
// What it is not: the loops themselves (ops/loops.h, templates).
#include "core/ops/loops.h"

#include <algorithm>

namespace attn::core::detail {

// TensorIterator's view of an elementwise op's input: dims sorted by stride (memory order), size-1
// dims dropped, neighbours coalesced where contiguous. Each run of the innermost coalesced dim
// (stride 1) goes to the vectorised loop, whose last `run % 16` elements take the scalar lambda;
// an innermost stride other than 1 runs everything scalar. A contiguous tensor is one run.
std::vector<uint8_t> scalar_tail(const Tensor& x) {
  const int64_t n = x.numel();
  std::vector<uint8_t> tail(static_cast<size_t>(n), 0);
  if (x.is_contiguous()) {   // one run
    std::fill(tail.begin() + (n - n % kVecStep), tail.end(), 1);
    return tail;
  }
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (x.shape()[d] > 1) dims.push_back(d);
  std::stable_sort(dims.begin(), dims.end(), [&](int64_t a, int64_t b) { return x.strides()[a] < x.strides()[b]; });
  size_t group = dims.empty() ? 0 : 1;   // dims[0..group) coalesce into the innermost run
  int64_t run = dims.empty() ? 1 : x.shape()[dims[0]];
  while (group < dims.size() && x.strides()[dims[group]] == x.strides()[dims[group - 1]] * x.shape()[dims[group - 1]]) {
    run *= x.shape()[dims[group]];
    ++group;
  }
  const bool vectorised = dims.empty() || x.strides()[dims[0]] == 1;
  const int64_t body = run - run % kVecStep;
  for_each_offset(x.shape(), [&](int64_t k, int64_t) {
    if (!vectorised) {
      tail[k] = 1;
      return;
    }
    int64_t rest = k, pos = 0;   // the element's place in its run: its index along the coalesced dims
    for (int64_t d = x.dim() - 1; d >= 0; --d) {
      const int64_t i = rest % x.shape()[d];
      rest /= x.shape()[d];
      if (std::find(dims.begin(), dims.begin() + group, d) != dims.begin() + group) pos += i * x.strides()[d];
    }
    tail[k] = pos >= body;
  }, x.strides());
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

}  // namespace attn::core::detail
