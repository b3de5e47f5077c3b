// tests/cli/test_check_class.cpp: `attn check --answers DIR`, the class report, through the real
// binary: a class folder made by the test from tests/answers/ (files PyTorch made, see
// tools/make_answers.py) plus what a hostile folder holds (a symbolic link, a FIFO, a subfolder, a
// 300 MB sparse file, a name with an escape code and a byte that is not UTF-8, a .py file), in
// text (piped: 80 columns; in a 60-column terminal), JSON (parsed by Python) and CSV. What it is
// not: the one-answer reports (test_check.cpp).
#include <fmt/format.h>

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/run_attn.h"

namespace {

const std::string kAnswers = std::string(ATTN_TEST_DATA) + "/answers";

// A scratch folder per test process with class/ in it: every kind of student file.
std::string make_class() {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-class-test-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::string c = dir + "/class";
  std::filesystem::create_directories(c + "/sub");
  auto copy = [&](const std::string& from, const std::string& to) { std::filesystem::copy_file(kAnswers + "/" + from, c + "/" + to); };
  copy("causal-renorm-triu-zeroed.npy", "ana.npy");           // right, by the renormalising method
  copy("causal-renorm-triu-zeroed.npy", "Bea.npy");           // right (sorted first: bytewise, 'B' < 'a')
  copy("causal-softmax-masked-unmasked.npy", "bob.npy");      // no mask
  copy("causal-softmax-masked-diagonal.npy", "carol.npy");    // tril(...).bool() filled with -inf
  copy("causal-renorm-triu-kept.npy", "dora.npy");            // weights * triu(..., 1), renormalised: the same numbers
  copy("causal-softmax-masked-zero-fill.npy", "erin.npy");
  copy("causal-softmax-masked-triangle.npy", "fred.npy");
  copy("causal-weights-all-nan.npy", "gina.npy");             // nothing but NaN
  copy("bad-archive.npz", "hank.npz");                        // malformed
  copy("bad-empty.csv", "ivan.csv");                          // empty
  copy("causal-weights-dim0.csv", "kim.csv");                 // wrong, no hint for this step
  copy("causal-weights-3d.npy", "leo.npy");                   // another shape, no hint for this step
  copy("bad-words.csv", "zoe\x1b[31m\xff.csv");               // a name with an escape code and a byte that is not UTF-8
  std::ofstream(c + "/jack.py") << "attn_weights = None\n";   // code whose variable is not a tensor
  std::ofstream(c + "/.DS_Store") << "hidden: not graded\n";
  std::string sh = "cd '" + c + "' && ln -s ana.npy lea.npy && mkfifo max.npy && truncate -s 300M nina.npy";
  REQUIRE(std::system(sh.c_str()) == 0);
  // Code that solves the exercise: `attn exercise`'s file with the lesson's own line for its TODO.
  std::string solved = fmt::format("'{}' exercise causal --step softmax-masked | sed 's|^attn_weights = [.][.][.] .*|"
                                   "attn_weights = torch.softmax(masked / d_out_kq**0.5, dim=1)|' > '{}/kay.py'",
                                   ATTN_BINARY, c);
  REQUIRE(std::system(solved.c_str()) == 0);
  return dir;
}

CliResult in_dir(const std::string& dir, const std::string& args) { return attn_process(args, dir); }

const char* const kText80 =
    "causal/softmax-masked  attn_weights [6, 6]\n"
    "19 files in class\n"
    "Bea              PASS\n"
    "ana              PASS\n"
    "bob              FAIL   mask_missing: no mask\n"
    "carol            FAIL   mask_diagonal: the diagonal hidden too: a row of NaN\n"
    "dora             FAIL   mask_diagonal: the diagonal hidden too: a row of NaN\n"
    "erin             FAIL   mask_zero_fill: masked with 0 instead of -inf\n"
    "fred             FAIL   mask_wrong_triangle: the other triangle masked\n"
    "gina             ERROR  every number is NaN (36 of 36), nothing to compare; a...\n"
    "hank             ERROR  is a zip archive (np.savez and torch.save write...\n"
    "ivan             ERROR  the file is empty\n"
    "jack             ERROR  class/jack.py: `attn_weights` is a value of type...\n"
    "kay              PASS\n"
    "kim              FAIL   other: 36 of 36 elements differ, by up to 0.8285\n"
    "lea              ERROR  is a symbolic link, which --answers does not follow...\n"
    "leo              FAIL   other: shape [1, 6, 6], the lesson's [6, 6]\n"
    "max              ERROR  is a FIFO (named pipe), not an answer file\n"
    "nina             ERROR  is 314572800 bytes, too large for a [6, 6] tensor (at...\n"
    "sub              ERROR  is a folder, not an answer file\n"
    "zoe\\x1b[31m\\xff  ERROR  line 2: item 2 on this line is not a number (numbers...\n"
    "\n"
    "3 of 19 passed; 7 failed, 9 cannot be graded.\n"
    "  mask_zero_fill         1  erin\n"
    "  mask_missing           1  bob\n"
    "  mask_wrong_triangle    1  fred\n"
    "  mask_diagonal          2  carol, dora\n"
    "  other                  2  kim, leo\n"
    "  cannot_grade           9  gina, hank, ivan, jack, lea, max, nina, sub,\n"
    "                            zoe\\x1b[31m\\xff\n";

}  // namespace

