// lab/progress.h: the learner's progress through the course: which lessons were finished, which
// exercises passed, and where the learner stopped (a lesson and a step).
//
// What it is: one small text file, $XDG_STATE_HOME/attn/progress (~/.local/state/attn/progress
// when XDG_STATE_HOME is unset, empty or not absolute, as the XDG spec says), never beside the
// lessons; written atomically (a temporary file renamed over it), its folder made as mkdir -p
// does. A missing file is a first run. A file that cannot be read or written, or lines that make
// no sense, never stop a lesson: the first such problem of a process is one line on stderr
// ("attn: progress ...: why"), and the rest is ignored.
// What it is not: which lesson comes next (cli/cmd_progress.cpp reads the catalogue for that)
// or how progress is shown.
//
// The file, one fact a line (lines attn does not know are reported once and dropped):
//   # attn progress: ...
//   finished causal
//   exercise causal weights
//   at causal tril
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>

namespace attn::lab {

struct Position {
  std::string lesson, step;
};

struct Progress {
  std::set<std::string> finished;                           // lesson names
  std::set<std::pair<std::string, std::string>> exercises;  // (lesson, step) that passed
  std::optional<Position> at;                               // where the learner stopped
};

// Where the file is: $XDG_STATE_HOME/attn/progress, or $HOME/.local/state/attn/progress.
// Empty when neither gives an absolute folder (no HOME): progress is then not kept.
std::string progress_path();

// The progress saved, or an empty one (a first run, or a file that could not be read: warned).
Progress load_progress();
// Writes it atomically; false (and warned) if it could not be written.
bool save_progress(const Progress& p);
// Clears it: the file is removed. False (and warned) if it could not be removed.
bool reset_progress();

// Each loads, changes one fact and saves (a problem is warned, never thrown).
void record_exercise_passed(const std::string& lesson, const std::string& step);
void record_position(const std::string& lesson, const std::string& step);   // stopped here
void record_finished(const std::string& lesson);   // and the position is cleared if it was in it

// Where warnings go: by default "attn: <text>" on stderr; the command line makes every message
// one line (cli/messages.h). At most one warning is given per process.
void set_progress_warning(std::function<void(const std::string&)> sink);

// The marks `attn progress` draws, in one place so the locale check chooses them: UTF-8's
// "✓" (finished) and "▸" (you are here), or ASCII's "x" and ">".
struct ProgressMarks {
  const char* finished;
  const char* here;
};
ProgressMarks progress_marks(bool utf8);

}  // namespace attn::lab
