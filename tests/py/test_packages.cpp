// tests/py/test_packages.cpp: what the package cases against CPython cannot show: a package
// beside the lesson never leads out of the lesson's folder (links to a folder, an __init__.py or a
// module outside it are refused by their real path; a link inside it is followed), and the import
// statement's relative forms' errors.
//
// What it is not: the import forms against CPython (tests/python/imports.cases, run by
// tests/torch/test_python_torch.cpp, and the test lesson py-imports through the real binary) or
// the lesson file's `echo:` header (tests/lesson/test_notebook_echo.cpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "py/interpreter.h"

namespace {

namespace fs = std::filesystem;
using attn::py::Interpreter;
using attn::py::ScriptError;

// What `code` printed in a session importing from `dir`, or "error: LINE: message".
std::string run_in(const fs::path& dir, const std::string& code) {
  Interpreter in;
  in.set_import_dir(dir.string());
  try {
    in.run_cell(code);
  } catch (const ScriptError& e) {
    return "error: " + std::to_string(e.line) + ": " + e.what();
  }
  return in.take_output();
}

}  // namespace

TEST_CASE("a package never leads out of the lesson's folder") {
  const fs::path root = fs::temp_directory_path() / ("attn-packages-" + std::to_string(getpid()));
  const fs::path lesson = root / "lesson", outside = root / "outside";
  fs::create_directories(lesson / "pkg");
  fs::create_directories(outside / "secret");
  std::ofstream(outside / "secret" / "__init__.py") << "print('outside ran')\n";
  std::ofstream(outside / "mod.py") << "print('outside ran')\n";
  std::ofstream(lesson / "pkg" / "__init__.py") << "X = 1\n";
  fs::create_symlink(outside / "secret", lesson / "linked_dir");             // a folder link out
  fs::create_directories(lesson / "linked_init");
  fs::create_symlink(outside / "secret" / "__init__.py", lesson / "linked_init" / "__init__.py");   // an __init__ link out
  fs::create_symlink(outside / "mod.py", lesson / "pkg" / "linked_mod.py");  // a module link out
  fs::create_symlink(outside, lesson / "linked_ns");                         // a namespace folder link out
  fs::create_symlink(lesson / "pkg", lesson / "alias");                      // a link inside: followed

  const std::string refused = "error: 1: ImportError: attn imports .py files from the lesson's folder only, and ";
  CHECK(run_in(lesson, "import linked_dir") == refused + (lesson / "linked_dir").string() + " leads out of it");
  CHECK(run_in(lesson, "import linked_init") == refused + (lesson / "linked_init" / "__init__.py").string() + " leads out of it");
  CHECK(run_in(lesson, "import pkg.linked_mod") == refused + (lesson / "pkg" / "linked_mod.py").string() + " leads out of it");
  CHECK(run_in(lesson, "from pkg import linked_mod") == refused + (lesson / "pkg" / "linked_mod.py").string() + " leads out of it");
  CHECK(run_in(lesson, "import linked_ns.mod") == refused + (lesson / "linked_ns").string() + " leads out of it");
  CHECK(run_in(lesson, "import alias\nprint(alias.X)") == "1\n");
  // Names are identifiers: a path cannot be spelled, and `..` past the top package is Python's error.
  CHECK(run_in(lesson, "import ..outside") == "error: 1: SyntaxError: expected a name near '.'");
  CHECK(run_in(lesson, "from ... import mod") == "error: 1: ImportError: attempted relative import with no known parent package");
  std::ofstream(lesson / "pkg" / "up.py") << "from .. import mod\n";
  CHECK(run_in(lesson, "import pkg.up") == "error: 1: ImportError: attempted relative import beyond top-level package");
  fs::remove_all(root);
}
