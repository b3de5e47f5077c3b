// tests/cli/test_handout.cpp: `attn export --only`: handouts that hold a lesson's starting tensors and
// never the tensor `attn check` grades (issue 10, item 1). The real binary writes each handout;
// the test reads its .npy files back with attn check's own reader and every number of its
// notebook, and proves that none of them is (allclose to, as printed to 4 decimals) the graded
// answer, for several lessons and seeds. The full export, which is the answer key, is searched
// the same way and must contain the answer: the search finds what it looks for.
#include <doctest/doctest.h>

#include "support/run_attn.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>   // getpid: a scratch folder per test process, so concurrent runs never share one

#include "support/grade_helpers.h"
#include "torch/session.h"
#include "torch/values.h"
#include "lab/arrays.h"
#include "lesson/export.h"

using namespace grade_helpers;

namespace {

namespace fs = std::filesystem;

std::string scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("attn-handout-test-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// Every decimal number in `text` (a token with a '.': "0.1772", "1.", "6.0000e-08"), in order.
std::vector<double> numbers_in(const std::string& text) {
  std::vector<double> out;
  for (size_t k = 0; k < text.size();) {
    bool starts = std::isdigit(static_cast<unsigned char>(text[k])) &&
                  (k == 0 || (!std::isalnum(static_cast<unsigned char>(text[k - 1])) && text[k - 1] != '_' && text[k - 1] != '.'));
    if (!starts) {
      ++k;
      continue;
    }
    size_t b = k > 0 && text[k - 1] == '-' ? k - 1 : k;
    char* end = nullptr;
    double v = std::strtod(text.c_str() + b, &end);
    size_t e = static_cast<size_t>(end - text.c_str());
    if (text.substr(b, e - b).find('.') != std::string::npos) out.push_back(v);
    k = std::max(e, k + 1);
  }
  return out;
}

// True if `seq` appears in `nums` as a run of consecutive numbers, each within what printing to 4
// decimals changes (PyTorch's notation: 5e-5 absolute, or relative in scientific notation).
bool contains_run(const std::vector<double>& nums, const std::vector<double>& seq) {
  if (seq.empty() || nums.size() < seq.size()) return false;
  for (size_t i = 0; i + seq.size() <= nums.size(); ++i) {
    size_t j = 0;
    while (j < seq.size() && std::fabs(nums[i + j] - seq[j]) <= 1e-4 + 1e-4 * std::fabs(seq[j])) ++j;
    if (j == seq.size()) return true;
  }
  return false;
}

// The rows (along the last dim) of `a`; a vector is one row.
std::vector<std::vector<double>> rows_of(const lab::Arr& a) {
  size_t n = a.shape.empty() ? 1 : static_cast<size_t>(a.shape.back());
  std::vector<std::vector<double>> out;
  for (size_t k = 0; n && k + n <= a.v.size(); k += n) out.emplace_back(a.v.begin() + static_cast<std::ptrdiff_t>(k), a.v.begin() + static_cast<std::ptrdiff_t>(k + n));
  return out;
}

// Every .npy file in `dir`, read as attn check reads an answer.
std::vector<lab::Arr> arrays_in(const std::string& dir) {
  std::vector<lab::Arr> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".npy") {
      lab::Answer a = lab::parse_answer(slurp(e.path().string()), e.path().string());
      out.push_back({a.shape, a.data});
    }
  return out;
}

// The graded tensor, or its transpose, or its numbers in another shape, among `arrays`.
bool holds(const std::vector<lab::Arr>& arrays, const lab::Arr& graded) {
  for (const lab::Arr& a : arrays) {
    if (a.v.size() != graded.v.size()) continue;
    lab::Arr same{graded.shape, a.v};
    if (lab::close_all(same, graded, {}) || (lab::ndim(a) >= 2 && lab::close_all(lab::transposed(a), graded, {}))) return true;
  }
  return false;
}

struct HandoutCase {
  const char* lesson;
  const char* only;                      // the handout
  std::vector<const char*> graded;       // the steps a student is asked to compute
};

const HandoutCase kCases[] = {
    {"causal", "scores", {"weights", "renorm", "softmax-masked"}},
    {"masking", "weights", {"renorm", "softmax-masked"}},
    {"trainable", "omega-2", {"alpha-2", "z2"}},
};

}  // namespace

