// tests/print/test_heatmap.cpp: attention weights drawn as heatmaps (print/heatmap.h): which
// matrices are drawn, the masked cells, the drawing itself (exact strings, plain and in colour) and
// the side-by-side rule. What it is not: a lesson's rendering (tests/lesson/test_heatmap_render.cpp)
// or `attn lesson --heatmap` run as a program (tests/cli/test_heatmap_cli.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/ops.h"
#include "print/heatmap.h"

using namespace attn;

namespace {

core::Tensor matrix(int64_t rows, int64_t cols, std::vector<float> v) { return core::from_floats({rows, cols}, std::move(v)); }

print::HeatmapPanel panel(const std::string& title, const core::Tensor& t, std::vector<std::string> labels = {}) {
  auto mats = print::attention_matrices(t);
  REQUIRE(mats.size() == 1);
  print::HeatmapPanel p;
  p.title = title;
  p.m = mats[0];
  p.row_labels = p.col_labels = std::move(labels);
  return p;
}

const std::string kLegend = "0 [ .:-=+*#%@] 1   row: a query token, column: the key token it weighs\n";
const std::string kMaskedLegend = "· masked: above the diagonal, where every weight is exactly 0 (the future)\n";

}  // namespace

TEST_CASE("which matrices look like attention weights") {
  auto n = [](const core::Tensor& t) { return print::attention_matrices(t).size(); };
  // rows sum to 1 (softmax over the keys), masked or not
  CHECK(n(matrix(2, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f})) == 1);
  CHECK(n(matrix(2, 2, {1, 0, 0.4f, 0.6f})) == 1);
  // columns sum to 1 (softmax over the queries: dim=1 on a batch), causal
  CHECK(n(matrix(2, 2, {0.3f, 0, 0.7f, 1})) == 1);
  // causal weights before renormalising: rows sum to less than 1
  CHECK(n(matrix(3, 3, {0.2f, 0, 0, 0.1f, 0.3f, 0, 0.2f, 0.3f, 0.4f})) == 1);
  // not weights: a 0/1 mask, scores, negative or > 1 entries, dropout's doubled weights
  CHECK(n(core::tril(core::ones({4, 4}), 0)) == 0);
  CHECK(n(matrix(2, 2, {0.5f, 0, 2, -1})) == 0);
  CHECK(n(matrix(2, 2, {1.2f, -0.2f, 0.5f, 0.5f})) == 0);
  CHECK(n(matrix(2, 2, {0.4f, 0, 0.6f, 0.8f})) == 0);   // causal, but row 2 sums to 1.4 and columns do not to 1
  CHECK(n(matrix(2, 2, {0, 0, 0, 0})) == 0);
  // not a matrix, too small, or not float
  CHECK(n(core::from_floats({3}, {0.2f, 0.3f, 0.5f})) == 0);
  CHECK(n(matrix(1, 3, {0.2f, 0.3f, 0.5f})) == 0);
  CHECK(n(core::from_ints({2, 2}, {1, 0, 0, 1})) == 0);
  CHECK(n(core::from_floats({1, 1, 2, 2}, {1, 0, 0, 1})) == 0);
  // a batch: one per matrix, and only if every matrix passes
  CHECK(n(core::from_floats({2, 2, 2}, {1, 0, 0.5f, 0.5f, 0.5f, 0.5f, 0.25f, 0.75f})) == 2);
  CHECK(n(core::from_floats({2, 2, 2}, {1, 0, 0.5f, 0.5f, 3, 0, 0.25f, 0.75f})) == 0);
  // within 1e-3
  CHECK(n(matrix(2, 2, {0.5f, 0.5009f, 0.5f, 0.5f})) == 1);
  CHECK(n(matrix(2, 2, {0.5f, 0.502f, 0.5f, 0.5f})) == 0);
}

TEST_CASE("masked cells: exactly 0 above the diagonal of a causal matrix, never a small weight") {
  auto m = print::attention_matrices(matrix(3, 3, {1, 0, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.75f}))[0];
  CHECK(print::is_causal(m));
  CHECK(m.masked == std::vector<bool>{false, true, true, false, false, true, false, false, false});   // (2,0) is a 0 weight
  // one non-zero above the diagonal: nothing is masked, the zeros are weights
  auto u = print::attention_matrices(matrix(3, 3, {0.9f, 0.1f, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.75f}))[0];
  CHECK_FALSE(print::is_causal(u));
  CHECK(u.masked == std::vector<bool>(9, false));
  CHECK_FALSE(print::has_masked(u));
  // a key whose column is 0 for every query: a padding mask
  auto pad = print::attention_matrices(matrix(2, 3, {0.6f, 0.4f, 0, 0.3f, 0.7f, 0}))[0];
  CHECK_FALSE(print::is_causal(pad));
  CHECK(print::masked_columns(pad) == std::vector<bool>{false, false, true});
  CHECK(pad.masked == std::vector<bool>{false, false, true, false, false, true});
}

TEST_CASE("plain heatmap: a padded key") {
  auto p = panel("w", matrix(2, 3, {0.6f, 0.4f, 0, 0.3f, 0.7f, 0}));
  CHECK(print::render_heatmaps({p}, {}) ==
        "w\n"
        "  0  1  2\n"
        "0 ++ ==  ·\n"
        "1 -- **  ·\n"
        "\n" + kLegend + "· masked: a key whose column is exactly 0 for every query (a padding mask)\n");
}

