// tests/lesson/test_lesson_file.cpp: the lesson file parser (format: lessons/README.md), its file:line
// errors, and the option rewriting that keeps shown code equal to run code.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "lesson/catalog.h"
#include "lesson/code_scan.h"
#include "lesson/options.h"
#include "lesson/render.h"
#include "lesson/run.h"
#include "lesson/suggest.h"
#include "lesson/verify.h"

using attn::LessonFileError;
using attn::lesson::parse_lesson;

namespace {

const char* kGood = R"(# A title
name: tiny
group: concepts
order: 9
source: a test

Intro prose.

## first: The first step
Some prose.

```python
x = 1
print(x)
```
```output
1
```
```note
A remark.
```

## second: The second step
```python setup
y = 2
```
)";

std::string error_of(const std::string& text) {
  try {
    parse_lesson(text, "f.lesson");
  } catch (const LessonFileError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a lesson file parses into steps, cells, expected outputs and notes") {
  auto l = parse_lesson(kGood, "f.lesson");
  CHECK(l.title == "A title");
  CHECK(l.name() == "tiny");
  CHECK(l.intro == "Intro prose.");
  REQUIRE(l.steps.size() == 2);
  CHECK(l.steps[0].id == "first");
  CHECK(l.steps[0].title == "The first step");
  CHECK(l.steps[0].prose == "Some prose.");
  REQUIRE(l.steps[0].cells.size() == 1);
  CHECK(l.steps[0].cells[0].code == "x = 1\nprint(x)\n");
  CHECK(l.steps[0].cells[0].line == 13);
  CHECK(l.steps[0].cells[0].expected == "1\n");
  CHECK(l.steps[0].cells[0].note == "A remark.\n");
  CHECK(l.steps[1].cells[0].setup);
  CHECK_FALSE(l.steps[1].cells[0].has_expected);
}

TEST_CASE("malformed lesson files are reported as file:line: what is wrong") {
  std::string g = kGood;
  CHECK(error_of("no title\n") == "f.lesson:1: a lesson starts with its title: '# Title'");
  try {   // a Python file given where a lesson file goes: said so, with where its code belongs
    attn::lesson::parse_lesson("import torch\n", "student.py");
    CHECK(false);
  } catch (const LessonFileError& e) {
    CHECK(std::string(e.what()) == "student.py:1: a lesson starts with its title: '# Title'; this is a Python file: put its code "
                                   "in a lesson's ```python cells (lessons/README.md), or check an exercise file with `attn watch FILE`");
  }
  CHECK(error_of(std::string(g).replace(g.find("order: 9"), 8, "colour: 9")) ==
        "f.lesson:4: unknown header key 'colour' (known: name, source, author, url, section, order, group, cpu, rng, echo, tokens)");
  CHECK(error_of(std::string(g).replace(g.find("## second"), 9, "## Second")) ==
        "f.lesson:23: a step heading is '## id: Title' with a lowercase id, got '## Second: The second step'");
  CHECK(error_of(g.substr(0, g.rfind("```"))) == "f.lesson:24: this ``` block is never closed");
  CHECK(error_of(std::string(g).replace(g.find("```note"), 7, "```jpeg")) ==
        "f.lesson:19: unknown block '```jpeg' (use ```python, ```python setup, ```output, ```output omits grad_fn or ```note)");
  CHECK(error_of(std::string(g).replace(g.find("## second"), 9, "## first")).find("f.lesson:23: step id 'first' is used twice") == 0);
}

// `attn lesson NAME` reads every other lesson's title and header only (issue 21: 21 files parsed
// whole cost more than the lesson's own cells): the same order, names and titles as whole files.
TEST_CASE("a catalogue of headers: every course lesson's title and header, no steps; the one asked for read whole") {
  const std::string dir = attn::lesson::lesson_dir();
  auto whole = attn::lesson::load_catalog(dir);
  auto headers = attn::lesson::load_catalog(dir, attn::lesson::Reading::headers);
  REQUIRE(headers.size() == whole.size());
  for (size_t k = 0; k < whole.size(); ++k) {
    CAPTURE(whole[k].path);
    CHECK(headers[k].path == whole[k].path);
    CHECK(headers[k].title == whole[k].title);
    CHECK(headers[k].name() == whole[k].name());
    CHECK(headers[k].header.group == whole[k].header.group);
    CHECK(headers[k].header.order == whole[k].header.order);
    CHECK(headers[k].header.name_line == whole[k].header.name_line);
    CHECK(headers[k].steps.empty());
  }
  const attn::lesson::Lesson& causal = attn::lesson::read_whole_lesson(headers, "causal");
  CHECK(&causal == &attn::lesson::find_lesson(headers, "causal"));   // in its place
  CHECK(causal.steps.size() == attn::lesson::find_lesson(whole, "causal").steps.size());
  CHECK(causal.intro == attn::lesson::find_lesson(whole, "causal").intro);
}

TEST_CASE("a catalogue of headers reads no step: a broken body is found when that lesson is read whole") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("attn-headers-test-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string good = kGood, broken = kGood;
  broken.replace(broken.find("name: tiny"), 10, "name: other");
  broken = broken.substr(0, broken.rfind("```"));   // its last block never closed
  std::ofstream(dir / "a.lesson") << good;
  std::ofstream(dir / "b.lesson") << broken;
  auto all = attn::lesson::load_catalog(dir.string(), attn::lesson::Reading::headers);
  REQUIRE(all.size() == 2);
  CHECK(attn::lesson::read_whole_lesson(all, "tiny").steps.size() == 2);
  std::string error;
  try {
    attn::lesson::read_whole_lesson(all, "other");
  } catch (const LessonFileError& e) {
    error = e.what();
  }
  CHECK(error == (dir / "b.lesson").string() + ":24: this ``` block is never closed");
  // The header's own errors are the whole file's (a header line with an unknown key)
  std::string bad_header = kGood;
  std::ofstream(dir / "b.lesson") << bad_header.replace(bad_header.find("order: 9"), 8, "colour: 9");
  error.clear();
  try {
    attn::lesson::load_catalog(dir.string(), attn::lesson::Reading::headers);
  } catch (const LessonFileError& e) {
    error = e.what();
  }
  CHECK(error == (dir / "b.lesson").string() + ":4: unknown header key 'colour' (known: name, source, author, url, section, order, group, cpu, rng, echo, tokens)");
  fs::remove_all(dir);
}

TEST_CASE("the header is read into typed fields") {
  auto l = parse_lesson(std::string(kGood).replace(std::string(kGood).find("source: a test"), 14,
                                                   "source: a test\nauthor: A. Writer\nurl: https://example.org/a#two\nsection: Two\ncpu: scalar\nrng: portable\necho: last-expression\ntokens: a b"),
                        "f.lesson");
  const attn::lesson::LessonHeader& h = l.header;
  CHECK(h.name == "tiny");
  CHECK(h.name_line == 2);
  CHECK(h.group == attn::lesson::LessonGroup::concepts);
  CHECK(h.order == 9);
  CHECK(h.source == "a test");
  CHECK(h.author == "A. Writer");
  CHECK(h.url == "https://example.org/a#two");
  CHECK(h.section == "Two");
  CHECK(h.cpu == attn::core::CpuKernels::scalar);
  CHECK(h.rng == attn::core::DropoutRng::portable);
  CHECK(h.echo_last_expression);
  CHECK(h.tokens == "a b");
  auto plain = parse_lesson(kGood, "f.lesson").header;
  CHECK_FALSE(plain.section);
  CHECK_FALSE(plain.author);
  CHECK_FALSE(plain.url);
  CHECK_FALSE(plain.cpu);
  CHECK_FALSE(plain.rng);
  CHECK_FALSE(plain.echo_last_expression);
  CHECK_FALSE(plain.tokens);
  CHECK(parse_lesson(std::string(kGood).replace(std::string(kGood).find("order: 9"), 8, "order: -12"), "f.lesson").header.order == -12);
}

TEST_CASE("a header value that is not allowed names its line, what is wrong and what is allowed") {
  std::string g = kGood;
  auto with = [&](const std::string& from, const std::string& to) { return error_of(std::string(g).replace(g.find(from), from.size(), to)); };
  CHECK(with("group: concepts", "group: nonsense") == "f.lesson:3: group: 'nonsense' is not a lesson group; use article, book or concepts");
  CHECK(with("group: concepts", "group: Concepts") == "f.lesson:3: group: 'Concepts' is not a lesson group; use article, book or concepts");
  for (const char* order : {"abc", "", "1.5", "3rd", "1234567890", "-"}) {
    CAPTURE(order);
    CHECK(with("order: 9", std::string("order: ") + order) ==
          "f.lesson:4: order: '" + std::string(order) + "' is not a whole number; use one such as 1, 2, 3 (its place in its group)");
  }
  CHECK(with("order: 9", "order: 9\ncpu: fast") == "f.lesson:5: cpu: 'fast' is not a CPU kernel family; use avx2 or scalar");
  CHECK(with("order: 9", "order: 9\nrng: intel") == "f.lesson:5: rng: 'intel' is not a dropout generator; use mkl or portable");
  CHECK(with("order: 9", "order: 9\necho: all") ==
        "f.lesson:5: echo: 'all' is not an echo mode; use last-expression (cells display their last expression's value, as in Jupyter)");
  for (const char* name : {"Tiny", "-tiny", "tiny lesson", "tiny_2", ""}) {
    CAPTURE(name);
    CHECK(with("name: tiny", std::string("name: ") + name) ==
          "f.lesson:2: name: '" + std::string(name) + "' is not a lesson name; use lowercase letters, digits and '-', not starting with '-'");
  }
  // A control character is refused wherever it is, before the header is read (issue 20).
  CHECK(with("name: tiny", "name: a\x1b[31mb") ==
        "f.lesson:2: holds the control character U+001B; lesson text cannot hold control characters (in code, write it as an "
        "escape such as '\\x1b')");
  CHECK(with("order: 9", "order: 9\nname: other") == "f.lesson:5: 'name:' is given twice (first on line 2); give each header key once");
  CHECK(with("order: 9\n", "") == "f.lesson:4: the header has no 'order:' line");
  // The source: a title, an author if given, one web address without spaces or quotes.
  CHECK(with("source: a test", "source:") == "f.lesson:5: source: '' is not a title; give the title of the article, book or notebook the lesson follows");
  CHECK(with("order: 9", "order: 9\nauthor: ") ==
        "f.lesson:5: author: '' is not an author; name the source's author(s), or leave the line out when unknown");
  for (const char* url : {"example.org/a", "https://", "https:///a", "ftp://example.org", "https://example.org/a b",
                          "https://example.org/\"x\"", "https://例え.jp", "javascript:alert(1)"}) {
    CAPTURE(url);
    CHECK(with("order: 9", std::string("order: 9\nurl: ") + url).find("f.lesson:5: url: ") == 0);
    CHECK(with("order: 9", std::string("order: 9\nurl: ") + url).find("is not a web address; use one https:// or http:// address, without spaces") !=
          std::string::npos);
  }
  CHECK(with("order: 9", "order: 9\nurl: http://example.org/x?a=1&b=%20#s") == "");
}

TEST_CASE("require_step: the step an id names, or one message for every command") {
  auto l = parse_lesson(kGood, "f.lesson");
  CHECK(&attn::lesson::require_step(l, "second") == &l.steps[1]);
  auto err = [&](const std::string& id, const std::string& prefix) {
    try {
      attn::lesson::require_step(l, id, prefix);
    } catch (const attn::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(err("third", "") == "lesson 'tiny' has no step 'third' (its steps: first, second)");
  CHECK(err("", "f.lesson: ") == "f.lesson: the step is empty; give one of lesson 'tiny's steps by id or number (its steps: first, second)");
  // numbers as each heading counts ("2/2"), and a typo of one id
  CHECK(&attn::lesson::require_step(l, "2") == &l.steps[1]);
  CHECK(&attn::lesson::require_step(l, "1") == &l.steps[0]);
  CHECK(err("3", "") == "lesson 'tiny' has steps 1 to 2, so no step 3 (its steps: first, second)");
  CHECK(err("99999999999999999999", "") == "lesson 'tiny' has no step '99999999999999999999' (its steps: first, second)");
  CHECK(err("secnod", "") == "lesson 'tiny' has no step 'secnod'; did you mean 'second'? (its steps: first, second)");
  CHECK(err("a\nb\r\x1b\x7f", "") == "lesson 'tiny' has no step 'a\\nb\\r\\x1b\\x7f' (its steps: first, second)");
  CHECK(err(std::string("nul\0x", 5), "") == "lesson 'tiny' has no step 'nul\\x00x' (its steps: first, second)");
}

TEST_CASE("suggest: one candidate clearly closest by Damerau-Levenshtein distance, or none") {
  using attn::lesson::damerau_distance;
  using attn::lesson::suggest;
  CHECK(damerau_distance("tirl", "tril") == 1);     // a swap of neighbours is one edit
  CHECK(damerau_distance("lesosn", "lesson") == 1);
  CHECK(damerau_distance("", "abc") == 3);
  CHECK(damerau_distance("kitten", "sitting") == 3);
  const std::vector<std::string> steps = {"setup", "scores", "weights", "tril", "masked", "renorm", "neg-inf"};
  CHECK(suggest("tirl", steps) == std::optional<std::string>("tril"));
  CHECK(suggest("wieghts", steps) == std::optional<std::string>("weights"));
  CHECK(!suggest("x", steps));                       // too short to be a typo of anything
  CHECK(!suggest("nope", steps));                    // nothing within one edit
  CHECK(!suggest("tril", steps));                    // the word itself is no suggestion
  CHECK(!suggest("ab", {"ac", "ad"}));               // two as close: no suggestion
  CHECK(!suggest("", steps));
  CHECK(!suggest(std::string(1000, 'a'), steps));    // a pasted paragraph is no typo
}

TEST_CASE("a Python error in a cell names the lesson file line") {
  auto l = parse_lesson(std::string(kGood).replace(std::string(kGood).find("print(x)"), 8, "print(z)"), "f.lesson");
  try {
    attn::lesson::run_lesson(l, {});
    FAIL("expected an error");
  } catch (const LessonFileError& e) {
    CHECK(std::string(e.what()) == "f.lesson:14: NameError: name 'z' is not defined");
  }
}

TEST_CASE("--seed and --sentence rewrite the code text that is shown and run") {
  attn::lesson::RunOptions o;
  o.seed = "42";
  o.sentence = "It's a test, really";
  std::string code = "torch.manual_seed(123)\nsentence = 'Life is short'\ntorch.manual_seed( 789 )\n";
  CHECK(attn::lesson::apply_options(code, o) ==
        "torch.manual_seed(42)\nsentence = \"It's a test, really\"\ntorch.manual_seed(42)\n");
}

TEST_CASE("what the options rewrite is found by scanning: seed calls, the sentence line, the inputs statement") {
  using namespace attn::lesson;
  auto calls = [](const std::string& code) {
    std::vector<std::string> out;
    for (const CodeSpan& c : seed_calls(code)) out.push_back(code.substr(c.begin, c.end - c.begin));
    return out;
  };
  CHECK(calls("torch.manual_seed(123)\nx = 1\ntorch.manual_seed( -7 )  # again\n") ==
        std::vector<std::string>{"torch.manual_seed(123)", "torch.manual_seed( -7 )"});
  CHECK(calls("torch.manual_seed(1_000)") == std::vector<std::string>{"torch.manual_seed(1_000)"});
  CHECK(calls("torch.manual_seed(\n  42\n)") == std::vector<std::string>{"torch.manual_seed(\n  42\n)"});
  CHECK(calls("torch.manual_seed(seed)\ntorch.manual_seed(1, 2)\ntorch.manual_seed()\ntorch.manual_seed(-)\n").empty());
  CHECK(calls("torch.manual_seed(torch.manual_seed(5))") == std::vector<std::string>{"torch.manual_seed(5)"});

  auto sentence = [](const std::string& line) { return sentence_line(line) ? sentence_line(line)->value : std::string("(none)"); };
  CHECK(sentence("sentence = 'Life is short, eat dessert first'") == "Life is short, eat dessert first");
  CHECK(sentence("  sentence=\"It's \\\"so\\\" short\"  \t") == "It's \"so\" short");
  CHECK(sentence("sentence = 'a\\tb\\nc\\\\'") == "a\tb\nc\\");
  CHECK(sentence_line("  sentence = 'x'")->literal == 13);
  for (const char* no : {"sentence_int = 'x'", "sentences = 'x'", "sentence == 'x'", "sentence = x", "sentence = 'x", "sentence = '",
                         "sentence = 'x\"", "sentence = 'x'  # comment", "# sentence = 'x'", "print(sentence = 'x')"}) {
    CAPTURE(no);
    CHECK_FALSE(sentence_line(no));
  }

  for (const char* yes : {"torch.manual_seed(123)", "  torch.manual_seed( seed )  # again", "torch.manual_seed(f(1))",
                          "torch.manual_seed()", "torch.manual_seed(1) # x)", "torch.manual_seed(1)#"}) {
    CAPTURE(yes);
    CHECK(is_seed_statement(yes));
  }
  for (const char* no : {"torch.manual_seed(1", "torch.manual_seed(1) + 1", "x = torch.manual_seed(1)", "# torch.manual_seed(1)",
                         "torch.manual_seed(1);", "torch.manual_seed"}) {
    CAPTURE(no);
    CHECK_FALSE(is_seed_statement(no));
  }
  CHECK(is_seed_statement("torch.manual_seed(" + std::string(100000, '7') + ")"));

  std::string code = "x = 1\ninputs = torch.tensor(\n  [[0.43, 0.15], # Your (x^1)\n   [0.55, 0.87]]\n)\nprint(inputs)\n";
  std::optional<CodeSpan> at = inputs_statement(code);
  REQUIRE(at);
  CHECK(code.substr(at->begin, at->end - at->begin) == "inputs = torch.tensor(\n  [[0.43, 0.15], # Your (x^1)\n   [0.55, 0.87]]\n)");
  CHECK_FALSE(inputs_statement("  inputs = torch.tensor([1.])\n"));   // not at the start of a line
  CHECK_FALSE(inputs_statement("inputs = torch.tensor([1.]\n"));      // never closed
  CHECK_FALSE(inputs_statement("inputs = torch.ones(6, 3)\n"));
  CHECK(inputs_statement("inputs=torch.tensor([1.])")->end == 25);
}

TEST_CASE("the lesson's sentence is read with the file; --sentence is kept as given, not read back from the code") {
  std::string text = std::string(kGood).replace(std::string(kGood).find("x = 1\n"), 6, "x = 1\nsentence = 'Life is short, eat'\n");
  attn::lesson::Lesson l = parse_lesson(text, "f.lesson");
  CHECK(l.sentence == "Life is short, eat");
  CHECK_FALSE(parse_lesson(kGood, "f.lesson").sentence);
  attn::lesson::RunOptions o;
  o.sentence = "Don't \x01stop \\ me";   // the code holds its repr, "Don't \x01stop \\ me"; the labels are the words
  attn::lesson::LessonRun run = attn::lesson::run_lesson(l, o);
  CHECK(run.sentence == "Don't \x01stop \\ me");
  CHECK(run.steps[0].cells[0].code.find("sentence = \"Don't \\x01stop \\\\ me\"\n") != std::string::npos);
  CHECK(attn::lesson::lesson_tokens(run) == std::vector<std::string>{"Don't", "\x01stop", "\\", "me"});
  CHECK(attn::lesson::lesson_tokens(attn::lesson::run_lesson(l, {})) == std::vector<std::string>{"Life", "is", "short", "eat"});
}

TEST_CASE("a 100,000-character sentence line and a 100,000-digit seed are rewritten without recursion") {
  std::string sentence(100000, 'w');
  for (size_t k = 7; k < sentence.size(); k += 8) sentence[k] = ' ';
  std::string code = "torch.manual_seed(" + std::string(100000, '1') + ")\nsentence = '" + sentence + "'\n";
  attn::lesson::RunOptions o;
  o.seed = "42";
  CHECK(attn::lesson::apply_options(code, o) == "torch.manual_seed(42)\nsentence = '" + sentence + "'\n");
  o.sentence = sentence + "!";
  CHECK(attn::lesson::apply_options(code, o) == "torch.manual_seed(42)\nsentence = '" + sentence + "!'\n");
  CHECK(attn::lesson::sentence_line("sentence = '" + sentence + "'")->value == sentence);
}

TEST_CASE("the grad_fn suffix the article omits is removed the way PyTorch placed it") {
  CHECK(attn::lesson::strip_grad_fn("tensor(1.2903, grad_fn=<DotBackward0>)\n") == "tensor(1.2903)\n");
  CHECK(attn::lesson::strip_grad_fn("tensor([1., 2.],\n       grad_fn=<SqueezeBackward3>)\n") == "tensor([1., 2.])\n");
  CHECK(attn::lesson::strip_grad_fn("tensor([1., 2.])\n") == "tensor([1., 2.])\n");
  // Every suffix of a text; only PyTorch's two placements (7 spaces on the wrapped line) and a name.
  CHECK(attn::lesson::strip_grad_fn("(tensor(1., grad_fn=<A_1>), tensor(2., grad_fn=<B>))") == "(tensor(1.), tensor(2.))");
  CHECK(attn::lesson::strip_grad_fn("tensor(1.,\n      grad_fn=<A>)") == "tensor(1.,\n      grad_fn=<A>)");
  CHECK(attn::lesson::strip_grad_fn("tensor(1., grad_fn=<>)") == "tensor(1., grad_fn=<>)");
  CHECK(attn::lesson::strip_grad_fn("tensor(1.,  grad_fn=<A>)") == "tensor(1.,  grad_fn=<A>)");
  CHECK(attn::lesson::strip_grad_fn("tensor(1., grad_fn=<A>") == "tensor(1., grad_fn=<A>");
}

TEST_CASE("--inputs of another shape: the matrix's shape is read, and the literals that hard-code it adapt") {
  using namespace attn::lesson;
  CHECK(inputs_shape("inputs = torch.tensor(\n  [[0.43, 0.15, 0.89], # Your (x^1)\n   [0.55, 0.87, 0.66]] # [x]\n)") == InputsShape{2, 3});
  CHECK(inputs_shape("inputs = torch.tensor([[1.], [2.], [3.]])") == InputsShape{3, 1});
  CHECK_FALSE(inputs_shape("inputs = torch.tensor([1., 2.])"));             // a vector
  CHECK_FALSE(inputs_shape("inputs = torch.tensor([[1., 2.], [3.]])"));     // ragged
  CHECK_FALSE(inputs_shape("inputs = torch.tensor([[[1.]]])"));             // 3-D
  CHECK_FALSE(inputs_shape("inputs = torch.tensor([['a', 'b']])"));

  std::string code =
      "attn_scores = torch.empty(6, 6)\nexample = torch.ones(6,6)  # ones\nb = torch.ones(6, 3)\nc = torch.rand( 6 , 6 )\n"
      "d_in, d_out = 3, 2\nd_in = 3  # features\nd_in == 3\nx.d_in = 3\nd_in, d_out = 768, 768\ny = torch.empty(16, 6)\n";
  CHECK(rewrite_for_shape(code, {6, 3}, {4, 5}) ==
        "attn_scores = torch.empty(4, 4)\nexample = torch.ones(4,4)  # ones\nb = torch.ones(6, 3)\nc = torch.rand( 4 , 4 )\n"
        "d_in, d_out = 5, 2\nd_in = 5  # features\nd_in == 3\nx.d_in = 3\nd_in, d_out = 768, 768\ny = torch.empty(16, 6)\n");
  CHECK(rewrite_for_shape(code, {6, 3}, {6, 3}) == code);
  CHECK(rewrite_for_shape(code, {6, 3}, {12, 3}).find("torch.empty(12, 12)\n") != std::string::npos);

  RunOptions o;
  o.inputs = "1 2; 3 4; 5 6; 7 8";
  CHECK(apply_options("inputs = torch.tensor(\n  [[0.1, 0.2, 0.3]]\n)\nw = torch.empty(6, 6)\nd_in, d_out = 3, 2\n", o, InputsShape{6, 3}) ==
        "inputs = torch.tensor(\n  [[1.0, 2.0],\n   [3.0, 4.0],\n   [5.0, 6.0],\n   [7.0, 8.0]]\n)\nw = torch.empty(4, 4)\nd_in, d_out = 2, 2\n");
  CHECK(apply_options("w = torch.empty(6, 6)\n", o) == "w = torch.empty(6, 6)\n");   // without the lesson's shape: only the matrix
}
