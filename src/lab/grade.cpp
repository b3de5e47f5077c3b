// lab/grade.cpp: comparison and hints of `attn check` (see grade.h).
//
// Every hint follows one pattern: rebuild a wrong answer from what the run knows (the tensors
// its steps printed, transformed with core ops; or the lesson run again with one change) and
// report the mistake only if that rebuilt tensor matches the student's within the tolerance.
// The lesson's own computation is identified first and exactly (e.g. "these weights are
// softmax(attn_scores / √2, dim=1)"), so a hint can name the tensor and the step it came from.
#include "lab/grade.h"

#include <Eigen/Dense>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "lesson/json.h"
#include "py/value.h"

namespace attn::lab {

namespace json = lesson::json;
using lesson::CellRun;
using lesson::Lesson;
using lesson::LessonRun;
using lesson::RunOptions;
using lesson::Step;
using lesson::StepRun;
using lesson::apply_options;
using lesson::run_lesson;
using py::PrintedValue;
using py::Value;
using py::as_tensor;

namespace {

// ---- arrays of doubles: the answer, and the lesson's tensors as the comparison sees them ----

struct Arr {
  core::Shape shape;
  std::vector<double> v;   // row-major
};

Arr to_arr(const core::Tensor& t) {
  Arr a{t.shape, std::vector<double>(static_cast<size_t>(t.numel()))};
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

// For recognising the lesson's own computations, which attn reproduces to the last bit or two.
const Tolerance kExact{1e-6, 1e-5};

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

// A tensor seen as (outer, n, inner) around one dim: element (o, j, i) is at (o*n + j)*inner + i.
struct Split {
  int64_t outer = 1, n = 1, inner = 1;
};
Split split_at(const core::Shape& s, int64_t dim) {
  Split r;
  for (int64_t d = 0; d < static_cast<int64_t>(s.size()); ++d) (d < dim ? r.outer : d == dim ? r.n : r.inner) *= s[d];
  return r;
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

// ---- what the run printed ----

struct Printed {
  std::string step, name;
  core::Tensor t;
  Arr a;
};

std::vector<const PrintedValue*> printed_in(const StepRun& s) {
  std::vector<const PrintedValue*> out;
  for (const CellRun& c : s.cells)
    for (const PrintedValue& p : c.printed) out.push_back(&p);
  return out;
}

bool is_float_tensor(const Value& v) { return v.kind == Value::Tensor && as_tensor(v).is_float(); }

// Every float tensor any step printed, first occurrence of each distinct one (same shape and values).
std::vector<Printed> printed_tensors(const LessonRun& run) {
  std::vector<Printed> out;
  for (const StepRun& s : run.steps)
    for (const PrintedValue* p : printed_in(s)) {
      if (!is_float_tensor(p->value)) continue;
      const core::Tensor& t = as_tensor(p->value);
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

std::string code(const std::string& name) { return "`" + (name.empty() ? std::string("(unnamed value)") : name) + "`"; }

// ---- scales: the 1/√d_k of scaled dot-product attention ----

struct Scale {
  double divisor = 1;
  std::string text;   // "√2", "2", "1.25"; empty for 1
};

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

Arr softmax_of(const core::Tensor& scores, bool transpose, const Scale& scale, int64_t dim) {
  core::Tensor x = transpose ? core::transpose(scores, -2, -1) : scores;
  if (scale.divisor != 1) x = core::binary_scalar(core::BinOp::div, x, scale.divisor);
  return to_arr(core::softmax(x, dim));
}

// "each row sums to 1 (dim=1, or dim=-1)"
std::string axis_words(int64_t dim, int64_t nd) {
  if (nd == 1) return "the vector sums to 1 (dim=0)";
  if (dim == nd - 1) return fmt::format("each row sums to 1 (dim={}, or dim=-1)", dim);
  if (dim == nd - 2) return fmt::format("each column sums to 1 (dim={})", dim);
  return fmt::format("the slices along dim={} sum to 1", dim);
}

// The lesson's weights as the softmax of a printed tensor: expected == softmax(scores / scale, dim).
struct Source {
  const Printed* scores = nullptr;
  int64_t dim = 0;
  Scale scale;
};

std::vector<Source> softmax_sources(const Arr& e, const std::vector<Printed>& printed) {
  std::vector<Source> out;
  for (int64_t d : distribution_dims(e))
    for (const Printed& p : printed) {
      if (p.a.shape != e.shape || close_all(p.a, e, kExact)) continue;
      auto c = fit_inverse_scale(e, p.a, d);
      if (!c) continue;
      Scale s = snap(1 / *c);
      if (close_all(softmax_of(p.t, false, s, d), e, kExact)) out.push_back({&p, d, s});
    }
  return out;
}

class Hints {
 public:
  bool has(const std::string& kind) const {
    return std::any_of(list.begin(), list.end(), [&](const Hint& h) { return h.kind == kind; });
  }
  void add(const std::string& kind, const std::string& message) {
    if (!has(kind)) list.push_back({kind, message});
  }
  std::vector<Hint> list;
};

// ---- hints from the softmax that made the expected weights ----

void softmax_hints(const Arr& ans, const std::vector<Source>& sources, const Tolerance& tol, Hints& h) {
  for (const Source& src : sources) {
    const core::Tensor& s = src.scores->t;
    int64_t nd = s.dim();
    bool can_transpose = nd >= 2 && s.shape[nd - 1] == s.shape[nd - 2] && !close_all(transposed(src.scores->a), src.scores->a, kExact);
    enum Variant { same, unscaled, squared, inverted, fitted };
    std::vector<std::pair<Variant, Scale>> scales = {{same, src.scale}};
    if (src.scale.divisor != 1) {
      scales.push_back({unscaled, Scale{}});
      scales.push_back({squared, snap(src.scale.divisor * src.scale.divisor)});
      scales.push_back({inverted, snap(1 / src.scale.divisor)});
    }
    struct Trial {
      bool transpose;
      int64_t dim;
      Variant variant;
      Scale scale;
      int deviations;
    };
    std::vector<Trial> trials;
    for (bool tr : {false, true}) {
      if (tr && !can_transpose) continue;
      for (int64_t d = 0; d < nd; ++d) {
        if (s.shape[static_cast<size_t>(d)] < 2) continue;
        for (auto [v, sc] : scales) {
          int dev = tr + (d != src.dim) + (v != same);
          if (dev) trials.push_back({tr, d, v, sc, dev});
        }
      }
    }
    std::stable_sort(trials.begin(), trials.end(), [](const Trial& a, const Trial& b) { return a.deviations < b.deviations; });
    std::optional<Trial> found;
    for (const Trial& t : trials)
      if (close_all(ans, softmax_of(s, t.transpose, t.scale, t.dim), tol)) {
        found = t;
        break;
      }
    if (!found) {   // any other scale, fitted to the answer itself
      for (bool tr : {false, true}) {
        if ((tr && !can_transpose) || found) continue;
        for (int64_t d = 0; d < nd && !found; ++d) {
          if (!is_distribution(ans, d)) continue;
          Arr sa = tr ? transposed(src.scores->a) : src.scores->a;
          auto c = fit_inverse_scale(ans, sa, d);
          if (!c) continue;
          Scale sc = snap(1 / *c);
          if (same_scale(sc, src.scale) && !tr && d == src.dim) continue;
          if (close_all(ans, softmax_of(s, tr, sc, d), tol)) found = Trial{tr, d, same_scale(sc, src.scale) ? same : fitted, sc, 0};
        }
      }
    }
    if (!found) continue;
    const std::string& name = src.scores->name;
    std::string formulas = fmt::format(
        "Your answer is softmax({}, dim={}); the lesson computes softmax({}, dim={}), with {} as step '{}' prints it.",
        scaled(name + (found->transpose ? ".T" : ""), found->scale), found->dim, scaled(name, src.scale), src.dim, code(name),
        src.scores->step);
    bool first = true;
    auto add = [&](const std::string& kind, const std::string& msg) {
      h.add(kind, msg + (first ? " " + formulas : ""));
      first = false;
    };
    if (found->dim != src.dim)
      add("softmax_dim", fmt::format("Softmax over the wrong axis: in your answer {}; in the lesson's {}{}.", axis_words(found->dim, nd),
                                     axis_words(src.dim, nd),
                                     src.dim == nd - 1 && nd >= 2 ? ": one row per query, holding its weights over all the keys" : ""));
    switch (found->variant) {
      case same: break;
      case unscaled:
        add("missing_scale", fmt::format("Missing 1/√d_k scaling: the lesson divides the scores by {} before the softmax (scaled "
                                         "dot-product attention); your answer is the softmax of the unscaled scores.",
                                         scale_words(src.scale)));
        break;
      case squared:
        add("scale", src.scale.text.rfind("√", 0) == 0
                         ? fmt::format("Divided by d_k instead of √d_k: your scores were divided by {}, the lesson's by {}.",
                                       found->scale.text, scale_words(src.scale))
                         : fmt::format("Your scores were divided by {}, the lesson's by {}.", found->scale.text, scale_words(src.scale)));
        break;
      case inverted:
        add("scale", fmt::format("The scores were multiplied by {} instead of divided by it.", scale_words(src.scale)));
        break;
      case fitted: {
        auto words = [](const Scale& sc) { return sc.divisor == 1 ? std::string("unscaled") : "divided by " + scale_words(sc); };
        add("scale", fmt::format("Your softmax used the scores {}; the lesson's uses them {}.", words(found->scale), words(src.scale)));
        break;
      }
    }
    if (found->transpose)
      add("transposed_scores", fmt::format("The scores are transposed: your weights come from {}.T, as if computed as keys @ queries.T "
                                           "instead of queries @ keys.T. Drawing W_key before W_query has the same effect: the two "
                                           "matrices swap their numbers.",
                                           code(name)));
    return;
  }
}

// ---- hints from a causal mask: the expected weights have exact zeros ----

void mask_hints(const Arr& ans, const Arr& e, const std::vector<Source>& sources, const Tolerance& tol, Hints& h) {
  if (ans.shape != e.shape) return;
  std::vector<bool> hidden(e.v.size());
  bool any = false, all = true;
  for (size_t k = 0; k < e.v.size(); ++k) any |= (hidden[k] = e.v[k] == 0), all &= hidden[k];
  if (!any || all) return;
  auto dims = distribution_dims(e);
  if (dims.empty()) {   // e.g. weights * mask: right everywhere but where the lesson's tensor is 0
    bool rest = true, weight_hidden = false;
    for (size_t k = 0; k < e.v.size(); ++k) {
      if (!hidden[k]) rest &= close(e.v[k], ans.v[k], tol);
      else weight_hidden |= !close(0, ans.v[k], tol);
    }
    if (rest && weight_hidden)
      h.add("mask_missing", "Your answer agrees with the lesson's tensor except where the lesson's is exactly 0 (the positions "
                            "the mask hides, the future tokens): the mask was not applied.");
    return;
  }
  int64_t dim = dims.back();

  // 1. The scores masked with 0 instead of -inf.
  for (const Source& src : sources) {
    if (src.dim != dim) continue;
    const core::Tensor& s = src.scores->t;
    bool inf_at_hidden = true;
    for (size_t k = 0; k < s.f.size(); ++k) inf_at_hidden &= std::isinf(s.f[k]) == hidden[k];
    if (!inf_at_hidden) continue;
    core::Tensor zero_filled = s;
    for (float& x : zero_filled.f)
      if (std::isinf(x)) x = 0;
    if (close_all(ans, softmax_of(zero_filled, false, src.scale, dim), tol)) {
      h.add("mask_zero_fill", fmt::format("The mask filled the scores with 0 instead of -inf: exp(0) = 1, so the hidden (future) "
                                          "positions still get weight. Fill them with -torch.inf, as in step '{}' ({} there), so "
                                          "that the softmax gives them exactly 0.",
                                          src.scores->step, code(src.scores->name)));
      return;
    }
  }

  // Row sums of the answer along `dim`, and the answer renormalised (optionally zeroed where hidden).
  auto renormalised = [&](bool zero_hidden, double& lo, double& hi) {
    Arr out = ans;
    lo = INFINITY, hi = -INFINITY;
    for_each_slice(ans.shape, dim, [&](int64_t base, int64_t stride, int64_t n) {
      double s = 0;
      for (int64_t j = 0; j < n; ++j) {
        size_t k = static_cast<size_t>(base + j * stride);
        if (zero_hidden && hidden[k]) out.v[k] = 0;
        s += out.v[k];
      }
      lo = std::min(lo, s), hi = std::max(hi, s);
      for (int64_t j = 0; j < n && s != 0; ++j) out.v[static_cast<size_t>(base + j * stride)] /= s;
    });
    return out;
  };
  bool zero_where_hidden = true, nonnegative = true;
  for (size_t k = 0; k < ans.v.size(); ++k) {
    if (hidden[k] && std::fabs(ans.v[k]) > tol.atol) zero_where_hidden = false;
    if (!(ans.v[k] >= 0) || std::isinf(ans.v[k])) nonnegative = false;
  }
  if (!nonnegative) return;
  double lo = 0, hi = 0;
  // 2. Masked after the softmax, rows not renormalised.
  if (zero_where_hidden) {
    Arr n = renormalised(false, lo, hi);
    if (close_all(n, e, tol) && (std::fabs(lo - 1) > 1e-3 || std::fabs(hi - 1) > 1e-3)) {
      h.add("mask_not_renormalised",
            fmt::format("The mask was applied after the softmax without renormalising: the hidden positions are 0, but the rows of "
                        "your answer sum to between {:.4f} and {:.4f}, not 1; each is the lesson's row times its sum. Divide each row "
                        "by its sum (w / w.sum(dim=-1, keepdim=True)), or mask the scores with -inf before the softmax, which "
                        "needs no second pass.",
                        lo, hi));
      return;
    }
  }
  // 3. No mask at all: weight where the lesson has none, right ratios elsewhere.
  if (!zero_where_hidden) {
    Arr n = renormalised(true, lo, hi);
    if (close_all(n, e, tol)) {
      h.add("mask_missing", "Your answer gives weight to positions the lesson's mask hides (where its weights are exactly 0: "
                            "the future tokens): the mask was not applied. Fill the hidden scores with -inf (masked_fill) "
                            "before the softmax, or zero the weights and renormalise each row.");
      return;
    }
  }
  // 4. The other triangle.
  int64_t nd = ndim(e);
  if (nd >= 2 && e.shape[nd - 1] == e.shape[nd - 2]) {
    int64_t n = e.shape[nd - 1];
    bool upper = true, lower = true;
    for (size_t k = 0; k < hidden.size(); ++k) {
      int64_t i = static_cast<int64_t>(k) / n % n, j = static_cast<int64_t>(k) % n;
      if (hidden[k]) upper &= j > i, lower &= j < i;
    }
    if (!upper && !lower) return;
    bool match = true;
    for (size_t k = 0; k < hidden.size(); ++k) {
      size_t b = k / static_cast<size_t>(n * n) * static_cast<size_t>(n * n);
      int64_t i = static_cast<int64_t>(k) / n % n, j = static_cast<int64_t>(k) % n;
      bool mirrored = hidden[b + static_cast<size_t>(j * n + i)];
      match &= (std::fabs(ans.v[k]) <= tol.atol) == mirrored;
    }
    if (match)
      h.add("mask_wrong_triangle",
            fmt::format("Your zeros are on the wrong side of the diagonal: the lesson hides the positions {} it (token i may not see "
                        "{} tokens), your answer those {} it. torch.triu(torch.ones(n, n), diagonal=1) marks the future positions "
                        "to fill with -inf; torch.tril(torch.ones(n, n)) marks the ones to keep.",
                        upper ? "above" : "below", upper ? "later" : "earlier", upper ? "below" : "above"));
  }
}

// ---- hints about context vectors: expected == weights @ values ----

Arr batched_matmul(const Arr& a, bool transpose_a, const Arr& b) {
  int64_t nd = ndim(a), n = a.shape[nd - 2], m = b.shape.back(), batch = static_cast<int64_t>(a.v.size()) / (n * n);
  Arr out{b.shape, std::vector<double>(b.v.size())};
  for (int64_t p = 0; p < batch; ++p)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) {
        double s = 0;
        for (int64_t k = 0; k < n; ++k)
          s += a.v[static_cast<size_t>(p * n * n + (transpose_a ? k * n + i : i * n + k))] * b.v[static_cast<size_t>(p * n * m + k * m + j)];
        out.v[static_cast<size_t>(p * n * m + i * m + j)] = s;
      }
  return out;
}

// values with weights @ values == e: a printed tensor if one fits, else solved for (weights invertible).
std::optional<Arr> values_for(const Printed& w, const Arr& e, const std::vector<Printed>& printed) {
  for (const Printed& p : printed)
    if (p.a.shape == e.shape && close_all(batched_matmul(w.a, false, p.a), e, kExact)) return p.a;
  int64_t nd = ndim(e), n = e.shape[nd - 2], m = e.shape[nd - 1], batch = static_cast<int64_t>(e.v.size()) / std::max<int64_t>(n * m, 1);
  Arr v{e.shape, std::vector<double>(e.v.size())};
  for (int64_t p = 0; p < batch; ++p) {
    Eigen::MatrixXd W(n, n), E(n, m);
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t k = 0; k < n; ++k) W(i, k) = w.a.v[static_cast<size_t>(p * n * n + i * n + k)];
      for (int64_t j = 0; j < m; ++j) E(i, j) = e.v[static_cast<size_t>(p * n * m + i * m + j)];
    }
    Eigen::FullPivLU<Eigen::MatrixXd> lu(W);
    if (lu.rank() < n || lu.rcond() < 1e-6) return std::nullopt;
    Eigen::MatrixXd X = lu.solve(E);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < m; ++j) v.v[static_cast<size_t>(p * n * m + i * m + j)] = X(i, j);
  }
  return v;
}

void context_hints(const Arr& ans, const Arr& e, const std::vector<Printed>& printed, const Tolerance& tol, Hints& h) {
  int64_t nd = ndim(e);
  if (nd < 2 || nd > 3 || ans.shape != e.shape || e.v.empty()) return;
  core::Shape wshape = e.shape;
  wshape.back() = e.shape[nd - 2];
  std::vector<const Printed*> weights;
  for (const Printed& p : printed)
    if (p.a.shape == wshape && is_distribution(p.a, nd - 1) && !close_all(p.a, e, kExact)) weights.push_back(&p);
  for (const Printed* w : weights) {
    auto v = values_for(*w, e, printed);
    if (!v) continue;
    if (close_all(ans, batched_matmul(w->a, true, *v), tol)) {
      h.add("transposed_weights",
            fmt::format("Your context vectors are {0}.T @ values: the attention weights are transposed. Row i of {0} (step '{1}') "
                        "holds query i's weights over all the tokens, so the context vectors are {0} @ values.",
                        code(w->name), w->step));
      return;
    }
    for (const Printed* other : weights)
      if (other != w && close_all(ans, batched_matmul(other->a, false, *v), tol)) {
        h.add("other_weights", fmt::format("Your context vectors use the weights {} that step '{}' prints; the lesson's use {} of "
                                           "step '{}'.",
                                           code(other->name), other->step, code(w->name), w->step));
        return;
      }
  }
}

// ---- re-running the lesson with one change ----

class Rerun {
 public:
  Rerun(const LessonRun& run, const Target& t, const RunOptions& opts) : run_(run), t_(t), opts_(opts) {}

