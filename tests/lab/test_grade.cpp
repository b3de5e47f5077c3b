// tests/lab/test_grade.cpp: choosing the graded value (select_target), the elementwise comparison
// (tolerance, NaN, infinities, the differences reported) and format_json, on lessons run in the
// test process. The hints are in test_hints.cpp, the real binary in test_check.cpp.
#include <doctest/doctest.h>

#include <cmath>

#include "lab/report.h"
#include "support/grade_helpers.h"

using namespace grade_helpers;

// ================================ choosing the value and comparing ================================

TEST_CASE("select_target: the last float tensor of the step, or --name") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  CHECK(lab::select_target(run, "scores", "").value.name == "attn_scores");   // not attn_scores.shape
  CHECK(lab::select_target(run, "softmax-masked", "").value.name == "attn_weights");
  CHECK(lab::select_target(run, "weights", "attn_weights").float_names == std::vector<std::string>{"attn_weights"});
  auto err = [&](const std::string& step, const std::string& name) {
    try {
      lab::select_target(run, step, name);
    } catch (const attn::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(err("nope", "") == "lesson 'causal' has no step 'nope' (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)");
  CHECK(err("no\npe", "") == "lesson 'causal' has no step 'no\\npe' (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)");
  CHECK(err("weights", "foo") == "step 'weights' of lesson 'causal' prints no tensor or number named 'foo' (it prints: attn_weights)");
  CHECK(err("setup", "") ==
        "step 'setup' of lesson 'causal' prints no float tensor to grade; steps that print one: scores, weights, tril, masked, renorm, "
        "neg-inf, softmax-masked");
  lesson::LessonRun emb = lesson::run_lesson(lesson_named("embedding"), {});
  CHECK(lab::select_target(emb, "ids", "sentence_int").value.name == "sentence_int");
  try {
    lab::select_target(emb, "ids", "");
    FAIL("no error");
  } catch (const attn::UsageError& e) {
    CHECK(std::string(e.what()) ==
          "step 'ids' of lesson 'embedding' prints no float tensor to grade; --name selects one of the values it prints: sentence_int");
  }
}

TEST_CASE("select_target --index: the N-th tensor of a step that prints the same expression twice") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("multihead"), {});
  lab::Target first = lab::select_target(run, "wrapper-fixed", "", 1), second = lab::select_target(run, "wrapper-fixed", "", 2);
  CHECK(first.value.name == "mha_fixed(batch)");
  CHECK(second.value.name == "mha_fixed(batch)");
  CHECK(first.index < second.index);
  CHECK(first.value.tensor().shape() != second.value.tensor().shape());
  CHECK(lab::select_target(run, "wrapper-fixed", "mha_fixed(batch)", 0).index == second.index);   // --name: the last
  auto err = [&](const std::string& name, int index) {
    try {
      lab::select_target(run, "wrapper-fixed", name, index);
    } catch (const attn::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(err("", 3) == "step 'wrapper-fixed' of lesson 'multihead' prints 2 tensors, so --index 3 does not exist");
  CHECK(err("x", 1) == "tensor 1 of step 'wrapper-fixed' of lesson 'multihead' is printed from 'mha_fixed(batch)', not 'x'");
}

TEST_CASE("grade: a NaN passes only where the lesson's tensor has one, and fails elsewhere") {
  // simple/overflow prints softmax_naive(large_scores) = [nan, nan, nan] (inf / inf).
  lesson::LessonRun run = lesson::run_lesson(lesson_named("simple"), {});
  lab::Answer nans = lab::parse_answer("nan nan nan\n", "n.txt", true);
  Checked ok = check(run, "overflow", nans, {}, "softmax_naive(large_scores)");
  CHECK(ok.g.pass);
  lab::Answer finite = lab::parse_answer("0.09 0.2447 0.6652\n", "n.txt", true);
  Checked bad = check(run, "overflow", finite, {}, "softmax_naive(large_scores)");
  CHECK(!bad.g.pass);
  CHECK(bad.g.n_differ == 3);
  CHECK(std::isinf(bad.g.max_abs_diff));
  // Where the lesson's tensor is a number, a NaN is a wrong number: graded, counted, failed (issue 10: it
  // was refused as bad input, so a grading loop had no feedback for a common mistake).
  lab::Answer stray = lab::parse_answer("0.09 nan 0.6652\n", "s.txt", true);
  Checked nan = check(run, "overflow", stray, {}, "torch.softmax(large_scores, dim=0)");
  CHECK(!nan.g.pass);
  CHECK(nan.g.n_nan == 1);
  CHECK(nan.g.n_differ == 1);
  CHECK(nan.g.max_index == std::vector<int64_t>{1});
  CHECK(std::isinf(nan.g.max_abs_diff));
  CHECK(std::isnan(nan.g.first.at(0).got));
  // An infinity where the lesson has a number fails too.
  Checked inf = check(run, "overflow", lab::parse_answer("0.09 inf 0.6652\n", "i.txt"), {}, "torch.softmax(large_scores, dim=0)");
  CHECK(!inf.g.pass);
  CHECK(inf.g.n_nan == 0);
  CHECK(inf.g.n_differ == 1);
}

TEST_CASE("grade: the printed 4 decimals pass with the default tolerance, and the report counts what differs") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor w = printed(run, "weights", "attn_weights");
  lab::Answer rounded = answer_of(w);
  for (double& x : rounded.data) x = std::round(x * 1e4) / 1e4;
  Checked ok = check(run, "weights", rounded);
  CHECK(ok.g.pass);
  CHECK(ok.g.n_differ == 0);
  CHECK(ok.g.max_abs_diff > 0);
  CHECK(ok.g.max_abs_diff <= 5e-5);
  Checked strict = check(run, "weights", rounded, {}, "", {1e-7, 0});
  CHECK(!strict.g.pass);
  CHECK(strict.g.n_differ > 0);
  CHECK(strict.g.first.size() == std::min<size_t>(5, static_cast<size_t>(strict.g.n_differ)));
  CHECK(strict.g.hints.empty());

  lab::Answer one_off = answer_of(w);
  one_off.data[7] += 0.01;
  Checked c = check(run, "weights", one_off);
  CHECK(!c.g.pass);
  CHECK(c.g.n_differ == 1);
  CHECK(c.g.max_index == std::vector<int64_t>{1, 1});
  CHECK(c.g.first.at(0).index == std::vector<int64_t>{1, 1});
  CHECK(c.g.max_abs_diff == doctest::Approx(0.01).epsilon(1e-4));

  // -inf matches -inf only.
  lab::Answer masked = answer_of(printed(run, "neg-inf", "masked"));
  CHECK(check(run, "neg-inf", masked).g.pass);
  masked.data[1] = -1e30;
  Checked inf = check(run, "neg-inf", masked);
  CHECK(inf.g.n_differ == 1);
  CHECK(std::isinf(inf.g.max_abs_diff));
}

