// tests/cli/test_progress_cli.cpp: the learner's path through the course with the real binary,
// each command a separate process (a restart between every two): `attn lesson` marks a lesson
// finished, q at --pause (in a pseudo-terminal) leaves the position, `attn next` / bare `attn`
// resume it, `attn progress` shows the map (text, ASCII marks, JSON), --reset clears it; and a
// progress file that is corrupt, unreadable or unwritable never stops a lesson.
// What it is not: --step/--from and typo messages (test_cli.cpp), or the heatmap's --pause
// (test_heatmap_cli.cpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "support/run_attn.h"

namespace {

// A state folder of this test process (XDG_STATE_HOME), removed at exit.
struct StateDir {
  std::string path = std::filesystem::temp_directory_path() / ("attn-progress-test-" + std::to_string(getpid()));
  StateDir() { std::filesystem::create_directories(path); }
  ~StateDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file() const { return path + "/attn/progress"; }
};

const StateDir& state() {
  static StateDir dir;
  return dir;
}

CliResult attn(const std::string& args, const std::string& env = "") {
  return attn_process(args, "", "XDG_STATE_HOME=" + state().path + " LANG=C.UTF-8 LC_ALL= " + env);
}

void write_state(const std::string& text) {
  std::filesystem::create_directories(state().path + "/attn");
  std::ofstream(state().file(), std::ios::binary) << text;
}

bool have_script() { return std::filesystem::exists("/usr/bin/script"); }

const std::string kFresh = "Your path through the course: 0 of 21 lessons finished, 0 exercises passed.\n";

}  // namespace

TEST_CASE("a first run: the map is empty and `attn next` starts the first lesson, then the second") {
  std::filesystem::remove_all(state().path + "/attn");
  CliResult r = attn("progress");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind(kFresh + "\narticle:\n  ▸ embedding      Embedding an input sentence\n", 0) == 0);
  CHECK(r.out.find("\n`attn next` starts lesson embedding (Embedding an input sentence):\n`attn lesson embedding`.\n") != std::string::npos);
  CHECK(!std::filesystem::exists(state().file()));   // reading writes nothing
  // bare `attn` is `attn next`: the first lesson, whole, then finished
  r = attn("");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("Embedding an input sentence\nLesson 1 of 21", 0) == 0);
  CHECK(r.out.find("Next in the course: `attn lesson scores`") != std::string::npos);
  CHECK(slurp(state().file()).find("\nfinished embedding\n") != std::string::npos);
  r = attn("next --quiet");   // a restart: the next unfinished lesson
  CHECK(r.code == 0);
  CHECK(r.out == attn("lesson scores --quiet --format text").out);
  r = attn("progress");
  CHECK(r.out.rfind("Your path through the course: 2 of 21 lessons finished, 0 exercises passed.\n\narticle:\n"
                    "  ✓ embedding      Embedding an input sentence\n"
                    "  ✓ scores         Queries, keys, values and the unnormalised scores ω\n",
                    0) == 0);
  CHECK(attn("progress", "LANG=C").out.find("\n  x embedding ") != std::string::npos);   // ASCII marks
}

TEST_CASE("q at --pause stops at once, and `attn next` resumes at that step after a restart") {
  if (!have_script()) {
    MESSAGE("util-linux `script` not found: pseudo-terminal test skipped");
    return;
  }
  attn("progress --reset");
  // Enter, Enter, q: three steps shown, no "Next in the course", the position saved
  std::string lesson = std::string("script -qec '") + ATTN_BINARY + " lesson causal --pause' /dev/null";
  CliResult r = shell_process("printf '\\n\\nq' | XDG_STATE_HOME=" + state().path + " timeout 20 " + lesson);
  CHECK(r.code == 0);
  CHECK(r.out.find("── 3/8") != std::string::npos);
  CHECK(r.out.find("── 4/8") == std::string::npos);
  CHECK(r.out.find("Stopped before step 4/8 (tril): `attn next` continues there.") != std::string::npos);
  CHECK(r.out.find("Next in the course") == std::string::npos);
  CHECK(slurp(state().file()).find("\nat causal tril\n") != std::string::npos);
  r = attn("progress");
  CHECK(r.out.find("  ▸ causal         Causal self-attention: hiding the future\n                   you stopped before step 4/8 (tril)\n") !=
        std::string::npos);
  CHECK(r.out.find("\n`attn next` continues lesson causal at step tril:\n`attn lesson causal --from tril`.\n") != std::string::npos);
  r = attn("progress --format json");
  for (const char* member : {R"("lesson": "causal")", R"("step": "tril")", R"("step_number": 4)", R"("resumed": true)",
                             R"("command": "attn lesson causal --from tril")", R"({"name": "embedding", "group": "article")"}) {
    CAPTURE(member);
    CHECK(r.out.find(member) != std::string::npos);
  }
  r = attn("next");   // the rest of causal, from tril, and then causal is finished
  CHECK(r.code == 0);
  CHECK(r.out.find("(The 3 steps before this one ran too, silently: `attn lesson causal` shows\n them.)") != std::string::npos);
  CHECK(r.out.find("── 3/8") == std::string::npos);
  CHECK(r.out.find("── 4/8") != std::string::npos);
  CHECK(r.out.find("Next in the course: `attn lesson simple`") != std::string::npos);
  std::string saved = slurp(state().file());
  CHECK(saved.find("\nfinished causal\n") != std::string::npos);
  CHECK(saved.find("\nat ") == std::string::npos);
}

