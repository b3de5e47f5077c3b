// core/strided.h: walking the elements of strided tensors in row-major order (tensor.h
// includes it; ops use it to read views without copying them).
//
// What it is: for_each_offset(shape, f, strides...) calls f(k, off_1, ..., off_N) for every
// index of `shape` in row-major order, where k = 0, 1, ... counts the elements and
// off_i = sum over d of index[d] * strides_i[d] (add it to operand i's data<T>()). Dims of
// size 1 are skipped and adjacent dims that every operand steps through evenly are merged
// (as PyTorch's TensorIterator coalesces them), so contiguous operands run as one flat loop
// and the innermost loop is a plain stride walk. A broadcast operand is an expand()ed view:
// stride 0 along the broadcast dims, so nothing is materialised per element.
// The walk looks at the thread's deadline (core/deadline.h) every kDeadlineStride elements, so f
// must leave things consistent if an element is the last one done (the op is abandoned).
// What it is not: parallel or vectorised by hand, or a place for dtypes (f reads the data).
//
//   Tensor ea = expand(a, out_shape), eb = expand(b, out_shape);   // views, no copy
//   const float *x = ea.data<float>(), *y = eb.data<float>();  float* o = out.data<float>();
//   for_each_offset(out_shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = x[i] + y[j]; },
//                   ea.strides(), eb.strides());
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/deadline.h"

namespace attn::core {

namespace detail {

// The dims left after dropping size-1 dims and merging evenly strided neighbours.
template <size_t N>
struct Coalesced {
  std::vector<int64_t> sizes;                   // outermost first
  std::vector<std::array<int64_t, N>> strides;  // strides[d][i]: operand i along dim d
};

template <size_t N>
Coalesced<N> coalesce(const std::vector<int64_t>& shape, const std::array<const std::vector<int64_t>*, N>& strides) {
  Coalesced<N> out;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    std::array<int64_t, N> st;
    for (size_t i = 0; i < N; ++i) st[i] = (*strides[i])[d];
    bool merge = !out.sizes.empty();
    for (size_t i = 0; i < N && merge; ++i) merge = out.strides.back()[i] == st[i] * shape[d];
    if (merge) {
      out.sizes.back() *= shape[d];
      out.strides.back() = st;
    } else {
      out.sizes.push_back(shape[d]);
      out.strides.push_back(st);
    }
  }
  return out;
}

template <size_t N, typename F, size_t... I>
void walk(const std::vector<int64_t>& shape, const std::array<const std::vector<int64_t>*, N>& strides, F& f,
          std::index_sequence<I...>) {
  for (int64_t n : shape)
    if (n == 0) return;
  const Coalesced<N> c = coalesce<N>(shape, strides);
  const int64_t nd = static_cast<int64_t>(c.sizes.size());
  if (nd == 0) {  // one element
    f(int64_t{0}, ((void)I, int64_t{0})...);
    return;
  }
  const int64_t inner = c.sizes[nd - 1];
  const std::array<int64_t, N> step = c.strides[nd - 1];
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  std::array<int64_t, N> base{};
  DeadlineMeter meter;
  for (int64_t k = 0;; k += inner) {
    for (int64_t j0 = 0; j0 < inner; j0 += kDeadlineStride) {   // a contiguous run may be 10^9 long
      const int64_t j1 = inner - j0 > kDeadlineStride ? j0 + kDeadlineStride : inner;
      for (int64_t j = j0; j < j1; ++j) f(k + j, (base[I] + j * step[I])...);
      meter.add(j1 - j0);
    }
    int64_t d = nd - 2;  // odometer over the outer dims
    for (; d >= 0; --d) {
      if (++idx[d] < c.sizes[d]) {
        ((base[I] += c.strides[d][I]), ...);
        break;
      }
      ((base[I] -= (c.sizes[d] - 1) * c.strides[d][I]), ...);
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace detail

// f(k, off_1, ..., off_N) for every element of `shape`, row-major; one strides vector (each
// of shape.size() entries) per operand.
template <typename F, typename... S>
void for_each_offset(const std::vector<int64_t>& shape, F&& f, const S&... strides) {
  constexpr size_t N = sizeof...(S);
  const std::array<const std::vector<int64_t>*, N> st{&strides...};
  detail::walk<N>(shape, st, f, std::make_index_sequence<N>{});
}

}  // namespace attn::core