  // The target's value when the lesson (up to the target's step) runs with `change` applied.
  std::optional<Arr> with(const std::function<void(Lesson&)>& change, const RunOptions& opts) {
    if (++count_ > 40) return std::nullopt;
    std::optional<Arr> out;
    try {
      Lesson copy = *run_.lesson;
      copy.steps.resize(t_.step + 1);
      change(copy);
      LessonRun r = run_lesson(copy, opts);
      auto vals = printed_in(r.steps.at(t_.step));
      if (t_.index < vals.size() && vals[t_.index]->value.kind == Value::Tensor) out = to_arr(as_tensor(vals[t_.index]->value));
    } catch (...) {   // a change the lesson's code cannot run with is simply not the student's mistake
    }
    core::set_cpu_kernels(run_.cpu);
    return out;
  }
  std::optional<Arr> with(const std::function<void(Lesson&)>& change) { return with(change, opts_); }

 private:
  const LessonRun& run_;
  const Target& t_;
  const RunOptions& opts_;
  int count_ = 0;
};

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// A one-line statement that draws random numbers: torch.rand(...), nn.Linear(...), ...
bool draws(const std::string& line) {
  static const std::regex draw(
      R"(\b(torch\.(rand|randn|randint|rand_like|randn_like|randperm|normal|bernoulli|multinomial)|nn\.(Linear|Embedding))\s*\()");
  std::string code = line.substr(0, line.find('#'));
  return std::regex_search(code, draw) && std::count(code.begin(), code.end(), '(') == std::count(code.begin(), code.end(), ')');
}

std::string draw_label(const std::string& line) {
  std::string code = trim(line.substr(0, line.find('#')));
  size_t eq = code.find('=');
  return eq != std::string::npos && code.find('(') > eq ? trim(code.substr(0, eq)) : code;
}

size_t indent_of(const std::string& l) { return l.find_first_not_of(" \t"); }

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t k = 0; k < names.size(); ++k) out += (k ? ", " : "") + names[k];
  return out;
}

