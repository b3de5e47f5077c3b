// tests/lab/test_hints.cpp: `attn check`'s hints, on wrong answers built from the lesson's own
// printed intermediates with core ops (each hint must name its mistake); and the registry:
// kHints lists every HintKind once, in order, and docs/instructors.md's hint table lists the same kinds in
// the same order, so the documented precedence is the code's.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "support/grade_helpers.h"
#include "lab/hints.h"

using namespace grade_helpers;

namespace {

// Every kind in HintKind's order, as its JSON id.
std::vector<std::string> kind_ids() {
  std::vector<std::string> out;
  for (int k = 0; k < lab::kHintKindCount; ++k) out.emplace_back(lab::to_string(static_cast<lab::HintKind>(k)));
  return out;
}

// The ids in the first column of each row of docs/instructors.md's table in "Grading answers with `attn check`".
std::vector<std::vector<std::string>> readme_hint_rows() {
  std::ifstream in(std::string(ATTN_TEST_DATA) + "/../docs/instructors.md");
  std::stringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  size_t from = text.find("\n## Grading answers with `attn check`\n");
  REQUIRE(from != std::string::npos);
  std::string section = text.substr(from, text.find("\n## ", from + 1) - from);
  size_t table = section.find("\n| hint (`kind` in JSON) |");
  REQUIRE(table != std::string::npos);
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(section.substr(table + 1));
  std::string line;
  std::getline(lines, line);   // the heading
  std::getline(lines, line);   // |---|---|---|
  while (std::getline(lines, line) && line.rfind("| ", 0) == 0) {
    std::string first = line.substr(2, line.find(" |", 2) - 2);
    std::vector<std::string> ids;
    for (size_t open = first.find('`'); open != std::string::npos; open = first.find('`', open + 1)) {
      size_t close = first.find('`', open + 1);
      if (close == std::string::npos) break;
      std::string id = first.substr(open + 1, close - open - 1);
      if (!id.empty() && id.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos) {
        ids.push_back(id);   // `kind`: a lowercase id between backticks
        open = close;
      }
    }
    rows.push_back(ids);
  }
  return rows;
}

// "a, b, c": so that a failing CHECK shows both lists.
std::string joined(const std::vector<std::string>& ids) {
  std::string out;
  for (const std::string& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

}  // namespace

// ================================ the registry ================================

TEST_CASE("hint registry: kHints lists every HintKind once, in the enum's order; every id is distinct") {
  std::vector<std::string> listed;
  for (const lab::HintFamily& f : lab::kHints) {
    CAPTURE(f.about);
    CHECK(static_cast<bool>(f.find));
    CHECK(!f.about.empty());
    CHECK(!f.kinds.empty());
    for (lab::HintKind k : f.kinds) listed.emplace_back(lab::to_string(k));
  }
  std::vector<std::string> ids = kind_ids();
  CHECK(joined(listed) == joined(ids));
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  for (const std::string& s : ids)   // lowercase words joined by "_": neither end an underscore
    CHECK((s.size() >= 2 && s.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos && s.front() != '_' && s.back() != '_'));
  CHECK(ids.front() == "transposed");
  CHECK(ids.back() == "equals_printed");
  // Every kind has a title, short enough for a line of the class report, and no two share one.
  std::set<std::string> titles;
  for (int k = 0; k < lab::kHintKindCount; ++k) {
    std::string t(lab::title(static_cast<lab::HintKind>(k)));
    CAPTURE(t);
    CHECK(t != "unknown");
    CHECK(t.size() <= 44);
    titles.insert(t);
  }
  CHECK(titles.size() == static_cast<size_t>(lab::kHintKindCount));
}

TEST_CASE("hint registry: docs/instructors.md's hint table lists exactly the kinds, in kHints' order, one family per row") {
  std::vector<std::vector<std::string>> rows = readme_hint_rows();
  std::vector<std::string> listed;
  for (const auto& r : rows) listed.insert(listed.end(), r.begin(), r.end());
  CHECK(joined(listed) == joined(kind_ids()));
  // A row of the table never mixes two families (their order between them is the precedence).
  auto family_of = [](const std::string& id) {
    for (size_t f = 0; f < lab::kHints.size(); ++f)
      for (lab::HintKind k : lab::kHints[f].kinds)
        if (lab::to_string(k) == id) return static_cast<int>(f);
    return -1;
  };
  for (const auto& r : rows) {
    CAPTURE(r.front());
    CHECK(!r.empty());
    for (const std::string& id : r) CHECK(family_of(id) == family_of(r.front()));
  }
}

// ================================ hints ================================

TEST_CASE("hints: softmax over the wrong axis, missing or wrong 1/sqrt(d_k), transposed scores or result") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor s = printed(run, "scores", "attn_scores");
  core::Tensor w = printed(run, "weights", "attn_weights");
  double sqrt_dk = std::sqrt(2.0);

  Checked dim0 = check(run, "weights", answer_of(core::softmax(div(s, sqrt_dk), 0, run.cpu)));
  CHECK(dim0.kinds == "softmax_dim");
  CHECK(dim0.messages.find("Softmax over the wrong axis: in your answer each column sums to 1 (dim=0)") != std::string::npos);
  CHECK(dim0.messages.find("Your answer is softmax(attn_scores / √2, dim=0); the lesson computes softmax(attn_scores / √2, dim=1)") !=
        std::string::npos);

  Checked unscaled = check(run, "weights", answer_of(core::softmax(s, 1, run.cpu)));
  CHECK(unscaled.kinds == "missing_scale");
  CHECK(unscaled.messages.find("divides the scores by √d_k = √2 ≈ 1.414") != std::string::npos);

  CHECK(check(run, "weights", answer_of(core::softmax(div(s, 2), 1, run.cpu))).messages.find("Divided by d_k instead of √d_k") != std::string::npos);
  CHECK(check(run, "weights", answer_of(core::softmax(core::binary_scalar(core::BinOp::mul, s, sqrt_dk), 1, run.cpu))).kinds == "scale");
  Checked both = check(run, "weights", answer_of(core::softmax(s, 0, run.cpu)));
  CHECK(both.kinds == "softmax_dim,missing_scale");

  // keys @ queries.T: what drawing W_key before W_query gives; the re-run finds that too.
  Checked swapped = check(run, "weights", answer_of(core::softmax(div(core::t(s), sqrt_dk), 1, run.cpu)));
  CHECK(swapped.kinds == "transposed_scores,draw_order");
  CHECK(swapped.messages.find("draws W_key, W_query, W_value in that order; the lesson draws W_query, W_key, W_value") != std::string::npos);

  CHECK(check(run, "weights", answer_of(core::t(w))).kinds == "transposed");
  Checked scores_t = check(run, "scores", answer_of(core::t(s)));
  CHECK(scores_t.kinds == "transposed,draw_order");

  // 1-D weights of one query (the book chapter's α₂).
  lesson::LessonRun book = lesson::run_lesson(lesson_named("trainable"), {});
  core::Tensor s2 = printed(book, "omega-2", "attn_scores_2");
  CHECK(check(book, "alpha-2", answer_of(core::softmax(s2, 0, book.cpu))).kinds == "missing_scale");
}

TEST_CASE("hints: causal masks (not renormalised, filled with 0, missing, the wrong triangle)") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor s = printed(run, "scores", "attn_scores");
  core::Tensor w = printed(run, "weights", "attn_weights");
  core::Tensor masked = printed(run, "neg-inf", "masked");
  core::Tensor ones = core::ones({6, 6});