TEST_CASE("format_json: one object with the grader's fields") {
  lesson::LessonRun run = lesson::run_lesson(lesson_named("causal"), {});
  core::Tensor s = printed(run, "scores", "attn_scores");
  lab::Answer a = answer_of(core::softmax(div(s, std::sqrt(2.0)), 0, run.cpu));
  lab::Target t = lab::select_target(run, "weights", "");
  lab::Grade g = lab::grade(run, t, a, {}, {});
  std::string j = lab::format_json(g, a, {}, run, {});
  CHECK(j.rfind("{\"lesson\": \"causal\", \"step\": \"weights\", \"name\": \"attn_weights\", \"answer\": {\"file\": \"answer.npy\", "
                "\"format\": \"npy\", \"dtype\": \"<f4\", \"shape\": [6, 6]}, \"options\": {\"seed\": null, \"sentence\": null, "
                "\"inputs\": null, \"cpu\": \"scalar\", \"rng\": \"mkl\", \"atol\": 1e-04, \"rtol\": 1e-04}, \"pass\": false, "
                "\"shape\": {\"expected\": [6, 6], \"got\": [6, 6]}, \"n_elements\": 36, \"n_differ\": 36, \"n_nan\": 0, \"max_abs_diff\": ",
                0) == 0);
  CHECK(j.find("\"differences\": [{\"index\": [0, 0], \"expected\": 0.17719667, \"got\": ") != std::string::npos);
  CHECK(j.find("\"hints\": [{\"kind\": \"softmax_dim\", \"message\": \"Softmax over the wrong axis") != std::string::npos);
  CHECK(j.back() == '\n');
  CHECK(std::count(j.begin(), j.end(), '\n') == 1);

  // Floats are always floats (1.0, not 1): the tolerance, and the expected 1 of a masked first row.
  lesson::RunOptions seed42;
  seed42.seed = "42";
  lesson::LessonRun run42 = lesson::run_lesson(lesson_named("causal"), seed42);
  lab::Answer unmasked = answer_of(printed(run42, "weights", "attn_weights"));
  lab::Target sm = lab::select_target(run42, "softmax-masked", "");
  std::string j42 = lab::format_json(lab::grade(run42, sm, unmasked, {1, 0}, seed42), unmasked, {1, 0}, run42, seed42);
  CHECK(j42.find("\"options\": {\"seed\": 42, \"sentence\": null, \"inputs\": null, \"cpu\": \"scalar\", \"rng\": \"mkl\", "
                 "\"atol\": 1.0, \"rtol\": 0.0}, \"pass\": true") != std::string::npos);
  std::string j42f = lab::format_json(lab::grade(run42, sm, unmasked, {}, seed42), unmasked, {}, run42, seed42);
  CHECK(j42f.find("\"differences\": [{\"index\": [0, 0], \"expected\": 1.0, \"got\": ") != std::string::npos);
  CHECK(j42f.find("\"expected\": 0.0, ") != std::string::npos);
}

TEST_CASE("printable and valid_utf8: what a student's file name or bytes may hold, made safe for a terminal, JSON and CSV") {
  // a control character, a stray byte, an overlong 'A', a UTF-16 surrogate, then UTF-8 that stays
  const std::string raw = "a\x1b[2J\t\xff\xc1\x81\xed\xa0\x80 é√";
  CHECK(lab::printable(raw) == "a\\x1b[2J\\t\\xff\\xc1\\x81\\xed\\xa0\\x80 é√");
  CHECK(lab::valid_utf8(raw) == "a\x1b[2J\t\\xff\\xc1\\x81\\xed\\xa0\\x80 é√");   // json::str escapes the controls
  CHECK(lab::printable("\xc2\x85") == "\\x85");   // C1 controls as Python's repr() writes them
  CHECK(lab::printable("o\"k, x \\y") == "o\"k, x \\y");
  CHECK(lab::printable(std::string("\0b", 2)) == "\\x00b");
  CHECK(lab::num(std::nan("")) == "nan");
  CHECK(lab::num(-std::nan("")) == "nan");
  CHECK(lab::num(-INFINITY) == "-inf");
  CHECK(lab::num_signed(INFINITY) == "+inf");
}
