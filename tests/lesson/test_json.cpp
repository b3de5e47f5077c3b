// tests/lesson/test_json.cpp: the machine-readable output (--format json, lesson/json_run.h) held stable.
// An exact golden for a small lesson run through the library API, as `attn run FILE --format json`
// and `attn lesson NAME --format json` print it; verify's per-cell status and summary; the list
// document; and the writer's pretty-printing. A change here is a schema change: docs/scripting.md
// ("`lesson`, `run`, `verify` and `list`") and json::kSchemaVersion go with it.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "torch/session.h"
#include "torch/values.h"
#include "lesson/catalog.h"
#include "lesson/json.h"
#include "lesson/json_run.h"
#include "py/interpreter.h"

namespace {

using namespace attn::lesson;
using attn::UsageError;

// Two steps: a float32 matrix, its torch.Size and a grad_fn; then bool / int64 / 0-d tensors,
// -inf and nan, a dict and a list. The second cell's ```output is wrong on purpose (for verify).
const char* kLesson = R"lesson(# Tiny: numbers in and out
name: tiny
group: concepts
order: 1
source: test
section: One

Intro.

## make: Make a tensor
Prose.

```python
import torch
import torch.nn as nn
torch.manual_seed(123)
x = torch.tensor([[1.0, -2.5], [0.1, 3.0]])
w = nn.Parameter(torch.tensor([0.5, 2.0]))
print(x, x.shape)
print(x @ w)
```
```output
tensor([[ 1.0000, -2.5000],
        [ 0.1000,  3.0000]]) torch.Size([2, 2])
tensor([-4.5000,  6.0500], grad_fn=<MvBackward0>)
```

## mask: Masks, inf and nan
```python
m = torch.tril(torch.ones(2, 2)) == 0
y = x.masked_fill(m, -torch.inf)
print("y:", y, y - y)
print(m, torch.arange(3), torch.tensor(1 / 3), {'n': len(x), 'mean': 0.25}, [1, 2.0, True])
```
```output
y: tensor([[1.0000,   -inf],
        [0.1000, 3.0000]])
```
```note
A note.
```
)lesson";