TEST_CASE("attn export --only: a handout holds no tensor equal to a graded answer, in its .npy files or its notebook") {
  for (const HandoutCase& c : kCases)
    for (const char* seed : {"", "7", "42"}) {
      CAPTURE(c.lesson);
      CAPTURE(seed);
      std::string dir = scratch(std::string(c.lesson) + "-" + (*seed ? seed : "article"));
      std::string seed_arg = *seed ? std::string(" --seed ") + seed : "";
      CliResult r = attn_process(std::string("export ") + c.lesson + seed_arg + " --only " + c.only + " --npy " + dir + "/handout --notebook " +
                                 dir + "/handout.ipynb");
      REQUIRE(r.code == 0);
      lesson::RunOptions opts;
      if (*seed) opts.seed = seed;
      lesson::LessonRun run = lesson::run_lesson(lesson_named(c.lesson), opts);
      std::vector<lab::Arr> handout = arrays_in(dir + "/handout");
      CHECK(!handout.empty());
      std::vector<double> notebook = numbers_in(slurp(dir + "/handout.ipynb"));
      CHECK(notebook.size() > 10);   // it shows the starting tensors
      for (const char* step : c.graded) {
        CAPTURE(step);
        lab::Arr graded = lab::to_arr(lab::select_target(run, step, "").value.tensor());
        CHECK_FALSE(holds(handout, graded));
        CHECK_FALSE(contains_run(notebook, graded.v));
        // No row of the answer either, unless a tensor the handout gives has it too (the unmasked
        // last row of a causal mask) or it is only 0s and 1s.
        for (const std::vector<double>& row : rows_of(graded)) {
          bool trivial = std::all_of(row.begin(), row.end(), [](double x) { return x == 0 || x == 1; });
          bool given = std::any_of(handout.begin(), handout.end(), [&](const lab::Arr& a) {
            auto rows = rows_of(a);
            return std::any_of(rows.begin(), rows.end(), [&](const std::vector<double>& h) { return contains_run(h, row); });
          });
          if (!trivial && !given) CHECK_FALSE(contains_run(notebook, row));
        }
      }
      if (*seed) continue;
      // The whole export is the answer key: the same search finds every graded tensor in it.
      REQUIRE(attn_process(std::string("export ") + c.lesson + " --npy " + dir + "/key --notebook " + dir + "/key.ipynb").code == 0);
      std::vector<lab::Arr> key = arrays_in(dir + "/key");
      std::vector<double> key_notebook = numbers_in(slurp(dir + "/key.ipynb"));
      for (const char* step : c.graded) {
        CAPTURE(step);
        lab::Arr graded = lab::to_arr(lab::select_target(run, step, "").value.tensor());
        CHECK(holds(key, graded));
        CHECK(contains_run(key_notebook, graded.v));
      }
    }
}