  Checked unnorm = check(run, "renorm", answer_of(core::binary(core::BinOp::mul, w, core::tril(ones))));
  CHECK(unnorm.kinds == "mask_not_renormalised,equals_printed");
  CHECK(unnorm.messages.find("rows of your answer sum to between 0.1772 and 1.0000, not 1") != std::string::npos);
  CHECK(unnorm.messages.find("Your answer equals `masked_simple`, which step 'masked' prints") != std::string::npos);

  core::Tensor zero_filled = masked.clone();   // a copy: a Tensor copy shares its elements
  float* zf = zero_filled.data<float>();
  for (int64_t k = 0; k < zero_filled.numel(); ++k)
    if (std::isinf(zf[k])) zf[k] = 0;
  Checked zero = check(run, "softmax-masked", answer_of(core::softmax(div(zero_filled, std::sqrt(2.0)), 1, run.cpu)));
  CHECK(zero.kinds == "mask_zero_fill");
  CHECK(zero.messages.find("filled the scores with 0 instead of -inf") != std::string::npos);

  Checked missing = check(run, "softmax-masked", answer_of(w));
  CHECK(missing.kinds == "mask_missing,equals_printed");
  CHECK(missing.messages.find("equals the `attn_weights` that step 'weights' prints") != std::string::npos);