// What `attn run tiny.lesson --format json` prints. Float32 numbers are the shortest text that
// reads back as the same float32 (6.05 is 0.1f * 0.5f + 6.0f; 1/3 is 0.33333334).
const char* kGolden = R"json({
  "schema_version": 1,
  "command": "run",
  "lesson": {
    "name": "tiny",
    "title": "Tiny: numbers in and out",
    "group": "concepts",
    "order": 1,
    "source": "test",
    "author": null,
    "url": null,
    "section": "One",
    "intro": "Intro.",
    "about": ["Numbers: computed as PyTorch 1.13 does with its AVX2 CPU kernels; `--cpu scalar` for Apple Silicon and other ARM builds", "BLAS: matrix products add up in the order of the reference BLAS (Debian's PyTorch with libblas3); OpenBLAS, MKL and Accelerate add in other orders, which can change a last printed digit"],
    "step_count": 2
  },
  "parameters": {"seed": null, "sentence": null, "inputs": null, "rng": "mkl", "cpu": "avx2", "step": null},
  "steps": [
    {
      "id": "make",
      "number": 1,
      "title": "Make a tensor",
      "prose": "Prose.",
      "cells": [
        {
          "line": 14,
          "setup": false,
          "code": "import torch\nimport torch.nn as nn\ntorch.manual_seed(123)\nx = torch.tensor([[1.0, -2.5], [0.1, 3.0]])\nw = nn.Parameter(torch.tensor([0.5, 2.0]))\nprint(x, x.shape)\nprint(x @ w)\n",
          "output": "tensor([[ 1.0000, -2.5000],\n        [ 0.1000,  3.0000]]) torch.Size([2, 2])\ntensor([-4.5000,  6.0500], grad_fn=<MvBackward0>)\n",
          "expected": "tensor([[ 1.0000, -2.5000],\n        [ 0.1000,  3.0000]]) torch.Size([2, 2])\ntensor([-4.5000,  6.0500], grad_fn=<MvBackward0>)\n",
          "note": null,
          "values": [
            {
              "name": "x",
              "type": "Tensor",
              "dtype": "float32",
              "shape": [2, 2],
              "requires_grad": false,
              "grad_fn": null,
              "value": [[1.0, -2.5], [0.1, 3.0]],
              "text": "tensor([[ 1.0000, -2.5000],\n        [ 0.1000,  3.0000]])"
            },
            {"name": "x.shape", "type": "torch.Size", "value": [2, 2], "text": "torch.Size([2, 2])"},
            {
              "name": "x @ w",
              "type": "Tensor",
              "dtype": "float32",
              "shape": [2],
              "requires_grad": true,
              "grad_fn": "MvBackward0",
              "value": [-4.5, 6.05],
              "text": "tensor([-4.5000,  6.0500], grad_fn=<MvBackward0>)"
            }
          ]
        }
      ]
    },
    {
      "id": "mask",
      "number": 2,
      "title": "Masks, inf and nan",
      "prose": "",
      "cells": [
        {
          "line": 30,
          "setup": false,
          "code": "m = torch.tril(torch.ones(2, 2)) == 0\ny = x.masked_fill(m, -torch.inf)\nprint(\"y:\", y, y - y)\nprint(m, torch.arange(3), torch.tensor(1 / 3), {'n': len(x), 'mean': 0.25}, [1, 2.0, True])\n",
          "output": "y: tensor([[1.0000,   -inf],\n        [0.1000, 3.0000]]) tensor([[0., nan],\n        [0., 0.]])\ntensor([[False,  True],\n        [False, False]]) tensor([0, 1, 2]) tensor(0.3333) {'n': 2, 'mean': 0.25} [1, 2.0, True]\n",
          "expected": "y: tensor([[1.0000,   -inf],\n        [0.1000, 3.0000]])\n",
          "note": "A note.\n",
          "values": [
            {
              "name": "y",
              "type": "Tensor",
              "dtype": "float32",
              "shape": [2, 2],
              "requires_grad": false,
              "grad_fn": null,
              "value": [[1.0, "-inf"], [0.1, 3.0]],
              "text": "tensor([[1.0000,   -inf],\n        [0.1000, 3.0000]])"
            },
            {
              "name": "y - y",
              "type": "Tensor",
              "dtype": "float32",
              "shape": [2, 2],
              "requires_grad": false,
              "grad_fn": null,
              "value": [[0.0, "nan"], [0.0, 0.0]],
              "text": "tensor([[0., nan],\n        [0., 0.]])"
            },
            {
              "name": "m",
              "type": "Tensor",
              "dtype": "bool",
              "shape": [2, 2],
              "requires_grad": false,
              "grad_fn": null,
              "value": [[false, true], [false, false]],
              "text": "tensor([[False,  True],\n        [False, False]])"
            },
            {
              "name": "torch.arange(3)",
              "type": "Tensor",
              "dtype": "int64",
              "shape": [3],
              "requires_grad": false,
              "grad_fn": null,
              "value": [0, 1, 2],
              "text": "tensor([0, 1, 2])"
            },
            {
              "name": "torch.tensor(1 / 3)",
              "type": "Tensor",
              "dtype": "float32",
              "shape": [],
              "requires_grad": false,
              "grad_fn": null,
              "value": 0.33333334,
              "text": "tensor(0.3333)"
            },
            {
              "name": "{'n': len(x), 'mean': 0.25}",
              "type": "dict",
              "value": {"n": 2, "mean": 0.25},
              "text": "{'n': 2, 'mean': 0.25}"
            },
            {
              "name": "[1, 2.0, True]",
              "type": "list",
              "value": [1, 2.0, true],
              "text": "[1, 2.0, True]"
            }
          ]
        }
      ]
    }
  ]
}
)json";

