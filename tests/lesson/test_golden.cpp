// tests/lesson/test_golden.cpp: every lesson, under the article's inputs and other seeds and sentences,
// prints exactly what real PyTorch printed for the same cells (tests/golden/, made by
// tools/make_golden.py). Exact string comparison: a single digit or space off fails.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "lesson/catalog.h"
#include "lesson/run.h"
#include "support/sanitizers.h"

namespace {

struct Golden {
  std::string lesson;
  attn::lesson::RunOptions opts;
  std::map<std::string, std::string> cells;   // "step#k" -> what PyTorch printed
  std::vector<std::string> order;
};

Golden read_golden(const std::string& path) {
  std::ifstream in(path);
  Golden g;
  std::string line, current;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0 && current.empty()) continue;
    if (line.rfind("=== cell ", 0) == 0) {
      current = line.substr(9);
      g.order.push_back(current);
      g.cells[current];
    } else if (!current.empty()) {
      g.cells[current] += line + "\n";
    } else if (line.rfind("lesson: ", 0) == 0) {
      g.lesson = line.substr(8);
    } else if (line.rfind("seed: ", 0) == 0) {
      g.opts.seed = line.substr(6);
    } else if (line.rfind("sentence: ", 0) == 0) {
      g.opts.sentence = line.substr(10);
    } else if (line.rfind("inputs: ", 0) == 0) {
      g.opts.inputs = line.substr(8);
    } else if (line.rfind("rng: ", 0) == 0) {
      g.opts.rng = line.substr(5) == "portable" ? attn::core::DropoutRng::portable : attn::core::DropoutRng::mkl;
    } else if (line.rfind("cpu: ", 0) == 0) {
      g.opts.cpu = line.substr(5) == "scalar" ? attn::core::CpuKernels::scalar : attn::core::CpuKernels::avx2;
    }
  }
  return g;
}

std::vector<std::string> golden_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(ATTN_TEST_DATA) + "/golden"))
    if (e.path().extension() == ".txt") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every lesson prints what PyTorch printed for the same cells") {
  auto files = golden_files();
  REQUIRE(files.size() >= 7);
  auto catalog = attn::lesson::load_catalog(std::string(ATTN_TEST_DATA) + "/../lessons");
  for (const std::string& path : files) {
    if (!golden_run_kept(path)) continue;   // under ASan, a sample of the runs
    Golden g = read_golden(path);
    CAPTURE(path);
    const attn::lesson::Lesson& lesson = attn::lesson::find_lesson(catalog, g.lesson);
    attn::lesson::LessonRun run = attn::lesson::run_lesson(lesson, g.opts);
    std::vector<std::string> seen;
    for (const auto& s : run.steps) {
      int k = 0;
      for (const auto& c : s.cells) {
        std::string key = s.step->id + "#" + std::to_string(++k);
        seen.push_back(key);
        CAPTURE(key);
        REQUIRE(g.cells.count(key) == 1);
        CHECK(c.output == g.cells[key]);
      }
    }
    CHECK(seen == g.order);   // the lesson has exactly the cells PyTorch ran
  }
}

TEST_CASE("the golden files cover other seeds, a repeated-word sentence and scientific notation") {
  std::string all;
  for (const std::string& path : golden_files()) {
    std::ifstream in(path);
    all += std::string(std::istreambuf_iterator<char>(in), {});
  }
  CHECK(all.find("seed: 42") != std::string::npos);
  CHECK(all.find("sentence: the cat sat on the mat") != std::string::npos);
  CHECK(all.find("e-01") != std::string::npos);   // a tensor PyTorch printed in scientific mode
  CHECK(all.find("cpu: scalar") != std::string::npos);
  CHECK(all.find("cpu: avx2") != std::string::npos);
}
