// print/heatmap.cpp: attention weights drawn as shade characters or colour blocks (heatmap.h).
#include "print/heatmap.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "print/unicode.h"
#include "print/wrap.h"

namespace attn::print {

// Ten xterm-256 background colours, dark purple to yellow (after matplotlib's viridis). Their
// brightness (0.299 R + 0.587 G + 0.114 B) rises with the level: 44, 71, 99, 123, 146, 165, 177,
// 189, 201, 226 of 255, so the picture reads the same on dark and light terminals, and the
// darkest block is still visible on black.
const int kShadeColors[10] = {54, 24, 31, 37, 43, 77, 113, 149, 185, 226};

namespace {

constexpr double kSumTolerance = 1e-3;
// '·' (U+00B7, one column wide); 'x' under a non-UTF-8 locale ('.' is a shade).
std::string masked_glyph() { return glyph("·", "x"); }
constexpr const char* kReset = "\x1b[0m";

// ---- text width: print/wrap.h's visible_width (display columns: CJK two, marks none) ----

// The first `n` columns of s.
std::string truncate(const std::string& s, int n) { return truncate_to_width(s, n); }

std::string pad(const std::string& s, int width) {
  int w = visible_width(s);
  return w >= width ? s : s + std::string(static_cast<size_t>(width - w), ' ');
}

std::string rtrim(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string background(int level) { return fmt::format("\x1b[48;5;{}m", kShadeColors[level]); }

bool in_unit_range(double v) { return v >= 0.0 && v <= 1.0 + 1e-6; }

// ---- which matrices ----

bool looks_like_weights(const WeightMatrix& m) {
  if (m.rows < 2 || m.cols < 2) return false;
  if (!std::all_of(m.w.begin(), m.w.end(), in_unit_range)) return false;
  bool rows_sum_to_1 = true, rows_at_most_1 = true, cols_sum_to_1 = true;
  for (int64_t r = 0; r < m.rows; ++r) {
    double s = 0;
    for (int64_t c = 0; c < m.cols; ++c) s += m.at(r, c);
    rows_sum_to_1 = rows_sum_to_1 && std::abs(s - 1.0) <= kSumTolerance;
    rows_at_most_1 = rows_at_most_1 && s > 0.0 && s <= 1.0 + kSumTolerance;
  }
  for (int64_t c = 0; c < m.cols; ++c) {
    double s = 0;
    for (int64_t r = 0; r < m.rows; ++r) s += m.at(r, c);
    cols_sum_to_1 = cols_sum_to_1 && std::abs(s - 1.0) <= kSumTolerance;
  }
  return rows_sum_to_1 || cols_sum_to_1 || (rows_at_most_1 && is_causal(m));
}

// A token as a label: valid UTF-8 printable text as it is; a control character (C0, DEL, C1)
// or a byte that is not UTF-8 as \xNN, a bidirectional control (U+202A..202E, U+2066..2069) as
// \u202e, so a --sentence cannot move the cursor, recolour the terminal or reorder the line, nor
// put bytes that are not text into the output (issue 20, review 30 #14).
std::string printable_label(std::string_view s) {
  std::string out;
  for (size_t k = 0; k < s.size();) {
    const auto b = static_cast<unsigned char>(s[k]);
    const size_t n = b < 0x80 ? 1 : (b & 0xE0) == 0xC0 && b >= 0xC2 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 && b <= 0xF4 ? 4 : 0;
    bool valid = n > 0 && k + n <= s.size();
    for (size_t j = 1; valid && j < n; ++j) valid = (static_cast<unsigned char>(s[k + j]) & 0xC0) == 0x80;
    size_t end = k;
    const char32_t c = valid ? unicode::next(s, end) : 0;
    valid = valid && !(n == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) && !(n == 4 && (c < 0x10000 || c > 0x10FFFF));
    if (!valid || c < 0x20 || (c >= 0x7F && c < 0xA0)) {
      out += fmt::format("\\x{:02x}", valid && c >= 0x80 ? static_cast<unsigned>(c) : b);
      k += valid ? n : 1;
    } else if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069)) {   // bidi controls, as one_line writes them
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      k += n;
    } else {
      out.append(s.substr(k, n));
      k += n;
    }
  }
  return out;
}

// The labels of one axis: the given ones (shown printable) if there is one per row/column, else
// 0, 1, 2, ...
std::vector<std::string> axis_labels(const std::vector<std::string>& given, int64_t n) {
  if (static_cast<int64_t>(given.size()) == n) {
    std::vector<std::string> out;
    for (const std::string& g : given) out.push_back(printable_label(g));
    return out;
  }
  std::vector<std::string> out;
  for (int64_t k = 0; k < n; ++k) out.push_back(std::to_string(k));
  return out;
}

}  // namespace

