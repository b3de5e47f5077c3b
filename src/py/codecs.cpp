// py/codecs.cpp: str.encode and bytes.decode for utf-8, ascii and latin-1, and int.to_bytes /
// int.from_bytes, with CPython 3.11's error messages (UnicodeDecodeError ranges as its UTF-8
// decoder reports them: an invalid start byte, an invalid continuation byte, an unexpected end).
// What it is not: other codecs (LookupError: unknown encoding), incremental decoding, or the
// error handlers beyond strict, replace, ignore, backslashreplace (and xmlcharrefreplace when
// encoding).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "print/unicode.h"
#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"

namespace attn::py {

namespace uc = print::unicode;

namespace {

enum class Codec { utf8, ascii, latin1 };

std::string text_arg(const Value& v, const char* what, const char* fn) {
  if (v.kind != Value::Str) throw TypeError(fmt::format("{}() argument '{}' must be str, not {}", fn, what, type_name(v)));
  return v.s;
}

Codec codec_of(const Value& encoding, const char* fn) {
  const std::string name = text_arg(encoding, "encoding", fn);
  std::string n;
  for (char c : name) n += (c == '-' || c == ' ') ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "utf_8" || n == "utf8" || n == "u8" || n == "utf" || n == "cp65001") return Codec::utf8;
  if (n == "ascii" || n == "us_ascii" || n == "646") return Codec::ascii;
  if (n == "latin_1" || n == "latin1" || n == "iso_8859_1" || n == "iso8859_1" || n == "l1" || n == "latin" || n == "8859" ||
      n == "cp819" || n == "iso_ir_100")
    return Codec::latin1;
  throw LookupError("unknown encoding: " + name);
}

const char* codec_name(Codec c) { return c == Codec::utf8 ? "utf-8" : c == Codec::ascii ? "ascii" : "latin-1"; }


[[noreturn]] void unknown_handler(const std::string& errors) { throw LookupError("unknown error handler name '" + errors + "'"); }

// The code points in [k, end) a strict encoder reports at once: the run of unencodable ones.
// (UTF-8: the run of lone surrogates, "surrogates not allowed".)
bool is_surrogate(char32_t c) { return c >= 0xD800 && c <= 0xDFFF; }

[[noreturn]] void encode_error(Codec c, const std::u32string& cps, size_t k, char32_t limit) {
  auto bad = [&](char32_t x) { return c == Codec::utf8 ? is_surrogate(x) : x >= limit; };
  size_t end = k + 1;
  while (end < cps.size() && bad(cps[end])) ++end;
  const std::string reason = c == Codec::utf8 ? "surrogates not allowed" : fmt::format("ordinal not in range({})", static_cast<uint32_t>(limit));
  if (end - k == 1)
    throw error("UnicodeEncodeError", fmt::format("'{}' codec can't encode character '{}' in position {}: {}", codec_name(c), char_escape(cps[k]), k, reason));
  throw error("UnicodeEncodeError", fmt::format("'{}' codec can't encode characters in position {}-{}: {}", codec_name(c), k, end - 1, reason));
}

// The length of the UTF-8 sequence at d[i] CPython accepts, or an error: {valid length 0,
// error end, reason}. Its error ranges are CPython's (the lead byte and the continuation bytes
// that were valid before the bad one).
struct Utf8Step {
  size_t length = 0;   // > 0: a whole code point
  size_t error_end = 0;
  const char* reason = nullptr;
};

Utf8Step utf8_step(const std::string& d, size_t i) {
  const auto c = static_cast<unsigned char>(d[i]);
  if (c < 0x80) return {1, 0, nullptr};
  if (c < 0xC2 || c > 0xF4) return {0, i + 1, "invalid start byte"};
  const size_t n = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  const unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
  const unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
  for (size_t k = 1; k < n; ++k) {
    if (i + k >= d.size()) return {0, d.size(), "unexpected end of data"};
    const auto b = static_cast<unsigned char>(d[i + k]);
    const bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return {0, i + k, "invalid continuation byte"};
  }
  return {n, 0, nullptr};
}

[[noreturn]] void decode_error(Codec c, const std::string& d, size_t start, size_t end, const char* reason) {
  if (end - start == 1)
    throw error("UnicodeDecodeError", fmt::format("'{}' codec can't decode byte 0x{:02x} in position {}: {}", codec_name(c),
                                                  static_cast<unsigned char>(d[start]), start, reason));
  throw error("UnicodeDecodeError", fmt::format("'{}' codec can't decode bytes in position {}-{}: {}", codec_name(c), start, end - 1, reason));
}

// What an error handler puts for the bad bytes d[start, end).
void decode_replacement(std::string& out, const std::string& errors, Codec c, const std::string& d, size_t start, size_t end,
                        const char* reason) {
  if (errors == "strict") decode_error(c, d, start, end, reason);
  if (errors == "replace") out += "\xEF\xBF\xBD";
  else if (errors == "backslashreplace")
    for (size_t k = start; k < end; ++k) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(d[k]));
  else if (errors != "ignore") unknown_handler(errors);
}

}  // namespace

std::string char_escape(char32_t c) {
  return c <= 0xff ? fmt::format("\\x{:02x}", static_cast<uint32_t>(c)) : c <= 0xffff ? fmt::format("\\u{:04x}", static_cast<uint32_t>(c))
                                                                                        : fmt::format("\\U{:08x}", static_cast<uint32_t>(c));
}

