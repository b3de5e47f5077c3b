// tests/test_heatmap.cpp: `attn lesson --heatmap / --pause / --quiet`: which matrices are drawn,
// the drawing itself (exact strings, plain and in colour), the side-by-side rule, and the real
// binary as a lab script or a terminal runs it (no escape codes when piped, --quiet, --pause).
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/ops.h"
#include "lesson/catalog.h"
#include "lesson/render.h"
#include "lesson/run.h"
#include "print/heatmap.h"

using namespace attn;

namespace {

core::Tensor matrix(int64_t rows, int64_t cols, std::vector<float> v) { return core::from_floats({rows, cols}, std::move(v)); }

print::HeatmapPanel panel(const std::string& title, const core::Tensor& t, std::vector<std::string> labels = {}) {
  auto mats = print::attention_matrices(t);
  REQUIRE(mats.size() == 1);
  print::HeatmapPanel p;
  p.title = title;
  p.m = mats[0];
  p.row_labels = p.col_labels = std::move(labels);
  return p;
}

const std::string kLegend = "0 [ .:-=+*#%@] 1   row: a query token, column: the key token it weighs\n";
const std::string kMaskedLegend = "· masked: above the diagonal, where every weight is exactly 0 (the future)\n";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

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

TEST_CASE("which matrices look like attention weights") {
  auto n = [](const core::Tensor& t) { return print::attention_matrices(t).size(); };
  // rows sum to 1 (softmax over the keys), masked or not
  CHECK(n(matrix(2, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f})) == 1);
  CHECK(n(matrix(2, 2, {1, 0, 0.4f, 0.6f})) == 1);
  // columns sum to 1 (softmax over the queries: dim=1 on a batch), causal
  CHECK(n(matrix(2, 2, {0.3f, 0, 0.7f, 1})) == 1);
  // causal weights before renormalising: rows sum to less than 1
  CHECK(n(matrix(3, 3, {0.2f, 0, 0, 0.1f, 0.3f, 0, 0.2f, 0.3f, 0.4f})) == 1);
  // not weights: a 0/1 mask, scores, negative or > 1 entries, dropout's doubled weights
  CHECK(n(core::tril(core::ones({4, 4}), 0)) == 0);
  CHECK(n(matrix(2, 2, {0.5f, 0, 2, -1})) == 0);
  CHECK(n(matrix(2, 2, {1.2f, -0.2f, 0.5f, 0.5f})) == 0);
  CHECK(n(matrix(2, 2, {0.4f, 0, 0.6f, 0.8f})) == 0);   // causal, but row 2 sums to 1.4 and columns do not to 1
  CHECK(n(matrix(2, 2, {0, 0, 0, 0})) == 0);
  // not a matrix, too small, or not float
  CHECK(n(core::from_floats({3}, {0.2f, 0.3f, 0.5f})) == 0);
  CHECK(n(matrix(1, 3, {0.2f, 0.3f, 0.5f})) == 0);
  CHECK(n(core::from_ints({2, 2}, {1, 0, 0, 1})) == 0);
  CHECK(n(core::from_floats({1, 1, 2, 2}, {1, 0, 0, 1})) == 0);
  // a batch: one per matrix, and only if every matrix passes
  CHECK(n(core::from_floats({2, 2, 2}, {1, 0, 0.5f, 0.5f, 0.5f, 0.5f, 0.25f, 0.75f})) == 2);
  CHECK(n(core::from_floats({2, 2, 2}, {1, 0, 0.5f, 0.5f, 3, 0, 0.25f, 0.75f})) == 0);
  // within 1e-3
  CHECK(n(matrix(2, 2, {0.5f, 0.5009f, 0.5f, 0.5f})) == 1);
  CHECK(n(matrix(2, 2, {0.5f, 0.502f, 0.5f, 0.5f})) == 0);
}