void rerun_hints(const Arr& ans, const LessonRun& run, const Target& t, const RunOptions& opts, const Tolerance& tol, Hints& h) {
  Rerun rerun(run, t, opts);
  auto matches = [&](const std::optional<Arr>& a) { return a && close_all(ans, *a, tol); };
  const Lesson& l = *run.lesson;

  // 1. The draws of one block in another order (W_key before W_query, ...).
  for (size_t si = 0; si <= t.step && !h.has("draw_order"); ++si)
    for (size_t ci = 0; ci < l.steps[si].cells.size() && !h.has("draw_order"); ++ci) {
      std::vector<std::string> lines = lines_of(l.steps[si].cells[ci].code);
      std::vector<std::vector<size_t>> blocks;
      std::vector<size_t> cur;
      for (size_t k = 0; k < lines.size(); ++k) {
        std::string tl = trim(lines[k]);
        if (tl.empty() || tl[0] == '#') continue;
        if (draws(lines[k]) && (cur.empty() || indent_of(lines[cur.back()]) == indent_of(lines[k]))) {
          cur.push_back(k);
          continue;
        }
        if (cur.size() >= 2) blocks.push_back(cur);
        cur.clear();
        if (draws(lines[k])) cur.push_back(k);
      }
      if (cur.size() >= 2) blocks.push_back(cur);
      for (const auto& block : blocks) {
        std::vector<std::vector<size_t>> orders;
        std::vector<size_t> perm(block.size());
        std::iota(perm.begin(), perm.end(), 0);
        if (block.size() <= 4) {
          while (std::next_permutation(perm.begin(), perm.end())) orders.push_back(perm);
        } else {
          for (size_t k = 0; k + 1 < block.size(); ++k) {
            std::vector<size_t> p(perm);
            std::swap(p[k], p[k + 1]);
            orders.push_back(p);
          }
        }
        for (const auto& order : orders) {
          auto a = rerun.with([&](Lesson& copy) {
            std::vector<std::string> changed = lines;
            for (size_t k = 0; k < block.size(); ++k) changed[block[k]] = lines[block[order[k]]];
            copy.steps[si].cells[ci].code = join_lines(changed);
          });
          if (!matches(a)) continue;
          std::vector<std::string> theirs, ours;
          for (size_t k = 0; k < block.size(); ++k) theirs.push_back(draw_label(lines[block[order[k]]])), ours.push_back(draw_label(lines[block[k]]));
          h.add("draw_order", fmt::format("A different random draw order: your numbers are what the lesson computes when step '{}' "
                                          "draws {} in that order; the lesson draws {}. The generator hands out its numbers in "
                                          "sequence, so the order of the draws decides which matrix gets which numbers.",
                                          l.steps[si].id, join_names(theirs), join_names(ours)));
          break;
        }
        if (h.has("draw_order")) break;
      }
    }

  // 2. A torch.manual_seed(...) left out.
  static const std::regex seed_line(R"(^\s*torch\.manual_seed\(.*\)\s*(#.*)?$)");
  for (size_t si = 0; si <= t.step && !h.has("seed"); ++si)
    for (size_t ci = 0; ci < l.steps[si].cells.size() && !h.has("seed"); ++ci) {
      std::vector<std::string> lines = lines_of(l.steps[si].cells[ci].code);
      for (size_t k = 0; k < lines.size(); ++k) {
        if (!std::regex_match(lines[k], seed_line)) continue;
        auto a = rerun.with([&](Lesson& copy) {
          std::vector<std::string> changed = lines;
          changed[k] = lines[k].substr(0, indent_of(lines[k])) + "pass";
          copy.steps[si].cells[ci].code = join_lines(changed);
        });
        if (!matches(a)) continue;
        h.add("seed", fmt::format("Your numbers are what the lesson computes without the `{}` in step '{}': re-seed right before "
                                  "the draws, as the lesson does, so that they start from the same point of the generator's sequence.",
                                  trim(apply_options(trim(lines[k]), opts)), l.steps[si].id));
        break;
      }
    }

  // 3. The lesson's own seed, sentence or inputs instead of the ones the check was given.
  for (auto [field, flag] : {std::pair{&RunOptions::seed, "--seed"}, {&RunOptions::sentence, "--sentence"}, {&RunOptions::inputs, "--inputs"}}) {
    if (!(opts.*field)) continue;
    RunOptions o = opts;
    o.*field = std::nullopt;
    if (matches(rerun.with([](Lesson&) {}, o)))
      h.add("options", fmt::format("Your numbers are what the lesson computes without `{} {}`, with the article's own {}: run your "
                                   "code with the {} this check was given.",
                                   flag, *(opts.*field), flag + 2, flag + 2));
  }

  // 4. The other CPU kernel family, the other dropout generator.
  RunOptions other = opts;
  bool scalar = run.cpu == core::CpuKernels::scalar;
  other.cpu = scalar ? core::CpuKernels::avx2 : core::CpuKernels::scalar;
  if (matches(rerun.with([](Lesson&) {}, other)))
    h.add("cpu", fmt::format("Your numbers are what PyTorch's {} CPU kernels compute: grade with `--cpu {}` (the lesson's numbers "
                             "come from the {} kernels; the families differ in the last digits of rand, randn and softmax).",
                             scalar ? "AVX2" : "scalar", scalar ? "avx2" : "scalar", scalar ? "scalar" : "AVX2"));
  if (l.meta.count("rng")) {
    RunOptions o = opts;
    bool mkl = run.rng == core::DropoutRng::mkl;
    o.rng = mkl ? core::DropoutRng::portable : core::DropoutRng::mkl;
    if (matches(rerun.with([](Lesson&) {}, o)))
      h.add("rng", fmt::format("Your numbers have the dropout mask of {}: grade with `--rng {}`.",
                               mkl ? "PyTorch builds without MKL (Apple Silicon, AMD CPUs, Debian's package)"
                                   : "PyTorch's x86-64 pip wheels on Intel CPUs (MKL)",
                               mkl ? "portable" : "mkl"));
  }
}

