// tests/support/run_attn.h: run the real `attn` binary from a test, as a user or a lab script would,
// capturing its exit code, stdout and stderr. Shared by the command-line tests (tests/cli/), whose
// binary alone is built with ATTN_BINARY (the attn under test).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/files.h"

struct CliResult {
  int code = -1;
  std::string out, err;
};

// Runs the shell command CMD (`sh -c`) in CWD (empty: stay), capturing its exit code, stdout and
// stderr. Output goes through files in a folder of this process, so parallel test processes do
// not mix. ATTN_BINARY is the attn under test.
inline CliResult shell_process(const std::string& cmd, const std::string& cwd = "") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-cli-io-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string line = (cwd.empty() ? "" : "cd " + cwd + " && ") + "{ " + cmd + "\n} >" + dir + "/out 2>" + dir + "/err";
  int status = std::system(line.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir + "/out");
  r.err = slurp(dir + "/err");
  return r;
}

// Runs `cd CWD && ENV attn ARGS` through the shell (ARGS already quoted; CWD empty: stay).
inline CliResult attn_process(const std::string& args, const std::string& cwd = "", const std::string& env = "") {
  return shell_process(env + " " + ATTN_BINARY + " " + args, cwd);
}
