// lab/exercise.h: exercises the learner writes (`attn exercise`, `attn check --code`, `attn watch`):
// a Python file holding a lesson's code up to one step, whose computation is left as a TODO, and
// the grading of the file once the learner has written it.
//
// What it is: which variable a step's exercise asks for (decided from the run: a plain name the
// step assigns and prints as a float tensor, the value `attn check` grades), the exercise file
// (its header, the earlier steps' code exactly as the lesson ran it, the TODO), reading that
// header back, and running a learner's file in attn's sandbox (the limits and refusals of lesson
// cells) to take the variable as an Answer (answer.h) that grade() grades as it grades a file.
// What it is not: the comparison or the hints (grade.h), the command line (cli/), or the
// learner's progress (lab/progress.h, another part of issue 19).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lab/answer.h"
#include "lesson/run.h"

namespace attn::lab {

// The learner's code failed or computed no answer: "ex.py:12: NameError: name 'x' is not
// defined", "ex.py:14: `attn_weights` is still `...`: write the code the TODO on line 14 asks
// for". Not bad usage: the check ran and the answer fails (exit code 1). message() is the whole
// text (what() stops at a NUL a Python message may hold).
struct CodeError : std::runtime_error {
  explicit CodeError(const std::string& message) : std::runtime_error(message), message_(message) {}
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// The variable the exercise of `step` asks for: the last float tensor the step prints by a plain
// name that one of its top-level statements assigns before printing it. nullopt: the step has no
// exercise (it prints no such tensor: a setup step, a shape, a number, an expression).
std::optional<std::string> exercise_variable(const lesson::StepRun& step);

// "scores (attn_scores), weights (attn_weights), ...": every step of `run` with an exercise.
std::vector<std::string> exercise_list(const lesson::LessonRun& run);

// The exercise variable of step `step_id` in `run` (a run of the whole lesson), or a UsageError
// naming the steps that have one.
std::string require_exercise(const lesson::LessonRun& run, const std::string& step_id);

// The command-line words of the options that change a run's numbers (--seed, --sentence,
// --inputs, --cpu, --rng), each quoted for a POSIX shell where it needs it: " --seed 7".
std::string option_words_for_shell(const lesson::RunOptions& opts);
// `word` quoted for a POSIX shell ('it'\''s'), or as it is when it needs no quotes.
std::string shell_quote(const std::string& word);

// The exercise file of step `step_id` of `run` (made with `opts`; run.steps must reach the step):
// the header naming how to check it (`file`: the name the commands in it use for the file), the
// code of the earlier steps as it ran, the step's prose as a comment, and its code up to the
// variable's computation replaced by `VARIABLE = ...  # TODO: ...` (what follows it kept).
std::string exercise_file(const lesson::LessonRun& run, const std::string& step_id, const lesson::RunOptions& opts,
                          const std::string& file);

// What an exercise file's header says: its lesson, step and the option words of its check
// command (shell words, unquoted). nullopt: the text has no exercise header.
struct ExerciseHeader {
  std::string lesson, step;
  std::vector<std::string> option_words;
};
std::optional<ExerciseHeader> read_exercise_header(const std::string& text);
// Splits a line into POSIX shell words ('...' and "..." quoting, backslash escapes); nullopt for
// an unterminated quote.
std::optional<std::vector<std::string>> shell_words(const std::string& line);

// Runs the learner's file `path` as one program (errors name `path`:LINE) in a fresh session of
// `run`'s kernels and dropout RNG, with the limits of lesson cells (opts.time_limit), and returns
// the exercise variable of `step_id` from its globals as an Answer (file: `path`, format: code,
// NaN allowed as `attn check` reads it). CodeError for a Python error, a TODO left untouched (the
// variable still `...`), a variable never assigned or not a tensor; UsageError for a step without
// an exercise or a file that cannot be read. The integrator's entry for a class folder's .py files.
Answer answer_from_code(const lesson::LessonRun& run, const std::string& step_id, const lesson::RunOptions& opts,
                        const std::string& path);

}  // namespace attn::lab
