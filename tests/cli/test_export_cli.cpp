// tests/cli/test_export_cli.cpp: `attn export` and `attn completion`, the real binary run as a
// student or an instructor would: the files it writes, its errors and exit codes, and the bash
// completion script driven by hand. What it is not: the bytes of the .npy files and the notebook
// (tests/lesson/test_export.cpp) or what export may overwrite (tests/cli/test_export_safety.cpp).
#include <doctest/doctest.h>

#include "support/run_attn.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>   // getpid: a scratch folder per test process, so concurrent runs never share one

namespace {

namespace fs = std::filesystem;

// A scratch directory, emptied (one ctest test runs this file, so no other process uses it).
std::string scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("attn-export-test-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

using Result = CliResult;

// Runs `attn ARGS` through the shell (ARGS already quoted), capturing stdout and stderr.
Result attn_cli(const std::string& args) { return attn_process(args); }

}  // namespace

// ---- the command line ----

TEST_CASE("attn export writes .npy files numpy can name, index.json and a notebook") {
  std::string dir = scratch("export");
  Result r = attn_cli("export causal --seed 42 --npy " + dir + "/npy --notebook " + dir + "/causal.ipynb");
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "wrote 7 arrays and index.json to " + dir + "/npy\nwrote " + dir + "/causal.ipynb\n");
  std::string index = slurp(dir + "/npy/index.json");
  CHECK(index.find("\"options\": {\"seed\": 42}") != std::string::npos);
  std::string weights = slurp(dir + "/npy/softmax-masked__1__attn_weights.npy");
  REQUIRE(weights.size() == 128 + 36 * 4);
  CHECK(weights.substr(0, 8) == std::string("\x93NUMPY\x01\x00", 8));
  // the first row of causal weights is exactly 1, 0, 0, 0, 0, 0
  CHECK(weights.substr(128, 8) == std::string("\x00\x00\x80\x3f\x00\x00\x00\x00", 8));
  std::string nb = slurp(dir + "/causal.ipynb");
  CHECK(nb.find("Made by `attn export causal --notebook " + dir + "/causal.ipynb --seed 42`") != std::string::npos);
  // same options, same bytes
  Result again = attn_cli("export causal --seed 42 --notebook " + dir + "/again.ipynb");
  CHECK(again.code == 0);
  CHECK(slurp(dir + "/again.ipynb") == std::string(nb).replace(nb.find(dir + "/causal.ipynb"), dir.size() + 13, dir + "/again.ipynb"));
  // quoting in the command it shows
  Result sentence = attn_cli("export causal --sentence \"it's a test\" --notebook " + dir + "/s.ipynb");
  CHECK(sentence.code == 0);
  CHECK(slurp(dir + "/s.ipynb").find("--sentence 'it'\\\\''s a test'`") != std::string::npos);
}

