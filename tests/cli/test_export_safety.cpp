// tests/cli/test_export_safety.cpp: what `attn export` may and may not do to the files already there
// (issue 9, "Export"): it replaces its own earlier export and removes that export's files it
// does not write again; it refuses (exit 1, one line, nothing written) to overwrite a file it
// did not write unless --force, to write through a symbolic link, or into a symlinked
// directory; and a failure anywhere leaves every file as it was, with no temporary file behind.
// The real binary is run; the directory is compared byte for byte before and after. What it is
// not: the test of what counts as attn's own file (tests/lesson/test_export.cpp).
#include <doctest/doctest.h>

#include "support/run_attn.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Result = CliResult;

std::string scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("attn-export-safety-test-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

Result run_attn(const std::string& args) { return attn_process(args); }

// Every entry of `dir`: name -> its bytes, "-> target" for a link, "<dir>" for a directory.
std::map<std::string, std::string> contents(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (e.is_symlink()) out[name] = "-> " + fs::read_symlink(e.path()).string();
    else if (e.is_directory()) out[name] = "<dir>";
    else if (e.is_fifo()) out[name] = "<fifo>";
    else out[name] = slurp(e.path().string());
  }
  return out;
}

std::vector<std::string> names(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool has_temporary(const std::string& dir) {
  auto n = names(dir);
  return std::any_of(n.begin(), n.end(), [](const std::string& s) { return s.rfind(".attn-", 0) == 0; });
}

// True if a file can be created in `dir` (it is removed again).
bool can_create_in(const std::string& dir) {
  std::string probe = dir + "/.attn-test-probe";
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

const std::vector<std::string> kCausalFiles = {"index.json",
                                               "masked__1__masked_simple.npy",
                                               "neg-inf__1__masked.npy",
                                               "renorm__1__masked_simple_norm.npy",
                                               "scores__1__attn_scores.npy",
                                               "softmax-masked__1__attn_weights.npy",
                                               "tril__1__mask_simple.npy",
                                               "weights__1__attn_weights.npy"};

}  // namespace

TEST_CASE("export safety: an earlier export is replaced, and its files this one does not write are removed") {
  std::string dir = scratch("stale");
  std::ofstream(dir + "/notes.txt") << "the instructor's own file";
  REQUIRE(run_attn("export causal --seed 7 --npy " + dir).code == 0);
  std::vector<std::string> expected = kCausalFiles;
  expected.insert(std::upper_bound(expected.begin(), expected.end(), "notes.txt"), "notes.txt");
  CHECK(names(dir) == expected);
  // The handout of another seed: only the scores, and no answer left from the first export.
  Result r = run_attn("export causal --seed 42 --only scores --npy " + dir);
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out == "wrote 1 array and index.json to " + dir + " (and removed 6 files of an earlier export that this one does not write)\n");
  CHECK(names(dir) == std::vector<std::string>{"index.json", "notes.txt", "scores__1__attn_scores.npy"});
  CHECK(slurp(dir + "/notes.txt") == "the instructor's own file");
  CHECK(slurp(dir + "/index.json").find("\"options\": {\"seed\": 42}") != std::string::npos);
  // An index.json of an older attn (the seed a string) is still attn's own.
  std::string old = scratch("old-index");
  std::ofstream(old + "/index.json") << "{\n  \"lesson\": \"causal\",\n  \"cpu\": \"scalar\",\n  \"rng\": \"mkl\",\n  \"options\": {\"seed\": \"42\"},\n"
                                        "  \"arrays\": [\n    {\"file\": \"gone__1__x.npy\", \"step\": \"gone\", \"cell\": 1, \"name\": \"x\", "
                                        "\"shape\": [1], \"dtype\": \"float32\"}\n  ]\n}\n";
  std::ofstream(old + "/gone__1__x.npy") << "old";
  CHECK(run_attn("export causal --only scores --npy " + old).code == 0);
  CHECK(names(old) == std::vector<std::string>{"index.json", "scores__1__attn_scores.npy"});
}