// ---- which matrices ----

bool is_causal(const WeightMatrix& m) {
  if (m.rows < 2 || m.cols < 2) return false;
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = r + 1; c < m.cols; ++c)
      if (m.at(r, c) != 0.0) return false;
  return true;
}

std::vector<bool> masked_columns(const WeightMatrix& m) {
  std::vector<bool> out(static_cast<size_t>(m.cols), m.rows >= 2);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c)
      if (m.at(r, c) != 0.0) out[static_cast<size_t>(c)] = false;
  return out;
}

void mark_masks(WeightMatrix& m) {
  bool causal = is_causal(m);
  std::vector<bool> keys = masked_columns(m);
  m.masked.assign(m.w.size(), false);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c)
      m.masked[static_cast<size_t>(r * m.cols + c)] = (causal && c > r) || keys[static_cast<size_t>(c)];
}

bool has_masked(const WeightMatrix& m) { return std::find(m.masked.begin(), m.masked.end(), true) != m.masked.end(); }

std::vector<WeightMatrix> attention_matrices(const core::Tensor& t) {
  if (!t.is_float() || (t.dim() != 2 && t.dim() != 3)) return {};
  int64_t batch = t.dim() == 3 ? t.shape()[0] : 1;
  int64_t rows = t.shape()[t.dim() - 2], cols = t.shape()[t.dim() - 1];
  std::vector<WeightMatrix> out;
  for (int64_t b = 0; b < batch; ++b) {
    WeightMatrix m;
    m.rows = rows;
    m.cols = cols;
    for (int64_t k = 0; k < rows * cols; ++k) m.w.push_back(t.at(b * rows * cols + k));
    if (!looks_like_weights(m)) return {};
    mark_masks(m);
    out.push_back(std::move(m));
  }
  return out;
}

// ---- drawing ----

int shade_level(double w) {
  long level = std::lround(w * 9.0);
  return static_cast<int>(std::clamp(level, 0L, 9L));
}

std::vector<std::string> heatmap_lines(const HeatmapPanel& p, const HeatmapStyle& style, int* width) {
  const WeightMatrix& m = p.m;
  std::vector<std::string> rows = axis_labels(p.row_labels, m.rows), cols = axis_labels(p.col_labels, m.cols);
  const int n_cols = static_cast<int>(m.cols);
  int longest_row = 1, longest_col = 1;
  for (const std::string& s : rows) longest_row = std::max(longest_row, visible_width(s));
  for (const std::string& s : cols) longest_col = std::max(longest_col, visible_width(s));
  // Cells: as wide as the column labels, 2 to 4 columns, then one blank column, so each cell is a
  // separate tile under its label. Row labels: whole words while the panel fits in style.width,
  // and at least 10 columns of them.
  int label_w = std::min(10, longest_row), cell_w = std::clamp(longest_col, 2, 4);
  if (label_w + 1 + (cell_w + 1) * n_cols > style.width) cell_w = 2;
  int slot = cell_w + 1;
  label_w = std::max(label_w, std::min(longest_row, style.width - 1 - slot * n_cols));
  int total = label_w + 1 + slot * n_cols;

  // Column labels: one line when each fits its cell. Otherwise two staggered lines (even
  // columns on the first, odd ones on the second), so a label may use its own slot and the next
  // one's: "dessert" over a 4-column cell stays a whole word. Only what does not fit even then is cut.
  bool staggered = longest_col > cell_w;
  std::vector<std::string> heads(staggered ? 2 : 1, std::string(static_cast<size_t>(label_w + 1), ' '));
  for (int c = 0; c < n_cols; ++c) {
    std::string& head = heads[static_cast<size_t>(staggered ? c % 2 : 0)];
    head = pad(head, label_w + 1 + slot * c);
    head += truncate(cols[static_cast<size_t>(c)], staggered ? 2 * slot - 1 : cell_w);
  }
  for (const std::string& h : heads) total = std::max(total, visible_width(h));
  total = std::max(total, std::min(visible_width(p.title), style.width));

  std::vector<std::string> out;
  out.push_back(pad(truncate(p.title, total), total));
  for (const std::string& h : heads) out.push_back(pad(h, total));
  for (int64_t r = 0; r < m.rows; ++r) {
    std::string line = pad(truncate(rows[static_cast<size_t>(r)], label_w), label_w) + " ";
    for (int64_t c = 0; c < m.cols; ++c) {
      size_t k = static_cast<size_t>(r * m.cols + c);
      bool masked = !m.masked.empty() && m.masked[k];
      if (masked) {   // '·' in the middle of the cell, on the terminal's own background
        line += std::string(static_cast<size_t>(cell_w / 2), ' ') + masked_glyph() +
                std::string(static_cast<size_t>(slot - cell_w / 2 - 1), ' ');
      } else if (style.color) {
        line += background(shade_level(m.w[k])) + std::string(static_cast<size_t>(cell_w), ' ') + kReset + " ";
      } else {
        line += std::string(static_cast<size_t>(cell_w), kShadeRamp[shade_level(m.w[k])]) + " ";
      }
    }
    out.push_back(pad(line, total));
  }
  if (width) *width = total;
  return out;
}

