// tests/cli/test_heatmap_cli.cpp: `attn lesson --heatmap / --pause / --quiet`, the real binary as
// a lab script or a terminal runs it: no escape codes when piped, colour in a terminal unless
// NO_COLOR, --quiet, --pause on a closed or piped stdin. What it is not: the drawing
// (tests/print/test_heatmap.cpp) or the rendering (tests/lesson/test_heatmap_render.cpp).
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lesson/catalog.h"
#include "lesson/run.h"
#include "support/files.h"

using namespace attn;

namespace {

const std::string kMaskedLegend = "· masked: above the diagonal, where every weight is exactly 0 (the future)\n";

struct Run {
  int code = -1;
  std::string out, err;
};

// Runs a shell command line with stdout and stderr captured in files (so stdout is no terminal).
// One folder per process (several builds may run their tests at once on one machine), removed
// when the process ends.
struct TempDir {
  std::string path = std::filesystem::temp_directory_path() / ("attn-heatmap-test-" + std::to_string(getpid()));
  TempDir() { std::filesystem::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

Run sh(const std::string& command) {
  static const TempDir temp;
  const std::string& dir = temp.path;
  std::string cmd = "{ " + command + " ; } >" + dir + "/out 2>" + dir + "/err";
  int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir + "/out");
  r.err = slurp(dir + "/err");
  return r;
}

std::string attn_cmd(const std::string& args) { return std::string(ATTN_BINARY) + " " + args; }

// `script` (util-linux) runs the command with a pseudo-terminal as its stdin, stdout and stderr.
std::string in_terminal(const std::string& args) { return "script -qec '" + attn_cmd(args) + "' /dev/null"; }
bool have_script() { return std::filesystem::exists("/usr/bin/script"); }

const lesson::Lesson& lesson_named(const std::string& name) {
  static const std::vector<lesson::Lesson> all = lesson::load_catalog(std::string(ATTN_TEST_DATA) + "/../lessons");
  return lesson::find_lesson(all, name);
}

}  // namespace

TEST_CASE("the binary: --heatmap piped or with NO_COLOR has no escape codes") {
  for (const char* env : {"", "NO_COLOR=1", "TERM=xterm-256color"}) {
    CAPTURE(env);
    Run r = sh(std::string(env) + " " + attn_cmd("lesson causal --heatmap"));
    CHECK(r.code == 0);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find(kMaskedLegend) != std::string::npos);
    CHECK(r.out.find("Life    @@@@   ·    ·    ·    ·    ·") != std::string::npos);
  }
  Run q = sh(attn_cmd("lesson causal-batch --heatmap --quiet"));
  CHECK(q.out.find('\x1b') == std::string::npos);
  CHECK(q.out.find("w_dim1[0]") != std::string::npos);
}

TEST_CASE("the binary in a terminal: colour, unless NO_COLOR") {
  if (!have_script()) {
    MESSAGE("util-linux `script` not found: terminal test skipped");
    return;
  }
  const std::string cmd = in_terminal("lesson causal --heatmap --step renorm") + " </dev/null";
  Run tty = sh("TERM=xterm-256color timeout 20 " + cmd);
  CHECK(tty.code == 0);
  CHECK(tty.out.find("\x1b[48;5;226m") != std::string::npos);   // the weight 1.0 of "Life" for itself
  Run no = sh("NO_COLOR=1 TERM=xterm-256color timeout 20 " + cmd);
  CHECK(no.code == 0);
  CHECK(no.out.find('\x1b') == std::string::npos);
  CHECK(no.out.find("@@@@") != std::string::npos);
}

TEST_CASE("the binary: --quiet prints exactly the cells' outputs") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  std::string all, tril;
  for (const lesson::StepRun& s : run.steps)
    for (const lesson::CellRun& c : s.cells) {
      all += c.output;
      if (s.step->id == "tril") tril += c.output;
    }
  Run r = sh(attn_cmd("lesson causal --quiet"));
  CHECK(r.code == 0);
  CHECK(r.out == all);
  CHECK(sh(attn_cmd("lesson causal --quiet --step tril")).out == tril);
  CHECK(sh(attn_cmd("lesson causal --quiet --pause") + " </dev/null").out == all);
}

