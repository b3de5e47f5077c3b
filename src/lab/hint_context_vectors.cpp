// lab/hint_context_vectors.cpp: the context-vector family (transposed_weights, other_weights):
// expected == weights @ values for printed weights, the values printed or solved for; the answer
// is weights.T @ values or other printed weights @ values (see hints.h).
#include "lab/hints.h"

#include <Eigen/Dense>
#include <fmt/format.h>

#include <optional>

#include "lab/report.h"

namespace attn::lab {

namespace {

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

}  // namespace

void context_hints(const HintContext& c, Hints& h) {
  const Arr& ans = c.answer;
  const Arr& e = c.expected;
  const std::vector<Printed>& printed = c.printed;
  const Tolerance& tol = c.tol;
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
      h.add(HintKind::transposed_weights,
            fmt::format("Your context vectors are {0}.T @ values: the attention weights are transposed. Row i of {0} (step '{1}') "
                        "holds query i's weights over all the tokens, so the context vectors are {0} @ values.",
                        code(w->name), w->step));
      return;
    }
    for (const Printed* other : weights)
      if (other != w && close_all(ans, batched_matmul(other->a, false, *v), tol)) {
        h.add(HintKind::other_weights, fmt::format("Your context vectors use the weights {} that step '{}' prints; the lesson's use {} of "
                                                   "step '{}'.",
                                                   code(other->name), other->step, code(w->name), w->step));
        return;
      }
  }
}

}  // namespace attn::lab
