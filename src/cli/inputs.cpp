// cli/inputs.cpp: the options that change what a lesson computes (--seed, --sentence,
// --inputs, --rng, --cpu), shared by every command that runs lessons.
#include "cli/commands.h"

namespace attn::cli {

lesson::RunOptions InputOptions::to_run() const {
  lesson::RunOptions r;
  if (seed_set) r.seed = seed;
  if (sentence_set) r.sentence = sentence;
  if (inputs_set) r.inputs = inputs;
  if (!rng.empty()) r.rng = rng == "portable" ? core::DropoutRng::portable : core::DropoutRng::mkl;
  if (!cpu.empty()) r.cpu = cpu == "scalar" ? core::CpuKernels::scalar : core::CpuKernels::avx2;
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
  cmd->add_option("--rng", o.rng,
                  "Dropout mask: 'mkl' (PyTorch's x86-64 wheels on Intel CPUs) or 'portable' (every other build). "
                  "Default: the machine the lesson's source was printed on")
      ->check(CLI::IsMember({"mkl", "portable"}));
  cmd->add_option("--cpu", o.cpu,
                  "PyTorch CPU kernels to reproduce: 'avx2' (x86-64 with AVX2 or AVX-512) or 'scalar' (Apple Silicon "
                  "and other ARM builds, ATEN_CPU_CAPABILITY=default). They differ in the last digits of randn, "
                  "rand-based init and softmax. Default: the machine the lesson's source was printed on")
      ->check(CLI::IsMember({"avx2", "scalar"}));
}

void add_walk_options(CLI::App* cmd, WalkOptions& o) {
  cmd->add_option("--step", o.step, "Show only this step (ids are shown in each step's heading)");
  add_inputs(cmd, o.inputs);
  add_display_options(cmd, o.display);
  cmd->add_option("--format", o.format, "text (the walkthrough) or json (one document: README.md, \"Machine-readable output\")")
      ->check(CLI::IsMember({"text", "json"}));
}

}  // namespace attn::cli