TEST_CASE("the binary: --pause never hangs on a closed or piped stdin") {
  std::string whole = sh(attn_cmd("lesson causal")).out;
  // stdin at end of input, and stdin a pipe: no waiting, the whole walkthrough, no prompt
  Run eof = sh("timeout 20 " + attn_cmd("lesson causal --pause") + " </dev/null");
  CHECK(eof.code == 0);
  CHECK(eof.out == whole);
  CHECK(eof.err.empty());
  Run piped = sh("printf 'q\\n' | timeout 20 " + attn_cmd("lesson causal --pause"));
  CHECK(piped.code == 0);
  CHECK(piped.out == whole);
  if (!have_script()) return;
  // a terminal: Enter, Enter, q shows three steps and quits at once; Ctrl-D shows all
  Run quit = sh("printf '\\n\\nq\\n' | timeout 20 " + in_terminal("lesson causal --pause"));
  CHECK(quit.code == 0);
  CHECK(quit.out.find("── 3/8") != std::string::npos);
  CHECK(quit.out.find("── 4/8") == std::string::npos);
  CHECK(quit.out.find("[Enter] next step, q quits") != std::string::npos);   // the terminal shows stderr too
  // Ctrl-D (a key: --pause reads the terminal without its line discipline) shows the rest unpaused
  Run closed = sh("printf '\\004' | timeout 20 " + in_terminal("lesson causal --pause"));
  CHECK(closed.code == 0);
  CHECK(closed.out.find("── 8/8") != std::string::npos);
}

// Labels are padded by display columns: a CJK word takes two columns a character, a combining
// mark none, so each label stays over its own cells (issue 19, item 9).
TEST_CASE("the binary: heatmap labels of wide and combining characters line up") {
  Run cjk = sh(attn_cmd("lesson causal --heatmap --step weights --quiet --sentence '生命 短暂 先 吃 甜点 吧'"));
  CHECK(cjk.code == 0);
  CHECK(cjk.out.find("attn_weights\n"
                     "     生命 短暂 先   吃   甜点 吧\n"
                     "生命 ****           ....      ....\n"
                     "短暂 .... :::: :::: .... :::: ....\n"
                     "先   .... :::: :::: .... :::: ....\n"
                     "吃   :::: .... .... :::: .... ....\n"
                     "甜点      ---- :::: .... ---- ....\n"
                     "吧   :::: .... .... :::: .... ....\n") != std::string::npos);
  // "cafe" + U+0301 and "nai" + U+0308 + "ve": decomposed accents, one column each letter.
  Run marks = sh(attn_cmd("lesson causal --heatmap --step weights --quiet --sentence 'cafe\u0301 nai\u0308ve x y z w'"));
  CHECK(marks.code == 0);
  CHECK(marks.out.find("attn_weights\n"
                       "      cafe\u0301      x         z\n"
                       "           nai\u0308ve     y         w\n"
                       "cafe\u0301  :::: .... :::: .... :::: ....\n"
                       "nai\u0308ve .... :::: .... :::: .... ....\n"
                       "x     :::: .... ----      ---- ....\n") != std::string::npos);
}

// Under a locale that is not UTF-8, attn's own marks are ASCII; the lesson's text is its own.
TEST_CASE("the binary under LC_ALL=C or LANG=C: ASCII rules, separators and heatmap marks") {
  for (const char* env : {"LC_ALL=C", "LANG=C LC_ALL= LC_CTYPE=", "LANG=C.UTF-8 LC_ALL=POSIX"}) {
    CAPTURE(env);
    Run r = sh(std::string("env ") + env + " " + attn_cmd("lesson causal --heatmap --step masked"));
    CHECK(r.code == 0);
    CHECK(r.out.rfind("Causal self-attention: hiding the future\nLesson 7 of 21 (article) - attn lesson causal\n", 0) == 0);
    CHECK(r.out.find("\n-- 5/8 masked: Zeroing the future weights --------------------------------------\n") != std::string::npos);
    CHECK(r.out.find("Life    ::::   x    x    x    x    x\n") != std::string::npos);
    CHECK(r.out.find("\nx masked: above the diagonal, where every weight is exactly 0 (the future)\n") != std::string::npos);
    CHECK(r.out.find("─") == std::string::npos);
    CHECK(r.out.find("·") == std::string::npos);
    Run list = sh(std::string("env ") + env + " " + attn_cmd("list"));
    CHECK(list.out.find("[1] section Causal Self-Attention\n") != std::string::npos);
    CHECK(list.out.find("§") == std::string::npos);
  }
  // A UTF-8 locale, or none named at all: UTF-8.
  for (const char* env : {"LANG=C.UTF-8 LC_ALL=", "LC_ALL=en_US.utf8", "-u LANG -u LC_ALL -u LC_CTYPE"}) {
    CAPTURE(env);
    Run r = sh(std::string("env ") + env + " " + attn_cmd("lesson causal --heatmap --step masked"));
    CHECK(r.out.find("\n── 5/8 masked: Zeroing the future weights ──") != std::string::npos);
    CHECK(r.out.find(kMaskedLegend) != std::string::npos);
  }
}
