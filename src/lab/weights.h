// lab/weights.h: recognising how the lesson made its attention weights (internal to lab/).
//
// What it is: the 1/√d_k scale as a number and as the text a student knows ("√2"), fitted to a
// softmax's output by least squares and then checked; the printed tensors whose softmax along
// one dim, divided by one scale, IS the expected tensor (Source); words for a softmax axis.
// What it is not: a hint (hint_softmax.cpp and hint_mask.cpp use these to build theirs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lab/arrays.h"

namespace attn::lab {

// ---- scales: the 1/√d_k of scaled dot-product attention ----

struct Scale {
  double divisor = 1;
  std::string text;   // "√2", "2", "1.25"; empty for 1
};

// The divisor as a student writes it: 1, an integer n, √n, or 4 significant digits.
Scale snap(double divisor);
bool same_scale(const Scale& a, const Scale& b);
// "expr / √2", or expr itself when the scale is 1.
std::string scaled(const std::string& expr, const Scale& s);
// "√d_k = √2 ≈ 1.414", "2", "1.25"
std::string scale_words(const Scale& s);

// c such that log(p) = c * s + (a constant per slice), by least squares: the inverse
// temperature of a softmax that turned s into p; nullopt if there is none (c <= 0, too few points).
std::optional<double> fit_inverse_scale(const Arr& p, const Arr& s, int64_t dim);

// softmax((scores or scores.T) / scale, dim), with core's PyTorch-exact softmax in kernel family
// `cpu`: the graded run's (LessonRun::cpu), since the lesson's weights are compared to the last bit.
Arr softmax_of(const core::Tensor& scores, bool transpose, const Scale& scale, int64_t dim, core::CpuKernels cpu);

// `scores` (or scores.T) with -inf where `hide` is true (row-major positions of the result), as
// masked_fill(mask, -torch.inf) makes it: the input of a masked softmax.
core::Tensor masked_scores(const core::Tensor& scores, bool transpose, const std::vector<bool>& hide);

// "each row sums to 1 (dim=1, or dim=-1)"
std::string axis_words(int64_t dim, int64_t nd);

// The lesson's weights as the softmax of a printed tensor: expected == softmax(scores / scale, dim).
struct Source {
  const Printed* scores = nullptr;
  int64_t dim = 0;
  Scale scale;
};

// Every printed tensor the expected weights `e` are the softmax of (kExact, in family `cpu`), with
// its dim and scale.
std::vector<Source> softmax_sources(const Arr& e, const std::vector<Printed>& printed, core::CpuKernels cpu);

// A source whose scores were masked (-inf where the mask hides): which positions are hidden, and
// the printed scores before masking (finite, equal to the source's wherever it is not -inf), or
// nullptr if the run printed none. The mistakes of a mask are rebuilt from those.
std::vector<bool> neg_inf_positions(const Source& src);
const Printed* unmasked_scores(const Source& src, const std::vector<Printed>& printed);

}  // namespace attn::lab
