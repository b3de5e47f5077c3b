// cli/cmd_watch.cpp: `attn watch FILE`: checks an exercise file (`attn exercise`) now and again on
// every save, as rustlings does, until it passes (exit 0).
//
// What it is: the lesson, step and options come from the file's header (lab/exercise.h); the
// lesson runs once, and each save re-runs the learner's file and grades it (grade_code, as
// `attn check --code` does). Saves are seen with inotify on the file's folder (editors save by
// renaming a new file over the old one), a burst of events is one save. Before each check the
// screen is cleared when stdout is a terminal (never an escape code when piped). SIGINT/SIGTERM
// stop it (exit 130/143, as a shell reports them), so does the folder disappearing (exit 1).
// What it is not: the grading (cmd_check.cpp, lab/), or a general file watcher.
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/messages.h"
#include "lab/exercise.h"
#include "lesson/catalog.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct WatchOptions {
  std::string file;
  std::optional<double> time_limit;
};

// What one wait ended with.
enum class Event { saved, signal_int, signal_term, folder_gone };

// The file's folder under inotify, and SIGINT/SIGTERM as a descriptor (blocked while attn runs a
// check, so a Ctrl-C during one stops the watch when it ends). Both undone when destroyed.
class Watcher {
 public:
  explicit Watcher(const std::string& file) {
    std::filesystem::path p(file);
    name_ = p.filename().string();
    std::string dir = p.parent_path().empty() ? "." : p.parent_path().string();
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, &old_);
    sig_ = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
    ino_ = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (sig_ < 0 || ino_ < 0 ||
        inotify_add_watch(ino_, dir.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR) < 0) {
      std::string why = std::strerror(errno);
      close_all();
      throw std::runtime_error(fmt::format("cannot watch the folder of {}: {}", file, why));
    }
  }
  ~Watcher() { close_all(); }
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  // Waits for a save of the file (then for 150 ms of quiet: an editor's burst is one save), a
  // signal, or the folder going away.
  Event wait() {
    saved_ = false;
    for (int timeout = -1;;) {
      pollfd fds[2] = {{sig_, POLLIN, 0}, {ino_, POLLIN, 0}};
      int n = poll(fds, 2, timeout);   // (a non-blocking signalfd: poll says when it is readable)
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return Event::saved;   // quiet after a save (or poll failed: check once more)
      if (fds[0].revents & POLLIN) return read_signal();
      if (fds[1].revents & POLLIN) {
        Event e = read_events();
        if (e == Event::folder_gone) return e;
        if (saved_) timeout = 150;
      }
    }
  }

 private:
  int sig_ = -1, ino_ = -1;
  sigset_t old_{};
  std::string name_;
  bool saved_ = false, signalled_ = false;

  // After a signal the mask stays: attn is about to exit, and a second SIGTERM (timeout(1) signals
  // the child and then its group) must not kill it before its last line is written.
  void close_all() {
    if (ino_ >= 0) ::close(ino_);
    if (sig_ >= 0) ::close(sig_);
    ino_ = sig_ = -1;
    if (!signalled_) sigprocmask(SIG_SETMASK, &old_, nullptr);
  }
  Event read_signal() {
    signalled_ = true;
    signalfd_siginfo info{};
    ssize_t got = ::read(sig_, &info, sizeof info);
    return got == sizeof info && info.ssi_signo == SIGTERM ? Event::signal_term : Event::signal_int;
  }
  Event read_events() {
    alignas(inotify_event) char buf[4096];
    for (ssize_t len; (len = ::read(ino_, buf, sizeof buf)) > 0;)
      for (ssize_t at = 0; at < len;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf + at);
        if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) return Event::folder_gone;
        if (e->len > 0 && name_ == e->name) saved_ = true;
        at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
      }
    return Event::saved;
  }
};

// The file's first 64 KB (its header is at the top); only a regular file (a FIFO would block, a
// device never end).
std::string read_head(const std::string& file) {
  std::error_code ec;
  auto st = std::filesystem::status(file, ec);
  if (!std::filesystem::exists(st)) throw UsageError(file + ": no such file");
  if (!std::filesystem::is_regular_file(st)) throw UsageError(file + ": is not a regular file; an exercise is a .py file `attn exercise` wrote");
  std::ifstream in(file, std::ios::binary);
  std::string head(1 << 16, '\0');
  head.resize(static_cast<size_t>(in.read(head.data(), static_cast<std::streamsize>(head.size())).gcount()));
  return head;
}

