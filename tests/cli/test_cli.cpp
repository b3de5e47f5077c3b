// tests/cli/test_cli.cpp: the real `attn` binary as a learner or a lab script runs it: exit codes,
// and the one-line error messages on stderr for bad input.
#include <doctest/doctest.h>

#include "support/run_attn.h"

#include <sys/wait.h>

#include <cstdio>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>   // getpid: a scratch folder per test process, so concurrent runs never share one

namespace {

using Result = CliResult;

Result attn(const std::string& args, const std::string& env = "") { return attn_process(args, "", env); }

}  // namespace

TEST_CASE("bad input: one line on stderr, exit code 2") {
  struct Case {
    std::string args, err;
  } cases[] = {
      {"lesson causl", "attn: no lesson named 'causl'; did you mean 'causal'? (`attn list` shows all lessons)\n"},
      {"lesson causal --seed abc", "attn: --seed must be an integer (as torch.manual_seed takes), got 'abc'\n"},
      {"lesson causal --seed 18446744073709551616",
       "attn: --seed must be in PyTorch's range -9223372036854775808 to 18446744073709551615, got 18446744073709551616\n"},
      {"lesson causal --sentence hello", "attn: --sentence needs at least two words to attend between, got 1: 'hello'\n"},
      {"lesson causal --sentence ' , '", "attn: --sentence needs at least two words to attend between, got 0: ' , '\n"},
      {"lesson causal --step nope",
       "attn: lesson 'causal' has no step 'nope' (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)\n"},
      {"verify causal nosuch", "attn: no lesson named 'nosuch' (`attn list` shows all lessons)\n"},
      {"lesson simple --inputs '1 2 3; 4 5; 1 1 1; 1 1 1; 1 1 1; 1 1 1'",
       "attn: --inputs rows must have the same length: row 1 has 3 numbers, row 2 has 2\n"},
      {"lesson simple --inputs '1 2 x; 1 1 1'", "attn: --inputs row 1: 'x' is not a number\n"},
      {"lesson simple --inputs \"1 2 $(printf '\\033[2J'); 1 1 1\"", "attn: --inputs row 1: '\\x1b[2J' is not a number\n"},
      {"lesson simple --inputs '1 2 inf; 1 1 1'", "attn: --inputs row 1: 'inf' is not finite; embeddings are finite numbers\n"},
      {"lesson simple --inputs ''", "attn: --inputs is empty; give rows like \"0.43 0.15 0.89; 0.55 0.87 0.66; ...\"\n"},
      {"lesson simple --inputs '1 2 3;;4 5 6'",
       "attn: --inputs row 2 is empty (rows are separated by ';', numbers by spaces or commas)\n"},
      {"lesson simple --inputs '1 2 3'",
       "attn: --inputs needs at least 2 rows, one per token (the lessons take the second token as the query), got 1\n"},
      {"lesson causal --inputs '1;2;3;4;5;6'",
       "attn: lesson 'causal' has no `inputs = torch.tensor(...)` matrix, so --inputs does not apply to it\n"},
      {"lesson simple --sentence 'a b c'", "attn: lesson 'simple' has no input sentence, so --sentence does not apply to it\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = attn(c.args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());
  }
}

TEST_CASE("command-line parse errors are usage errors too") {
  for (const char* args : {"''", "lesson", "list --format xml", "lesson causal --rng fast", "frobnicate"}) {
    CAPTURE(args);
    Result r = attn(args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("attn: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);   // exactly one line
  }
}

TEST_CASE("typos get a suggestion when one name is clearly closest; steps by number; an empty step is an error") {
  const std::string steps = " (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)\n";
  struct Case {
    std::string args, err;
  } cases[] = {
      {"lesson causal --stpe tril", "attn: unknown option '--stpe' for `attn lesson`; did you mean --step? (see `attn lesson --help`)\n"},
      {"lesson causal --heatnap", "attn: unknown option '--heatnap' for `attn lesson`; did you mean --heatmap? (see `attn lesson --help`)\n"},
      {"list --fromat=json", "attn: unknown option '--fromat' for `attn list`; did you mean --format? (see `attn list --help`)\n"},
      {"lesson causal --zzz", "attn: unknown option '--zzz' for `attn lesson` (see `attn lesson --help`)\n"},
      {"lesson casual", "attn: no lesson named 'casual'; did you mean 'causal'? (`attn list` shows all lessons)\n"},
      {"lesson causal --step tirl", "attn: lesson 'causal' has no step 'tirl'; did you mean 'tril'?" + steps},
      {"lesson causal --from renrom", "attn: lesson 'causal' has no step 'renrom'; did you mean 'renorm'?" + steps},
      {"lesson causal --step 9", "attn: lesson 'causal' has steps 1 to 8, so no step 9" + steps},
      {"lesson causal --step 0", "attn: lesson 'causal' has steps 1 to 8, so no step 0" + steps},
      {"lesson causal --step ''", "attn: --step: is empty; give a step's id or number (each step's heading shows both) (see `attn --help`)\n"},
      {"lesson causal --from ''", "attn: --from: is empty; give a step's id or number (each step's heading shows both) (see `attn --help`)\n"},
      {"lesson causal --step 4 --from 2", "attn: --step shows one step and --from starts at one: give one of them\n"},
      {"lesson causal --from 2 --format json", "attn: --from is for the walkthrough; the JSON document holds every step\n"},
      {"export causal --npy x --only 4", "attn: --only takes step ids, not numbers: step 4 of lesson 'causal' is 'tril'\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = attn(c.args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());
  }
  CHECK(attn("check causal --step '' --answer x.npy").err == "attn: the step is empty; give one of lesson 'causal's steps by id or number" + steps);
  // --step 4 is the heading's 4/8; --from runs the earlier steps silently and shows the rest
  std::string tril = attn("lesson causal --step tril").out;
  CHECK(tril.find("── 4/8") != std::string::npos);
  CHECK(attn("lesson causal --step 4").out == tril);
  std::string from = attn("lesson causal --from 4 --quiet").out;
  CHECK(from == attn("lesson causal --from tril --quiet").out);
  CHECK(from.rfind(attn("lesson causal --step tril --quiet").out, 0) == 0);
  std::string last = attn("lesson causal --step softmax-masked --quiet").out;
  CHECK(from.size() > last.size());
  CHECK(from.compare(from.size() - last.size(), last.size(), last) == 0);
  CHECK(attn("lesson causal --from 1 --quiet").out == attn("lesson causal --quiet").out);
}

TEST_CASE("--cpu and --rng take the names of their enums, and say so otherwise") {
  struct Case {
    std::string args, err;
  } cases[] = {
      {"lesson causal --cpu fast", "attn: --cpu: 'fast' is not a CPU kernel family; use avx2 or scalar (see `attn --help`)\n"},
      {"lesson causal --cpu 1", "attn: --cpu: '1' is not a CPU kernel family; use avx2 or scalar (see `attn --help`)\n"},
      {"lesson causal --cpu AVX2", "attn: --cpu: 'AVX2' is not a CPU kernel family; use avx2 or scalar (see `attn --help`)\n"},
      {"lesson causal --rng fast", "attn: --rng: 'fast' is not a dropout generator; use mkl or portable (see `attn --help`)\n"},
      {"lesson causal --rng 0", "attn: --rng: '0' is not a dropout generator; use mkl or portable (see `attn --help`)\n"},
      {"check causal --step weights --answer x.npy --cpu \"$(printf 'arm\\n64')\"",
       "attn: --cpu: 'arm\\n64' is not a CPU kernel family; use avx2 or scalar (see `attn --help`)\n"},
      {"export causal --npy x --rng ''", "attn: --rng: '' is not a dropout generator; use mkl or portable (see `attn --help`)\n"},
      {"verify causal --rng mkl2", "attn: --rng: 'mkl2' is not a dropout generator; use mkl or portable (see `attn --help`)\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = attn(c.args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());
  }
  // The names reach the run: --about's header lines say which family computed the numbers.
  CHECK(attn("lesson dropout --cpu scalar --rng portable --about").out.find("with its scalar CPU kernels;") != std::string::npos);
  CHECK(attn("lesson dropout --cpu scalar --rng portable --about").out.find("Dropout: masks as PyTorch draws them on every build without MKL") !=
        std::string::npos);
  CHECK(attn("lesson causal --cpu avx2 --about").out.find("with its AVX2 CPU kernels;") != std::string::npos);
  // Without --about, the header has none of them.
  CHECK(attn("lesson dropout --cpu scalar --rng portable").out.find("CPU kernels") == std::string::npos);
}

TEST_CASE("a step or lesson name with a newline or escape character: still one line, quoted as Python would") {
  const std::string steps = " (its steps: setup, scores, weights, tril, masked, renorm, neg-inf, softmax-masked)\n";
  struct Case {
    std::string args, err;
  } cases[] = {
      {"lesson causal --step \"$(printf 'x\\nrm -rf')\"", "attn: lesson 'causal' has no step 'x\\nrm -rf'" + steps},
      {"lesson causal --step \"$(printf 'x\\033[31m')\" --format json", "attn: lesson 'causal' has no step 'x\\x1b[31m'" + steps},
      {"lesson causal --step \"it's\"", "attn: lesson 'causal' has no step \"it's\"" + steps},
      {"check causal --step \"$(printf 'a\\tb')\" --answer x.npy", "attn: lesson 'causal' has no step 'a\\tb'" + steps},
      {"lesson \"$(printf 'cau\\nsal')\"", "attn: no lesson named 'cau\\nsal'; did you mean 'causal'? (`attn list` shows all lessons)\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = attn(c.args);
    CHECK(r.code == 2);
    CHECK(r.err == c.err);
    if (c.args.rfind("check ", 0) == 0) {
      // attn check also reports on stdout, for a grading loop's feedback file (issue 10); the step
      // is quoted there too, so the header stays one line.
      CHECK(r.out.rfind("ERROR  causal/" + c.err.substr(c.err.find(" has no step ") + 13, c.err.find(" (its steps") - c.err.find(" has no step ") - 13) + "\n", 0) == 0);
      CHECK(std::count(r.out.begin(), r.out.end(), '\t') == 0);
    } else {
      CHECK(r.out.empty());
    }
  }
}

TEST_CASE("a malformed lesson file is named with its line") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-bad-lessons-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/bad.lesson") << "# Bad\nname: bad\ngroup: concepts\norder: 1\nsource: test\n\n## Step one: x\n";
  Result r = attn("list", "ATTN_LESSON_DIR=" + dir);
  CHECK(r.code == 2);
  CHECK(r.err == "attn: " + dir + "/bad.lesson:7: a step heading is '## id: Title' with a lowercase id, got '## Step one: x'\n");
}

TEST_CASE("two lessons with one name: an error naming both files") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-twin-lessons-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const char* body = "name: twin\ngroup: concepts\norder: 1\nsource: test\n\n## one: x\n```python\nprint(1)\n```\n";
  std::ofstream(dir + "/a.lesson") << "# A\n" << body;
  std::ofstream(dir + "/b.lesson") << "# B\nsection: two\n" << body;
  for (const char* args : {"list", "lesson twin", "verify"}) {
    CAPTURE(args);
    Result r = attn(args, "ATTN_LESSON_DIR=" + dir);
    CHECK(r.code == 2);
    CHECK(r.err == "attn: " + dir + "/b.lesson:3: name: 'twin' is already the name of " + dir + "/a.lesson:2; give each lesson its own name\n");
    CHECK(r.out.empty());
  }
}

TEST_CASE("ATTN_LESSON_DIR naming a file or nothing says which") {
  std::string file = std::filesystem::temp_directory_path() / ("attn-not-a-folder-" + std::to_string(getpid()) + ".lesson");
  std::ofstream(file) << "# Not a folder\n";
  Result r = attn("list", "ATTN_LESSON_DIR=" + file);
  CHECK(r.code == 1);
  CHECK(r.err == "attn: lesson directory '" + file +
                     "' is a file, not a folder (set ATTN_LESSON_DIR to a folder of .lesson files, such as lessons/)\n");
  r = attn("list", "ATTN_LESSON_DIR=/nonexistent/attn-lessons");
  CHECK(r.code == 1);
  CHECK(r.err == "attn: lesson directory '/nonexistent/attn-lessons' does not exist (set ATTN_LESSON_DIR to the lessons/ folder)\n");
}

// ATTN_LESSON_DIR adds a folder (issue 19, item 9): the course stays; a folder lesson with a course
// lesson's name replaces it (an instructor's edited copy is the one that runs); `attn list` marks
// both kinds and shows a lesson's own source in full.
TEST_CASE("ATTN_LESSON_DIR adds its lessons to the course; one of the same name replaces the course's") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-added-lessons-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/mine.lesson") << "# My own lesson\nname: mine\ngroup: concepts\norder: 99\n"
                                         "source: Week 3 notes on attention, for the Tuesday lab\nauthor: A. Teacher\n"
                                         "url: https://example.org/week-3#attention\n\n"
                                         "## one: One\n```python\nprint(1)\n```\n```output\n1\n```\n";
  std::ofstream(dir + "/causal.lesson") << "# Causal, the lab's version\nname: causal\ngroup: article\norder: 7\nsource: lab notes\n\n"
                                           "## one: One\n```python\nprint(2)\n```\n```output\n2\n```\n";
  const std::string env = "ATTN_LESSON_DIR=" + dir;
  Result list = attn("list", env);
  CHECK(list.code == 0);
  CHECK(list.out.find("\n  embedding      Embedding an input sentence") != std::string::npos);   // the course is still there
  CHECK(list.out.find("\n* causal         Causal, the lab's version") != std::string::npos);
  CHECK(list.out.find("\n+ mine           My own lesson") != std::string::npos);
  CHECK(list.out.find("\n+ from ATTN_LESSON_DIR (" + dir + ")\n* from ATTN_LESSON_DIR (" + dir +
                      "), in place of the") != std::string::npos);
  // Sources are numbered as first used: the folder's causal is in the article group.
  CHECK(list.out.find("\n  [2] \"lab notes\" (author not known)\n") != std::string::npos);
  CHECK(list.out.find("\n  [7] A. Teacher, \"Week 3 notes on attention, for the Tuesday lab\"\n"
                      "      https://example.org/week-3\n\n") != std::string::npos);   // the page; the lesson has the anchor
  CHECK(attn("lesson mine", env).out.rfind("My own lesson\nLesson 22 of 22 (concepts) · attn lesson mine\n"
                                           "Source: A. Teacher, \"Week 3 notes on attention, for the Tuesday lab\"\n"
                                           "        https://example.org/week-3#attention\n\n", 0) == 0);
  Result json = attn("list --format json", env);
  CHECK(json.out.find("\"name\": \"causal\", \"title\": \"Causal, the lab's version\", \"group\": \"article\", \"order\": 7, "
                      "\"source\": \"lab notes\", \"author\": null, \"url\": null, \"section\": null, \"added\": true, \"replaces\": \"") !=
        std::string::npos);
  CHECK(json.out.find("\"name\": \"scores\", \"title\": \"Queries, keys, values and the unnormalised scores ω\", \"group\": \"article\", "
                      "\"order\": 2, \"source\": \"Understanding and Coding Self-Attention, Multi-Head Attention, Cross-Attention, and "
                      "Causal-Attention in LLMs\", \"author\": \"Sebastian Raschka\", \"url\": "
                      "\"https://magazine.sebastianraschka.com/p/understanding-and-coding-self-attention\"") != std::string::npos);
  // The folder's causal runs; a course lesson still runs; verify without names checks the folder's.
  CHECK(attn("lesson causal --quiet", env).out == "2\n");
  CHECK(attn("lesson embedding --quiet --step vocab", env).code == 0);
  Result v = attn("verify", env);
  CHECK(v.code == 0);
  CHECK(v.out.find("causal/") != std::string::npos);
  CHECK(v.out.find("mine/") != std::string::npos);
  CHECK(v.out.find("embedding") == std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("help, version, list and verify") {
  CHECK(attn("--version").out == "attn 0.1.0\n");
  for (const char* args : {"--help", "lesson --help", "list --help", "verify --help"}) {
    CAPTURE(args);
    Result r = attn(args);
    CHECK(r.code == 0);
    CHECK(r.out.find("Usage:") != std::string::npos);
  }
  Result json = attn("list --format json");
  CHECK(json.code == 0);
  CHECK(json.out.find("{\"name\": \"causal\", \"title\": \"Causal self-attention: hiding the future\", \"group\": \"article\"") != std::string::npos);
  Result v = attn("verify");
  CHECK(v.code == 0);
  CHECK(v.out.find("DIFFERS") == std::string::npos);
  Result other = attn("verify causal --seed 42");
  CHECK(other.code == 0);
  CHECK(other.out.find("its transcript no longer applies") != std::string::npos);
}

TEST_CASE("a lesson walks through code and output; --step shows one step") {
  Result r = attn("lesson causal --seed 42 --step tril");
  CHECK(r.code == 0);
  CHECK(r.out.find("mask_simple = torch.tril(torch.ones(block_size, block_size))") != std::string::npos);
  CHECK(r.out.find("── 4/8 tril:") != std::string::npos);
  CHECK(r.out.find("── 3/8") == std::string::npos);
  Result inputs = attn("lesson simple --inputs '1,0,0; 0,1,0; 0,0,1; 1,1,0; 0,1,1; 1,0,1'");
  CHECK(inputs.code == 0);
  CHECK(inputs.out.find("inputs = torch.tensor(\n      [[1.0, 0.0, 0.0],\n       [0.0, 1.0, 0.0],") != std::string::npos);
  CHECK(inputs.out.find("tensor([[1., 0., 0., 1., 0., 1.],") != std::string::npos);
  Result full = attn("lesson embedding --sentence 'the cat sat on the mat'");
  CHECK(full.out.find("sentence = 'the cat sat on the mat'") != std::string::npos);   // the code shown is the code run
  CHECK(full.out.find("{'cat': 0, 'mat': 1, 'on': 2, 'sat': 3, 'the': 5}") != std::string::npos);
}

TEST_CASE("a lesson whose cell fails: `lesson` shows the run up to it; `verify` reports ERROR and goes on") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-failing-lessons-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  // a: step two fails on line 20 (its cell starts on 19), before its own ```output and step three's were compared.
  std::ofstream(dir + "/a.lesson") << "# A\nname: a\ngroup: concepts\norder: 1\nsource: test\n\n"
                                      "## one: One\n```python\nimport torch\ntorch.manual_seed(1)\nprint(1)\n```\n```output\n1\n```\n\n"
                                      "## two: Two\n```python\nprint(2)\nprint(z)\n```\n```output\n2\nz\n```\n```note\nA note.\n```\n\n"
                                      "## three: Three\n```python\nprint(3)\n```\n```output\n3\n```\n";
  // b: runs whole; its second cell differs from its ```output.
  std::ofstream(dir + "/b.lesson") << "# B\nname: b\ngroup: concepts\norder: 2\nsource: test\n\n"
                                      "## one: One\n```python\nprint(1)\n```\n```output\n1\n```\n```python\nprint(2)\n```\n```output\n3\n```\n";
  const std::string env = "ATTN_LESSON_DIR=" + dir;
  const std::string error = dir + "/a.lesson:20: NameError: name 'z' is not defined";

  Result r = attn("lesson a --quiet", env);
  CHECK(r.code == 2);
  CHECK(r.out == "1\n2\n");
  CHECK(r.err == "attn: " + error + "\n");
  r = attn("lesson a", env);
  CHECK(r.code == 2);
  CHECK(r.out.find("In:\n    print(2)\n    print(z)\n\nOut:\n2\n") != std::string::npos);
  CHECK(r.out.substr(r.out.size() - 8) == "\nOut:\n2\n");   // no note under the failed cell, no "Next in the course"
  CHECK(r.out.find("A note.") == std::string::npos);
  CHECK(r.out.find("Next in the course") == std::string::npos);

  r = attn("verify", env);
  CHECK(r.code == 1);
  CHECK(r.err.empty());
  CHECK(r.out == "match    a/one\n"
                 "ERROR    a/two: " + error + "\n"
                 "match    b/one#1\n"
                 "DIFFERS  b/one#2\n    - 3\n    + 2\n"
                 "verify: 2 of 3 cells match the article, 1 differ, 1 error (2 lessons; 1 compared cell did not run after an error)\n");
  r = attn("verify a", env);
  CHECK(r.code == 1);
  CHECK(r.out == "match    a/one\nERROR    a/two: " + error +
                     "\nverify: 1 of 1 cells match the article, 0 differ, 1 error (1 lesson; 1 compared cell did not run after an error)\n");
  r = attn("verify b", env);   // no error: the summary as it always was
  CHECK(r.out.substr(r.out.find("verify:")) == "verify: 1 of 2 cells match the article, 1 differ (1 lesson)\n");
  r = attn("verify --seed 5", env);
  CHECK(r.code == 1);
  CHECK(r.out == "ERROR    a/two: " + error +
                     "\nverify: ran 4 cells in 2 lessons, 1 error; nothing compared: the article printed its outputs for its own inputs, "
                     "so with --seed, --sentence or --inputs its transcript no longer applies; --seed does not apply to b (run "
                     "without it)\n");

  r = attn("verify --format json", env);
  CHECK(r.code == 1);
  CHECK(r.out.find("\"where\": \"a/two\",\n          \"step\": \"two\",\n          \"cell\": 1,\n          \"line\": 19,\n"
                   "          \"status\": \"error\",\n          \"remark\": null,\n          \"expected\": \"2\\nz\\n\",\n"
                   "          \"output\": \"2\\n\",\n          \"diff\": null,\n"
                   "          \"error\": {\"line\": 20, \"message\": \"NameError: name 'z' is not defined\"}\n") != std::string::npos);
  CHECK(r.out.find("\"summary\": {\"lessons\": 2, \"cells_run\": 4, \"compared\": 3, \"match\": 2, \"differ\": 1, \"error\": 1, "
                   "\"not_run\": 1}\n}\n") != std::string::npos);
  r = attn("verify --seed 5 --format json", env);
  CHECK(r.code == 1);
  CHECK(r.out.find("{\"name\": \"b\", \"cpu\": \"avx2\", \"rng\": \"mkl\", \"not_applied\": [\"seed\"], \"cells\": []}") != std::string::npos);
  CHECK(r.out.find("\"status\": \"error\"") != std::string::npos);
  std::filesystem::remove_all(dir);
}