TEST_CASE("masked cells: exactly 0 above the diagonal of a causal matrix, never a small weight") {
  auto m = print::attention_matrices(matrix(3, 3, {1, 0, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.75f}))[0];
  CHECK(print::is_causal(m));
  CHECK(m.masked == std::vector<bool>{false, true, true, false, false, true, false, false, false});   // (2,0) is a 0 weight
  // one non-zero above the diagonal: nothing is masked, the zeros are weights
  auto u = print::attention_matrices(matrix(3, 3, {0.9f, 0.1f, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.75f}))[0];
  CHECK_FALSE(print::is_causal(u));
  CHECK(u.masked == std::vector<bool>(9, false));
  CHECK_FALSE(print::has_masked(u));
  // a key whose column is 0 for every query: a padding mask
  auto pad = print::attention_matrices(matrix(2, 3, {0.6f, 0.4f, 0, 0.3f, 0.7f, 0}))[0];
  CHECK_FALSE(print::is_causal(pad));
  CHECK(print::masked_columns(pad) == std::vector<bool>{false, false, true});
  CHECK(pad.masked == std::vector<bool>{false, false, true, false, false, true});
}

TEST_CASE("plain heatmap: a padded key") {
  auto p = panel("w", matrix(2, 3, {0.6f, 0.4f, 0, 0.3f, 0.7f, 0}));
  CHECK(print::render_heatmaps({p}, {}) ==
        "w\n"
        "  0  1  2\n"
        "0 ++ ==  ·\n"
        "1 -- **  ·\n"
        "\n" + kLegend + "· masked: a key whose column is exactly 0 for every query (a padding mask)\n");
}

TEST_CASE("shade levels: the nearest of 0, 1/9, ..., 1") {
  CHECK(print::shade_level(0.0) == 0);
  CHECK(print::shade_level(0.05) == 0);    // tiny: blank
  CHECK(print::shade_level(0.06) == 1);
  CHECK(print::shade_level(0.5) == 5);
  CHECK(print::shade_level(0.9999) == 9);
  CHECK(print::shade_level(1.0) == 9);
  CHECK(std::string(print::kShadeRamp).size() == 10);
}

TEST_CASE("plain heatmap: labels, shades, masked cells and a zero weight") {
  auto p = panel("w", matrix(3, 3, {1, 0, 0, 0.5f, 0.5f, 0, 0, 0.25f, 0.75f}), {"a", "bb", "ccc"});
  int width = 0;
  auto lines = print::heatmap_lines(p, {}, &width);
  CHECK(width == 16);
  CHECK(lines == std::vector<std::string>{
                     "w               ",
                     "    a   bb  ccc ",
                     "a   @@@  ·   ·  ",
                     "bb  +++ +++  ·  ",
                     "ccc     ::: ### ",
                 });
  CHECK(print::render_heatmaps({p}, {}) ==
        "w\n"
        "    a   bb  ccc\n"
        "a   @@@  ·   ·\n"
        "bb  +++ +++  ·\n"
        "ccc     ::: ###\n"
        "\n" + kLegend + kMaskedLegend);
}

TEST_CASE("plain heatmap: column numbers without tokens, long labels whole where they fit") {
  auto p = panel("attn", matrix(2, 2, {0.5f, 0.5f, 0.1f, 0.9f}));
  CHECK(print::render_heatmaps({p}, {}) ==
        "attn\n"
        "  0  1\n"
        "0 ++ ++\n"
        "1 .. %%\n"
        "\n" + kLegend);
  // token labels apply only to the axis whose length they match
  auto q = panel("x", matrix(2, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f}), {"longerthanten", "journey"});
  CHECK(print::render_heatmaps({q}, {}) ==
        "x\n"
        "              0  1  2\n"
        "longerthanten :: -- ++\n"
        "journey       .. .. ##\n"
        "\n" + kLegend);
  // Where a whole row label does not fit the width, it keeps 10 columns (the panel overflows
  // rather than lose the word's start).
  print::HeatmapStyle narrow;
  narrow.width = 18;
  int width = 0;
  CHECK(print::heatmap_lines(q, narrow, &width) ==
        std::vector<std::string>{"x                   ", "           0  1  2  ", "longerthan :: -- ++ ", "journey    .. .. ## "});
  CHECK(width == 20);
}