TEST_CASE("export safety: a file attn did not write is not overwritten without --force") {
  std::string dir = scratch("foreign");
  std::ofstream(dir + "/weights__1__attn_weights.npy") << "a student's work";
  auto before = contents(dir);
  Result r = run_attn("export causal --npy " + dir);
  CHECK(r.code == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "attn: refusing to overwrite '" + dir + "/weights__1__attn_weights.npy': attn did not write it (no index.json of attn's beside "
                 "it lists it); --force replaces it\n");
  CHECK(contents(dir) == before);   // nothing written, nothing left behind
  // One listed by attn's index.json is attn's; one it does not list is not.
  std::string listed = scratch("listed");
  REQUIRE(run_attn("export causal --only scores --npy " + listed).code == 0);
  std::ofstream(listed + "/tril__1__mask_simple.npy") << "mine";
  auto listed_before = contents(listed);
  Result r2 = run_attn("export causal --npy " + listed);
  CHECK(r2.code == 1);
  CHECK(r2.err == "attn: refusing to overwrite '" + listed + "/tril__1__mask_simple.npy': attn did not write it (" + listed +
                      "/index.json does not list it); --force replaces it\n");
  CHECK(contents(listed) == listed_before);
  // An index.json attn did not write.
  std::string index = scratch("index");
  std::ofstream(index + "/index.json") << "{\"mine\": true}\n";
  Result r3 = run_attn("export causal --npy " + index);
  CHECK(r3.code == 1);
  CHECK(r3.err == "attn: refusing to overwrite '" + index + "/index.json': attn did not write it; --force replaces it\n");
  CHECK(names(index) == std::vector<std::string>{"index.json"});
  // --force replaces them.
  Result forced = run_attn("export causal --npy " + dir + " --force");
  CHECK(forced.code == 0);
  CHECK(names(dir) == kCausalFiles);
  CHECK(slurp(dir + "/weights__1__attn_weights.npy").rfind("\x93NUMPY", 0) == 0);
  CHECK(run_attn("export causal --npy " + index + " --force").code == 0);
  CHECK(names(index) == kCausalFiles);
  // A notebook: attn's own is replaced, another file is not.
  std::string nb = scratch("notebook");
  REQUIRE(run_attn("export causal --notebook " + nb + "/c.ipynb").code == 0);
  CHECK(run_attn("export causal --seed 7 --notebook " + nb + "/c.ipynb").code == 0);
  CHECK(slurp(nb + "/c.ipynb").find("torch.manual_seed(7)") != std::string::npos);
  std::ofstream(nb + "/mine.ipynb") << "{\"cells\": [], \"nbformat\": 4}";
  Result r4 = run_attn("export causal --notebook " + nb + "/mine.ipynb");
  CHECK(r4.code == 1);
  CHECK(r4.err == "attn: refusing to overwrite '" + nb + "/mine.ipynb': it is not a notebook attn wrote; --force replaces it\n");
  CHECK(slurp(nb + "/mine.ipynb") == "{\"cells\": [], \"nbformat\": 4}");
  CHECK_FALSE(has_temporary(nb));
}

TEST_CASE("export safety: never through a symbolic link") {
  std::string dir = scratch("links");
  std::string outside = scratch("links-outside");
  std::ofstream(outside + "/precious") << "keep";
  REQUIRE(run_attn("export causal --npy " + dir + "/npy").code == 0);
  // A link planted under an output name, pointing at another file.
  fs::remove(dir + "/npy/scores__1__attn_scores.npy");
  fs::create_symlink(outside + "/precious", dir + "/npy/scores__1__attn_scores.npy");
  auto before = contents(dir + "/npy");
  Result r = run_attn("export causal --npy " + dir + "/npy");
  CHECK(r.code == 1);
  CHECK(r.err == "attn: refusing to overwrite '" + dir + "/npy/scores__1__attn_scores.npy': it is a symbolic link, and attn never "
                 "writes through one; --force replaces the link itself\n");
  CHECK(contents(dir + "/npy") == before);
  CHECK(slurp(outside + "/precious") == "keep");
  // --force replaces the link with the file; the file it pointed to is untouched.
  CHECK(run_attn("export causal --npy " + dir + "/npy --force").code == 0);
  CHECK_FALSE(fs::is_symlink(dir + "/npy/scores__1__attn_scores.npy"));
  CHECK(slurp(dir + "/npy/scores__1__attn_scores.npy").rfind("\x93NUMPY", 0) == 0);
  CHECK(slurp(outside + "/precious") == "keep");
  // The same for a notebook.
  fs::create_symlink(outside + "/precious", dir + "/nb.ipynb");
  Result nb = run_attn("export causal --notebook " + dir + "/nb.ipynb");
  CHECK(nb.code == 1);
  CHECK(nb.err == "attn: refusing to overwrite '" + dir + "/nb.ipynb': it is a symbolic link, and attn never writes through one; "
                  "--force replaces the link itself\n");
  CHECK(run_attn("export causal --notebook " + dir + "/nb.ipynb --force").code == 0);
  CHECK_FALSE(fs::is_symlink(dir + "/nb.ipynb"));
  CHECK(slurp(outside + "/precious") == "keep");
  // A symlinked output directory is refused, with --force too: name the directory it points to.
  fs::create_directory_symlink(outside, dir + "/linked");
  for (const char* force : {"", " --force"}) {
    CAPTURE(force);
    Result d = run_attn("export causal --npy " + dir + "/linked" + force);
    CHECK(d.code == 1);
    CHECK(d.err == "attn: refusing to write into '" + dir + "/linked': it is a symbolic link, and attn never writes through one (name "
                   "the directory it points to)\n");
    Result slash = run_attn("export causal --npy " + dir + "/linked/" + force);   // a trailing slash would follow it
    CHECK(slash.code == 1);
    CHECK(slash.err.rfind("attn: refusing to write into '" + dir + "/linked/': it is a symbolic link", 0) == 0);
  }
  CHECK(names(outside) == std::vector<std::string>{"precious"});
  // Not a regular file (a FIFO, a device): refused, --force or not.
  REQUIRE(::mkfifo((dir + "/fifo.ipynb").c_str(), 0600) == 0);
  Result fifo = run_attn("export causal --notebook " + dir + "/fifo.ipynb --force");
  CHECK(fifo.code == 1);
  CHECK(fifo.err == "attn: refusing to overwrite '" + dir + "/fifo.ipynb': it is not a regular file\n");
  CHECK(fs::is_fifo(dir + "/fifo.ipynb"));
}