// ---- everything else ----

void scaled_copy_hint(const Arr& ans, const Arr& e, const Tolerance& tol, Hints& h) {
  double sxy = 0, sxx = 0;
  for (size_t k = 0; k < e.v.size(); ++k)
    if (std::isfinite(e.v[k]) && std::isfinite(ans.v[k])) sxy += e.v[k] * ans.v[k], sxx += e.v[k] * e.v[k];
  if (sxx == 0) return;
  double k = sxy / sxx;
  if (std::fabs(k - 1) < 1e-3 || k == 0) return;
  Arr y = e;
  for (double& x : y.v) x *= k;
  if (close_all(ans, y, tol))
    h.add("scaled", fmt::format("Every element of your answer is {:.4g} times the lesson's (1/{:.4g}): a scale factor is missing or "
                                "applied once too often.",
                                k, 1 / k));
}

void equals_printed_hint(const Arr& ans, const Arr& e, const std::vector<Printed>& printed, const std::string& lesson,
                         const std::string& step, const std::string& expected_name, const Tolerance& tol, Hints& h) {
  for (const Printed& p : printed) {
    if (p.a.shape == e.shape && close_all(p.a, e, tol)) continue;
    bool same = close_all(ans, p.a, tol);
    bool same_t = !same && ndim(p.a) >= 2 && close_all(ans, transposed(p.a), tol);
    if (!same && !same_t) continue;
    std::string shows = fmt::format("(`attn lesson {} --step {}` shows it)", lesson, p.step);
    if (p.name == expected_name)
      h.add("equals_printed", fmt::format("Your answer equals the {} that step '{}' prints {}{}, not the one this step prints.",
                                          code(p.name), p.step, shows, same_t ? ", transposed" : ""));
    else
      h.add("equals_printed", fmt::format("Your answer equals {}{}, which step '{}' prints {}; the tensor graded is {}.{}", code(p.name),
                                          same_t ? " transposed" : "", p.step, shows, code(expected_name),
                                          p.step == step && !same_t && !p.name.empty()
                                              ? fmt::format(" To grade {} instead, add --name '{}'.", code(p.name), p.name)
                                              : ""));
    return;
  }
}

