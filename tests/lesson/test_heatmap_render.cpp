// tests/lesson/test_heatmap_render.cpp: `attn lesson --heatmap / --pause / --quiet` inside the
// lesson layer: the tokens that label a lesson's heatmaps, heatmaps under a step's Out: block, and
// --pause handing over each step's text. What it is not: the drawing (tests/print/test_heatmap.cpp)
// or the real binary (tests/cli/test_heatmap_cli.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lesson/catalog.h"
#include "lesson/render.h"
#include "lesson/run.h"

using namespace attn;

namespace {

const std::string kLegend = "0 [ .:-=+*#%@] 1   row: a query token, column: the key token it weighs\n";
const std::string kMaskedLegend = "· masked: above the diagonal, where every weight is exactly 0 (the future)\n";

const lesson::Lesson& lesson_named(const std::string& name) {
  static const std::vector<lesson::Lesson> all = lesson::load_catalog(std::string(ATTN_TEST_DATA) + "/../lessons");
  return lesson::find_lesson(all, name);
}

}  // namespace

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
