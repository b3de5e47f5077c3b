// core/ops/sort.cpp: max/min with indices, argmin, min(), sort, topk, flip, all, any, forward and
// backward (ops/sort.h).
//
// What it is: loops over the slices along one dim of a contiguous copy (outer, size, inner as
// detail::split_at gives them), templated on the element type so int64 and bool stay exact, with
// ATen 1.13's comparisons (TensorCompareKernel.cpp's max/min kernels, SortingKernel.cpp's
// KeyValueCompAsc/Desc, TopKImpl.h's topk_impl_loop). The backward formulas (derivatives.yaml):
//   max/min(dim), sort, topk: zeros of the input's shape with g written at the indices
//   min(): zeros with g / count where x == min        flip: g flipped
// What it is not: amax/argmax/max() (ops/reduce.cpp) or the binding (torch/ops_select.cpp).
#include "core/ops/sort.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/autograd.h"
#include "core/deadline.h"
#include "core/ops/loops.h"
#include "core/ops/reduce.h"
#include "core/ops/views.h"

namespace attn::core {

namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_same_v<T, float>) return std::isnan(v);
  else return false;
}

Shape reduced(Shape shape, int64_t dim, bool keepdim) {
  if (shape.empty()) return shape;
  if (keepdim) shape[static_cast<size_t>(dim)] = 1;
  else shape.erase(shape.begin() + dim);
  return shape;
}

// The slices along `dim` of a's contiguous copy: f(values of slice, stride inner) per slice.
struct Slices {
  int64_t outer, size, inner;
};

Slices slices_of(const Shape& shape, int64_t dim) {
  if (shape.empty()) return {1, 1, 1};
  const detail::DimSplit s = detail::split_at(shape, dim);
  return {s.outer, s.size, s.inner};
}

// Calls f(T{}) with T the C++ element type of dtype.
template <typename F>
auto by_dtype(DType dtype, F f) { return visit_element(dtype, f); }

// zeros(shape).scatter_(dim, indices, g): the gradient of a value-selecting op. indices and g
// have `kept` elements along dim (g is made contiguous in indices' shape).
Tensor scatter_back(const Tensor& g, const Tensor& indices, const Shape& shape, int64_t dim) {
  Tensor out = zeros(shape);
  const Tensor gc = reshape(g, indices.shape()).contiguous(), ic = indices.contiguous();
  const Slices s = slices_of(shape, dim);
  const int64_t kept = indices.dim() == 0 ? 1 : ic.shape()[static_cast<size_t>(dim)];
  const float* pg = gc.data<float>();
  const int64_t* pi = ic.data<int64_t>();
  float* po = out.data<float>();
  for (int64_t b = 0; b < s.outer; ++b)
    for (int64_t j = 0; j < kept; ++j)
      for (int64_t i = 0; i < s.inner; ++i) {
        const int64_t at = (b * kept + j) * s.inner + i;
        po[(b * s.size + pi[at]) * s.inner + i] = pg[at];
      }
  return out;
}

autograd::Backward select_back(const Tensor& indices, const Shape& shape, int64_t dim, bool keepdim) {
  return autograd::detail::reads({[indices, shape, dim, keepdim](const autograd::Grads& g) {
    const Tensor idx = (keepdim || shape.empty()) ? indices : unsqueeze(indices, dim);
    return autograd::Grads{scatter_back(*g[0], idx, shape, dim)};
  }, false}, {indices});   // Max/Min/Sort/TopkBackward0 save the indices output
}

}  // namespace

std::pair<Tensor, Tensor> max_dim(const Tensor& a, int64_t dim, bool keepdim, bool is_min) {
  dim = normalize_dim(dim, a.dim());
  const Tensor& c = a;   // any strides: read in place (an expanded view is not copied)
  const Slices s = slices_of(c.shape(), dim);
  const char* name = is_min ? "min" : "max";
  if (s.size == 0)
    throw TensorError(fmt::format("{}(): Expected reduction dim {} to have non-zero size.", name, dim), "IndexError");
  const Shape shape = reduced(c.shape(), dim, keepdim);
  Tensor values = empty(shape, c.dtype()), indices = empty(shape, DType::int64);
  const int64_t step = c.dim() > 0 ? c.strides()[dim] : 0;
  Shape each = c.shape();   // one step per output (row-major), dim walked inside
  if (c.dim() > 0) each[dim] = 1;
  by_dtype(c.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* in = c.data<T>();
    T* pv = values.data<T>();
    int64_t* pi = indices.data<int64_t>();
    DeadlineMeter meter;   // core/deadline.h
    for_each_offset(each, [&](int64_t o, int64_t off) {
      meter.add(s.size);
      const T* x = in + off;
      T best = x[0];
      int64_t at = 0;
      for (int64_t k = 0; k < s.size; ++k) {   // ATen: !(value <= best) for max, !(value >= best) for min
        const T v = x[k * step];
        if (is_min ? !(v >= best) : !(v <= best)) {
          best = v;
          at = k;
          if (is_nan(v)) break;
        }
      }
      pv[o] = best;
      pi[o] = at;
    }, c.strides());
    return 0;
  });
  if (a.is_float())
    values = autograd::record(std::move(values), {&a}, is_min ? "MinBackward0" : "MaxBackward0",
                              select_back(indices, a.shape(), dim, keepdim));
  return {values, indices};
}

