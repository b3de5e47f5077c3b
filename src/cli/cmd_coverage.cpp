// cli/cmd_coverage.cpp: `attn coverage`: prints the coverage page (Markdown): which torch functions,
// Tensor methods, nn modules, F functions, Python builtins, methods and modules lesson code may
// use, read from attn itself (torch/coverage.h). docs/coverage.md is its output, and the CTest
// test coverage_cli fails when the two differ.
// What it is not: the page's contents (torch/coverage.cpp) or docs/lesson-authors.md's prose about them.
#include <iostream>

#include "cli/commands.h"
#include "torch/coverage.h"

namespace attn::cli {

void setup_coverage(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("coverage",
                                 "Print what lesson code may use (torch functions, Tensor methods, nn modules, F functions, "
                                 "Python builtins, methods and modules) as Markdown: docs/coverage.md");
  cmd->callback([&exit_code] {
    std::cout << torch::coverage_page();
    exit_code = 0;
  });
}

}  // namespace attn::cli