TEST_CASE("attn export: bad input is exit 2, unwritable places exit 1, one line on stderr") {
  std::string dir = scratch("errors");
  std::ofstream(dir + "/file") << "x";
  struct Case {
    std::string args, err;
    int code;
  } cases[] = {
      {"export causl --npy " + dir + "/x", "attn: no lesson named 'causl'; did you mean 'causal'? (`attn list` shows all lessons)\n", 2},
      {"export causal", "attn: export needs --npy DIR and/or --notebook FILE.ipynb (see `attn export --help`)\n", 2},
      {"export causal --npy ''", "attn: --npy needs a directory name\n", 2},
      {"export causal --notebook ''", "attn: --notebook needs a file name\n", 2},
      {"export causal --npy " + dir + "/x --seed abc", "attn: --seed must be an integer (as torch.manual_seed takes), got 'abc'\n", 2},
      {"export simple --npy " + dir + "/x --sentence 'a b'", "attn: lesson 'simple' has no input sentence, so --sentence does not apply to it\n", 2},
      {"export causal --npy " + dir + "/file", "attn: cannot write .npy files into '" + dir + "/file': it exists and is not a directory\n", 1},
      {"export causal --npy " + dir + "/file/sub", "attn: cannot create directory '" + dir + "/file/sub': Not a directory\n", 1},
      {"export causal --notebook " + dir + "/file/nb.ipynb", "attn: cannot write '" + dir + "/file/nb.ipynb': Not a directory\n", 1},
      {"export causal --notebook " + dir + "/missing/nb.ipynb", "attn: cannot write '" + dir + "/missing/nb.ipynb': No such file or directory\n", 1},
      {"export causal --notebook " + dir, "attn: cannot write '" + dir + "': Is a directory\n", 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Result r = attn_cli(c.args);
    CHECK(r.code == c.code);
    CHECK(r.err == c.err);
    CHECK(r.out.empty());
  }
  CHECK_FALSE(fs::exists(dir + "/x"));   // nothing is written when the input is bad
  for (const char* args : {"export", "export causal --npy", "export causal --cpu fast --npy x", "completion", "completion fish"}) {
    CAPTURE(args);
    Result r = attn_cli(args);
    CHECK(r.code == 2);
    CHECK(r.err.rfind("attn: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
  }
}

TEST_CASE("attn completion bash: complete -p, and what <TAB> offers") {
  std::string dir = scratch("completion");
  // Drives _attn as bash would: COMP_WORDS / COMP_CWORD set, COMPREPLY read back.
  std::ofstream(dir + "/drive.sh") << R"(source <("$1" completion bash)
complete -p attn
t() { COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=(); _attn; echo "$*|: ${COMPREPLY[*]}"; }
t attn ''
t attn lesson ca
t attn lesson causal --step neg
t attn lesson causal --cpu ''
t attn export causal --no
t attn export causal --only sc
t attn verify causal c
t attn completion ''
t attn lesson causal ''
t attn lesson causal --from ren
t attn progress --
t attn next --pa
)";
  Result r = attn_cli("completion bash >" + dir + "/attn.bash && bash " + dir + "/drive.sh " ATTN_BINARY);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("complete -F _attn attn\n", 0) == 0);
  CHECK(r.out.find("attn |: list lesson next progress verify ") != std::string::npos);   // others may follow
  CHECK(r.out.find("\nattn lesson causal --from ren|: renorm\n") != std::string::npos);
  CHECK(r.out.find("\nattn progress --|: --help --reset --format\n") != std::string::npos);
  CHECK(r.out.find("\nattn next --pa|: --pause\n") != std::string::npos);
  CHECK(r.out.find("\nattn lesson ca|: causal causal-batch\n") != std::string::npos);
  CHECK(r.out.find("\nattn lesson causal --step neg|: neg-inf\n") != std::string::npos);
  CHECK(r.out.find("\nattn lesson causal --cpu |: avx2 scalar\n") != std::string::npos);
  CHECK(r.out.find("\nattn export causal --no|: --notebook\n") != std::string::npos);
  CHECK(r.out.find("\nattn export causal --only sc|: scores\n") != std::string::npos);
  CHECK(r.out.find("\nattn verify causal c|: context cross causal causal-batch") != std::string::npos);
  CHECK(r.out.find("\nattn completion |: bash zsh\n") != std::string::npos);
  CHECK(r.out.find("\nattn lesson causal |: \n") != std::string::npos);   // one lesson only
  // the lesson names come from the catalogue at generation time
  std::string script = slurp(dir + "/attn.bash");
  CHECK(script.find("causal) echo 'setup scores weights tril masked renorm neg-inf softmax-masked' ;;") != std::string::npos);
}

TEST_CASE("attn completion zsh is produced") {
  Result r = attn_cli("completion zsh");
  CHECK(r.code == 0);
  CHECK(r.out.rfind("#compdef attn\n", 0) == 0);
  CHECK(r.out.find("'causal:Causal self-attention\\: hiding the future'") != std::string::npos);
  CHECK(r.out.find("causal) steps=(setup scores weights tril masked renorm neg-inf softmax-masked) ;;") != std::string::npos);
  CHECK(r.out.find("'--cpu[PyTorch CPU kernels to reproduce]:cpu:(avx2 scalar)'") != std::string::npos);
  CHECK(r.out.find("'--npy[Write every printed tensor to DIR/<step>__<n>__<name>.npy, listed in DIR/index.json]:npy:_files -/'") !=
        std::string::npos);
  CHECK(r.out.find("  compdef _attn attn\n") != std::string::npos);
}