// Writes kLesson as tiny.lesson in a temporary folder of this process (removed at exit) named
// after `dirname`; returns the file's path.
std::string write_lesson(const std::string& dirname) {
  static struct Root {
    std::string path = std::filesystem::temp_directory_path() / ("attn-json-test-" + std::to_string(getpid()));
    ~Root() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } root;
  std::string dir = root.path + "/" + dirname;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/tiny.lesson") << kLesson;
  return dir + "/tiny.lesson";
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a lesson run as JSON: the exact document") {
  Lesson l = read_lesson(write_lesson("run"));
  LessonRun run = run_lesson(l, {});
  CHECK(json::lesson_document("run", run, {}, "") == kGolden);
}

TEST_CASE("--step: one step, still one document, numbered as in the lesson") {
  Lesson l = read_lesson(write_lesson("run"));
  RunOptions opts;
  opts.seed = "007";
  opts.cpu = attn::core::CpuKernels::scalar;
  LessonRun run = run_lesson(l, opts);
  std::string doc = json::lesson_document("lesson", run, opts, "mask");
  CHECK(doc.rfind("{\n  \"schema_version\": 1,\n  \"command\": \"lesson\",\n", 0) == 0);
  CHECK(doc.find("\"parameters\": {\"seed\": 7, \"sentence\": null, \"inputs\": null, \"rng\": \"mkl\", \"cpu\": \"scalar\", "
                 "\"step\": \"mask\"}") != std::string::npos);
  CHECK(count(doc, "\"id\": ") == 1);
  CHECK(doc.find("\"id\": \"mask\",\n      \"number\": 2,") != std::string::npos);
  CHECK(doc.find("\"step_count\": 2") != std::string::npos);
  CHECK_THROWS_WITH_AS(json::lesson_document("lesson", run, opts, "nope"),
                       "lesson 'tiny' has no step 'nope' (its steps: make, mask)", UsageError);
  CHECK_THROWS_WITH_AS(json::lesson_document("lesson", run, opts, "no\npe"),
                       "lesson 'tiny' has no step 'no\\npe' (its steps: make, mask)", UsageError);
}

TEST_CASE("verify as JSON: match / differs per cell, and a summary") {
  Lesson l = read_lesson(write_lesson("run"));
  std::vector<json::VerifiedLesson> results;
  results.push_back({run_lesson(l, {}), {}});
  results.back().checks = verify(results.back().run);
  std::string doc = json::verify_document(results, {});
  CHECK(doc.rfind("{\n  \"schema_version\": 1,\n  \"command\": \"verify\",\n", 0) == 0);
  CHECK(doc.find("\"compared\": true,") != std::string::npos);
  CHECK(doc.find("\"where\": \"tiny/make\",\n          \"step\": \"make\",\n          \"cell\": 1,\n          \"line\": 14,\n"
                 "          \"status\": \"match\",\n          \"remark\": null,") != std::string::npos);
  CHECK(doc.find("\"where\": \"tiny/mask\",\n          \"step\": \"mask\",\n          \"cell\": 1,\n          \"line\": 30,\n"
                 "          \"status\": \"differs\",") != std::string::npos);
  CHECK(doc.find("\"expected\": \"y: tensor([[1.0000,   -inf],\\n        [0.1000, 3.0000]])\\n\",") != std::string::npos);
  // The diff is verify's text diff: "    - " the article's line, "    + " attn's.
  CHECK(doc.find("\"diff\": \"    -         [0.1000, 3.0000]])\\n    +         [0.1000, 3.0000]]) tensor([[0., nan],\\n") !=
        std::string::npos);
  CHECK(doc.find("\"diff\": null") != std::string::npos);
  CHECK(doc.find("\"summary\": {\"lessons\": 1, \"cells_run\": 2, \"compared\": 2, \"match\": 1, \"differ\": 1}\n}\n") !=
        std::string::npos);

  // With --seed the article's transcript no longer applies: nothing is compared.
  RunOptions seeded;
  seeded.seed = "42";
  std::vector<json::VerifiedLesson> other;
  other.push_back({run_lesson(l, seeded), {}});
  std::string none = json::verify_document(other, seeded);
  CHECK(none.find("\"parameters\": {\"seed\": 42, \"sentence\": null, \"inputs\": null, \"rng\": null, \"cpu\": null},\n"
                  "  \"compared\": false,\n"
                  "  \"lessons\": [{\"name\": \"tiny\", \"cpu\": \"avx2\", \"rng\": \"mkl\", \"cells\": []}],\n"
                  "  \"summary\": {\"lessons\": 1, \"cells_run\": 2, \"compared\": 0, \"match\": 0, \"differ\": 0}\n}\n") !=
        std::string::npos);
}