// The options the exercise was made with, from its header's check command.
RunOptions header_options(const std::string& file, const lab::ExerciseHeader& h) {
  CLI::App app;
  InputOptions io;
  add_inputs(&app, io);
  std::vector<std::string> args(h.option_words.rbegin(), h.option_words.rend());   // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    throw UsageError(fmt::format("{}: the options in its header's `attn check` line: {}", file, e.what()));
  }
  return io.to_run();
}

// After a pass: the next step of the lesson with an exercise, as the command that makes it.
std::string next_text(const LessonRun& run, const std::string& step, const RunOptions& opts) {
  const std::string& name = run.lesson->name();
  bool after = false;
  for (const StepRun& s : run.steps) {
    if (after && lab::exercise_variable(s))
      return fmt::format("Next exercise: attn exercise {} --step {}{} -o {}-{}.py\n", name, s.step->id, lab::option_words_for_shell(opts),
                         name, s.step->id);
    after = after || s.step->id == step;
  }
  return fmt::format("That was the last exercise of lesson {}; `attn list` shows the course.\n", name);
}

// One check of the file, shown; true if it passed.
bool check_once(const LessonRun& run, const std::string& step, const RunOptions& opts, const std::string& file) {
  if (isatty(STDOUT_FILENO) == 1) std::cout << "\x1b[H\x1b[2J";   // clear the screen, as rustlings does
  std::cout << fmt::format("attn watch {}: lesson {}, step {}\n\n", file, run.lesson->name(), step);
  try {
    CodeGrade g = grade_code(run, step, opts, file);
    std::cout << g.report;
    return g.pass;
  } catch (const lab::CodeError& e) {
    std::cout << one_line(e.message()) << "\n";
  } catch (const UsageError& e) {   // the file gone for a moment, or unreadable: the next save may fix it
    std::cout << one_line(e.message()) << "\n";
  }
  return false;
}

int run_watch(const WatchOptions& o) {
  auto h = lab::read_exercise_header(read_head(o.file));
  if (!h)
    throw UsageError(fmt::format("{}: is not an exercise file (it has no `# attn exercise:` header); make one with `attn exercise "
                                 "NAME --step STEP -o FILE`",
                                 o.file));
  RunOptions opts = header_options(o.file, *h);
  if (o.time_limit) opts.time_limit = o.time_limit;
  auto all = load_lessons();
  const Lesson& l = find_lesson(all, h->lesson);
  validate(l, opts);
  require_step(l, h->step);
  LessonRun run = run_lesson(l, opts);
  lab::require_exercise(run, h->step);
  Watcher watcher(o.file);   // before the first check: a save during it is seen
  while (!check_once(run, h->step, opts, o.file)) {
    std::cout << fmt::format("\nwaiting for you to save {}; Ctrl-C to stop\n", o.file) << std::flush;
    Event e = watcher.wait();
    if (e == Event::folder_gone) throw std::runtime_error(fmt::format("the folder of {} was removed or moved; stopped watching", o.file));
    if (e != Event::saved) {
      std::cout << fmt::format("stopped watching {}\n", o.file) << std::flush;
      return e == Event::signal_int ? 130 : 143;
    }
  }
  std::cout << "\n" << next_text(run, h->step, opts);
  return 0;
}

}  // namespace

void setup_watch(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<WatchOptions>();
  auto* cmd = app.add_subcommand("watch", "Check an exercise file (`attn exercise`) now and on every save, until it passes");
  cmd->add_option("file", opts->file, "The exercise file, e.g. causal-weights.py")->required();
  cmd->add_option_function<double>("--time-limit", [o = opts.get()](const double& s) { o->time_limit = s; },
                                   "Stop your code when it runs longer than this many seconds (default: 60)")
      ->check(CLI::Range(0.001, 86400.0));
  cmd->callback([opts, &exit_code] { exit_code = run_watch(*opts); });
}

}  // namespace attn::cli
