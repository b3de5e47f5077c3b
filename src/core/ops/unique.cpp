// core/ops/unique.cpp: nonzero and unique (ops/unique.h).
//
// What it is: nonzero walks a in row-major order (ATen's nonzero_out_cpu) and writes each
// non-zero element's coordinates; unique sorts the values (NaN last, each NaN its own value, as
// ATen's unique_cpu_sorted_template compares with <) and keeps one of each run of equal values
// (-0 and +0 are one value: the first in sorted order), then maps every element to its value's
// position. Neither records a gradient: their results are integers or, for unique, not
// differentiable in 1.13.
// What it is not: unique(dim=...) or unique's unsorted (hash set) order.
#include "core/ops/unique.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/deadline.h"

namespace attn::core {

Tensor nonzero(const Tensor& a) {
  std::vector<int64_t> coords;
  const Shape shape = a.shape();
  std::vector<int64_t> at(shape.size(), 0);
  int64_t count = 0;
  DeadlineMeter meter;   // each op here looks at the time limit as it goes (an expand()ed view is cheap to make)
  for (int64_t k = 0; k < a.numel(); ++k) {
    meter.add(1);
    if (a.at(k) != 0.0) {   // NaN is non-zero
      coords.insert(coords.end(), at.begin(), at.end());
      ++count;
    }
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0 && ++at[d] == shape[d]; --d) at[d] = 0;
  }
  return from_ints({count, a.dim()}, coords);
}

Unique unique(const Tensor& a) {
  const int64_t n = a.numel();
  DeadlineMeter meter;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    meter.add(1);
    v[k] = a.at(k);
  }
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {   // the meter may throw: order is only ints
    meter.add(1);
    if (std::isnan(v[i])) return false;
    return std::isnan(v[j]) || v[i] < v[j];
  });
  std::vector<int64_t> first, counts, inverse(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) {
    const int64_t i = order[k];
    if (first.empty() || !(v[i] == v[first.back()])) {   // a new value (every NaN is one)
      first.push_back(i);
      counts.push_back(0);
    }
    ++counts.back();
    inverse[i] = static_cast<int64_t>(first.size()) - 1;
  }
  const int64_t m = static_cast<int64_t>(first.size());
  Tensor values = empty({m}, a.dtype());
  for (int64_t k = 0; k < m; ++k) {
    visit_element(a.dtype(), [&](auto t) {
      using T = decltype(t);
      values.data<T>()[k] = a.is_float() ? static_cast<T>(a.float_at(first[k])) : static_cast<T>(a.int_at(first[k]));
    });
  }
  return {values, from_ints(a.shape(), inverse), from_ints({m}, counts)};
}

}  // namespace attn::core