TEST_CASE("column labels: whole words on two staggered lines when they are longer than a cell") {
  auto p = panel("w", matrix(3, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f, 1, 0, 0}), {"Life", "dessert", "extraordinarily"});
  // Cells stay 4 wide; "dessert" and "extraordinarily" go where the neighbouring label leaves room:
  // a label may take its own slot and the next one's (9 columns), and only then is it cut.
  CHECK(print::render_heatmaps({p}, {}) ==
        "w\n"
        "                Life      extraordi\n"
        "                     dessert\n"
        "Life            :::: ---- ++++\n"
        "dessert         .... .... ####\n"
        "extraordinarily @@@@\n"
        "\n" + kLegend);
}

TEST_CASE("colour heatmap: xterm-256 background blocks, masked cells on the terminal's background") {
  print::HeatmapStyle color;
  color.color = true;
  auto p = panel("m", matrix(2, 2, {1, 0, 0.1f, 0.9f}));
  const std::string legend =
      "0 \x1b[48;5;54m  \x1b[0m\x1b[48;5;24m  \x1b[0m\x1b[48;5;31m  \x1b[0m\x1b[48;5;37m  \x1b[0m\x1b[48;5;43m  \x1b[0m"
      "\x1b[48;5;77m  \x1b[0m\x1b[48;5;113m  \x1b[0m\x1b[48;5;149m  \x1b[0m\x1b[48;5;185m  \x1b[0m\x1b[48;5;226m  \x1b[0m"
      " 1   row: a query token, column: the key token it weighs\n";
  CHECK(print::render_heatmaps({p}, color) ==
        "m\n"
        "  0  1\n"
        "0 \x1b[48;5;226m  \x1b[0m  ·\n"
        "1 \x1b[48;5;24m  \x1b[0m \x1b[48;5;185m  \x1b[0m\n"
        "\n" + legend + kMaskedLegend);
}

TEST_CASE("side by side: consecutive panels of one shape while they fit in 80 columns") {
  auto a = panel("before", matrix(2, 2, {0.5f, 0.5f, 0.5f, 0.5f}));
  auto b = panel("after", matrix(2, 2, {1, 0, 0.5f, 0.5f}));
  auto c = panel("other", matrix(2, 3, {0.2f, 0.3f, 0.5f, 0.1f, 0.1f, 0.8f}));
  CHECK(print::render_heatmaps({a, b, c}, {}) ==
        "before     after\n"
        "  0  1       0  1\n"
        "0 ++ ++    0 @@  ·\n"
        "1 ++ ++    1 ++ ++\n"
        "\n"
        "other\n"
        "  0  1  2\n"
        "0 :: -- ++\n"
        "1 .. .. ##\n"
        "\n" + kLegend + kMaskedLegend);
  print::HeatmapStyle narrow;
  narrow.width = 15;   // two 8-column panels and the gap do not fit: one under the other
  CHECK(print::render_heatmaps({a, b}, narrow) ==
        "before\n  0  1\n0 ++ ++\n1 ++ ++\n\nafter\n  0  1\n0 @@  ·\n1 ++ ++\n\n"
        // the legend's words wrap within the width too, never inside a word
        "0 [ .:-=+*#%@] 1\nrow: a query\ntoken, column:\nthe key token\nit weighs\n"
        "· masked: above\n  the diagonal,\n  where every\n  weight is\n  exactly 0\n  (the future)\n");
}

TEST_CASE("lesson tokens: the sentence as run, else the tokens: header") {
  lesson::LessonRun causal = lesson::run_lesson(lesson_named("causal"), {});
  CHECK(lesson::lesson_tokens(causal) == std::vector<std::string>{"Life", "is", "short", "eat", "dessert", "first"});
  lesson::RunOptions o;
  o.sentence = "don't panic, it's \"fine\"";
  CHECK(lesson::lesson_tokens(lesson::run_lesson(lesson_named("causal"), o)) ==
        std::vector<std::string>{"don't", "panic", "it's", "\"fine\""});
  for (const char* book : {"simple", "trainable", "masking", "dropout", "causal-batch", "multihead"}) {
    CAPTURE(book);
    CHECK(lesson_named(book).header.tokens == "Your journey starts with one step");
  }
}