TEST_CASE("a run a cell's error stopped: the cells that ran, the failing one marked, the error at the top") {
  // tiny.lesson with its second step's last line failing (file line 33): what it printed before stays.
  std::string text = kLesson;
  text.replace(text.find("print(m, torch.arange(3)"), 8, "print(q,");
  std::string path = write_lesson("failing");
  std::ofstream(path) << text;
  Lesson l = read_lesson(path);
  CHECK_THROWS_WITH_AS(run_lesson(l, {}), (path + ":33: NameError: name 'q' is not defined").c_str(), attn::LessonFileError);
  LessonRun run = run_until_error(l, {});
  REQUIRE(run.failed_cell() != nullptr);
  CHECK(run.failed_cell() == &run.steps.at(1).cells.at(0));
  CHECK(run.failed_cell()->error->what() == path + ":33: NameError: name 'q' is not defined");

  std::string doc = json::lesson_document("run", run, {}, "");
  // The first step as a whole run prints it; the second has the failing cell, with its output so far.
  std::string whole = kGolden;
  CHECK(doc.substr(0, whole.find("\"id\": \"mask\"")) == whole.substr(0, whole.find("\"id\": \"mask\"")));
  CHECK(doc.find("          \"output\": \"y: tensor([[1.0000,   -inf],\\n        [0.1000, 3.0000]]) tensor([[0., nan],\\n        [0., 0.]])\\n\",\n") !=
        std::string::npos);
  CHECK(doc.find("          \"error\": {\"line\": 33, \"message\": \"NameError: name 'q' is not defined\"}\n        }\n      ]\n    }\n  ],\n"
                 "  \"error\": {\n    \"file\": \"" + path + "\",\n    \"line\": 33,\n    \"step\": \"mask\",\n    \"cell\": 1,\n"
                 "    \"message\": \"NameError: name 'q' is not defined\"\n  }\n}\n") != std::string::npos);
  CHECK(count(doc, "\"error\": ") == 2);
  CHECK(count(doc, "\"id\": ") == 2);
  // --step of the step that never ran: no steps, and the error says where the run stopped.
  Lesson early = read_lesson(path);
  early.steps[0].cells[0].code += "print(undefined_name)\n";
  LessonRun stopped = run_until_error(early, {});
  std::string none = json::lesson_document("lesson", stopped, {}, "mask");
  CHECK(none.find("  \"steps\": [],\n  \"error\": {\n") != std::string::npos);
  CHECK(none.find("\"line\": 21,\n    \"step\": \"make\",") != std::string::npos);

  // verify: the failing cell has status "error" (the article printed something under it or not),
  // and the summary counts it and the compared cells after it that never ran.
  std::vector<json::VerifiedLesson> results;
  results.push_back({run_until_error(early, {}), {}});
  results.back().checks = verify(results.back().run);
  REQUIRE(results.back().checks.size() == 1);
  CHECK(results.back().checks[0].where == "tiny/make");
  CHECK(compared_cells_not_run(results.back().run) == 1);
  std::string v = json::verify_document(results, {});
  CHECK(v.find("\"status\": \"error\",") != std::string::npos);
  CHECK(v.find("\"error\": {\"line\": 21, \"message\": \"NameError: name 'undefined_name' is not defined\"}") != std::string::npos);
  CHECK(v.find("\"summary\": {\"lessons\": 1, \"cells_run\": 1, \"compared\": 0, \"match\": 0, \"differ\": 0, \"error\": 1, "
               "\"not_run\": 1}\n}\n") != std::string::npos);
}