TEST_CASE("export safety: all or nothing: a failed write changes no file and leaves no temporary one") {
  std::string dir = scratch("atomic");
  REQUIRE(run_attn("export causal --seed 7 --npy " + dir + "/npy --notebook " + dir + "/c.ipynb").code == 0);
  auto npy = contents(dir + "/npy");
  std::string nb = slurp(dir + "/c.ipynb");
  // The .npy files of --seed 42 are staged, then the notebook cannot be written: none of them lands.
  Result r = run_attn("export causal --seed 42 --npy " + dir + "/npy --notebook " + dir + "/missing/c.ipynb");
  CHECK(r.code == 1);
  CHECK(r.err == "attn: cannot write '" + dir + "/missing/c.ipynb': No such file or directory\n");
  CHECK(contents(dir + "/npy") == npy);
  std::ofstream(dir + "/other.ipynb") << "not attn's";
  CHECK(run_attn("export causal --seed 42 --npy " + dir + "/npy --notebook " + dir + "/other.ipynb").code == 1);
  CHECK(contents(dir + "/npy") == npy);
  CHECK(slurp(dir + "/c.ipynb") == nb);
  // A directory it would have created is removed again.
  CHECK(run_attn("export causal --npy " + dir + "/new/deeper --notebook " + dir + "/other.ipynb").code == 1);
  CHECK_FALSE(fs::exists(dir + "/new"));
  // The notebook named as one of the files --npy writes: a usage error, before anything is written.
  Result same = run_attn("export causal --npy " + dir + "/fresh --notebook " + dir + "/fresh/index.json");
  CHECK(same.code == 2);
  CHECK(same.err == "attn: --notebook '" + dir + "/fresh/index.json' is also a file --npy writes\n");
  CHECK_FALSE(fs::exists(dir + "/fresh"));
  // A directory nobody may write in (a read-only one; as root, whom permissions do not stop, /sys).
  std::string ro = dir + "/read-only";
  fs::create_directory(ro);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
  if (can_create_in(ro)) ro = "/sys/kernel";
  REQUIRE_FALSE(can_create_in(ro));
  auto ro_before = names(ro);   // (names only: /sys files are not for reading in a test)
  Result denied = run_attn("export causal --npy " + ro);
  CHECK(denied.code == 1);
  CHECK(denied.out.empty());
  CHECK(denied.err.rfind("attn: cannot write '" + ro + "/", 0) == 0);
  CHECK(std::count(denied.err.begin(), denied.err.end(), '\n') == 1);
  CHECK(names(ro) == ro_before);
  fs::permissions(dir + "/read-only", fs::perms::owner_all);
  CHECK_FALSE(has_temporary(dir + "/npy"));
  CHECK_FALSE(has_temporary(dir));
}
