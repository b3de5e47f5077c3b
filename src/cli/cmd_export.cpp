// cli/cmd_export.cpp: `attn export NAME --npy DIR --notebook FILE.ipynb`: a lesson's printed
// tensors as NumPy files, and its code as a Jupyter notebook (writers: lesson/export.h).
#include <iostream>

#include "cli/commands.h"
#include "lesson/catalog.h"
#include "lesson/export.h"

namespace attn::cli {

namespace {

using namespace attn::lesson;

struct ExportOptions {
  std::string name, npy_dir, notebook;
  bool npy_set = false, notebook_set = false;
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
  return cmd;
}

int run_export(const ExportOptions& o) {
  if (!o.npy_set && !o.notebook_set)
    throw UsageError("export needs --npy DIR and/or --notebook FILE.ipynb (see `attn export --help`)");
  if (o.npy_set && o.npy_dir.empty()) throw UsageError("--npy needs a directory name");
  if (o.notebook_set && o.notebook.empty()) throw UsageError("--notebook needs a file name");
  auto all = load_catalog(lesson_dir());
  const Lesson& l = find_lesson(all, o.name);
  RunOptions opts = o.inputs.to_run();
  validate(l, opts);
  LessonRun run = run_lesson(l, opts);
  if (o.npy_set) {
    auto arrays = write_npy_dir(run, opts, o.npy_dir);
    std::cout << "wrote " << arrays.size() << " arrays and index.json to " << o.npy_dir << "\n";
  }
  if (o.notebook_set) {
    write_file(o.notebook, notebook_json(run, opts, command_line(o)));
    std::cout << "wrote " << o.notebook << "\n";
  }
  return 0;
}

}  // namespace

void setup_export(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ExportOptions>();
  auto* cmd = app.add_subcommand("export", "Write a lesson's printed tensors as NumPy .npy files, or the lesson as a Jupyter notebook");
  cmd->add_option("name", opts->name, "Lesson name (see `attn list`)")->required();
  cmd->add_option("--npy", opts->npy_dir,
                  "Write every printed tensor to DIR/<step>__<n>__<name>.npy, listed in DIR/index.json (DIR is created)")
      ->type_name("DIR")
      ->each([o = opts.get()](const std::string&) { o->npy_set = true; });
  cmd->add_option("--notebook", opts->notebook,
                  "Write the lesson as a Jupyter notebook: prose, the code as attn runs it, and what attn printed")
      ->type_name("FILE")
      ->each([o = opts.get()](const std::string&) { o->notebook_set = true; });
  add_inputs(cmd, opts->inputs);
  cmd->callback([opts, &exit_code] { exit_code = run_export(*opts); });
}

}  // namespace attn::cli