Tensor min(const Tensor& a, CpuKernels cpu) {
  if (a.numel() == 0)
    throw TensorError("min(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.");
  if (!a.is_float()) {   // exact, in a's dtype
    const std::vector<int64_t> iv = a.ints();
    return from_ints({}, {*std::min_element(iv.begin(), iv.end())}, a.dtype());
  }
  const float m = reduce_all_extreme(to_float(a), true, cpu);   // ops/reduce.h
  Tensor out = scalar(m);
  autograd::Backward backward{[x = detach(a), m](const autograd::Grads& g) {
    // evenly_distribute_backward: zeros(input).masked_fill_(x == min, grad / count)
    const std::vector<float> xv = x.floats();
    int64_t count = 0;
    for (float e : xv) count += std::isnan(m) ? std::isnan(e) : e == m;
    Tensor out = zeros(x.shape());
    const float value = g[0]->contiguous().float_at(0) / static_cast<float>(count);
    for (size_t k = 0; k < xv.size(); ++k)
      if (std::isnan(m) ? std::isnan(xv[k]) : xv[k] == m) out.data<float>()[k] = value;
    return autograd::Grads{out};
  }, false, {a}, true};   // MinBackward1 saves self and result
  return autograd::record(std::move(out), {&a}, "MinBackward1", std::move(backward));
}

Tensor argmin(const Tensor& a, int64_t dim, bool keepdim) {
  const Tensor f = to_float(a).contiguous();
  dim = normalize_dim(dim, f.dim());
  const Slices s = slices_of(f.shape(), dim);
  if (s.size == 0)
    throw TensorError(fmt::format("argmin(): Expected reduction dim {} to have non-zero size.", dim), "IndexError");
  Tensor out = empty(reduced(f.shape(), dim, keepdim), DType::int64);
  const float* in = f.data<float>();
  int64_t* o = out.data<int64_t>();
  for (int64_t b = 0; b < s.outer; ++b)
    for (int64_t i = 0; i < s.inner; ++i) {
      int64_t best = 0;
      for (int64_t k = 1; k < s.size; ++k) {
        const float v = in[(b * s.size + k) * s.inner + i], m = in[(b * s.size + best) * s.inner + i];
        if (std::isnan(m)) break;
        if (v < m || std::isnan(v)) best = k;
      }
      o[b * s.inner + i] = best;
    }
  return out;
}

Tensor argmin(const Tensor& a) {
  if (a.numel() == 0)
    throw TensorError("argmin(): Expected reduction dim to be specified for input.numel() == 0.", "IndexError");
  return argmin(reshape(a, {-1}), 0, false);
}

namespace {

// Sorts or selects every slice: f(vector of (value, index) pairs) leaves the kept ones first.
template <typename F>
std::pair<Tensor, Tensor> by_slice(const Tensor& a, int64_t dim, int64_t kept, F f) {
  const Tensor c = a.contiguous();
  const Slices s = slices_of(c.shape(), dim);
  Shape shape = c.shape();
  if (!shape.empty()) shape[static_cast<size_t>(dim)] = kept;
  Tensor values = empty(shape, c.dtype()), indices = empty(shape, DType::int64);
  by_dtype(c.dtype(), [&](auto zero) {
    using T = decltype(zero);
    std::vector<std::pair<T, int64_t>> q(static_cast<size_t>(s.size));
    DeadlineMeter meter;   // core/deadline.h; f looks at it too (checked_order)
    for (int64_t b = 0; b < s.outer; ++b)
      for (int64_t i = 0; i < s.inner; ++i) {
        meter.add(s.size);
        for (int64_t k = 0; k < s.size; ++k) q[static_cast<size_t>(k)] = {c.data<T>()[(b * s.size + k) * s.inner + i], k};
        f(q);
        for (int64_t k = 0; k < kept; ++k) {
          values.data<T>()[(b * kept + k) * s.inner + i] = q[static_cast<size_t>(k)].first;
          indices.data<int64_t>()[(b * kept + k) * s.inner + i] = q[static_cast<size_t>(k)].second;
        }
      }
    return 0;
  });
  return {values, indices};
}

// An order that looks at the deadline every kDeadlineStride comparisons through `meter` (shared:
// std::sort copies its comparator), so one sort of 10^8 elements stops near the time limit.
template <typename C>
auto checked_order(C cmp, DeadlineMeter* meter) {
  return [cmp, meter](const auto& x, const auto& y) {
    meter->add(1);
    return cmp(x, y);
  };
}

// ATen's comparators: NaN is greater than every number.
template <typename T>
bool less_nan_last(const std::pair<T, int64_t>& x, const std::pair<T, int64_t>& y) {
  return (!is_nan(x.first) && is_nan(y.first)) || x.first < y.first;
}
template <typename T>
bool greater_nan_first(const std::pair<T, int64_t>& x, const std::pair<T, int64_t>& y) {
  return (is_nan(x.first) && !is_nan(y.first)) || x.first > y.first;
}

}  // namespace