void shape_hints(const Arr& ans, const Arr& e, const Tolerance& tol, Hints& h) {
  if (ndim(ans) >= 2 && ndim(ans) == ndim(e) && close_all(transposed(ans), e, tol))
    h.add("transposed", "Your answer is the lesson's tensor transposed (rows and columns swapped). Check the order of the matrix "
                        "products and any .T, .t() or transpose().");
  if (ans.v.size() == e.v.size() && !ans.v.empty()) {
    Arr r{e.shape, ans.v};
    if (close_all(r, e, tol)) {
      auto squeezed = [](core::Shape s) {
        s.erase(std::remove(s.begin(), s.end(), 1), s.end());
        return s;
      };
      h.add("shape", squeezed(ans.shape) == squeezed(e.shape)
                         ? "Your numbers are right, but the shape has an extra or a missing dimension of size 1: squeeze() or "
                           "unsqueeze() it (or save the tensor the step prints, not a view of it)."
                         : "Your numbers are right, in the right order, but in another shape: reshape it to the lesson's shape.");
    }
  }
  if (ndim(e) >= 1 && core::Shape(e.shape.begin() + 1, e.shape.end()) == ans.shape) {
    size_t chunk = ans.v.size();
    for (int64_t b = 0; b < e.shape[0] && chunk; ++b) {
      Arr part{ans.shape, std::vector<double>(e.v.begin() + static_cast<std::ptrdiff_t>(b * chunk),
                                              e.v.begin() + static_cast<std::ptrdiff_t>((b + 1) * chunk))};
      if (close_all(ans, part, tol)) {
        h.add("batch_element", fmt::format("Your answer is element [{}] of the step's tensor, which holds {} of them (shape {}): "
                                           "save the whole tensor.",
                                           b, e.shape[0], core::shape_str(e.shape)));
        break;
      }
    }
  }
}