TEST_CASE("shade levels: the nearest of 0, 1/9, ..., 1") {
  CHECK(print::shade_level(0.0) == 0);
  CHECK(print::shade_level(0.05) == 0);    // tiny: blank
  CHECK(print::shade_level(0.06) == 1);
  CHECK(print::shade_level(0.5) == 5);
  CHECK(print::shade_level(0.9999) == 9);
  CHECK(print::shade_level(1.0) == 9);
  CHECK(std::string(print::kShadeRamp).size() == 10);
}

TEST_CASE("plain heatmap: labels, shades, masked cells and a zero weight") {
  auto p = panel("w", matrix(3, 3, {1, 0, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.75f}), {"a", "bb", "ccc"});
  int width = 0;
  auto lines = print::heatmap_lines(p, {}, &width);
  CHECK(width == 16);
  CHECK(lines == std::vector<std::string>{
                     "w               ",
                     "    a   bb  ccc ",
                     "a   @@@  ·   ·  ",
                     "bb  +++ +++  ·  ",
                     "ccc     ::: ### ",
                 });
  CHECK(print::render_heatmaps({p}, {}) ==
        "w\n"
        "    a   bb  ccc\n"
        "a   @@@  ·   ·\n"
        "bb  +++ +++  ·\n"
        "ccc     ::: ###\n"
        "\n" + kLegend + kMaskedLegend);
}

TEST_CASE("plain heatmap: column numbers without tokens, long labels whole where they fit") {
  auto p = panel("attn", matrix(2, 2, {0.5f, 0.5f, 0.1f, 0.9f}));
  CHECK(print::render_heatmaps({p}, {}) ==
        "attn\n"
        "  0  1\n"
        "0 ++ ++\n"
        "1 .. %%\n"
        "\n" + kLegend);
  // token labels apply only to the axis whose length they match
  auto q = panel("x", matrix(2, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f}), {"longerthanten", "journey"});
  CHECK(print::render_heatmaps({q}, {}) ==
        "x\n"
        "              0  1  2\n"
        "longerthanten :: -- ++\n"
        "journey       .. .. ##\n"
        "\n" + kLegend);
  // Where a whole row label does not fit the width, it keeps 10 columns (the panel overflows
  // rather than lose the word's start).
  print::HeatmapStyle narrow;
  narrow.width = 18;
  int width = 0;
  CHECK(print::heatmap_lines(q, narrow, &width) ==
        std::vector<std::string>{"x                   ", "           0  1  2  ", "longerthan :: -- ++ ", "journey    .. .. ## "});
  CHECK(width == 20);
}

TEST_CASE("column labels: whole words on two staggered lines when they are longer than a cell") {
  auto p = panel("w", matrix(3, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f, 1, 0, 0}), {"Life", "dessert", "extraordinarily"});
  // Cells stay 4 wide; "dessert" and "extraordinarily" go where the neighbouring label leaves room:
  // a label may take its own slot and the next one's (9 columns), and only then is it cut.
  CHECK(print::render_heatmaps({p}, {}) ==
        "w\n"
        "                Life      extraordi\n"
        "                     dessert\n"
        "Life            :::: ---- ++++\n"
        "dessert         .... .... ####\n"
        "extraordinarily @@@@\n"
        "\n" + kLegend);
}

TEST_CASE("colour heatmap: xterm-256 background blocks, masked cells on the terminal's background") {
  print::HeatmapStyle color;
  color.color = true;
  auto p = panel("m", matrix(2, 2, {1, 0, 0.1f, 0.9f}));
  const std::string legend =
      "0 \x1b[48;5;54m  \x1b[0m\x1b[48;5;24m  \x1b[0m\x1b[48;5;31m  \x1b[0m\x1b[48;5;37m  \x1b[0m\x1b[48;5;43m  \x1b[0m"
      "\x1b[48;5;77m  \x1b[0m\x1b[48;5;113m  \x1b[0m\x1b[48;5;149m  \x1b[0m\x1b[48;5;185m  \x1b[0m\x1b[48;5;226m  \x1b[0m"
      " 1   row: a query token, column: the key token it weighs\n";
  CHECK(print::render_heatmaps({p}, color) ==
        "m\n"
        "  0  1\n"
        "0 \x1b[48;5;226m  \x1b[0m  ·\n"
        "1 \x1b[48;5;24m  \x1b[0m \x1b[48;5;185m  \x1b[0m\n"
        "\n" + legend + kMaskedLegend);
}

TEST_CASE("side by side: consecutive panels of one shape while they fit in 80 columns") {
  auto a = panel("before", matrix(2, 2, {0.5f, 0.5f, 0.5f, 0.5f}));
  auto b = panel("after", matrix(2, 2, {1, 0, 0.5f, 0.5f}));
  auto c = panel("other", matrix(2, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f}));
  CHECK(print::render_heatmaps({a, b, c}, {}) ==
        "before     after\n"
        "  0  1       0  1\n"
        "0 ++ ++    0 @@  ·\n"
        "1 ++ ++    1 ++ ++\n"
        "\n"
        "other\n"
        "  0  1  2\n"
        "0 :: -- ++\n"
        "1 .. .. ##\n"
        "\n" + kLegend + kMaskedLegend);
  print::HeatmapStyle narrow;
  narrow.width = 15;   // two 8-column panels and the gap do not fit: one under the other
  CHECK(print::render_heatmaps({a, b}, narrow) ==
        "before\n  0  1\n0 ++ ++\n1 ++ ++\n\nafter\n  0  1\n0 @@  ·\n1 ++ ++\n\n"
        // the legend's words wrap within the width too, never inside a word
        "0 [ .:-=+*#%@] 1\nrow: a query\ntoken, column:\nthe key token\nit weighs\n"
        "· masked: above\n  the diagonal,\n  where every\n  weight is\n  exactly 0\n  (the future)\n");
}