std::string heatmap_legend(const HeatmapStyle& style, bool causal, bool masked_keys) {
  std::string scale;
  if (style.color) {
    for (int level = 0; level < 10; ++level) scale += background(level) + "  " + kReset;
  } else {
    scale = fmt::format("[{}]", kShadeRamp);
  }
  // The scale is never broken (its colour blocks are spaces); the words after it wrap to the width.
  const std::string words = "row: a query token, column: the key token it weighs";
  std::string out = "0 " + scale + " 1";
  bool fits = visible_width(out) + 3 + visible_width(words) <= style.width;
  out += fits ? "   " : "\n";
  out += fits ? words : wrap_line(words, style.width);
  out += "\n";
  if (causal)
    out += wrap_line(masked_glyph() + " masked: above the diagonal, where every weight is exactly 0 (the future)", style.width, 2) + "\n";
  if (masked_keys)
    out += wrap_line(masked_glyph() + " masked: a key whose column is exactly 0 for every query (a padding mask)", style.width, 2) + "\n";
  return out;
}

std::string render_heatmaps(const std::vector<HeatmapPanel>& panels, const HeatmapStyle& style) {
  if (panels.empty()) return "";
  constexpr int kGap = 3;
  std::string out;
  bool causal = false, masked_keys = false;
  for (size_t k = 0; k < panels.size();) {
    // One row of panels: the next panel, then those after it of the same shape while they fit.
    int row_width = 0;
    std::vector<std::vector<std::string>> row;
    size_t j = k;
    for (; j < panels.size(); ++j) {
      const WeightMatrix &a = panels[k].m, &b = panels[j].m;
      if (j > k && (a.rows != b.rows || a.cols != b.cols)) break;
      int w = 0;
      std::vector<std::string> lines = heatmap_lines(panels[j], style, &w);
      if (j > k && row_width + kGap + w > style.width) break;
      row_width += (j > k ? kGap : 0) + w;
      row.push_back(std::move(lines));
      causal = causal || is_causal(panels[j].m);
      std::vector<bool> keys = masked_columns(panels[j].m);
      masked_keys = masked_keys || std::find(keys.begin(), keys.end(), true) != keys.end();
    }
    if (k > 0) out += "\n";
    for (size_t line = 0; line < row[0].size(); ++line) {
      std::string text;
      for (size_t p = 0; p < row.size(); ++p) text += (p ? std::string(kGap, ' ') : "") + row[p][line];
      out += rtrim(text) + "\n";
    }
    k = j;
  }
  return out + "\n" + heatmap_legend(style, causal, masked_keys);
}

}  // namespace attn::print