// A text table (rows x columns) read as the expected shape when the numbers fit it unambiguously.
Arr conform(const Answer& a, const core::Shape& expected, std::string& read_as) {
  Arr out{a.shape, a.data};
  if (a.format != Answer::Format::text || a.shape == expected) return out;
  int64_t rows = a.shape[0], cols = a.shape[1];
  int64_t numel = core::numel_of(expected);
  if (numel != rows * cols) return out;
  if (expected.empty()) {
    read_as = "one number, read as a 0-d tensor";
  } else if (expected.size() == 1) {
    if (rows != 1 && cols != 1) return out;
    read_as = rows == 1 ? "one row of numbers, read as a vector" : "one number per line, read as a vector";
  } else if (expected.back() == cols) {
    read_as = fmt::format("{} rows of {} numbers, read as shape {} (the rows of its {} matrices, one after the other)", rows, cols,
                          core::shape_str(expected), numel / (expected[expected.size() - 2] * cols));
  } else {
    return out;
  }
  out.shape = expected;
  return out;
}

// The options that changed the lesson's numbers, as typed: "--seed 42, --cpu avx2".
std::string options_words(const RunOptions& o) {
  std::vector<std::string> parts;
  if (o.seed) parts.push_back("--seed " + *o.seed);
  if (o.sentence) parts.push_back("--sentence '" + *o.sentence + "'");
  if (o.inputs) parts.push_back("--inputs '" + *o.inputs + "'");
  if (o.cpu) parts.push_back(std::string("--cpu ") + (*o.cpu == core::CpuKernels::scalar ? "scalar" : "avx2"));
  if (o.rng) parts.push_back(std::string("--rng ") + (*o.rng == core::DropoutRng::mkl ? "mkl" : "portable"));
  return join_names(parts);
}

std::string num(double v) { return fmt::format("{:.6g}", v); }

// Word-wraps `text` at `width` columns; lines after the first start with `indent`.
std::string wrap(const std::string& text, size_t width, const std::string& first, const std::string& indent) {
  std::string out = first, line_indent = first;
  size_t col = 0;
  for (unsigned char ch : first) col += (ch & 0xC0) != 0x80;
  // Words; a short [shape], (formula) or `command` is one word, so a line break never splits it.
  std::vector<std::string> words;
  {
    std::istringstream in(text);
    std::vector<std::string> group;
    int depth = 0;
    bool tick = false;
    auto flush = [&] {
      std::string joined;
      for (const std::string& g : group) joined += (joined.empty() ? "" : " ") + g;
      if (joined.size() <= 48) words.push_back(joined);
      else words.insert(words.end(), group.begin(), group.end());
      group.clear();
    };
    for (std::string w; in >> w;) {
      group.push_back(w);
      for (char c : w) {
        if (c == '[' || c == '(') ++depth;
        if ((c == ']' || c == ')') && depth > 0) --depth;
        if (c == '`') tick = !tick;
      }
      if (depth == 0 && !tick) flush();
    }
    if (!group.empty()) flush();
  }
  bool at_start = true;
  for (const std::string& w : words) {
    size_t wl = 0;
    for (unsigned char ch : w) wl += (ch & 0xC0) != 0x80;
    if (!at_start && col + 1 + wl > width) {
      out += "\n" + indent;
      col = indent.size();
      at_start = true;
    }
    if (!at_start) out += " ", ++col;
    out += w;
    col += wl;
    at_start = false;
  }
  return out + "\n";
}

}  // namespace

// ---- selecting the graded value ----