TEST_CASE("render: heatmaps under the Out: block; masked beside unmasked; dim=1 beside dim=-1") {
  lesson::DisplayOptions d;
  d.heatmap = true;
  std::string out = lesson::render(lesson::run_lesson(lesson_named("causal"), {}), "softmax-masked", 7, 14, d);
  CHECK(out.find("       grad_fn=<SoftmaxBackward0>)\n"
                 "\n"
                 "attn_weights, step 'weights'             attn_weights\n"
                 "        Life      short     dessert              Life      short     dessert\n"
                 "             is        eat       first                is        eat       first\n"
                 "Life    :::: .... :::: .... .... ::::    Life    @@@@   ·    ·    ·    ·    ·\n"
                 "is           ****      .... ....         is           @@@@   ·    ·    ·    ·\n") != std::string::npos);
  CHECK(out.find("\n" + kLegend + kMaskedLegend) != std::string::npos);
  std::string batch = lesson::render(lesson::run_lesson(lesson_named("causal-batch"), {}), "sums", 12, 14, d);
  CHECK(batch.find("w_dim1[0]                                w_last[0]\n"
                   "        Your      starts    one                  Your      starts    one\n"
                   "             journey   with      step                 journey   with      step\n"
                   "Your    ::::   ·    ·    ·    ·    ·     Your    @@@@   ·    ·    ·    ·    ·\n") != std::string::npos);
  // the 0/1 mask and the raw scores get no picture
  std::string tril = lesson::render(lesson::run_lesson(lesson_named("causal"), {}), "tril", 7, 14, d);
  CHECK(tril.find(kLegend) == std::string::npos);
  // without --heatmap nothing changes
  lesson::LessonRun run = lesson::run_lesson(lesson_named("masking"), {});
  CHECK(lesson::render(run, "", 9, 14, {}) == lesson::render(run, "", 9, 14));
}

TEST_CASE("render: --pause hands over each step's text; false stops the walkthrough") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  const std::string whole = lesson::render(run, "", 7, 14);
  std::vector<std::string> chunks;
  lesson::DisplayOptions d;
  d.pause = true;
  d.on_pause = [&](const std::string& text) {
    chunks.push_back(text);
    return true;
  };
  std::string rest = lesson::render(run, "", 7, 14, d);
  CHECK(chunks.size() == run.steps.size() - 1);   // between steps, not after the last
  std::string joined;
  for (const std::string& c : chunks) joined += c;
  CHECK(joined + rest == whole);
  CHECK(chunks[1].rfind("\n── 2/8 scores:", 0) == 0);
  int calls = 0;
  d.on_pause = [&](const std::string&) { return ++calls < 2; };   // q at the second pause
  CHECK(lesson::render(run, "", 7, 14, d).empty());
  CHECK(calls == 2);
  chunks.clear();
  d.on_pause = [&](const std::string& text) {
    chunks.push_back(text);
    return true;
  };
  lesson::render(run, "tril", 7, 14, d);   // one step: nothing to pause between
  CHECK(chunks.empty());
  d.quiet = true;   // the setup step prints nothing: no pause before the first output
  CHECK_FALSE(lesson::render(run, "", 7, 14, d).empty());
  CHECK(chunks.size() == run.steps.size() - 2);
  CHECK(std::none_of(chunks.begin(), chunks.end(), [](const std::string& c) { return c.empty(); }));
  CHECK(chunks[0].rfind("tensor([[ 0.0613, -0.3491,", 0) == 0);
}

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
  // a terminal: Enter, Enter, q shows three steps and quits; a terminal at end of input shows all
  Run quit = sh("printf '\\n\\nq\\n' | timeout 20 " + in_terminal("lesson causal --pause"));
  CHECK(quit.code == 0);
  CHECK(quit.out.find("── 3/8") != std::string::npos);
  CHECK(quit.out.find("── 4/8") == std::string::npos);
  CHECK(quit.out.find("[Enter] next step, q quits") != std::string::npos);   // the terminal shows stderr too
  Run closed = sh("timeout 20 " + in_terminal("lesson causal --pause") + " </dev/null");
  CHECK(closed.code == 0);
  CHECK(closed.out.find("── 8/8") != std::string::npos);
}