std::pair<Tensor, Tensor> sort(const Tensor& a, int64_t dim, bool descending, bool stable) {
  dim = normalize_dim(dim, a.dim());
  const int64_t n = a.dim() == 0 ? 1 : a.shape()[static_cast<size_t>(dim)];
  auto [values, indices] = by_slice(a, dim, n, [&](auto& q) {
    using P = typename std::decay_t<decltype(q)>::value_type;
    DeadlineMeter meter;
    const auto cmp = checked_order(descending ? greater_nan_first<typename P::first_type> : less_nan_last<typename P::first_type>, &meter);
    if (stable) std::stable_sort(q.begin(), q.end(), cmp);
    else std::sort(q.begin(), q.end(), cmp);
  });
  if (a.is_float()) values = autograd::record(std::move(values), {&a}, "SortBackward0", select_back(indices, a.shape(), dim, true));
  return {values, indices};
}

std::pair<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest, bool sorted) {
  dim = normalize_dim(dim, a.dim());
  const int64_t n = a.dim() == 0 ? 1 : a.shape()[static_cast<size_t>(dim)];
  if (k < 0 || k > n) throw TensorError("selected index k out of range", "RuntimeError");
  auto [values, indices] = by_slice(a, dim, k, [&](auto& q) {
    if (k == 0) return;
    using P = typename std::decay_t<decltype(q)>::value_type;
    DeadlineMeter meter;
    const auto cmp = checked_order(largest ? greater_nan_first<typename P::first_type> : less_nan_last<typename P::first_type>, &meter);
    if (k * 64 <= n) {
      std::partial_sort(q.begin(), q.begin() + k, q.end(), cmp);
    } else {
      std::nth_element(q.begin(), q.begin() + k - 1, q.end(), cmp);
      if (sorted) std::sort(q.begin(), q.begin() + k - 1, cmp);   // ATen sorts the first k - 1
    }
  });
  if (a.is_float()) values = autograd::record(std::move(values), {&a}, "TopkBackward0", select_back(indices, a.shape(), dim, true));
  return {values, indices};
}

Tensor flip(const Tensor& a, const std::vector<int64_t>& dims) {
  std::vector<bool> flipped(static_cast<size_t>(a.dim()), false);
  for (int64_t d : dims) {
    const int64_t n = normalize_dim(d, a.dim());
    if (a.dim() == 0) continue;
    if (flipped[static_cast<size_t>(n)]) throw TensorError(fmt::format("dims has duplicates, original flip dims size={}, but unique flip dims size={}", dims.size(), dims.size() - 1));
    flipped[static_cast<size_t>(n)] = true;
  }
  const Tensor c = a.contiguous();
  Tensor out = empty(c.shape(), c.dtype());
  const int64_t nd = c.dim();
  const Shape strides = contiguous_strides(c.shape());
  by_dtype(c.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* in = c.data<T>();
    T* o = out.data<T>();
    for (int64_t k = 0; k < c.numel(); ++k) {
      int64_t from = 0, rest = k;
      for (size_t d = 0; d < static_cast<size_t>(nd); ++d) {
        const int64_t i = rest / strides[d];
        rest %= strides[d];
        from += (flipped[d] ? c.shape()[d] - 1 - i : i) * strides[d];
      }
      o[k] = in[from];
    }
    return 0;
  });
  out = preserve_layout(std::move(out), a);   // ATen's empty_like(self): a permuted input's memory order
  if (!a.is_float()) return out;
  autograd::Backward backward{[dims](const autograd::Grads& g) { return autograd::Grads{flip(*g[0], dims)}; }, false};
  return autograd::record(std::move(out), {&a}, "FlipBackward0", std::move(backward));
}