Target select_target(const LessonRun& run, const std::string& step_id, const std::string& name, int index) {
  const Lesson& l = *run.lesson;
  auto it = std::find_if(run.steps.begin(), run.steps.end(), [&](const StepRun& s) { return s.step->id == step_id; });
  if (it == run.steps.end()) {
    std::string ids;
    for (const Step& s : l.steps) ids += (ids.empty() ? "" : ", ") + s.id;
    throw UsageError("lesson '" + l.name() + "' has no step '" + step_id + "' (its steps: " + ids + ")");
  }
  Target t;
  t.step = static_cast<size_t>(it - run.steps.begin());
  auto vals = printed_in(*it);
  std::vector<std::string> all_names;
  for (const PrintedValue* p : vals) {
    if (is_float_tensor(p->value)) t.float_names.push_back(p->name);
    if (p->value.kind == Value::Tensor || p->value.is_number()) all_names.push_back(p->name.empty() ? "(unnamed)" : p->name);
  }
  std::optional<size_t> pick;
  auto strip = [](std::string s) {
    s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }), s.end());
    return s;
  };
  if (index > 0) {   // the index-th tensor of the step, as `attn export --npy` numbers them
    int n = 0;
    for (size_t k = 0; k < vals.size() && !pick; ++k)
      if (vals[k]->value.kind == Value::Tensor && ++n == index) pick = k;
    if (!pick)
      throw UsageError(fmt::format("step '{}' of lesson '{}' prints {} tensor{}, so --index {} does not exist", step_id, l.name(), n,
                                   n == 1 ? "" : "s", index));
    if (!name.empty() && strip(vals[*pick]->name) != strip(name))
      throw UsageError(fmt::format("tensor {} of step '{}' of lesson '{}' is printed from '{}', not '{}'", index, step_id, l.name(),
                                   vals[*pick]->name, name));
  }
  for (size_t k = 0; k < vals.size() && index <= 0; ++k) {
    const Value& v = vals[k]->value;
    if (name.empty() ? is_float_tensor(v) : (v.kind == Value::Tensor || v.is_number()) && strip(vals[k]->name) == strip(name)) pick = k;
  }
  if (!pick) {
    if (!name.empty())
      throw UsageError(fmt::format("step '{}' of lesson '{}' prints no tensor or number named '{}'{}", step_id, l.name(), name,
                                   all_names.empty() ? " (it prints none)" : " (it prints: " + join_names(all_names) + ")"));
    std::vector<std::string> steps;
    for (const StepRun& s : run.steps) {
      auto v = printed_in(s);
      if (std::any_of(v.begin(), v.end(), [](const PrintedValue* p) { return is_float_tensor(p->value); })) steps.push_back(s.step->id);
    }
    throw UsageError(fmt::format("step '{}' of lesson '{}' prints no float tensor to grade{}", step_id, l.name(),
                                 !all_names.empty() ? "; --name selects one of the values it prints: " + join_names(all_names)
                                 : steps.empty() ? ""
                                                 : "; steps that print one: " + join_names(steps)));
  }
  t.index = *pick;
  t.value = *vals[*pick];
  if (t.value.value.kind != Value::Tensor) {   // a printed number: a 0-d tensor
    double x = t.value.value.kind == Value::Float ? t.value.value.f : t.value.value.kind == Value::Int ? static_cast<double>(t.value.value.i)
                                                                                                      : t.value.value.b;
    t.value.value = Value::tensor(core::from_floats({}, {static_cast<float>(x)}));
  }
  return t;
}

// ---- grading ----

Grade grade(const LessonRun& run, const Target& target, const Answer& answer, const Tolerance& tol, const RunOptions& opts) {
  Grade g;
  g.lesson = run.lesson->name();
  g.step = run.steps.at(target.step).step->id;
  g.name = target.value.name;
  const core::Tensor& et = as_tensor(target.value.value);
  Arr e = to_arr(et);
  Arr ans = conform(answer, e.shape, g.read_as);
  g.expected_shape = e.shape;
  g.got_shape = ans.shape;
  g.shape_match = ans.shape == e.shape;
  g.n_elements = static_cast<int64_t>(e.v.size());
  // A NaN in the answer is bad input (exit 2), unless the lesson's tensor has a NaN there too.
  for (const Answer::NaN& n : answer.nans)
    if (!g.shape_match || !std::isnan(e.v.at(static_cast<size_t>(n.index)))) throw UsageError(n.message);
  Hints h;
  core::set_cpu_kernels(run.cpu);
  std::vector<Printed> printed = printed_tensors(run);
  if (!g.shape_match) {
    shape_hints(ans, e, tol, h);
    equals_printed_hint(ans, e, printed, g.lesson, g.step, g.name, tol, h);
    g.hints = h.list;
    return g;
  }
  for (size_t k = 0; k < e.v.size(); ++k) {
    double d = std::fabs(ans.v[k] - e.v[k]);
    if (!std::isfinite(e.v[k]) || !std::isfinite(ans.v[k])) d = close(e.v[k], ans.v[k], tol) ? 0 : INFINITY;
    if (d > g.max_abs_diff || (k == 0 && g.max_index.empty())) g.max_abs_diff = d, g.max_index = unravel(static_cast<int64_t>(k), e.shape);
    if (close(e.v[k], ans.v[k], tol)) continue;
    if (++g.n_differ <= 5) g.first.push_back({unravel(static_cast<int64_t>(k), e.shape), e.v[k], ans.v[k]});
  }
  g.pass = g.n_differ == 0;
  if (g.pass) return g;

  if (et.is_float()) {
    if (ndim(e) >= 2 && e.shape[e.shape.size() - 1] == e.shape[e.shape.size() - 2]) shape_hints(ans, e, tol, h);   // transposed
    if (!h.has("transposed")) {   // a transposed result explains everything the softmax and mask tests would find
      std::vector<Source> sources = softmax_sources(e, printed);
      softmax_hints(ans, sources, tol, h);
      mask_hints(ans, e, sources, tol, h);
      context_hints(ans, e, printed, tol, h);
      scaled_copy_hint(ans, e, tol, h);
    }
    rerun_hints(ans, run, target, opts, tol, h);
  }
  equals_printed_hint(ans, e, printed, g.lesson, g.step, g.name, tol, h);
  g.hints = h.list;
  return g;
}

// ---- reports ----

