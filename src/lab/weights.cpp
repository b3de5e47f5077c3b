// lab/weights.cpp: recognising how the lesson made its attention weights (see weights.h).
#include "core/ops.h"
#include "lab/weights.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace attn::lab {

Scale snap(double divisor) {
  if (std::fabs(divisor - 1) < 2e-3) return {1, ""};
  double n = std::round(divisor);
  if (n >= 2 && std::fabs(divisor - n) < 2e-3 * n) return {n, fmt::format("{}", static_cast<int64_t>(n))};
  double n2 = std::round(divisor * divisor);
  if (n2 >= 2 && std::fabs(divisor * divisor - n2) < 2e-3 * n2) return {std::sqrt(n2), fmt::format("√{}", static_cast<int64_t>(n2))};
  return {divisor, fmt::format("{:.4g}", divisor)};
}

bool same_scale(const Scale& a, const Scale& b) { return std::fabs(a.divisor - b.divisor) < 1e-6 * std::max(1.0, a.divisor); }

std::string scaled(const std::string& expr, const Scale& s) { return s.divisor == 1 ? expr : expr + " / " + s.text; }

// "√d_k = √2 ≈ 1.414", "2", "1.25"
std::string scale_words(const Scale& s) {
  if (s.text.rfind("√", 0) == 0) return fmt::format("√d_k = {} ≈ {:.4g}", s.text, s.divisor);
  return s.text.empty() ? "1" : s.text;
}

// c such that log(p) = c * s + (a constant per slice), by least squares over the entries where
// p > 0 and s is finite: the inverse temperature of a softmax that turned s into p.
std::optional<double> fit_inverse_scale(const Arr& p, const Arr& s, int64_t dim) {
  double sxy = 0, sxx = 0;
  for_each_slice(p.shape, dim, [&](int64_t base, int64_t stride, int64_t n) {
    std::vector<std::pair<double, double>> pts;
    for (int64_t j = 0; j < n; ++j) {
      size_t k = static_cast<size_t>(base + j * stride);
      if (p.v[k] > 1e-30 && std::isfinite(s.v[k])) pts.emplace_back(s.v[k], std::log(p.v[k]));
    }
    if (pts.size() < 2) return;
    double mx = 0, my = 0;
    for (auto [x, y] : pts) mx += x, my += y;
    mx /= static_cast<double>(pts.size()), my /= static_cast<double>(pts.size());
    for (auto [x, y] : pts) sxy += (x - mx) * (y - my), sxx += (x - mx) * (x - mx);
  });
  if (sxx <= 0) return std::nullopt;
  double c = sxy / sxx;
  if (!(c > 0) || !std::isfinite(c)) return std::nullopt;
  return c;
}

Arr softmax_of(const core::Tensor& scores, bool transpose, const Scale& scale, int64_t dim, core::CpuKernels cpu) {
  core::Tensor x = transpose ? core::transpose(scores, -2, -1) : scores;
  if (scale.divisor != 1) x = core::binary_scalar(core::BinOp::div, x, scale.divisor);
  return to_arr(core::softmax(x, dim, cpu));
}

core::Tensor masked_scores(const core::Tensor& scores, bool transpose, const std::vector<bool>& hide) {
  // A fresh copy: scores (and a contiguous view of them) share storage that must not change.
  core::Tensor x = (transpose ? core::transpose(scores, -2, -1) : scores).clone();   // [..., n, n]
  float* e = x.data<float>();
  for (size_t k = 0; k < hide.size() && static_cast<int64_t>(k) < x.numel(); ++k)
    if (hide[k]) e[k] = -INFINITY;
  return x;
}

std::string axis_words(int64_t dim, int64_t nd) {
  if (nd == 1) return "the vector sums to 1 (dim=0)";
  if (dim == nd - 1) return fmt::format("each row sums to 1 (dim={}, or dim=-1)", dim);
  if (dim == nd - 2) return fmt::format("each column sums to 1 (dim={})", dim);
  return fmt::format("the slices along dim={} sum to 1", dim);
}

std::vector<Source> softmax_sources(const Arr& e, const std::vector<Printed>& printed, core::CpuKernels cpu) {
  std::vector<Source> out;
  for (int64_t d : distribution_dims(e))
    for (const Printed& p : printed) {
      if (p.a.shape != e.shape || close_all(p.a, e, kExact)) continue;
      auto c = fit_inverse_scale(e, p.a, d);
      if (!c) continue;
      Scale s = snap(1 / *c);
      if (close_all(softmax_of(p.t, false, s, d, cpu), e, kExact)) out.push_back({&p, d, s});
    }
  return out;
}


std::vector<bool> neg_inf_positions(const Source& src) {
  const std::vector<double>& v = src.scores->a.v;
  std::vector<bool> out(v.size());
  for (size_t k = 0; k < v.size(); ++k) out[k] = v[k] == -INFINITY;
  return out;
}

const Printed* unmasked_scores(const Source& src, const std::vector<Printed>& printed) {
  std::vector<bool> hidden = neg_inf_positions(src);
  if (std::none_of(hidden.begin(), hidden.end(), [](bool b) { return b; })) return nullptr;
  const Arr& masked = src.scores->a;
  for (const Printed& p : printed) {
    if (p.a.shape != masked.shape || &p == src.scores) continue;
    bool fits = true;
    for (size_t k = 0; k < p.a.v.size() && fits; ++k)
      fits = std::isfinite(p.a.v[k]) && (hidden[k] || close(masked.v[k], p.a.v[k], kExact));
    if (fits) return &p;
  }
  return nullptr;
}

}  // namespace attn::lab
