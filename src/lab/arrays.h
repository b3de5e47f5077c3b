// lab/arrays.h: the answer and the lesson's printed tensors as arrays of doubles, and the
// comparisons `attn check` makes on them (internal to lab/).
//
// What it is: row-major double arrays (Arr), numpy.isclose's rule over them, index strings for
// reports, slicing along one dim, the test "is this a probability distribution along dim d",
// a transpose of the last two dims, and every float tensor a run printed (Printed).
// What it is not: tensor arithmetic with PyTorch's rounding (core/), or a hint (hints.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/tensor.h"
#include "lab/grade.h"
#include "lesson/run.h"

namespace attn::lab {

struct Arr {
  core::Shape shape;
  std::vector<double> v;   // row-major
};

Arr to_arr(const core::Tensor& t);
int64_t ndim(const Arr& a);

// numpy.isclose(got, expected, rtol, atol, equal_nan=True), one element or all (shapes equal).
bool close(double expected, double got, const Tolerance& tol);
bool close_all(const Arr& got, const Arr& expected, const Tolerance& tol);

// For recognising the lesson's own computations, which attn reproduces to the last bit or two.
inline constexpr Tolerance kExact{1e-6, 1e-5};

// The index of row-major element `flat` in `shape`, and as text: "[1, 4]".
std::vector<int64_t> unravel(int64_t flat, const core::Shape& shape);
std::string index_str(const std::vector<int64_t>& idx);

// Calls fn(base, stride, n) for every 1-D slice along `dim`.
void for_each_slice(const core::Shape& shape, int64_t dim, const std::function<void(int64_t, int64_t, int64_t)>& fn);

// The dims along which every slice of `a` is a probability distribution (finite, >= 0, sums to 1).
std::vector<int64_t> distribution_dims(const Arr& a);
bool is_distribution(const Arr& a, int64_t dim);

// a along its last two dims swapped (a copy); a itself if it has fewer than two.
Arr transposed(const Arr& a);

// ---- what the run printed ----

struct Printed {
  std::string step, name;
  core::Tensor t;
  Arr a;
};

// Every value step `s` printed, in order (all its cells).
std::vector<const torch::Printed*> printed_in(const lesson::StepRun& s);
// Every float tensor any step printed, first occurrence of each distinct one (same shape and values).
std::vector<Printed> printed_tensors(const lesson::LessonRun& run);

}  // namespace attn::lab
