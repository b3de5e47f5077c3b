// cli/inputs.cpp: the options that change what a lesson computes (--seed, --sentence,
// --inputs, --rng, --cpu), shared by every command that runs lessons.
#include <algorithm>
#include <cstdlib>

#include "cli/commands.h"
#include "print/tensor_str.h"

namespace attn::cli {

namespace {

// An option whose value is one of an enum's names (each enum's to_string, beside it in core/ or
// lesson/): CLI11's CheckedTransformer maps the name to the enum. Anything else, the enum's
// number too (which CheckedTransformer alone would take), is "'fast' is not <what>; use avx2 or
// scalar". --help and the completion scripts show the names as "TEXT:{avx2,scalar}".
template <class E, size_t N>
CLI::Option* add_choice(CLI::App* cmd, const std::string& flag, std::optional<E>& target, const E (&values)[N],
                        const std::string& what, const std::string& help) {
  std::vector<std::pair<std::string, E>> names;
  std::string braces;
  for (E v : values) {
    names.emplace_back(to_string(v), v);
    braces += (braces.empty() ? "{" : ",") + names.back().first;
  }
  CLI::CheckedTransformer to_enum(names);
  std::string message = " is not " + what + "; use " + lesson::names_of(values);
  CLI::Validator choice(
      [names, to_enum, message](std::string& in) {
        bool known = std::any_of(names.begin(), names.end(), [&](const auto& n) { return n.first == in; });
        return known ? to_enum(in) : print::py_str_repr(in) + message;
      },
      braces + "}");
  return cmd->add_option_function<E>(flag, [&target](const E& v) { target = v; }, help)->transform(choice)->type_name("TEXT");
}

}  // namespace

lesson::RunOptions InputOptions::to_run() const {
  lesson::RunOptions r;
  if (seed_set) r.seed = seed;
  if (sentence_set) r.sentence = sentence;
  if (inputs_set) r.inputs = inputs;
  r.rng = rng;
  r.cpu = cpu;
  r.time_limit = time_limit;
  return r;
}

void add_inputs(CLI::App* cmd, InputOptions& o) {
  cmd->add_option("--seed", o.seed, "Replace every torch.manual_seed(...) in the lesson with this seed")
      ->each([&o](const std::string&) { o.seed_set = true; });
  cmd->add_option("--sentence", o.sentence, "Replace the input sentence (words are split on spaces, commas dropped)")
      ->each([&o](const std::string&) { o.sentence_set = true; });
  cmd->add_option("--inputs", o.inputs,
                  "Replace the book chapter's six token embeddings: rows separated by ';', numbers by spaces or commas, "
                  "e.g. \"0.43 0.15 0.89; 0.55 0.87 0.66; ...\"")
      ->each([&o](const std::string&) { o.inputs_set = true; });
  add_choice(cmd, "--rng", o.rng, core::kDropoutRngs, "a dropout generator",
             "Dropout mask: 'mkl' (PyTorch's x86-64 wheels on Intel CPUs) or 'portable' (every other build). "
             "Default: the machine the lesson's source was printed on");
  add_choice(cmd, "--cpu", o.cpu, core::kCpuKernels, "a CPU kernel family",
             "PyTorch CPU kernels to reproduce: 'avx2' (x86-64 with AVX2 or AVX-512) or 'scalar' (Apple Silicon "
             "and other ARM builds, ATEN_CPU_CAPABILITY=default). They differ in the last digits of randn, "
             "rand-based init and softmax. Default: the machine the lesson's source was printed on");
  cmd->add_option_function<double>("--time-limit", [&o](const double& s) { o.time_limit = s; },
                                   "Stop a cell that runs longer than this many seconds (default: 60)")
      ->check(CLI::Validator(
          [](std::string& in) {
            char* end = nullptr;
            double s = std::strtod(in.c_str(), &end);
            bool ok = end && *end == '\0' && s > 0 && s <= 86400;   // NaN fails both comparisons
            return ok ? std::string() : print::py_str_repr(in) + " is not a number of seconds; use one above 0 and at most 86400";
          },
          "SECONDS"));
}

void add_walk_options(CLI::App* cmd, WalkOptions& o) {
  // An empty --step "" would otherwise mean "every step".
  CLI::Validator non_empty([](std::string& in) { return in.empty() ? std::string("is empty; give a step's id or number (each step's heading shows both)") : std::string(); }, "ID");
  cmd->add_option("--step", o.step, "Show only this step: its id or its number (each step's heading shows both, e.g. `tril` or 4)")
      ->check(non_empty);
  cmd->add_option("--from", o.from, "Start at this step (id or number): the earlier steps run, silently")->check(non_empty);
  add_inputs(cmd, o.inputs);
  add_display_options(cmd, o.display);
  cmd->add_flag("--about", o.display.about,
                "Say in the header how the numbers were computed: the CPU kernels, the BLAS order and the dropout "
                "generator (always in --format json)");
  cmd->add_option("--format", o.format, "text (the walkthrough) or json (one document: docs/scripting.md)")
      ->check(CLI::IsMember({"text", "json"}));
}

}  // namespace attn::cli
