// print/pyrepr.h: Python's repr() of a float and of a str, as CPython 3.11 writes them.
//
// What it is: the two reprs every printed value is made of, shared by the tensor printer
// (tensor_str.h) and the interpreter (py/), which knows nothing of tensors: so this header names
// none. What it is not: repr() of containers or objects (py/value.h).
#pragma once

#include <cstddef>
#include <string>

namespace attn::print {

// Python's repr(float): shortest round-trip ("0.5", "1.4142135623730951", "1e-05", "50000.0",
// "inf", "-inf", "nan").
std::string py_float_repr(double v);

// Python's repr(str): single quotes unless the text contains ' and no ", escapes as Python does.
std::string py_str_repr(const std::string& s);
// The size in bytes py_str_repr(s) has, without building it (a caller checks a limit first).
std::size_t py_str_repr_size(const std::string& s);

namespace detail {
std::string py_float_repr(double v);
bool py_is_printable(char32_t c);                         // str.isprintable() of one code point
char32_t decode_utf8(const std::string& s, std::size_t& pos);   // one code point at s[pos]; pos moves past it
}  // namespace detail

}  // namespace attn::print