TEST_CASE("Ctrl-C at --pause: the terminal is restored, attn ends by the signal, the position is kept") {
  if (!have_script()) return;
  attn("progress --reset");
  // bash traps INT so that it survives to print what the terminal's mode is after attn
  std::string inner = std::string("trap : INT; ") + ATTN_BINARY + " lesson causal --pause >/dev/null; echo status \\$?; stty -a";
  CliResult r = shell_process("(printf '\\n'; sleep 2; printf '\\003'; sleep 1) | XDG_STATE_HOME=" + state().path +
                              " timeout 30 script -qec \"bash -c '" + inner + "'\" /dev/null");
  CHECK(r.out.find("status 130") != std::string::npos);
  CHECK(r.out.find(" icanon ") != std::string::npos);   // canonical mode again, not -icanon
  CHECK(r.out.find(" echo ") != std::string::npos);
  CHECK(slurp(state().file()).find("\nat causal ") != std::string::npos);
}

TEST_CASE("--step looks up and changes no progress; --reset clears; every lesson finished is said") {
  attn("progress --reset");
  CHECK(attn("lesson causal --step tril --quiet").code == 0);
  CHECK(attn("lesson causal --format json").code == 0);
  CHECK(!std::filesystem::exists(state().file()));
  std::string all = "# a test\n";
  for (const char* name : {"embedding", "scores", "softmax", "context", "heads", "cross", "causal", "simple", "trainable", "masking",
                           "dropout", "causal-batch", "multihead", "scaling", "leakage", "update", "layout", "kv-cache", "gqa",
                           "flash", "gradients"})
    all += std::string("finished ") + name + "\n";
  write_state(all + "exercise causal weights\n");
  const std::string done = "You have finished all 21 lessons of the course. `attn progress` shows them;\n`attn progress --reset` starts over.\n";
  CliResult r = attn("next");
  CHECK(r.code == 0);
  CHECK(r.out == done);
  r = attn("progress");
  CHECK(r.out.rfind("Your path through the course: 21 of 21 lessons finished, 1 exercise passed.\n", 0) == 0);
  CHECK(r.out.find("  ✓ causal         Causal self-attention: hiding the future\n                   exercises passed: weights\n") !=
        std::string::npos);
  r = attn("progress --reset");
  CHECK(r.code == 0);
  CHECK(r.out == "Progress cleared: `attn next` starts the course from its first lesson.\n");
  CHECK(!std::filesystem::exists(state().file()));
  CHECK(attn("progress").out.rfind(kFresh, 0) == 0);
}

TEST_CASE("a corrupt, unreadable or unwritable progress file: the lesson runs, one line says why") {
  write_state("finished embedding\n\x01\xff garbage\nat causal\n");
  CliResult r = attn("progress");
  CHECK(r.code == 0);
  CHECK(r.err == "attn: progress in " + state().file() + ": line 2 is not attn's and was ignored\n");
  CHECK(r.out.find("  ✓ embedding ") != std::string::npos);
  r = attn("lesson embedding --quiet", "XDG_STATE_HOME=/dev/null/x");   // cannot make the folder
  CHECK(r.code == 0);
  CHECK(!r.out.empty());
  CHECK(r.err.rfind("attn: progress could not be saved: cannot make the folder /dev/null/x/attn: ", 0) == 0);
  CHECK(r.err.find('\n') == r.err.size() - 1);
  std::filesystem::remove_all(state().path + "/attn");
  std::filesystem::create_directories(state().file());   // a folder where the file should be
  r = attn("lesson embedding --quiet");
  CHECK(r.code == 0);
  CHECK(r.err == "attn: progress could not be read from " + state().file() + ": it is a folder\n");
  std::filesystem::remove_all(state().path + "/attn");
  std::filesystem::create_directories(state().path + "/attn");
  CHECK(shell_process("mkfifo " + state().file()).code == 0);   // would block a plain open()
  r = attn("progress");
  CHECK(r.code == 0);
  CHECK(r.err == "attn: progress could not be read from " + state().file() + ": it is not a regular file\n");
  std::filesystem::remove_all(state().path + "/attn");
  r = attn("lesson embedding --quiet", "XDG_STATE_HOME=\"$(printf '/dev/null/\\033[2J')\"");   // the path's escape made visible
  CHECK(r.code == 0);
  CHECK(r.err.rfind("attn: progress could not be saved: cannot make the folder /dev/null/\\x1b[2J/attn: ", 0) == 0);
  // XDG_STATE_HOME not absolute: the spec's default under HOME
  r = attn("lesson embedding --quiet", "XDG_STATE_HOME=relative HOME=" + state().path + "/home");
  CHECK(r.code == 0);
  CHECK(std::filesystem::exists(state().path + "/home/.local/state/attn/progress"));
}

// The file is read in chunks up to one byte past its 1 MiB limit (not into a zero-filled MiB,
// issue 21): a file of exactly 1 MiB is read to its last line, one byte more is refused.
TEST_CASE("a progress file of 1 MiB is read to its end; one byte more is not attn's") {
  const size_t limit = size_t{1} << 20;
  const std::string last = "finished embedding\n";
  std::string pad = "#";
  pad += std::string(limit - last.size() - 2, 'x') + "\n";   // one comment line: the file is exactly 1 MiB
  write_state(pad + last);
  REQUIRE(std::filesystem::file_size(state().file()) == limit);
  CliResult r = attn("progress");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("  ✓ embedding ") != std::string::npos);
  write_state("#" + pad + last);
  r = attn("progress");
  CHECK(r.code == 0);
  CHECK(r.err == "attn: progress could not be read from " + state().file() + ": larger than 1 MiB, not attn's\n");
  CHECK(r.out.find("  ✓ embedding ") == std::string::npos);
  std::filesystem::remove_all(state().path + "/attn");
}
