// tests/lab/test_answer.cpp: `attn check`'s answer reader on crafted .npy and text bytes: every
// accepted layout and every malformed case, with its one-line message.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "core/errors.h"
#include "core/tensor.h"
#include "lab/answer.h"

namespace core = attn::core;
namespace lab = attn::lab;

namespace {


// ---- .npy bytes as numpy.lib.format writes them ----

std::string le(uint64_t v, int bytes) {
  std::string out;
  for (int k = 0; k < bytes; ++k) out += static_cast<char>((v >> (8 * k)) & 0xff);
  return out;
}

// A .npy file with this exact header dict text, padded as NumPy pads it (to 64 bytes, then '\n').
std::string npy_raw(const std::string& dict, const std::string& data, int major = 1) {
  size_t pre = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((pre + header.size() + 1) % 64) header += ' ';
  header += '\n';
  return std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0' + le(header.size(), major == 1 ? 2 : 4) + header + data;
}

std::string npy(const std::string& descr, const std::string& shape, const std::string& data, int major = 1, bool fortran = false) {
  return npy_raw("{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }", data,
                 major);
}

template <typename T>
std::string bytes_of(std::initializer_list<T> values) {
  std::string out;
  for (T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
  return out;
}

lab::Answer parse(const std::string& bytes, const std::string& file = "a.npy") { return lab::parse_answer(bytes, file); }

std::string error_of(const std::string& bytes, const std::string& file = "a.npy") {
  try {
    lab::parse_answer(bytes, file);
  } catch (const attn::UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

// ================================ the .npy reader ================================

TEST_CASE("npy: every accepted dtype, format versions 1.0, 2.0 and 3.0") {
  for (int major : {1, 2, 3}) {
    CAPTURE(major);
    lab::Answer a = parse(npy("<f4", "(2, 3)", bytes_of<float>({0.5f, 1, 2, 3, -INFINITY, 0.1f}), major));
    CHECK(a.format == lab::Answer::Format::npy);
    CHECK(a.dtype == "<f4");
    CHECK(a.shape == core::Shape{2, 3});
    CHECK(a.data == std::vector<double>{0.5, 1, 2, 3, -INFINITY, static_cast<double>(0.1f)});
  }
  CHECK(parse(npy("<f8", "(2,)", bytes_of<double>({0.1, -2.5}))).data == std::vector<double>{0.1, -2.5});
  CHECK(parse(npy("<i8", "(3,)", bytes_of<int64_t>({0, 4, -5}))).data == std::vector<double>{0, 4, -5});
  CHECK(parse(npy("<i4", "(1, 2)", bytes_of<int32_t>({7, -1}))).data == std::vector<double>{7, -1});
  CHECK(parse(npy("|b1", "(3,)", std::string("\x01\x00\x01", 3))).data == std::vector<double>{1, 0, 1});
  // 0-d, empty, Python 2 long literals, double-quoted keys, a UTF-8 header (3.0 only).
  CHECK(parse(npy("<f4", "()", bytes_of<float>({2.5f}))).shape.empty());
  CHECK(parse(npy("<f4", "(0,)", "")).data.empty());
  CHECK(parse(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (1L, 2L), }", bytes_of<float>({1, 2}))).shape ==
        core::Shape{1, 2});
  CHECK(parse(npy_raw(R"({"descr": "<f4", "fortran_order": False, "shape": (1,)})", bytes_of<float>({1}))).data.size() == 1);
}

TEST_CASE("npy: Fortran order (np.save of a transposed array) is read in row-major order") {
  // [[1, 2, 3], [4, 5, 6]] stored column by column: 1 4 2 5 3 6.
  lab::Answer a = parse(npy("<f4", "(2, 3)", bytes_of<float>({1, 4, 2, 5, 3, 6}), 1, true));
  CHECK(a.data == std::vector<double>{1, 2, 3, 4, 5, 6});
  // 3-D: element [i, j, k] at i + 2*j + 4*k.
  std::vector<float> f(8);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 2; ++k) f[static_cast<size_t>(i + 2 * j + 4 * k)] = static_cast<float>(100 * i + 10 * j + k);
  std::string data(reinterpret_cast<const char*>(f.data()), f.size() * 4);
  CHECK(parse(npy("<f4", "(2, 2, 2)", data, 1, true)).data == std::vector<double>{0, 1, 10, 11, 100, 101, 110, 111});
}

TEST_CASE("npy: malformed files get one line naming the file") {
  std::string good = npy("<f4", "(2, 2)", bytes_of<float>({1, 2, 3, 4}));
  CHECK(error_of(std::string("\x93NUM", 4)) == "a.npy: truncated .npy file: 4 bytes, not even the whole magic");
  CHECK(error_of(good.substr(0, 8)) == "a.npy: truncated .npy file: 8 bytes, less than the magic, version and header length");
  CHECK(error_of(good.substr(0, 40)) == "a.npy: truncated .npy file: the header should be 118 bytes, the file has 30 after the preamble");
  CHECK(error_of(good.substr(0, good.size() - 3)) ==
        "a.npy: truncated .npy file: shape (2, 2) of <f4 needs 16 bytes of data, the file has 13");
  CHECK(error_of(good + "xx") ==
        "a.npy: 2 bytes after the data its header describes (shape (2, 2) of <f4 is 16 bytes); np.save writes none");
  std::string v4 = good;
  v4[6] = 4;
  CHECK(error_of(v4) == "a.npy: .npy format version 4.0 is not supported (attn check reads 1.0, 2.0 and 3.0)");
  CHECK(error_of(npy("<f2", "(2,)", "abcd")) ==
        "a.npy: dtype '<f2' is not supported; attn check reads <f4, <f8, <i8, <i4, |b1 (np.save(path, t.detach().numpy()) "
        "writes <f4 for a float32 tensor; convert with a.astype('<f4'))");
  CHECK(error_of(npy("<U5", "(1,)", std::string(20, 'a'))).find("dtype '<U5' is not supported; attn check reads <f4, <f8, <i8, <i4, |b1") !=
        std::string::npos);
  CHECK(error_of(npy(">f4", "(1,)", "abcd")) ==
        "a.npy: dtype '>f4' is big-endian; attn check reads little-endian <f4, <f8, <i8, <i4, |b1 (save a.astype('<f4'))");
  CHECK(error_of(npy_raw("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "abcd")) ==
        "a.npy: structured dtypes (records) are not supported; attn check reads arrays of <f4, <f8, <i8, <i4, |b1: save the "
        "tensor with np.save(path, t.detach().numpy())");
  CHECK(error_of(npy_raw("{'descr': '<f4', 'shape': (1,), }", "abcd")) == "a.npy: malformed .npy header: no 'fortran_order' key");
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1}", "abcd"))
            .rfind("a.npy: malformed .npy header (unexpected '1}", 0) == 0);
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", "abcd")).rfind("a.npy: malformed .npy header (", 0) == 0);
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': 'x', }", "abcd")) ==
        "a.npy: malformed .npy header: 'shape' must be a tuple of integers");
  CHECK(error_of(npy_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", "abcd")).find("non-negative integers") !=
        std::string::npos);
  CHECK(error_of(npy("<f4", "(2, 2)", bytes_of<float>({1, 2, NAN, 4}))) ==
        "a.npy: element [1, 0] is NaN; attn check grades numbers; a NaN usually comes from a softmax over a row that is all "
        "-inf (a mask that also hides the diagonal) or from 0/0");
  CHECK(error_of(npy("<f4", "(2, 2)", bytes_of<float>({1, NAN, 3, 4}), 1, true)).rfind("a.npy: element [1, 0] is NaN", 0) == 0);
  CHECK(error_of(npy("<f4", "(100000, 100000, 100000)", "")) == "a.npy: the shape (100000, 100000, 100000) is too large");
  CHECK(error_of(std::string("PK\x03\x04rest", 8), "a.npz") ==
        "a.npz: is a zip archive (np.savez and torch.save write these), not one array; save the tensor with np.save(path, "
        "t.detach().numpy())");
  CHECK(error_of(std::string("\x80\x02}q\x00.", 6), "t.pt") ==
        "t.pt: is neither a .npy file (no \\x93NUMPY magic) nor text; save the tensor with np.save(path, t.detach().numpy())");
}

TEST_CASE("NaN: refused by default; with allow_nan kept, with where it is, for the grader to decide") {
  std::string data = bytes_of<float>({1, NAN, 3, NAN});
  lab::Answer a = lab::parse_answer(npy("<f4", "(2, 2)", data), "a.npy", true);
  CHECK(std::isnan(a.data[1]));
  REQUIRE(a.nans.size() == 2);
  CHECK(a.nans[0].index == 1);
  CHECK(a.nans[0].message.rfind("a.npy: element [0, 1] is NaN; ", 0) == 0);
  // Fortran order: file position 1 is element [1, 0], row-major position 2.
  lab::Answer f = lab::parse_answer(npy("<f4", "(2, 2)", bytes_of<float>({1, NAN, 3, 4}), 1, true), "f.npy", true);
  REQUIRE(f.nans.size() == 1);
  CHECK(f.nans[0].index == 2);
  CHECK(std::isnan(f.data[2]));
  lab::Answer t = lab::parse_answer("1 2\n3 nan\n", "t.txt", true);
  REQUIRE(t.nans.size() == 1);
  CHECK(t.nans[0].index == 3);
  CHECK(t.nans[0].line == 2);
  CHECK(t.nans[0].message.rfind("t.txt:2: 'nan' is NaN; ", 0) == 0);
}

// ================================ the text reader ================================

TEST_CASE("text: CSV, whitespace, comments, CRLF, a byte-order mark, infinities") {
  lab::Answer a = parse("0.1,0.2,0.3\n0.4, 0.5 ,0.6\n", "w.csv");
  CHECK(a.format == lab::Answer::Format::text);
  CHECK(a.shape == core::Shape{2, 3});
  CHECK(a.data == std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.6});
  CHECK(parse("# header from np.savetxt\n1.0e-01 2 3\n\n4\t5 6  # trailing comment\n", "w.txt").shape == core::Shape{2, 3});
  CHECK(parse("\xEF\xBB\xBF" "1,2\r\n3,4\r\n", "w.csv").data == std::vector<double>{1, 2, 3, 4});
  CHECK(parse("0.0613,-inf\n-Infinity,+3.5\n", "m.csv").data == std::vector<double>{0.0613, -INFINITY, -INFINITY, 3.5});
  CHECK(parse("42", "x.txt").shape == core::Shape{1, 1});
  // Rows copied from PyTorch's printout end in a comma (brackets left out): the comma is a separator, not a field.
  lab::Answer pasted = parse("0.1772, 0.1326, 0.1879,\n0.0386, 0.6870, 0.0204,\n", "p.txt");
  CHECK(pasted.shape == core::Shape{2, 3});
  CHECK(pasted.data == std::vector<double>{0.1772, 0.1326, 0.1879, 0.0386, 0.6870, 0.0204});
  CHECK(parse("1,2,\n", "w.csv").data == std::vector<double>{1, 2});
  CHECK(parse("1 2 ,  \n3 4,\n", "w.csv").shape == core::Shape{2, 2});
}

TEST_CASE("text: malformed files get one line naming the file and the line") {
  CHECK(error_of("", "e.csv") == "e.csv: the file is empty");
  CHECK(error_of("\n  \n# only a comment\n", "e.csv") == "e.csv: the file has no numbers (only blank lines or # comments)");
  CHECK(error_of("1,2,3\n4,5\n", "r.csv") == "r.csv:2: 2 numbers on this line, 3 on line 1 (every row needs the same number of columns)");
  CHECK(error_of("# c\n1 2\n\n3\n", "r.txt") == "r.txt:4: 1 number on this line, 2 on line 2 (every row needs the same number of columns)");
  CHECK(error_of("1,2\nnan,3\n", "n.csv") ==
        "n.csv:2: 'nan' is NaN; attn check grades numbers; a NaN usually comes from a softmax over a row that is all -inf (a mask "
        "that also hides the diagonal) or from 0/0");
  CHECK(error_of("1,NaN\n", "n.csv").rfind("n.csv:1: 'NaN' is NaN", 0) == 0);
  CHECK(error_of("1,2\n3,zero\n", "w.csv") == "w.csv:2: item 2 on this line is not a number (numbers are written with digits, '.', 'e', '+' and '-')");
  CHECK(error_of("1,2\n3,0x\n", "w.csv") == "w.csv:2: item 2 on this line is not a number (numbers are written with digits, '.', 'e', '+' and '-')");
  // A comma may end a row (issue 10: numbers pasted from the terminal); two in a row, or one first, is still an empty field.
  CHECK(error_of("1,,2\n", "w.csv") == "w.csv:1: empty field (two commas in a row, or a comma at the start of the line)");
  CHECK(error_of("1,2,,\n", "w.csv") == "w.csv:1: empty field (two commas in a row, or a comma at the start of the line)");
  CHECK(error_of(",1,2\n", "w.csv") == "w.csv:1: empty field (two commas in a row, or a comma at the start of the line)");
  CHECK(error_of(",\n", "w.csv") == "w.csv:1: empty field (two commas in a row, or a comma at the start of the line)");
  CHECK(error_of("1e999\n", "w.csv") == "w.csv:1: '1e999' is out of the range of a float");
  CHECK(error_of("tensor([[0.1772, 0.1326],\n        [0.0386, 0.6870]])\n", "p.txt") ==
        "p.txt:1: this line starts with `tensor(`: it looks like a printed tensor, not a table of numbers: write one with "
        "np.savetxt(path, t.detach().numpy(), delimiter=',') or use np.save");
  CHECK(error_of("1 2\n3 \x01\n", "b.txt") == "b.txt:2: item 2 on this line is not a number (numbers are written with digits, '.', 'e', '+' and '-')");
}

TEST_CASE("read_answer: missing file, directory") {
  auto err = [](const std::string& path) {
    try {
      lab::read_answer(path);
    } catch (const attn::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(err("/nonexistent/w.npy") == "/nonexistent/w.npy: no such file");
  CHECK(err(std::filesystem::temp_directory_path().string()) ==
        std::filesystem::temp_directory_path().string() + ": is a directory, not an answer file");
  lab::Answer a = lab::read_answer(std::string(ATTN_TEST_DATA) + "/answers/causal-weights.npy");
  CHECK(a.shape == core::Shape{6, 6});
}