TEST_CASE("list as JSON: one lesson a line, with its step ids") {
  std::string path = write_lesson("list");
  std::vector<Lesson> all = load_catalog(std::filesystem::path(path).parent_path());
  CHECK(json::catalog_document(all) ==
        "{\n"
        "  \"schema_version\": 1,\n"
        "  \"command\": \"list\",\n"
        "  \"lessons\": [\n"
        "    {\"name\": \"tiny\", \"title\": \"Tiny: numbers in and out\", \"group\": \"concepts\", \"order\": 1, \"source\": \"test\", "
        "\"author\": null, \"url\": null, \"section\": \"One\", \"added\": false, \"replaces\": null, \"steps\": [{\"id\": \"make\", \"title\": \"Make a tensor\"}, {\"id\": \"mask\", \"title\": \"Masks, inf and nan\"}]}\n"
        "  ]\n"
        "}\n");
}

TEST_CASE("parameters: options as given, inputs as rows of numbers") {
  RunOptions opts;
  opts.inputs = "1 2 3; 4 5 6; 7 8 9; 0.1 -0 1e3; 1,1,1; 0 0 0";
  opts.sentence = "it's \"quoted\"";
  opts.rng = attn::core::DropoutRng::portable;
  CHECK(json::parameters(opts).done() ==
        "{\"seed\": null, \"sentence\": \"it's \\\"quoted\\\"\", \"inputs\": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], "
        "[0.1, -0.0, 1000.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], \"rng\": \"portable\", \"cpu\": null}");
  opts = {};
  opts.seed = "18446744073709551615";   // beyond int64: written as the integer it is
  CHECK(json::parameters(opts).done().rfind("{\"seed\": 18446744073709551615,", 0) == 0);
}

TEST_CASE("a printed set: type set, its items as an array in Python's order") {
  // python3.11 prints {1, 10, 2.5}: hash(2.5) == 2**60 + 2 aims at slot 2 of 8, which 10 holds, so it probes on to slot 3.
  attn::torch::Session in(attn::core::CpuKernels::avx2, attn::core::DropoutRng::mkl);
  in.run_cell("s = {10, 1, 2.5}\nprint(s, {'b', 'a'})");
  REQUIRE(in.printed().size() == 2);
  CHECK(json::printed(in.printed()[0]) == "{\"name\": \"s\", \"type\": \"set\", \"value\": [1, 10, 2.5], \"text\": \"{1, 10, 2.5}\"}");
  CHECK(json::value(in.printed()[1].value) == "[\"b\", \"a\"]");
}

TEST_CASE("json::pretty: documents for people, rows on one line") {
  using attn::lesson::json::pretty;
  CHECK(pretty(R"({"a": [1, 2], "b": {"c": []}})") == "{\n  \"a\": [1, 2],\n  \"b\": {\"c\": []}\n}");
  CHECK(pretty("[]") == "[]");
  CHECK(pretty("{}") == "{}");
  // Strings with brackets, commas and escaped quotes are copied as they are.
  CHECK(pretty(R"({"s": "a, [b]: {\"c\"}"})") == "{\n  \"s\": \"a, [b]: {\\\"c\\\"}\"\n}");
  // An array of numbers stays on one line however long; a long array of arrays has a row a line.
  std::string row = "[" + std::string(60, '1') + ", " + std::string(60, '2') + "]";
  CHECK(pretty("{\"v\": " + row + "}") == "{\n  \"v\": " + row + "\n}");
  CHECK(pretty("{\"m\": [" + row + ", " + row + "]}") == "{\n  \"m\": [\n    " + row + ",\n    " + row + "\n  ]\n}");
  // A long object has a member a line, unless it is at max_depth or deeper.
  std::string item = "{\"a\": \"" + std::string(100, 'x') + "\", \"b\": [{\"c\": 2}]}";
  CHECK(pretty("{\"l\": [" + item + "]}", 2) == "{\n  \"l\": [\n    " + item + "\n  ]\n}");
  CHECK(pretty("{\"l\": [" + item + "]}") ==
        "{\n  \"l\": [\n    {\n      \"a\": \"" + std::string(100, 'x') + "\",\n      \"b\": [{\"c\": 2}]\n    }\n  ]\n}");
}
