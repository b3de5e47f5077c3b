// lab/answer.h: reads a student's answer tensor for `attn check`: a NumPy .npy file, or a
// text table (CSV or whitespace-separated, one row per line).
//
// What it is: a strict reader with one-line messages that name the file (and the line, for
// text) and say how to write an acceptable file. .npy: format versions 1.0, 2.0 and 3.0, dtypes
// <f4, <f8, <i8, <i4 and |b1, C order or Fortran order (np.save writes Fortran order for a
// transposed array: `np.save(path, w.T.numpy())`), little-endian. Text: numbers separated by
// commas and/or spaces (a comma may end a row, as rows copied from a printout do), `#` starts a
// comment (the header np.savetxt writes), inf and -inf are numbers (a masked score is -inf). NaN
// is refused, unless the caller allows it: `attn check` reads NaN and grades it (a NaN matches
// only a NaN of the lesson's: a fully masked row gives NaN, and a lesson may teach that).
// What it is not: the comparison (grade.h), or a general NumPy loader (no pickles, no .npz,
// no structured dtypes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/tensor.h"

namespace attn::lab {

struct Answer {
  enum class Format { npy, text, code };   // code: a variable of the learner's exercise file (exercise.h)
  std::string file;              // as the user named it: every message starts with it
  Format format = Format::npy;
  std::string dtype;             // .npy and code: its descr ("<f4"); text: "text"
  core::Shape shape;             // .npy: its shape; text: {rows, numbers per row}
  std::vector<double> data;      // row-major; finite or ±inf; NaN only if allowed
  struct NaN {
    int64_t index = 0;           // row-major position in data
    int line = 0;                // text: the line it is on
    std::string message;         // "FILE: element [1, 0] is NaN; ..." / "FILE:3: 'nan' is NaN; ..."
  };
  std::vector<NaN> nans;         // every NaN, in row-major order, when allowed
};

// Every problem is a UsageError (core/errors.h, exit code 2) reading "FILE: what is wrong" or
// "FILE:LINE: what is wrong". A file that starts with the .npy magic is read as .npy whatever
// its name; anything else is read as text.
Answer parse_answer(std::string_view bytes, const std::string& file, bool allow_nan = false);
Answer read_answer(const std::string& path, bool allow_nan = false);   // also: missing file, directory, unreadable

// The dtypes parse_answer accepts, for messages and --help: "<f4, <f8, <i8, <i4, |b1".
extern const char* const kAnswerDtypes;

}  // namespace attn::lab
