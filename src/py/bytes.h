// py/bytes.h: bytes and bytearray values (bytes.cpp), their methods (bytes_methods.cpp) and the
// codecs between them and str (codecs.cpp: utf-8, ascii, latin-1).
// What it is not: memoryview, the buffer protocol, or codecs beyond those three.
#pragma once

#include <string>

#include "py/value.h"

namespace attn::py {

class Interpreter;

struct BytesObj : InstanceObj {   // the payload of a bytes or a bytearray: raw bytes
  std::string data;
};

const ClassPtr& bytes_class();
const ClassPtr& bytearray_class();
Value make_bytes(std::string data, bool mut = false);   // a bytes (a bytearray when mut)
const std::string* bytes_data(const Value& v);          // a bytes' or bytearray's bytes; null for other values
std::string* bytearray_data(const Value& v);            // a bytearray's bytes (mutable); null otherwise
bool is_bytearray(const Value& v);
// An int in range(0, 256) as a byte: TypeError for a non-int, ValueError (CPython's text for
// bytes, or for bytearray when mut) when out of range.
int byte_value(const Value& v, bool mut);
std::string bytes_literal(const std::string& data, bool escape_single = false);   // b'..' as CPython's repr writes it
std::string bytes_repr(const Value& v);                 // b'..' or bytearray(b'..')
void add_bytes_methods(ClassObj& cls, bool mut);        // bytes_methods.cpp
// bytes.fromhex / bytearray.fromhex, looked up on the class (classes.cpp); nullopt: not one.
std::optional<Value> bytes_class_attribute(const ClassObj& cls, const std::string& name);

// codecs.cpp. Encoding names as CPython normalises them (utf-8/utf8/UTF_8, ascii, latin-1/
// latin1/iso-8859-1); errors 'strict', 'replace', 'ignore' (and 'backslashreplace' when
// encoding). LookupError for another encoding, UnicodeEncodeError/UnicodeDecodeError with
// CPython's messages.
std::string encode_text(const std::string& text, const Value& encoding, const Value& errors);
// One code point as a backslash escape, as backslashreplace and ascii() write it: \xe9, \u20ac, \U0001f600.
std::string char_escape(char32_t c);
std::string decode_bytes(const std::string& data, const Value& encoding, const Value& errors);
Value str_encode(const std::string& self, CallArgs& a);  // str.encode(encoding='utf-8', errors='strict')
Value int_to_bytes(const Value& self, CallArgs& a);     // int.to_bytes(length=1, byteorder='big', *, signed=False)
Value int_from_bytes(Interpreter& in, CallArgs& a);     // int.from_bytes(bytes, byteorder='big', *, signed=False)

}  // namespace attn::py