  core::Tensor past = core::to_bool(core::tril(ones, -1));
  core::Tensor wrong = core::softmax(div(core::masked_fill(s, past, -INFINITY), std::sqrt(2.0)), 1, run.cpu);
  for (const char* step : {"softmax-masked", "renorm"}) {
    CAPTURE(step);
    Checked tri = check(run, step, answer_of(wrong));
    CHECK(tri.kinds == "mask_wrong_triangle");
    CHECK(tri.messages.find("the lesson hides the positions above it") != std::string::npos);
  }

  // weights * mask expected, plain weights given: not a distribution, still a missing mask.
  CHECK(check(run, "masked", answer_of(w)).kinds == "mask_missing,equals_printed");
}

TEST_CASE("hints: a mask over the diagonal too (NaN rows), the other triangle with tiny weights, masked keys @ queries.T") {
  for (const char* seed : {"", "42", "7"}) {
    CAPTURE(seed);
    lesson::RunOptions opts;
    if (*seed) opts.seed = seed;
    lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), opts);
    core::Tensor s = printed(run, "scores", "attn_scores");
    core::Tensor ones = core::ones({6, 6});
    auto masked_softmax = [&](const core::Tensor& scores, const core::Tensor& hide) {
      return core::softmax(div(core::masked_fill(scores, core::to_bool(hide), -INFINITY), std::sqrt(2.0)), 1, run.cpu);
    };
    // torch.tril(ones).bool() as the fill mask: the diagonal and the past hidden, the last row NaN.
    Checked past = check(run, "softmax-masked", answer_of(masked_softmax(s, core::tril(ones))), opts);
    CHECK(!past.g.pass);
    CHECK(past.g.n_nan == 6);
    CHECK(past.kinds == "mask_diagonal");
    CHECK(past.messages.rfind("Your weights keep only the positions above the diagonal (the future) and hide the diagonal and "
                              "the past: the last token is left nothing to see, so its row is NaN (0/0). ", 0) == 0);
    // The same numbers by the other method (issue 19): the weights times triu(ones, diagonal=1),
    // renormalised. The hint says what both share, and no longer "fill triu(..., diagonal=1) with
    // -inf instead" to the student who used that very matrix (as a keep-mask).
    core::Tensor w = printed(run, "weights", "attn_weights");
    core::Tensor kept = core::binary(core::BinOp::mul, w, core::triu(ones, 1));
    Checked renormalised = check(run, "softmax-masked", answer_of(core::binary(core::BinOp::div, kept, core::sum(kept, 1, true))), opts);
    CHECK(renormalised.g.n_nan == 6);
    CHECK(renormalised.kinds == "mask_diagonal");
    CHECK(renormalised.messages == past.messages);
    CHECK(renormalised.messages.find("instead") == std::string::npos);
    CHECK(renormalised.messages.find("tril(torch.ones(n, n)).bool()") == std::string::npos);
    // torch.triu(ones) without diagonal=1: the diagonal and the future hidden, the first row NaN.
    Checked future = check(run, "softmax-masked", answer_of(masked_softmax(s, core::triu(ones))), opts);
    CHECK(future.g.n_nan == 6);
    CHECK(future.kinds == "mask_diagonal");
    CHECK(future.messages.rfind("Your weights hide the diagonal as well as the future: the first token is left nothing to see", 0) == 0);

    // The other triangle, and the same copied to the 4 decimals PyTorch prints (tiny true weights become 0.0000).
    core::Tensor wrong = masked_softmax(s, core::tril(ones, -1));
    CHECK(check(run, "softmax-masked", answer_of(wrong), opts).kinds == "mask_wrong_triangle");
    lab::Answer rounded = answer_of(wrong);
    for (double& x : rounded.data) x = std::round(x * 1e4) / 1e4;
    CHECK(check(run, "softmax-masked", rounded, opts).kinds == "mask_wrong_triangle");

    // keys @ queries.T, then the lesson's mask: transposed scores, and the draw order that gives the same numbers.
    Checked kq = check(run, "softmax-masked", answer_of(masked_softmax(core::t(s), core::triu(ones, 1))), opts);
    CHECK(kq.kinds == "transposed_scores,draw_order");
    CHECK(kq.messages.find("your weights are the lesson's masked softmax of `attn_scores`.T") != std::string::npos);
  }
  // --seed 42 has true weights near 6e-8 where the mirrored mask keeps them: not counted as masked zeros.
  lesson::RunOptions seed42;
  seed42.seed = "42";
  lesson::LessonRun run42 = lesson::run_lesson(lesson_named("causal"), seed42);
  core::Tensor s42 = printed(run42, "scores", "attn_scores");
  core::Tensor wrong42 = core::softmax(div(core::masked_fill(s42, core::to_bool(core::tril(core::ones({6, 6}), -1)), -INFINITY), std::sqrt(2.0)),
                                       1, run42.cpu);
  const core::Tensor c42 = wrong42.contiguous();   // [6, 6]
  const float* w42 = c42.data<float>();
  CHECK(std::any_of(w42, w42 + wrong42.numel(), [](float x) { return x > 0 && x < 1e-6; }));
}

