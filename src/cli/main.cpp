// cli/main.cpp: the `attn` command line (CLI11): list, lesson, verify.
//
// What it is: one options struct per subcommand, a setup_x() that binds it, a run_x() that does
// the work through lesson/ (CLI11 examples' pattern). main() only wires them and turns
// exceptions into one line on stderr: exit 2 for usage errors, 1 for failures.
// What it is not: where lessons are run or printed (lesson/), or where numbers come from (core/).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>

#include "lesson/runner.h"

namespace {

using namespace attn::lesson;

// ---- shared options ----

struct InputOptions {
  std::string seed, sentence, inputs, rng, cpu;
  bool seed_set = false, sentence_set = false, inputs_set = false;
  RunOptions to_run() const {
    RunOptions r;
    if (seed_set) r.seed = seed;
    if (sentence_set) r.sentence = sentence;
    if (inputs_set) r.inputs = inputs;
    if (!rng.empty()) r.rng = rng == "portable" ? attn::core::DropoutRng::portable : attn::core::DropoutRng::mkl;
    if (!cpu.empty()) r.cpu = cpu == "scalar" ? attn::core::CpuKernels::scalar : attn::core::CpuKernels::avx2;
    return r;
  }
};

void add_inputs(CLI::App* cmd, InputOptions& o) {
  cmd->add_option("--seed", o.seed, "Replace every torch.manual_seed(...) in the lesson with this seed")
      ->each([&o](const std::string&) { o.seed_set = true; });
  cmd->add_option("--sentence", o.sentence, "Replace the input sentence (words are split on spaces, commas dropped)")
      ->each([&o](const std::string&) { o.sentence_set = true; });
  cmd->add_option("--inputs", o.inputs,
                  "Replace the book chapter's six token embeddings: rows separated by ';', numbers by spaces or commas, "
                  "e.g. \"0.43 0.15 0.89; 0.55 0.87 0.66; ...\"")
      ->each([&o](const std::string&) { o.inputs_set = true; });
  cmd->add_option("--rng", o.rng,
                  "Dropout mask: 'mkl' (PyTorch's x86-64 wheels on Intel CPUs) or 'portable' (every other build). "
                  "Default: the machine the lesson's article was printed on")
      ->check(CLI::IsMember({"mkl", "portable"}));
  cmd->add_option("--cpu", o.cpu,
                  "PyTorch CPU kernels to reproduce: 'avx2' (x86-64 with AVX2 or AVX-512) or 'scalar' (Apple Silicon "
                  "and other ARM builds, ATEN_CPU_CAPABILITY=default). They differ in the last digits of randn, "
                  "rand-based init and softmax. Default: the machine the lesson's article was printed on")
      ->check(CLI::IsMember({"avx2", "scalar"}));
}

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c == '\n') out += "\\n";
    else if (c < 0x20) out += fmt::format("\\u{:04x}", c);
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

// ---- attn list ----

struct ListOptions {
  std::string format = "text";
};

int run_list(const ListOptions& o) {
  auto all = load_catalog(lesson_dir());
  if (o.format == "json") {
    std::cout << "[";
    for (size_t k = 0; k < all.size(); ++k) {
      const Lesson& l = all[k];
      std::cout << (k ? ",\n " : "\n ") << fmt::format("{{\"name\": {}, \"title\": {}, \"group\": {}, \"source\": {}, \"steps\": {}}}",
                                                      json_str(l.name()), json_str(l.title), json_str(l.meta.at("group")),
                                                      json_str(l.meta.at("source")), l.steps.size());
    }
    std::cout << "\n]\n";
    return 0;
  }
  // Columns padded by code points: titles contain Greek letters.
  auto width = [](const std::string& t) {
    size_t w = 0;
    for (unsigned char ch : t) w += (ch & 0xC0) != 0x80;
    return w;
  };
  size_t title_w = 5;
  for (const Lesson& l : all) title_w = std::max(title_w, width(l.title));
  std::string group;
  for (const Lesson& l : all) {
    if (l.meta.at("group") != group) {
      group = l.meta.at("group");
      std::cout << (group == all.front().meta.at("group") ? "" : "\n") << group << ":\n";
    }
    std::string follows = l.meta.at("source").substr(0, l.meta.at("source").find(' '));
    if (l.meta.count("section")) follows += " § " + l.meta.at("section");
    std::cout << fmt::format("  {:<14} {}{}  {}\n", l.name(), l.title, std::string(title_w - width(l.title), ' '), follows);
  }
  std::cout << "\nSources: 000 is the self-attention article \"Understanding and Coding Self-Attention, ...\"; 004 is the\n"
               "book chapter notebook of \"Build a Large Language Model (from Scratch)\". `attn list --format json` has them in full.\n";
  std::cout << "\nRun one with `attn lesson NAME`; `attn lesson NAME --step ID` shows one step.\n";
  return 0;
}