TEST_CASE("attn export --only: the listed steps' files, index.json, and the notebook's cells after them left to write") {
  std::string dir = scratch("causal");
  CliResult r = attn_process("export causal --seed 7 --only scores,tril --npy " + dir + "/npy --notebook " + dir + "/h.ipynb");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "wrote 2 arrays and index.json to " + dir + "/npy\nwrote " + dir + "/h.ipynb\n");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir + "/npy")) files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"index.json", "scores__1__attn_scores.npy", "tril__1__mask_simple.npy"});
  CHECK(slurp(dir + "/npy/index.json") ==
        "{\n  \"lesson\": \"causal\",\n  \"cpu\": \"scalar\",\n  \"rng\": \"mkl\",\n  \"options\": {\"seed\": 7},\n  \"only\": [\"scores\", \"tril\"],\n"
        "  \"arrays\": [\n"
        "    {\"file\": \"scores__1__attn_scores.npy\", \"step\": \"scores\", \"cell\": 1, \"name\": \"attn_scores\", \"shape\": [6, 6], \"dtype\": \"float32\"},\n"
        "    {\"file\": \"tril__1__mask_simple.npy\", \"step\": \"tril\", \"cell\": 1, \"name\": \"mask_simple\", \"shape\": [6, 6], \"dtype\": \"float32\"}\n"
        "  ]\n}\n");
  // The same bytes as the full export's files of those steps.
  REQUIRE(attn_process("export causal --seed 7 --npy " + dir + "/all").code == 0);
  CHECK(slurp(dir + "/npy/scores__1__attn_scores.npy") == slurp(dir + "/all/scores__1__attn_scores.npy"));

  std::string nb = slurp(dir + "/h.ipynb");
  // Up to and including 'tril' (the last listed): code and attn's output. 'weights', between the two, stays too.
  CHECK(nb.find("\"id\": \"scores-1-attn\"") != std::string::npos);
  CHECK(nb.find("\"id\": \"weights-1-attn\"") != std::string::npos);
  CHECK(nb.find("\"id\": \"tril-1-attn\"") != std::string::npos);
  CHECK(nb.find("    \"mask_simple = torch.tril(torch.ones(block_size, block_size))\\n\",\n") != std::string::npos);
  // After it: a comment saying what to compute, and no output.
  for (const char* later : {"masked", "renorm", "neg-inf", "softmax-masked"}) {
    CAPTURE(later);
    CHECK(nb.find(std::string("\"id\": \"") + later + "-1-attn\"") == std::string::npos);
  }
  CHECK(nb.find("\"id\": \"softmax-masked-1\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n"
                "    \"# your code here: compute attn_weights (step 'softmax-masked')\"\n   ]") != std::string::npos);
  CHECK(nb.find("    \"# your code here: compute masked_simple (step 'masked')\"\n") != std::string::npos);
  CHECK(nb.find("attn_scores.masked_fill(") == std::string::npos);   // the code the student writes is not there
  CHECK(nb.find("## softmax-masked: Softmax of the masked scores") != std::string::npos);   // what to do still is
  // A number the prose of a step the student writes quotes is an entry of its answer: the handout
  // names the expression that gives it, never the value (causal's "row 1 keeps only ...").
  lesson::RunOptions seed7;
  seed7.seed = "7";
  lesson::LessonRun run7 = lesson::run_lesson(lesson_named("causal"), seed7);
  const lesson::StepRun& masked = *std::find_if(run7.steps.begin(), run7.steps.end(), [](const lesson::StepRun& s) { return s.step->id == "masked"; });
  const std::string keeps = "row 1 keeps only ";
  const size_t at = masked.prose.find(keeps);
  REQUIRE(at != std::string::npos);
  const std::string value = masked.prose.substr(at + keeps.size(), 6);   // "0.2001" under seed 7
  CHECK(value.find_first_not_of("0123456789.") == std::string::npos);
  CHECK(nb.find(keeps + value) == std::string::npos);
  CHECK(nb.find(keeps + "`masked_simple[0, 0].item()`") != std::string::npos);
  REQUIRE(attn_process("export causal --seed 7 --notebook " + dir + "/full.ipynb").code == 0);
  CHECK(slurp(dir + "/full.ipynb").find(keeps + value) != std::string::npos);   // the full notebook quotes it
  CHECK(nb.find("**Handout:** the code cells after step 'tril' are yours to write") != std::string::npos);
  CHECK(nb.find("Made by `attn export causal --notebook " + dir + "/h.ipynb --seed 7 --only scores,tril`") != std::string::npos);
  CHECK(nb.find("   \"lesson\": \"causal\",\n   \"only\": [\"scores\", \"tril\"],\n   \"options\": {\"seed\": 7},\n") != std::string::npos);
  // One code cell per lesson cell, as in the full notebook.
  std::string full = lesson::notebook_json(lesson::run_lesson(lesson_named("causal"), {}), {}, "x");
  auto count = [](const std::string& hay, const std::string& needle) {
    size_t n = 0;
    for (size_t k = hay.find(needle); k != std::string::npos; k = hay.find(needle, k + 1)) ++n;
    return n;
  };
  CHECK(count(nb, "\"cell_type\": \"code\"") == count(full, "\"cell_type\": \"code\""));
}

TEST_CASE("attn export --only: an unknown or repeated step, or steps without tensors, is a usage error (exit 2)") {
  std::string dir = scratch("errors");
  struct Case {
    std::string args, err;
  } cases[] = {
      {"--only nope --npy " + dir + "/x",
       "attn: --only: lesson 'causal' has no step 'nope' (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)\n"},
      {"--only scores,scores --npy " + dir + "/x", "attn: --only lists step 'scores' twice\n"},
      {"--only scores, --npy " + dir + "/x", "attn: --only needs step ids separated by commas, got 'scores,' (`attn list --format json` lists them)\n"},
      // An empty --only (a shell variable left unset) must not export the whole lesson: the key.
      {"--only '' --npy " + dir + "/x", "attn: --only needs step ids separated by commas, got '' (`attn list --format json` lists them)\n"},
      {"--only setup --npy " + dir + "/x",
       "attn: --only setup selects no tensor: those steps print none (`attn lesson causal --step STEP` shows what a step prints)\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    CliResult r = attn_process("export causal " + c.args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());
  }
  CHECK_FALSE(fs::exists(dir + "/x"));
  // A notebook may stop after a step that prints nothing.
  CHECK(attn_process("export causal --only setup --notebook " + dir + "/setup.ipynb").code == 0);
}