TEST_CASE("attn check --answers: one report for the class, counts per mistake kind, hostile entries as lines (exit 0)") {
  std::string dir = make_class();
  CliResult text = in_dir(dir, "check causal --step softmax-masked --answers class");
  CHECK(text.code == 0);
  CHECK(text.err.empty());   // nothing but stdout
  CHECK(text.out == kText80);

  // JSON: one document, valid whatever the names hold; the summary an instructor reads first.
  CliResult json = in_dir(dir, "check causal --step softmax-masked --answers class --format json");
  CHECK(json.code == 0);
  std::ofstream(dir + "/report.json") << json.out;
  CliResult py = shell_process("/usr/bin/python3 -c '\n"
                               "import json, sys\n"
                               "d = json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
                               "s = d[\"summary\"]\n"
                               "print(d[\"lesson\"], d[\"step\"], d[\"shape\"], s[\"files\"], s[\"pass\"], s[\"fail\"], s[\"cannot_grade\"], s[\"not_graded\"])\n"
                               "for k in s[\"kinds\"]: print(k[\"kind\"], k[\"count\"], \",\".join(k[\"students\"]))\n"
                               "st = {x[\"student\"]: x for x in d[\"students\"]}\n"
                               "print(st[\"dora\"][\"kinds\"], st[\"bob\"][\"kinds\"], st[\"ana\"][\"status\"], st[\"ana\"][\"kind\"])\n"
                               "print(st[\"dora\"][\"message\"] == st[\"carol\"][\"message\"], \"instead\" in st[\"dora\"][\"message\"])\n"
                               "' " + dir + "/report.json");
  CHECK(py.code == 0);
  CHECK(py.err.empty());
  CHECK(py.out ==
        "causal softmax-masked [6, 6] 19 3 7 9 0\n"
        "mask_zero_fill 1 erin\n"
        "mask_missing 1 bob\n"
        "mask_wrong_triangle 1 fred\n"
        "mask_diagonal 2 carol,dora\n"
        "other 2 kim,leo\n"
        "cannot_grade 9 gina,hank,ivan,jack,lea,max,nina,sub,zoe\\x1b[31m\\xff\n"
        "['mask_diagonal'] ['mask_missing', 'equals_printed'] pass None\n"
        "True False\n");

  // CSV: a header and one row per student, read back by Python's csv module.
  CliResult csv = in_dir(dir, "check causal --step softmax-masked --answers class --format csv");
  CHECK(csv.code == 0);
  CHECK(csv.out.rfind("student,file,status,kind,n_differ,max_abs_diff,message\n"
                      "Bea,Bea.npy,pass,,0,",
                      0) == 0);
  CHECK(csv.out.find("\nhank,hank.npz,cannot_grade,cannot_grade,,,\"hank.npz: is a zip archive (np.savez and torch.save write "
                     "these), not one array; save the tensor with np.save(path, t.detach().numpy())\"\n") != std::string::npos);
  CHECK(csv.out.find("\njack,jack.py,cannot_grade,cannot_grade,,,\"class/jack.py: `attn_weights` is a value of type") !=
        std::string::npos);
  CHECK(csv.out.find("\nkay,kay.py,pass,,0,0,\n") != std::string::npos);
  std::ofstream(dir + "/report.csv") << csv.out;
  CliResult rows = shell_process("/usr/bin/python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], encoding=\"utf-8\")));"
                                 " print(len(r), set(len(x) for x in r), [x[2] for x in r[1:]].count(\"fail\"))' " + dir + "/report.csv");
  CHECK(rows.out == "20 {7} 7\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("attn check --answers in a 60-column terminal: every line fits, no word cut") {
  if (!std::filesystem::exists("/usr/bin/script")) {
    MESSAGE("util-linux `script` not found: terminal test skipped");
    return;
  }
  std::string dir = make_class();
  CliResult r = shell_process("timeout 20 script -qec 'stty cols 60; " + std::string(ATTN_BINARY) +
                                  " check causal --step softmax-masked --answers class' /dev/null </dev/null | tr -d '\\r'",
                              dir);
  CHECK(r.out ==
        "causal/softmax-masked  attn_weights [6, 6]\n"
        "19 files in class\n"
        "Bea              PASS\n"
        "ana              PASS\n"
        "bob              FAIL   mask_missing: no mask\n"
        "carol            FAIL   mask_diagonal: the diagonal...\n"
        "dora             FAIL   mask_diagonal: the diagonal...\n"
        "erin             FAIL   mask_zero_fill: masked with 0...\n"
        "fred             FAIL   mask_wrong_triangle: the other...\n"
        "gina             ERROR  every number is NaN (36 of 36),...\n"
        "hank             ERROR  is a zip archive (np.savez and...\n"
        "ivan             ERROR  the file is empty\n"
        "jack             ERROR  class/jack.py: `attn_weights` is...\n"
        "kay              PASS\n"
        "kim              FAIL   other: 36 of 36 elements differ,...\n"
        "lea              ERROR  is a symbolic link, which...\n"
        "leo              FAIL   other: shape [1, 6, 6], the...\n"
        "max              ERROR  is a FIFO (named pipe), not an...\n"
        "nina             ERROR  is 314572800 bytes, too large for...\n"
        "sub              ERROR  is a folder, not an answer file\n"
        "zoe\\x1b[31m\\xff  ERROR  line 2: item 2 on this line is...\n"
        "\n"
        "3 of 19 passed; 7 failed, 9 cannot be graded.\n"
        "  mask_zero_fill         1  erin\n"
        "  mask_missing           1  bob\n"
        "  mask_wrong_triangle    1  fred\n"
        "  mask_diagonal          2  carol, dora\n"
        "  other                  2  kim, leo\n"
        "  cannot_grade           9  gina, hank, ivan, jack, lea,\n"
        "                            max, nina, sub, zoe\\x1b[31m\\xff\n");
  std::filesystem::remove_all(dir);
}

TEST_CASE("attn check --answers: a folder it cannot use is exit 2 with one line; --answer and --answers exclude each other") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-class-bad-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/empty");
  std::ofstream(dir + "/empty/.hidden") << "x";
  std::ofstream(dir + "/file.npy") << "x";
  struct Case {
    std::string args, err;
  } cases[] = {
      {"--answers nosuch", "attn: nosuch: no such folder\n"},
      {"--answers file.npy", "attn: file.npy: is not a folder (--answers takes a folder of answer files; --answer takes one file)\n"},
      {"--answers empty", "attn: empty: holds no answer files (hidden files, whose names start with '.', are not graded)\n"},
      {"--answers empty --answer file.npy", "attn: --answer excludes --answers (see `attn --help`)\n"},
      {"--answer file.npy --format csv",
       "attn: --format csv is for --answers DIR (one row per student); --answer takes text or json\n"},
      {"", "attn: give the answer to grade: --answer FILE (a tensor), --code FILE (an exercise `attn exercise` made), or --answers DIR for a class folder\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    CliResult r = in_dir(dir, "check causal --step weights " + c.args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == c.err);
  }
  std::filesystem::remove_all(dir);
}

// A student's file named like a spreadsheet formula is text in the CSV report (issue 20: CSV
// injection): its cells start with ', which spreadsheets show and do not run.
TEST_CASE("attn check --answers --format csv: names that start like formulas are not formulas") {
  std::string dir = std::filesystem::temp_directory_path() / ("attn-class-csv-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/class");
  std::filesystem::copy_file(kAnswers + "/causal-renorm-triu-zeroed.npy", dir + "/class/=HYPERLINK(1).npy");
  std::filesystem::copy_file(kAnswers + "/causal-renorm-triu-zeroed.npy", dir + "/class/-x.npy");
  CliResult csv = in_dir(dir, "check causal --step softmax-masked --answers class --format csv");
  CHECK(csv.code == 0);
  CHECK(csv.out == "student,file,status,kind,n_differ,max_abs_diff,message\n"
                   "'-x,'-x.npy,pass,,0,5.96046e-08,\n"
                   "'=HYPERLINK(1),'=HYPERLINK(1).npy,pass,,0,5.96046e-08,\n");
  std::filesystem::remove_all(dir);
}
