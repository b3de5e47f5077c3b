// lesson/export.h: a lesson run, written out for other tools: every printed tensor as a NumPy
// .npy file (plus index.json), and the whole lesson as a Jupyter notebook that runs in PyTorch.
//
// What it is: the writers behind `attn export`, so a student can load attn's numbers with
// numpy.load and run the same code, with the same --seed/--sentence/--inputs, in Python.
// The .npy bytes are exactly what numpy.save (1.24) writes for the same array: format 1.0,
// C order, little-endian, the header padded with spaces and a newline to a multiple of 64 bytes
// (with the spare room numpy leaves for growing the first axis).
// What it is not: a reader of .npy or notebooks, the writing of files (export_write.h: all or
// nothing, never through a symlink), or command-line handling (cli/).
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"
#include "lesson/run.h"

namespace attn::lesson {

// ---- .npy ----

// The whole .npy file for `t`: float32 -> '<f4', int64 -> '<i8', int32 -> '<i4', int16 -> '<i2', int8 -> '|i1', uint8 -> '|u1', bool -> '|b1'.
std::string npy_bytes(const core::Tensor& t);

// NumPy's dtype name: "float32", "int64", "uint8", ..., "bool".
std::string numpy_dtype(core::DType d);

// A printed expression as a file-name part: runs of characters other than [A-Za-z0-9_] become
// one '_', no leading or trailing '_', at most 48 characters; "value" if nothing is left.
// "sa(x)" -> "sa_x", "attn_weights.sum(dim=1)" -> "attn_weights_sum_dim_1".
std::string sanitise_name(const std::string& expr);

struct ExportedArray {
  std::string file;      // "scores__1__attn_scores.npy": <step>__<n>__<name>.npy, n counts the
                         // step's printed tensors from 1
  std::string step;      // step id
  int cell = 0;          // the cell within the step, from 1 (as in `verify`'s "causal/weights#2")
  std::string name;      // the source text it was printed from
  core::Shape shape;
  std::string dtype;     // numpy_dtype()
  const core::Tensor* tensor = nullptr;   // the printed tensor, owned by the run
};

// ---- handouts: --only ----
//
// `attn export --only STEP[,STEP...]` makes a handout that holds a lesson's starting tensors and
// not the tensors a student is asked to compute (and `attn check` grades): the .npy files of the
// listed steps only, and a notebook whose cells after the last listed step are left for the
// student to write. An empty list means the whole lesson.

// UsageError for a step the lesson does not have (listing its steps) or one listed twice.
void validate_only(const Lesson& lesson, const std::vector<std::string>& only);

// Every tensor the run printed (or only those of the steps in `only`), in order, with its file
// name; the numbering within a step is the same either way (nothing is written).
std::vector<ExportedArray> list_arrays(const LessonRun& run, const std::vector<std::string>& only = {});

// index.json for those arrays: lesson, kernel family, dropout rng, the input options (the seed a
// number), the steps of --only if given, arrays.
std::string index_json(const LessonRun& run, const RunOptions& opts, const std::vector<ExportedArray>& arrays,
                       const std::vector<std::string>& only = {});

// ---- notebook ----

// The lesson as a Jupyter notebook (nbformat 4.5): title, intro and step prose as markdown; each
// code cell as it ran (setup cells included, options applied), followed by a markdown cell with
// what attn printed for it, so the two can be compared after "Run All". For the scalar kernel
// family, a first code cell sets ATEN_CPU_CAPABILITY=default so PyTorch computes with the same
// kernels on any machine. `command` is shown as how the notebook was made. With `only`, a handout:
// the cells up to and including the last listed step keep their code and attn's output; each
// code cell after it is a comment saying what to compute there, with no output under it.
std::string notebook_json(const LessonRun& run, const RunOptions& opts, const std::string& command,
                          const std::vector<std::string>& only = {});

}  // namespace attn::lesson
