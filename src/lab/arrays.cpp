// lab/arrays.cpp: arrays of doubles and the comparisons on them (see arrays.h).
#include "lab/arrays.h"

#include <algorithm>
#include <cmath>


namespace attn::lab {

using lesson::CellRun;
using lesson::LessonRun;
using lesson::StepRun;

namespace {

// A tensor seen as (outer, n, inner) around one dim: element (o, j, i) is at (o*n + j)*inner + i.
struct Split {
  int64_t outer = 1, n = 1, inner = 1;
};
Split split_at(const core::Shape& s, int64_t dim) {
  Split r;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) (d < dim ? r.outer : d == dim ? r.n : r.inner) *= s[d];
  return r;
}

}  // namespace

Arr to_arr(const core::Tensor& t) {
  Arr a{t.shape(), std::vector<double>(static_cast<size_t>(t.numel()))};
  for (int64_t k = 0; k < t.numel(); ++k) a.v[static_cast<size_t>(k)] = t.at(k);
  return a;
}

int64_t ndim(const Arr& a) { return static_cast<int64_t>(a.shape.size()); }

// numpy.isclose(got, expected, rtol, atol, equal_nan=True): infinities equal only themselves,
// NaN only NaN (an answer can hold NaN only where the expected tensor does: see grade()).
bool close(double expected, double got, const Tolerance& tol) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);   // equal_nan=True
  if (std::isinf(expected) || std::isinf(got)) return expected == got;
  return std::fabs(got - expected) <= tol.atol + tol.rtol * std::fabs(expected);
}

bool close_all(const Arr& got, const Arr& expected, const Tolerance& tol) {
  if (got.shape != expected.shape) return false;
  for (size_t k = 0; k < got.v.size(); ++k)
    if (!close(expected.v[k], got.v[k], tol)) return false;
  return true;
}

std::vector<int64_t> unravel(int64_t flat, const core::Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  return idx;
}

std::string index_str(const std::vector<int64_t>& idx) {
  std::string out = "[";
  for (size_t d = 0; d < idx.size(); ++d) out += (d ? ", " : "") + std::to_string(idx[d]);
  return out + "]";
}

// Calls fn(base, stride) for every 1-D slice along `dim`.
void for_each_slice(const core::Shape& shape, int64_t dim, const std::function<void(int64_t, int64_t, int64_t)>& fn) {
  Split s = split_at(shape, dim);
  for (int64_t o = 0; o < s.outer; ++o)
    for (int64_t i = 0; i < s.inner; ++i) fn(o * s.n * s.inner + i, s.inner, s.n);
}

// The dims along which every slice of `a` is a probability distribution (finite, >= 0, sums to 1).
std::vector<int64_t> distribution_dims(const Arr& a) {
  std::vector<int64_t> out;
  if (a.v.empty()) return out;
  for (double x : a.v)
    if (!std::isfinite(x) || x < -1e-6) return out;
  for (int64_t d = 0; d < ndim(a); ++d) {
    if (a.shape[static_cast<size_t>(d)] < 2) continue;
    bool ok = true;
    for_each_slice(a.shape, d, [&](int64_t base, int64_t stride, int64_t n) {
      double s = 0;
      for (int64_t j = 0; j < n; ++j) s += a.v[static_cast<size_t>(base + j * stride)];
      ok = ok && std::fabs(s - 1) < 1e-3;
    });
    if (ok) out.push_back(d);
  }
  return out;
}

bool is_distribution(const Arr& a, int64_t dim) {
  auto dims = distribution_dims(a);
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

// a along its last two dims swapped (a copy); a itself if it has fewer than two.
Arr transposed(const Arr& a) {
  if (ndim(a) < 2) return a;
  Arr out = a;
  int64_t r = a.shape[a.shape.size() - 2], c = a.shape.back();
  std::swap(out.shape[out.shape.size() - 2], out.shape.back());
  for (int64_t b = 0; b < static_cast<int64_t>(a.v.size()) / std::max<int64_t>(r * c, 1); ++b)
    for (int64_t i = 0; i < r; ++i)
      for (int64_t j = 0; j < c; ++j) out.v[static_cast<size_t>(b * r * c + j * r + i)] = a.v[static_cast<size_t>(b * r * c + i * c + j)];
  return out;
}

std::vector<const torch::Printed*> printed_in(const StepRun& s) {
  std::vector<const torch::Printed*> out;
  for (const CellRun& c : s.cells)
    for (const torch::Printed& p : c.printed) out.push_back(&p);
  return out;
}

// Every float tensor any step printed, first occurrence of each distinct one (same shape and values).
std::vector<Printed> printed_tensors(const LessonRun& run) {
  std::vector<Printed> out;
  for (const StepRun& s : run.steps)
    for (const torch::Printed* p : printed_in(s)) {
      if (!p->is_float_tensor()) continue;
      const core::Tensor& t = p->tensor();
      Arr a = to_arr(t);
      bool seen = std::any_of(out.begin(), out.end(), [&](const Printed& q) {
        return q.a.shape == a.shape && std::equal(q.a.v.begin(), q.a.v.end(), a.v.begin(), [](double x, double y) {
                 return x == y || (std::isnan(x) && std::isnan(y));
               });
      });
      if (!seen) out.push_back({s.step->id, p->name, t, a});
    }
  return out;
}

}  // namespace attn::lab
