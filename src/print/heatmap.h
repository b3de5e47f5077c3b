// print/heatmap.h: attention weights as a picture in the terminal, with token labels.
//
// What it is: finds the matrices of a tensor that look like attention weights, marks the cells a
// causal mask removed, and draws them as a grid of shade characters (' .:-=+*#%@') or of
// 256-colour background blocks, several side by side when they fit in the width (80 columns, or
// the terminal's). Labels are whole words where they fit: a column label longer than its cell
// moves to a second, staggered label line, where it may use the next column's room too.
// What it is not: PyTorch's printer (tensor_str.h): the numbers stay where PyTorch prints them,
// this is drawn under them. It knows nothing of lessons, terminals or NO_COLOR: the caller says
// whether to use colour.
//
//   tensor([[1.0000, 0.0000, 0.0000, ...        ->   attn_weights
//            [0.0532, 0.9468, 0.0000, ...                 Life      short     dessert
//            [0.3862, 0.1214, 0.4924, ...                      is        eat       first
//                                                 Life    @@@@   ·    ·    ·    ·    ·
//                                                 is           @@@@   ·    ·    ·    ·
//                                                 short   ---- .... ====   ·    ·    ·
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace attn::print {

// One (rows, cols) matrix of weights, row-major, and which of its cells are masked.
struct WeightMatrix {
  int64_t rows = 0, cols = 0;
  std::vector<double> w;         // rows * cols
  std::vector<bool> masked;      // rows * cols: removed by a mask (drawn '·'), see mark_masks
  double at(int64_t r, int64_t c) const { return w[static_cast<size_t>(r * cols + c)]; }
};

// The matrices of a float tensor that look like attention weights: a 2-D tensor gives one, a
// 3-D tensor (a batch) one per batch element; empty if the tensor is not float, has another
// number of dimensions, or any of its matrices fails the test. A matrix passes if it has at
// least 2 rows and 2 columns, every weight is in [0, 1], and either
//   - every row sums to 1 (within 1e-3): softmax over the keys, masked or not;
//   - every column sums to 1 (within 1e-3): softmax over the queries (dim=1 on a batch);
//   - it is causal (below) and every row sums to more than 0 and at most 1 + 1e-3: weights whose
//     future was zeroed but not yet renormalised.
// A 0/1 mask such as torch.tril(torch.ones(6, 6)) fails: its rows sum to 1, 2, 3, ...
std::vector<WeightMatrix> attention_matrices(const core::Tensor& t);

// Masked cells are exact zeros with a structure no softmax of finite scores produces:
//   - causal: at least 2 rows, and every entry above the diagonal (column > row) is exactly 0.0;
//     those entries are masked (a -inf score, or weights multiplied by a lower-triangular mask);
//   - a masked key: a column that is exactly 0.0 in every row (a padding mask's -inf column).
// Any other 0 is a weight too small to print, never a masked cell.
bool is_causal(const WeightMatrix& m);
std::vector<bool> masked_columns(const WeightMatrix& m);   // one per column
void mark_masks(WeightMatrix& m);                          // sets m.masked from both rules
bool has_masked(const WeightMatrix& m);

// A matrix with its title and labels, as drawn. Labels may be empty: then 0, 1, 2, ...
struct HeatmapPanel {
  std::string title;                        // "attn_weights", "w_dim1[0]"
  WeightMatrix m;
  std::vector<std::string> row_labels;      // the query tokens (one per row, or empty)
  std::vector<std::string> col_labels;      // the key tokens (one per column, or empty)
};

struct HeatmapStyle {
  bool color = false;   // 256-colour background blocks instead of shade characters
  int width = 80;       // panels are put side by side while they fit in this many columns; the
                        // legend's words wrap within it
};

// The shade of a weight: 0 to 9, the nearest of 0, 1/9, 2/9, ..., 1.
int shade_level(double w);
constexpr const char* kShadeRamp = " .:-=+*#%@";   // level -> character
extern const int kShadeColors[10];                // level -> xterm-256 background colour

// One panel: a title line, one or two column-label lines, one line per row. Every line has the same
// visible width (escape codes and the UTF-8 '·' not counted), returned in *width.
std::vector<std::string> heatmap_lines(const HeatmapPanel& p, const HeatmapStyle& style, int* width = nullptr);

// Panels drawn in order: consecutive panels of the same shape go side by side (3 spaces apart)
// while the row fits in style.width, the rest below; then a legend. Empty if no panels.
std::string render_heatmaps(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style);

// The legend line(s) under the panels: the shade scale, and what '·' means for the kinds of
// masked cells drawn (above the diagonal of a causal matrix; a masked key column).
std::string heatmap_legend(const HeatmapStyle& style, bool causal, bool masked_keys);

}  // namespace attn::print