TEST_CASE("hints: context vectors from transposed weights, or from other printed weights") {
  // A small lesson: weights and masked weights printed, values not (they are solved for).
  const char* text = R"(# Context vectors
name: ctx
group: concepts
order: 1
source: a test

## weights: Weights
```python
import torch
torch.manual_seed(5)
scores = torch.randn(4, 4)
weights = torch.softmax(scores, dim=-1)
values = torch.randn(4, 3)
print(weights)
future = torch.triu(torch.ones(4, 4), diagonal=1).bool()
causal = torch.softmax(scores.masked_fill(future, -torch.inf), dim=-1)
print(causal)
```

## context: Context vectors
```python
z = weights @ values
print(z)
```
)";
  lesson::Lesson l = lesson::parse_lesson(text, "ctx.lesson");
  lesson::LessonRun run = lesson::run_lesson(l, {});
  core::Tensor w = printed(run, "weights", "weights");
  core::Tensor causal = printed(run, "weights", "causal");
  core::Tensor z = printed(run, "context", "z");
  // values = weights⁻¹ z, as the grader solves for it; the wrong answers are built from it.
  core::Tensor values = core::empty({4, 3});
  {
    // Solve by Gauss-Jordan in double (the test's own arithmetic, independent of the grader's Eigen).
    std::vector<std::vector<double>> m(4, std::vector<double>(7));
    for (int i = 0; i < 4; ++i) {
      for (int k = 0; k < 4; ++k) m[i][k] = w.float_at(i * 4 + k);
      for (int j = 0; j < 3; ++j) m[i][4 + j] = z.float_at(i * 3 + j);
    }
    for (int c = 0; c < 4; ++c) {
      int p = c;
      for (int r = c + 1; r < 4; ++r)
        if (std::fabs(m[r][c]) > std::fabs(m[p][c])) p = r;
      std::swap(m[c], m[p]);
      for (int r = 0; r < 4; ++r)
        if (r != c) {
          double f = m[r][c] / m[c][c];
          for (int k = c; k < 7; ++k) m[r][k] -= f * m[c][k];
        }
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j) values.data<float>()[i * 3 + j] = static_cast<float>(m[i][4 + j] / m[i][i]);
  }
  Checked t = check(run, "context", answer_of(core::matmul(core::t(w), values)));
  CHECK(t.kinds == "transposed_weights");
  CHECK(t.messages.find("Your context vectors are `weights`.T @ values") != std::string::npos);
  Checked other = check(run, "context", answer_of(core::matmul(causal, values)));
  CHECK(other.kinds == "other_weights");
  CHECK(other.messages.find("use the weights `causal` that step 'weights' prints; the lesson's use `weights`") != std::string::npos);
}