// ---- attn lesson ----

struct LessonOptions {
  std::string name, step;
  InputOptions inputs;
};

int run_lesson_cmd(const LessonOptions& o) {
  auto all = load_catalog(lesson_dir());
  const Lesson& l = find_lesson(all, o.name);
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  if (!o.step.empty() &&
      std::none_of(l.steps.begin(), l.steps.end(), [&](const Step& s) { return s.id == o.step; })) {
    std::string ids;
    for (const Step& s : l.steps) ids += (ids.empty() ? "" : ", ") + s.id;
    throw UsageError("lesson '" + l.name() + "' has no step '" + o.step + "' (its steps: " + ids + ")");
  }
  LessonRun run = run_lesson(l, opts);
  int number = static_cast<int>(&l - all.data()) + 1;
  std::cout << render(run, o.step, number, static_cast<int>(all.size()));
  return 0;
}

// ---- attn verify ----

struct VerifyOptions {
  std::vector<std::string> names;
  InputOptions inputs;
};

int run_verify(const VerifyOptions& o) {
  auto all = load_catalog(lesson_dir());
  std::vector<const Lesson*> chosen;
  for (const std::string& n : o.names) chosen.push_back(&find_lesson(all, n));
  if (chosen.empty())
    for (const Lesson& l : all) chosen.push_back(&l);
  RunOptions opts = o.inputs.to_run();
  size_t match = 0, differ = 0, cells = 0;
  for (const Lesson* l : chosen) {
    LessonRun run = run_lesson(*l, opts);
    for (const StepRun& s : run.steps) cells += s.cells.size();
    if (!opts.article_inputs()) continue;
    for (const CellCheck& c : verify(run)) {
      std::cout << fmt::format("{:<8} {}{}\n", c.match ? "match" : "DIFFERS", c.where, c.remark.empty() ? "" : ": " + c.remark) << c.diff;
      (c.match ? match : differ)++;
    }
  }
  if (!opts.article_inputs()) {
    std::cout << fmt::format("verify: ran {} cells in {} lesson{}; nothing compared: the article printed its outputs for its own "
                             "inputs, so with --seed, --sentence or --inputs its transcript no longer applies\n",
                             cells, chosen.size(), chosen.size() == 1 ? "" : "s");
    return 0;
  }
  std::cout << fmt::format("verify: {} of {} cells match the article, {} differ ({} lesson{})\n", match, match + differ, differ,
                           chosen.size(), chosen.size() == 1 ? "" : "s");
  return differ ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"attn: attention in LLMs, step by step, on the numbers the articles print"};
  app.set_version_flag("--version", std::string("attn ") + ATTN_VERSION);
  app.require_subcommand(1);

  ListOptions list_opts;
  auto* list = app.add_subcommand("list", "List the lessons in course order");
  list->add_option("--format", list_opts.format, "text or json")->check(CLI::IsMember({"text", "json"}));

  LessonOptions lesson_opts;
  auto* lesson = app.add_subcommand("lesson", "Walk through a lesson: prose, code, and what it printed");
  lesson->add_option("name", lesson_opts.name, "Lesson name (see `attn list`)")->required();
  lesson->add_option("--step", lesson_opts.step, "Show only this step (ids are shown in each step's heading)");
  add_inputs(lesson, lesson_opts.inputs);

  VerifyOptions verify_opts;
  auto* ver = app.add_subcommand("verify", "Run lessons and compare every printed output with the article's");
  ver->add_option("names", verify_opts.names, "Lessons to verify (default: all)");
  add_inputs(ver, verify_opts.inputs);

  try {
    app.parse(argc, argv);
    if (app.got_subcommand(list)) return run_list(list_opts);
    if (app.got_subcommand(lesson)) return run_lesson_cmd(lesson_opts);
    return run_verify(verify_opts);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "attn: " << e.what() << " (see `attn --help`)\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "attn: " << e.what() << "\n";
    return 2;
  } catch (const LessonFileError& e) {
    std::cerr << "attn: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "attn: " << e.what() << "\n";
    return 1;
  }
}