std::string format_text(const Grade& g, const Target& target, const Answer& answer, const Tolerance& tol, const RunOptions& opts) {
  std::string out;
  std::string what = fmt::format("{}/{}  {} {}", g.lesson, g.step, g.name.empty() ? "(unnamed value)" : g.name, core::shape_str(g.expected_shape));
  std::string rule = fmt::format("{:g}+{:g}·|expected|", tol.atol, tol.rtol);   // one word: wrap() keeps it whole
  std::string yours = fmt::format("your answer ({}, {})", answer.file, answer.dtype);
  std::string given = options_words(opts);
  out += fmt::format("{}  {}{}\n", g.pass ? "PASS" : "FAIL", what, given.empty() ? "" : "  (lesson run with " + given + ")");
  if (!g.read_as.empty()) out += wrap(fmt::format("{} is {}.", answer.file, g.read_as), 100, "      ", "      ");
  if (!g.shape_match) {
    out += wrap(fmt::format("shape mismatch: {} has shape {}, the lesson's tensor has {}.", yours, core::shape_str(g.got_shape),
                            core::shape_str(g.expected_shape)),
                100, "      ", "      ");
  } else if (g.pass) {
    out += wrap(fmt::format("{} of {} agree{} within {}; the largest difference is {}.",
                            g.n_elements == 1 ? "the element" : fmt::format("all {} elements", g.n_elements), yours,
                            g.n_elements == 1 ? "s" : "", rule, num(g.max_abs_diff)),
                100, "      ", "      ");
  } else {
    out += wrap(fmt::format("{} of {} elements of {} differ by more than {}; the largest difference is {} at {}.", g.n_differ,
                            g.n_elements, yours, rule, num(g.max_abs_diff), index_str(g.max_index)),
                100, "      ", "      ");
    out += fmt::format("      {:<14}{:>14}{:>14}{:>14}\n", "index", "expected", "yours", "difference");
    for (const Difference& d : g.first)
      out += fmt::format("      {:<14}{:>14}{:>14}{:>14}\n", index_str(d.index), num(d.expected), num(d.got),
                         std::isinf(d.got - d.expected) || std::isnan(d.got - d.expected) ? "inf" : fmt::format("{:+.6g}", d.got - d.expected));
    if (g.n_differ > static_cast<int64_t>(g.first.size())) out += fmt::format("      ({} more)\n", g.n_differ - static_cast<int64_t>(g.first.size()));
  }
  if (target.float_names.size() > 1)
    out += wrap(fmt::format("(step '{}' prints {} float tensors: {}; {}; {})", g.step, target.float_names.size(),
                            join_names(target.float_names), g.name == target.float_names.back() ? "the last is graded" : "graded: " + g.name,
                            std::set<std::string>(target.float_names.begin(), target.float_names.end()).size() < target.float_names.size()
                                ? "--name or --index selects another"
                                : "--name selects another"),
                100, "      ", "      ");
  for (const Hint& h : g.hints) out += wrap(h.message, 100, "hint: ", "      ");
  if (!g.pass && g.hints.empty() && g.shape_match)
    out += wrap("no hint: the answer matches none of the mistakes attn check can recognise (wrong softmax axis, missing 1/√d_k, "
                "mask errors, transposes, draw order, another printed tensor).",
                100, "      ", "      ");
  return out;
}

std::string format_json(const Grade& g, const Answer& answer, const Tolerance& tol, const LessonRun& run, const RunOptions& opts) {
  auto ints = [](const std::vector<int64_t>& v) {
    std::vector<std::string> items;
    for (int64_t x : v) items.push_back(json::integer(x));
    return json::array(items);
  };
  auto opt = [](const std::optional<std::string>& s) { return s ? json::str(*s) : std::string("null"); };
  bool f4 = answer.dtype == "<f4";
  auto got_num = [&](double v) { return f4 ? json::number(static_cast<float>(v)) : json::number(v); };
  std::vector<std::string> diffs, hints;
  for (const Difference& d : g.first)
    diffs.push_back(json::Object()
                        .add("index", ints(d.index))
                        .add("expected", json::number(static_cast<float>(d.expected)))
                        .add("got", got_num(d.got))
                        .add("abs_diff", json::number(std::fabs(d.got - d.expected)))
                        .done());
  for (const Hint& h : g.hints) hints.push_back(json::Object().add("kind", json::str(h.kind)).add("message", json::str(h.message)).done());
  json::Object o;
  o.add("lesson", json::str(g.lesson)).add("step", json::str(g.step)).add("name", json::str(g.name));
  o.add("answer", json::Object()
                      .add("file", json::str(answer.file))
                      .add("format", json::str(answer.format == Answer::Format::npy ? "npy" : "text"))
                      .add("dtype", json::str(answer.dtype))
                      .add("shape", ints(answer.shape))
                      .done());
  o.add("options", json::Object()
                       .add("seed", opt(opts.seed))
                       .add("sentence", opt(opts.sentence))
                       .add("inputs", opt(opts.inputs))
                       .add("cpu", json::str(run.cpu == core::CpuKernels::scalar ? "scalar" : "avx2"))
                       .add("rng", json::str(run.rng == core::DropoutRng::mkl ? "mkl" : "portable"))
                       .add("atol", json::number(tol.atol))
                       .add("rtol", json::number(tol.rtol))
                       .done());
  o.add("pass", g.pass ? "true" : "false");
  o.add("shape", json::Object().add("expected", ints(g.expected_shape)).add("got", ints(g.got_shape)).done());
  o.add("n_elements", json::integer(g.n_elements));
  o.add("n_differ", g.shape_match ? json::integer(g.n_differ) : "null");
  o.add("max_abs_diff", g.shape_match ? json::number(g.max_abs_diff) : "null");
  o.add("max_abs_diff_index", g.shape_match ? ints(g.max_index) : "null");
  o.add("differences", json::array(diffs));
  o.add("hints", json::array(hints));
  return o.done() + "\n";
}

}  // namespace attn::lab