TEST_CASE("hints: a scaled copy, the wrong shape, a batch element, another printed tensor") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor w = printed(run, "weights", "attn_weights");
  Checked half = check(run, "weights", answer_of(core::binary_scalar(core::BinOp::mul, w, 0.5)));
  CHECK(half.kinds == "scaled");
  CHECK(half.messages.find("Every element of your answer is 0.5 times the lesson's (1/2)") != std::string::npos);

  Checked extra = check(run, "weights", answer_of(core::unsqueeze(w, 0)));
  CHECK(!extra.g.shape_match);
  CHECK(extra.g.got_shape == core::Shape{1, 6, 6});
  CHECK(extra.kinds == "shape");
  CHECK(check(run, "weights", answer_of(core::view(w, {4, 9}))).kinds == "shape");

  core::Tensor s = printed(run, "scores", "attn_scores");
  Checked scores = check(run, "weights", answer_of(s));
  CHECK(scores.kinds == "equals_printed");
  CHECK(scores.messages ==
        "Your answer equals `attn_scores`, which step 'scores' prints (`attn lesson causal --step scores` shows it); the tensor "
        "graded is `attn_weights`.\n");

  lesson::LessonRun batch = lesson::run_lesson(lesson_named("causal-batch"), {});
  core::Tensor z = printed(batch, "fixed", "context_vecs_fixed");
  Checked first = check(batch, "fixed", answer_of(core::index(z, {core::Index{}})), {}, "context_vecs_fixed");
  CHECK(first.kinds == "batch_element");
  // Graded by default: the last float tensor of the step, W_value(batch)[0, 0]; the hint names --name.
  Checked named = check(batch, "fixed", answer_of(z));
  CHECK(named.g.name == "ca_fixed.W_value(batch)[0, 0]");
  CHECK(named.messages.find("To grade `context_vecs_fixed` instead, add --name 'context_vecs_fixed'.") != std::string::npos);
}

TEST_CASE("hints from re-running the lesson: draw order, a seed left out, the article's seed, the other kernels or dropout RNG") {
  const lesson::Lesson& causal = lesson_named("causal");
  lesson::LessonRun run = lesson::run_lesson(causal, {});
  // The lesson with the draws of step 'scores' reordered: W_value first.
  lesson::Lesson changed = causal;
  for (auto& s : changed.steps)
    if (s.id == "scores") {
      std::string& c = s.cells[0].code;
      size_t v = c.find("W_value = ");
      std::string line = c.substr(v, c.find('\n', v) + 1 - v);
      c.erase(v, line.size());
      c.insert(c.find("W_query = "), line);
    }
  core::Tensor w_value_first = printed(lesson::run_lesson(changed, {}), "weights", "attn_weights");
  Checked order = check(run, "weights", answer_of(w_value_first));
  CHECK(order.kinds == "draw_order");
  CHECK(order.messages.find("step 'scores' draws W_value, W_query, W_key in that order") != std::string::npos);

  lesson::Lesson unseeded = causal;
  for (auto& s : unseeded.steps)
    if (s.id == "scores") s.cells[0].code.replace(0, std::strlen("torch.manual_seed(123)"), "pass");
  Checked seed = check(run, "weights", answer_of(printed(lesson::run_lesson(unseeded, {}), "weights", "attn_weights")));
  CHECK(seed.kinds == "seed");
  CHECK(seed.messages.find("without the `torch.manual_seed(123)` in step 'scores'") != std::string::npos);

  lesson::RunOptions seed42;
  seed42.seed = "42";
  lesson::LessonRun run42 = lesson::run_lesson(causal, seed42);
  Checked article = check(run42, "weights", answer_of(printed(run, "weights", "attn_weights")), seed42);
  CHECK(article.kinds == "options");
  CHECK(article.messages.find("without `--seed 42`, with the article's own seed") != std::string::npos);

  // Dropout masks of the other generator: a different pattern of zeros, found by re-running.
  const lesson::Lesson& dropout = lesson_named("dropout");
  lesson::RunOptions portable;
  portable.rng = attn::core::DropoutRng::portable;
  lesson::LessonRun mkl_run = lesson::run_lesson(dropout, {});
  core::Tensor portable_ones = printed(lesson::run_lesson(dropout, portable), "ones", "dropout(example)");
  Checked rng = check(mkl_run, "ones", answer_of(portable_ones));
  CHECK(rng.kinds == "rng");
  CHECK(rng.messages.find("grade with `--rng portable`") != std::string::npos);

  // The other kernel family differs in the last bits: only a tolerance of 0 tells them apart.
  lesson::RunOptions avx2;
  avx2.cpu = attn::core::CpuKernels::avx2;
  core::Tensor w_avx2 = printed(lesson::run_lesson(causal, avx2), "weights", "attn_weights");
  lesson::LessonRun scalar_run = lesson::run_lesson(causal, {});
  CHECK(check(scalar_run, "weights", answer_of(w_avx2)).g.pass);
  Checked exact = check(scalar_run, "weights", answer_of(w_avx2), {}, "", {0, 0});
  if (!exact.g.pass) CHECK(exact.kinds == "cpu");
}
