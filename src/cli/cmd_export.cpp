// cli/cmd_export.cpp: `attn export NAME --npy DIR --notebook FILE.ipynb [--only STEP,...]`: a
// lesson's printed tensors as NumPy files, and its code as a Jupyter notebook, or a handout of
// them (what the files hold: lesson/export.h; how they are written: lesson/export_write.h).
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "lesson/catalog.h"
#include "lesson/export.h"
#include "lesson/export_write.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct ExportOptions {
  std::string name, npy_dir, notebook;
  bool npy_set = false, notebook_set = false;
  std::string only_text;           // --only as given: STEP[,STEP...]
  bool only_set = false;
  std::vector<std::string> only;   // its steps: what a handout shows
  bool force = false;
  InputOptions inputs;
};

// A word as a POSIX shell reads it back: bare if it is safe, else in single quotes.
std::string shell_word(const std::string& w) {
  bool safe = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,@+%") ==
                                std::string::npos;
  if (safe) return w;
  std::string out = "'";
  for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The command line that makes this notebook, for its first cell.
std::string command_line(const ExportOptions& o) {
  std::string cmd = "attn export " + shell_word(o.name) + " --notebook " + shell_word(o.notebook);
  const InputOptions& in = o.inputs;
  if (in.seed_set) cmd += " --seed " + shell_word(in.seed);
  if (in.sentence_set) cmd += " --sentence " + shell_word(in.sentence);
  if (in.inputs_set) cmd += " --inputs " + shell_word(in.inputs);
  if (in.rng) cmd += std::string(" --rng ") + core::to_string(*in.rng);
  if (in.cpu) cmd += std::string(" --cpu ") + core::to_string(*in.cpu);
  if (!o.only.empty()) cmd += " --only " + shell_word(fmt::format("{}", fmt::join(o.only, ",")));
  return cmd;
}

// The steps of --only. An empty one is refused: `--only "$STEPS"` with STEPS unset must not
// quietly export the whole lesson, the answer key.
std::vector<std::string> split_only(const ExportOptions& o) {
  std::vector<std::string> steps;
  if (!o.only_set) return steps;
  for (size_t start = 0;;) {
    size_t comma = o.only_text.find(',', start);
    steps.push_back(o.only_text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (steps.back().empty())
      throw UsageError("--only needs step ids separated by commas, got " + lesson::quoted_input(o.only_text) + " (`attn list --format json` lists them)");
    if (comma == std::string::npos) return steps;
    start = comma + 1;
  }
}

int run_export(const ExportOptions& o) {
  if (!o.npy_set && !o.notebook_set)
    throw UsageError("export needs --npy DIR and/or --notebook FILE.ipynb (see `attn export --help`)");
  if (o.npy_set && o.npy_dir.empty()) throw UsageError("--npy needs a directory name");
  if (o.notebook_set && o.notebook.empty()) throw UsageError("--notebook needs a file name");
  auto all = load_lessons();
  const Lesson& l = find_lesson(all, o.name);
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  validate_only(l, o.only);
  LessonRun run = run_lesson(l, opts);
  // Everything is staged (and every refusal made) before anything is renamed into place.
  ExportWriter writer(o.force);
  std::vector<ExportedArray> arrays;
  if (o.npy_set) {
    arrays = list_arrays(run, o.only);
    if (arrays.empty() && !o.only.empty())
      throw UsageError(fmt::format("--only {} selects no tensor: those steps print none (`attn lesson {} --step STEP` shows what a step prints)",
                                   fmt::join(o.only, ","), l.name()));
    std::vector<OutputFile> files;
    for (const ExportedArray& a : arrays) files.push_back({a.file, npy_bytes(*a.tensor)});
    writer.stage_dir(o.npy_dir, files, index_json(run, opts, arrays, o.only));
  }
  if (o.notebook_set)
    writer.stage_file(o.notebook, notebook_json(run, opts, command_line(o), o.only), is_attn_notebook, "a notebook");
  size_t removed = writer.commit();
  if (o.npy_set)
    std::cout << fmt::format("wrote {} array{} and index.json to {}", arrays.size(), arrays.size() == 1 ? "" : "s", o.npy_dir)
              << (removed ? fmt::format(" (and removed {} file{} of an earlier export that this one does not write)", removed,
                                        removed == 1 ? "" : "s")
                          : "")
              << "\n";
  if (o.notebook_set) std::cout << "wrote " << o.notebook << "\n";
  return 0;
}

}  // namespace

void setup_export(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ExportOptions>();
  auto* cmd = app.add_subcommand("export", "Write a lesson's printed tensors as NumPy .npy files, or the lesson as a Jupyter notebook");
  cmd->add_option("name", opts->name, "Lesson name (see `attn list`)")->required();
  cmd->add_option("--npy", opts->npy_dir,
                  "Write every printed tensor to DIR/<step>__<n>__<name>.npy, listed in DIR/index.json (DIR is created; "
                  "an earlier export's files there are replaced)")
      ->type_name("DIR")
      ->each([o = opts.get()](const std::string&) { o->npy_set = true; });
  cmd->add_option("--notebook", opts->notebook,
                  "Write the lesson as a Jupyter notebook: prose, the code as attn runs it, and what attn printed")
      ->type_name("FILE")
      ->each([o = opts.get()](const std::string&) { o->notebook_set = true; });
  cmd->add_option("--only", opts->only_text,
                  "A handout: only these steps' tensors (STEP[,STEP...]), and a notebook whose cells after the last of them "
                  "are left for the student to write, without attn's output")
      ->type_name("STEP[,STEP...]")
      ->each([o = opts.get()](const std::string&) { o->only_set = true; });
  cmd->add_flag("--force", opts->force,
                "Replace files attn did not write (by default attn refuses to overwrite a file that is not one of its "
                "exports; it never writes through a symbolic link)");
  add_inputs(cmd, opts->inputs);
  cmd->callback([opts, &exit_code] {
    opts->only = split_only(*opts);
    exit_code = run_export(*opts);
  });
}

}  // namespace attn::cli