std::string encode_text(const std::string& text, const Value& encoding, const Value& errors_v) {
  const Codec c = codec_of(encoding, "encode");
  const std::string errors = text_arg(errors_v, "errors", "encode");
  // attn's str is UTF-8 already; a lone surrogate (kept as its three bytes ED A0..BF xx) is not.
  if (c == Codec::utf8 && (errors == "surrogatepass" || text.find("\xED") == std::string::npos)) return text;
  const char32_t limit = c == Codec::ascii ? 0x80 : c == Codec::utf8 ? 0x110000 : 0x100;
  const std::u32string cps = uc::decode(text);
  std::string out;
  for (size_t k = 0; k < cps.size(); ++k) {
    if (c == Codec::utf8 && !is_surrogate(cps[k])) { out += uc::encode(cps[k]); continue; }
    if (cps[k] < limit && c != Codec::utf8) { out += static_cast<char>(cps[k]); continue; }
    if (errors == "strict") encode_error(c, cps, k, limit);
    if (errors == "replace") out += '?';
    else if (errors == "backslashreplace") out += char_escape(cps[k]);
    else if (errors == "xmlcharrefreplace") out += fmt::format("&#{};", static_cast<uint32_t>(cps[k]));
    else if (errors != "ignore") unknown_handler(errors);
  }
  return out;
}

std::string decode_bytes(const std::string& d, const Value& encoding, const Value& errors_v) {
  const Codec c = codec_of(encoding, "decode");
  const std::string errors = text_arg(errors_v, "errors", "decode");
  std::string out;
  for (size_t i = 0; i < d.size();) {
    const auto b = static_cast<unsigned char>(d[i]);
    if (b < 0x80) { out += d[i++]; continue; }
    if (c == Codec::latin1) { out += uc::encode(b); ++i; continue; }
    if (c == Codec::ascii) {
      decode_replacement(out, errors, c, d, i, i + 1, "ordinal not in range(128)");
      ++i;
      continue;
    }
    const Utf8Step s = utf8_step(d, i);
    if (s.length) { out.append(d, i, s.length); i += s.length; continue; }
    decode_replacement(out, errors, c, d, i, s.error_end, s.reason);
    i = s.error_end;
  }
  return out;
}

Value str_encode(const std::string& self, CallArgs& a) {
  if (a.pos.size() > 2) throw TypeError(fmt::format("encode() takes at most 2 arguments ({} given)", a.pos.size()));
  const Value encoding = arg_or(a, 0, "encoding", Value::str("utf-8"));
  const Value errors = arg_or(a, 1, "errors", Value::str("strict"));
  return make_bytes(encode_text(self, encoding, errors));
}

namespace {

bool little_endian(CallArgs& a, size_t k) {
  const Value order = arg_or(a, k, "byteorder", Value::str("big"));
  if (order.kind != Value::Str) throw TypeError("to_bytes() argument 'byteorder' must be str, not " + type_name(order));
  if (order.s != "big" && order.s != "little") throw ValueError("byteorder must be either 'little' or 'big'");
  return order.s == "little";
}

bool signed_arg(CallArgs& a) {
  for (auto& [n, v] : a.kw)
    if (n == "signed") return truthy(v);
  return false;
}

}  // namespace

Value int_to_bytes(const Value& self, CallArgs& a) {
  const int64_t length = to_index(arg_or(a, 0, "length", Value::integer(1)), "length");
  if (length < 0) throw ValueError("length argument must be non-negative");
  const bool little = little_endian(a, 1), is_signed = signed_arg(a);
  BigInt v = big_of(self);
  if (v.negative() && !is_signed) throw OverflowError("can't convert negative int to unsigned");
  const uint64_t bits = static_cast<uint64_t>(std::min<int64_t>(length, 1 << 20)) * 8;
  const bool fits = is_signed ? (v.negative() ? (v + BigInt(1)).bit_length() : v.bit_length()) < bits : v.bit_length() <= bits;
  if (!fits || (length == 0 && !v.is_zero())) throw OverflowError("int too big to convert");
  check_bytes("a bytes", length);
  if (v.negative()) v = v + BigInt(1).shifted_left(bits);
  std::string hex = v.magnitude_in_base(16);
  if (hex == "0") hex.clear();
  if (hex.size() % 2) hex.insert(hex.begin(), '0');
  std::string out(static_cast<size_t>(length) - hex.size() / 2, '\0');
  for (size_t k = 0; k < hex.size(); k += 2) out += static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
  if (little) std::reverse(out.begin(), out.end());
  return make_bytes(std::move(out));
}

Value int_from_bytes(Interpreter& in, CallArgs& a) {
  const Value source = arg(a, 0, "bytes");
  std::string d;
  if (const std::string* b = bytes_data(source)) d = *b;
  else if (source.kind == Value::Str || !in.iterable(source)) throw TypeError(fmt::format("cannot convert '{}' object to bytes", type_name(source)));
  else for (const Value& item : in.iterate(source)) d += static_cast<char>(byte_value(item, false));
  const bool little = little_endian(a, 1), is_signed = signed_arg(a);
  if (little) std::reverse(d.begin(), d.end());
  check_int_bits(static_cast<uint64_t>(d.size()) * 8, "int.from_bytes");
  BigInt v;
  for (char c : d) v = bit_or(v.shifted_left(8), BigInt(static_cast<unsigned char>(c)));
  if (is_signed && !d.empty() && (static_cast<unsigned char>(d[0]) & 0x80)) v = v - BigInt(1).shifted_left(d.size() * 8);
  return Value::integer(v);
}

}  // namespace attn::py