Tensor all_any(const Tensor& a, std::optional<int64_t> dim, bool keepdim, bool is_any) {
  const Tensor b = to_bool(a);
  const Tensor c = dim ? b.contiguous() : reshape(b, {-1}).contiguous();
  const int64_t d = dim ? normalize_dim(*dim, c.dim()) : 0;
  const Slices s = slices_of(c.shape(), d);
  Tensor out = empty(dim ? reduced(c.shape(), d, keepdim) : Shape{}, DType::boolean);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) {
      bool r = !is_any;
      for (int64_t k = 0; k < s.size; ++k)
        if ((c.data<uint8_t>()[(o * s.size + k) * s.inner + i] != 0) == is_any) {
          r = is_any;
          break;
        }
      out.data<uint8_t>()[o * s.inner + i] = r;
    }
  return a.dtype() == DType::uint8 ? to_dtype(out, DType::uint8) : out;   // 1.13 keeps uint8 for uint8
}

namespace {

// For each row-major element of the broadcast output: 1 when ATen's cpu_kernel_vec computes it in
// its vector body. TensorIterator coalesces the innermost dims whose strides chain for every
// operand; the run vectorises when every operand is contiguous in it, or one input has stride 0;
// the last `run % 16` elements go through the scalar lambda (loops.h). Dims in logical order.
std::vector<uint8_t> maximum_vector_body(const Tensor& a, const Tensor& b, const Shape& shape) {
  const Shape sa = broadcast_strides(a, shape), sb = broadcast_strides(b, shape), so = contiguous_strides(shape);
  int64_t run = 1, ta = 0, tb = 0, to = 0;
  bool started = false;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] == 1) continue;
    if (!started) {
      started = true;
      run = shape[d], ta = sa[d], tb = sb[d], to = so[d];
    } else if (ta * run == sa[d] && tb * run == sb[d] && to * run == so[d]) {
      run *= shape[d];
    } else {
      break;
    }
  }
  const bool vec = (ta == 1 && tb == 1) || (ta == 0 && tb == 1) || (ta == 1 && tb == 0);
  const int64_t n = numel_of(shape), body = vec ? run - run % detail::kVecStep : 0;
  std::vector<uint8_t> in_body(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) in_body[static_cast<size_t>(k)] = k % run < body;
  return in_body;
}

// maximum/minimum of integer or bool tensors, exactly, in int64, then `common`.
Tensor maximum_ints(const Tensor& a, const Tensor& b, bool is_min, DType common) {
  const Shape shape = broadcast_shapes(a.shape(), b.shape());
  const Tensor ia = to_dtype(to_dtype(a, common), DType::int64), ib = to_dtype(to_dtype(b, common), DType::int64);
  Tensor out = empty(shape, DType::int64);   // shape
  const int64_t *x = ia.data<int64_t>(), *y = ib.data<int64_t>();
  int64_t* o = out.data<int64_t>();
  for_each_offset(shape, [&](int64_t k, int64_t i, int64_t j) { o[k] = is_min ? std::min(x[i], y[j]) : std::max(x[i], y[j]); },
                  broadcast_strides(ia, shape), broadcast_strides(ib, shape));
  return to_dtype(out, common);
}

}  // namespace

Tensor maximum(const Tensor& a, const Tensor& b, bool is_min) {
  const DType common = result_type(a, b);
  if (common != DType::float32) return maximum_ints(a, b, is_min, common);
  // A tie (only +0 and -0 differ) takes b in the vector body (_mm256_max_ps), a in the scalar tail (std::max).
  const std::vector<uint8_t> body = maximum_vector_body(a, b, broadcast_shapes(a.shape(), b.shape()));
  size_t k = 0;
  Tensor out = detail::zip(a, b, [is_min, &body, &k](float x, float y) {
    const bool vec = body[k++] != 0;
    if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<float>::quiet_NaN();
    if (x == y) return vec ? y : x;
    return (is_min ? x < y : x > y) ? x : y;
  });
  // self: where(self == other, g / 2, g).masked_fill_(self < other, 0) (minimum: self > other);
  // other: the same with the comparison reversed.
  autograd::Backward backward{[x = detach(a), y = detach(b), is_min, need_a = a.requires_grad(), need_b = b.requires_grad()](
                                  const autograd::Grads& g) {
    auto part = [&](bool first) {
      const Tensor half = detail::zip(x, y, [](float u, float v) { return u == v ? 0.5f : 1.0f; });
      const Tensor keep = detail::zip(x, y, [is_min, first](float u, float v) { return (first != is_min ? u < v : u > v) ? 0.0f : 1.0f; });
      const Tensor scaled = detail::zip(*g[0], half, [](float gv, float h) { return h == 1.0f ? gv : gv / 2; });
      return detail::zip(scaled, keep, [](float gv, float k) { return k == 0.0f ? 0.0f : gv; });
    };
    autograd::Grads out(2);
    if (need_a) out[0] = part(true);
    if (need_b) out[1] = part(false);
    return out;
  }, true, {a, b}};
  return autograd::record(std::move(out), {&a, &b}, is_min ? "MinimumBackward0" : "MaximumBackward0", std::move(backward));
}

}  // namespace attn::core
