// lab/answer.cpp: the .npy and text readers of `attn check` (see answer.h).
//
// .npy layout (numpy/lib/format.py): 6 bytes of magic "\x93NUMPY", the format version as two
// bytes, the header length (uint16 little-endian in 1.0, uint32 in 2.0 and 3.0), the header (a
// Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (6, 6), }, ASCII in
// 1.0 and 2.0, UTF-8 in 3.0, padded with spaces and a newline), then the raw elements.
#include "lab/answer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <optional>

#include "core/errors.h"

namespace attn::lab {

const char* const kAnswerDtypes = "<f4, <f8, <i8, <i4, |b1";

namespace {

static_assert(std::endian::native == std::endian::little, ".npy data is read with memcpy on a little-endian host");

constexpr std::string_view kMagic("\x93NUMPY", 6);
const char* const kHowToSave = "save the tensor with np.save(path, t.detach().numpy())";

[[noreturn]] void fail(const std::string& file, const std::string& what) { throw UsageError(file + ": " + what); }
[[noreturn]] void fail_line(const std::string& file, int line, const std::string& what) {
  throw UsageError(fmt::format("{}:{}: {}", file, line, what));
}

// A piece of the file quoted in a message: printable, one line, short.
std::string quote(std::string_view s, size_t max = 24) {
  std::string out;
  for (size_t k = 0; k < s.size() && k < max; ++k) {
    unsigned char c = static_cast<unsigned char>(s[k]);
    if (c >= 0x20 && c < 0x7f) out += static_cast<char>(c);
    else if (c >= 0x80) out += static_cast<char>(c);   // UTF-8 text stays readable
    else out += fmt::format("\\x{:02x}", c);
  }
  if (s.size() > max) out += "...";
  return "'" + out + "'";
}

// The index of element `flat` of the file: row-major, or column-major when `fortran`.
std::string flat_index_str(int64_t flat, const core::Shape& shape, bool fortran = false) {
  std::vector<int64_t> idx(shape.size());
  for (size_t n = 0; n < shape.size(); ++n) {
    size_t d = fortran ? n : shape.size() - 1 - n;
    idx[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string out = "[";
  for (size_t d = 0; d < idx.size(); ++d) out += (d ? ", " : "") + std::to_string(idx[d]);
  return out + "]";
}

std::string py_shape(const core::Shape& shape) {   // (6, 6), (6,), ()
  std::string out = "(";
  for (size_t d = 0; d < shape.size(); ++d) out += (d ? ", " : "") + std::to_string(shape[d]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

const char* kNanAdvice = "attn check grades numbers; a NaN usually comes from a softmax over a row that is all -inf "
                         "(a mask that also hides the diagonal) or from 0/0";

// ---- the .npy header: a Python dict literal ----

struct HeaderValue {
  enum Kind { string, boolean, tuple, list } kind = string;
  std::string s;
  bool b = false;
  std::vector<int64_t> ints;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& file) : t_(text), file_(file) {}

  std::map<std::string, HeaderValue> dict() {
    std::map<std::string, HeaderValue> out;
    ws();
    expect('{');
    for (;;) {
      ws();
      if (peek() == '}') { ++k_; break; }
      std::string key = string_lit();
      ws();
      expect(':');
      ws();
      HeaderValue v = value();
      if (out.count(key)) bad("the key '" + key + "' appears twice");
      out[key] = v;
      ws();
      if (peek() == ',') { ++k_; continue; }
      expect('}');
      break;
    }
    ws();
    if (k_ != t_.size()) bad("text after the closing '}'");
    return out;
  }

 private:
  std::string_view t_;
  const std::string& file_;
  size_t k_ = 0;

  [[noreturn]] void bad(const std::string& what) {
    std::string text(t_);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.pop_back();
    fail(file_, "malformed .npy header (" + what + "): " + quote(text, 80));
  }
  char peek() const { return k_ < t_.size() ? t_[k_] : '\0'; }
  void ws() {
    while (k_ < t_.size() && (t_[k_] == ' ' || t_[k_] == '\n' || t_[k_] == '\t' || t_[k_] == '\r')) ++k_;
  }
  void expect(char c) {
    if (peek() != c) bad(std::string("expected '") + c + "'");
    ++k_;
  }
  std::string string_lit() {
    char q = peek();
    if (q != '\'' && q != '"') bad("expected a quoted key or string");
    size_t start = ++k_;
    while (k_ < t_.size() && t_[k_] != q) ++k_;
    if (k_ >= t_.size()) bad("unterminated string");
    return std::string(t_.substr(start, k_++ - start));
  }
  HeaderValue value() {
    HeaderValue v;
    char c = peek();
    if (c == '\'' || c == '"') {
      v.s = string_lit();
    } else if (t_.substr(k_, 4) == "True") {
      v.kind = HeaderValue::boolean, v.b = true, k_ += 4;
    } else if (t_.substr(k_, 5) == "False") {
      v.kind = HeaderValue::boolean, k_ += 5;
    } else if (c == '(') {
      v.kind = HeaderValue::tuple;
      ++k_;
      for (;;) {
        ws();
        if (peek() == ')') { ++k_; break; }
        if (!std::isdigit(static_cast<unsigned char>(peek()))) bad("a shape holds non-negative integers");
        int64_t n = 0;
        while (std::isdigit(static_cast<unsigned char>(peek()))) {
          if (n > (int64_t{1} << 40)) bad("a dimension is too large");
          n = n * 10 + (t_[k_++] - '0');
        }
        if (peek() == 'L') ++k_;   // Python 2's long literals: (6L, 6L)
        v.ints.push_back(n);
        ws();
        if (peek() == ',') { ++k_; continue; }
        expect(')');
        break;
      }
    } else if (c == '[') {
      v.kind = HeaderValue::list;   // a structured dtype's field list: skip to the matching ']'
      int depth = 0;
      do {
        if (peek() == '[') ++depth;
        if (peek() == ']') --depth;
        if (++k_ > t_.size()) bad("unterminated list");
      } while (depth > 0);
    } else {
      bad("unexpected " + quote(t_.substr(k_, 10)));
    }
    return v;
  }
};

// Column-major elements (the first index varies fastest) in row-major order. np.save writes
// fortran_order True for a transposed array, e.g. `np.save(path, w.T.numpy())`.
std::vector<double> from_fortran_order(const std::vector<double>& f, const core::Shape& shape) {
  std::vector<double> c(f.size());
  std::vector<int64_t> idx(shape.size(), 0);
  for (size_t k = 0; k < c.size(); ++k) {   // k walks row-major order; idx is its index
    int64_t off = 0;
    for (size_t d = shape.size(); d-- > 0;) off = off * shape[d] + idx[d];
    c[k] = f[static_cast<size_t>(off)];
    for (size_t d = shape.size(); d-- > 0;) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return c;
}

Answer parse_npy(std::string_view bytes, const std::string& file, bool allow_nan) {
  Answer a;
  a.file = file;
  a.format = Answer::Format::npy;
  if (bytes.size() < 10)
    fail(file, fmt::format("truncated .npy file: {} bytes, less than the magic, version and header length", bytes.size()));
  int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    fail(file, fmt::format(".npy format version {}.{} is not supported (attn check reads 1.0, 2.0 and 3.0)", major, minor));
  size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8;
    offset = 10;
  } else {
    if (bytes.size() < 12) fail(file, fmt::format("truncated .npy file: {} bytes, less than a version {}.0 preamble", bytes.size(), major));
    for (int k = 3; k >= 0; --k) header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + k]);
    offset = 12;
  }
  if (bytes.size() - offset < header_len)
    fail(file, fmt::format("truncated .npy file: the header should be {} bytes, the file has {} after the preamble", header_len,
                           bytes.size() - offset));
  std::string_view header = bytes.substr(offset, header_len);
  offset += header_len;
  if (major < 3)
    for (unsigned char c : header)
      if (c >= 0x80) fail(file, fmt::format("malformed .npy header: version {}.0 headers are ASCII", major));

  auto dict = HeaderParser(header, file).dict();
  for (const char* key : {"descr", "fortran_order", "shape"})
    if (!dict.count(key)) fail(file, fmt::format("malformed .npy header: no '{}' key", key));
  if (dict.size() != 3) {
    for (const auto& [k, v] : dict)
      if (k != "descr" && k != "fortran_order" && k != "shape") fail(file, "malformed .npy header: unexpected key " + quote(k));
  }
  const HeaderValue& descr = dict["descr"];
  const HeaderValue& fortran = dict["fortran_order"];
  const HeaderValue& shape = dict["shape"];
  if (fortran.kind != HeaderValue::boolean) fail(file, "malformed .npy header: 'fortran_order' must be True or False");
  if (shape.kind != HeaderValue::tuple) fail(file, "malformed .npy header: 'shape' must be a tuple of integers");
  if (descr.kind == HeaderValue::list)
    fail(file, fmt::format("structured dtypes (records) are not supported; attn check reads arrays of {}: {}",
                           kAnswerDtypes, kHowToSave));
  if (descr.kind != HeaderValue::string) fail(file, "malformed .npy header: 'descr' must be a dtype string such as '<f4'");
  a.dtype = descr.s;
  size_t itemsize = 0;
  if (a.dtype == "<f4" || a.dtype == "<i4") itemsize = 4;
  else if (a.dtype == "<f8" || a.dtype == "<i8") itemsize = 8;
  else if (a.dtype == "|b1") itemsize = 1;
  else if (!a.dtype.empty() && a.dtype[0] == '>')
    fail(file, fmt::format("dtype '{}' is big-endian; attn check reads little-endian {} (save a.astype('<{}'))", a.dtype,
                           kAnswerDtypes, a.dtype.substr(1)));
  else
    fail(file, fmt::format("dtype {} is not supported; attn check reads {} (np.save(path, t.detach().numpy()) writes <f4 "
                           "for a float32 tensor; convert with a.astype('<f4'))",
                           quote(a.dtype), kAnswerDtypes));

  a.shape = shape.ints;
  int64_t numel = 1;
  for (int64_t d : a.shape)
    if (__builtin_mul_overflow(numel, d, &numel) || numel > (int64_t{1} << 40)) fail(file, "the shape " + py_shape(a.shape) + " is too large");
  size_t need = static_cast<size_t>(numel) * itemsize, have = bytes.size() - offset;
  if (have < need)
    fail(file, fmt::format("truncated .npy file: shape {} of {} needs {} bytes of data, the file has {}", py_shape(a.shape), a.dtype,
                           need, have));
  if (have > need)
    fail(file, fmt::format("{} bytes after the data its header describes (shape {} of {} is {} bytes); np.save writes none",
                           have - need, py_shape(a.shape), a.dtype, need));

  const char* p = bytes.data() + offset;
  a.data.resize(static_cast<size_t>(numel));
  for (int64_t k = 0; k < numel; ++k, p += itemsize) {
    double v = 0;
    if (a.dtype == "<f4") { float x; std::memcpy(&x, p, 4); v = x; }
    else if (a.dtype == "<f8") { std::memcpy(&v, p, 8); }
    else if (a.dtype == "<i8") { int64_t x; std::memcpy(&x, p, 8); v = static_cast<double>(x); }
    else if (a.dtype == "<i4") { int32_t x; std::memcpy(&x, p, 4); v = x; }
    else v = *p != 0;
    if (std::isnan(v)) {
      std::string msg = fmt::format("{}: element {} is NaN; {}", file, flat_index_str(k, a.shape, fortran.b), kNanAdvice);
      if (!allow_nan) throw UsageError(msg);
      a.nans.push_back({k, 0, msg});
    }
    a.data[static_cast<size_t>(k)] = v;
  }
  if (fortran.b) {
    a.data = from_fortran_order(a.data, a.shape);
    for (Answer::NaN& n : a.nans) {   // file order -> row-major position
      int64_t flat = n.index, c = 0;
      std::vector<int64_t> idx(a.shape.size());
      for (size_t d = 0; d < a.shape.size(); ++d) idx[d] = flat % a.shape[d], flat /= a.shape[d];
      for (size_t d = 0; d < a.shape.size(); ++d) c = c * a.shape[d] + idx[d];
      n.index = c;
    }
    std::sort(a.nans.begin(), a.nans.end(), [](const Answer::NaN& x, const Answer::NaN& y) { return x.index < y.index; });
  }
  return a;
}

// ---- text: rows of numbers ----

std::optional<double> to_number(const std::string& tok) {
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(tok.c_str(), &end);
  if (end != tok.c_str() + tok.size() || tok.empty()) return std::nullopt;
  if (errno == ERANGE && std::isinf(v)) return std::nullopt;   // 1e999: not a float
  return v;
}

// What a line of a printed tensor starts with ("tensor(", "[", ...), or "" for a line of numbers:
// the feedback names the prefix it matched, never more of the line.
std::string_view printed_prefix(std::string_view head) {
  for (std::string_view p : {"tensor(", "array(", "Parameter containing", "["})
    if (head.substr(0, p.size()) == p) return p;
  return {};
}

// "'1.5x' is not a number" for a token made of what numbers are written with; for any other the
// feedback says which item it is and not what it holds: a file that is not an answer (a secret a
// link or a wrong path led to) is never quoted to the student.
std::string not_a_number(const std::string& tok, size_t item) {
  bool numeric = true;
  for (char c : tok) numeric = numeric && (std::isdigit(static_cast<unsigned char>(c)) || (c != 0 && std::strchr("+-.eE_", c)));
  const std::string lower = [&] {
    std::string l;
    for (char c : tok) l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return l;
  }();
  for (const char* word : {"nan", "inf", "-inf", "+inf", "infinity", "-infinity"}) numeric = numeric || lower == word;
  if (numeric && tok.size() <= 40) return fmt::format("{} is not a number", quote(tok));
  return fmt::format("item {} on this line {}", item, "is not a number (numbers are written with digits, '.', 'e', '+' and '-')");
}

bool out_of_range(const std::string& tok) {
  errno = 0;
  char* end = nullptr;
  std::strtod(tok.c_str(), &end);
  return end == tok.c_str() + tok.size() && errno == ERANGE;
}

Answer parse_text(std::string_view bytes, const std::string& file, bool allow_nan) {
  Answer a;
  a.file = file;
  a.format = Answer::Format::text;
  a.dtype = "text";
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);   // a UTF-8 byte-order mark
  size_t cols = 0, rows = 0;
  int first_row_line = 0;
  int line_no = 0;
  size_t pos = 0;
  while (pos < bytes.size()) {
    size_t nl = bytes.find('\n', pos);
    std::string_view line = bytes.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? bytes.size() : nl + 1;
    ++line_no;
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    auto blank = [](std::string_view s) {
      for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) return false;
      return true;
    };
    if (blank(line)) continue;
    std::string_view head = line.substr(line.find_first_not_of(" \t"));
    if (!printed_prefix(head).empty())
      fail_line(file, line_no,
                fmt::format("this line starts with `{}`: it looks like a printed tensor, not a table of numbers: write one "
                            "with np.savetxt(path, t.detach().numpy(), delimiter=',') or use np.save",
                            printed_prefix(head)));
    // Fields are separated by commas; inside a field, numbers by white space.
    std::vector<std::string> tokens;
    size_t start = 0;
    bool has_comma = line.find(',') != std::string_view::npos;
    for (;;) {
      size_t comma = line.find(',', start);
      std::string_view field = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      bool last = comma == std::string_view::npos;
      if (has_comma && blank(field) && last && start > 0) break;   // a trailing comma, as rows copied from a printout end
      if (has_comma && blank(field))
        fail_line(file, line_no, "empty field (two commas in a row, or a comma at the start of the line)");
      size_t k = 0;
      while (k < field.size()) {
        while (k < field.size() && std::isspace(static_cast<unsigned char>(field[k]))) ++k;
        size_t b = k;
        while (k < field.size() && !std::isspace(static_cast<unsigned char>(field[k]))) ++k;
        if (k > b) tokens.emplace_back(field.substr(b, k - b));
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    const size_t row_start = a.data.size();
    for (const std::string& tok : tokens) {
      std::optional<double> v = to_number(tok);
      if (v && std::isnan(*v)) {
        std::string msg = fmt::format("{}:{}: {} is NaN; {}", file, line_no, quote(tok), kNanAdvice);
        if (!allow_nan) throw UsageError(msg);
        a.nans.push_back({static_cast<int64_t>(a.data.size()), line_no, msg});
      }
      if (!v) {
        if (out_of_range(tok)) fail_line(file, line_no, fmt::format("{} is out of the range of a float", quote(tok)));
        fail_line(file, line_no, not_a_number(tok, a.data.size() - row_start + 1));
      }
      a.data.push_back(*v);
    }
    if (rows == 0) {
      cols = tokens.size();
      first_row_line = line_no;
    } else if (tokens.size() != cols) {
      fail_line(file, line_no, fmt::format("{} number{} on this line, {} on line {} (every row needs the same number of columns)",
                                           tokens.size(), tokens.size() == 1 ? "" : "s", cols, first_row_line));
    }
    ++rows;
  }
  if (rows == 0) fail(file, bytes.empty() ? "the file is empty" : "the file has no numbers (only blank lines or # comments)");
  a.shape = {static_cast<int64_t>(rows), static_cast<int64_t>(cols)};
  return a;
}

}  // namespace

Answer parse_answer(std::string_view bytes, const std::string& file, bool allow_nan) {
  if (bytes.empty()) fail(file, "the file is empty");
  if (bytes.size() < kMagic.size() && kMagic.substr(0, bytes.size()) == bytes)
    fail(file, fmt::format("truncated .npy file: {} bytes, not even the whole magic", bytes.size()));
  if (bytes.substr(0, kMagic.size()) == kMagic) return parse_npy(bytes, file, allow_nan);
  if (bytes.substr(0, 4) == std::string_view("PK\x03\x04", 4))
    fail(file, std::string("is a zip archive (np.savez and torch.save write these), not one array; ") + kHowToSave);
  if (bytes.find('\0') != std::string_view::npos || static_cast<unsigned char>(bytes[0]) == 0x93 ||
      static_cast<unsigned char>(bytes[0]) == 0x80)
    fail(file, std::string("is neither a .npy file (no \\x93NUMPY magic) nor text; ") + kHowToSave);
  return parse_text(bytes, file, allow_nan);
}

// Opened once without blocking and checked on that descriptor: a named pipe or a device (given
// as --answer, or swapped in after a check by name) is refused, never read; so is a symbolic
// link (O_NOFOLLOW), which in a student's submission could point at any file the grader can read.
Answer read_answer(const std::string& path, bool allow_nan) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) fail(path, "no such file");
    if (errno == ELOOP) fail(path, "is a symbolic link; attn grades only the answer file itself, not what a link points to");
    if (errno == EISDIR) fail(path, "is a directory, not an answer file");
    fail(path, "cannot be read (permission denied?)");
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(path, "cannot be read");
  if (S_ISDIR(st.st_mode)) fail(path, "is a directory, not an answer file");
  if (!S_ISREG(st.st_mode)) fail(path, "is not a regular file (a named pipe or a device?); give the .npy or text file itself");
  constexpr size_t kMax = size_t{256} << 20;
  if (static_cast<uint64_t>(st.st_size) > kMax) fail(path, "is larger than 256 MB; answers are small tensors");
  std::string bytes;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "cannot be read");
    if (n == 0) break;
    bytes.append(buf, static_cast<size_t>(n));
    if (bytes.size() > kMax) fail(path, "is larger than 256 MB; answers are small tensors");
  }
  return parse_answer(bytes, path, allow_nan);
}

}  // namespace attn::lab
