// py/ints.h: Python's int on interpreter values: unbounded arithmetic with an int64 fast path,
// exact comparison of ints with floats, int <-> str and int <-> float as CPython converts, and
// what happens where an int meets C: an index, a size, a torch scalar, a seed.
//
// What it is: an Int Value holds an int64 (Value::i) or, only when it does not fit, a BigInt
// (bigint.h) in Value::obj; every operation returns the int64 form when the result fits, so the
// lessons' small ints never touch BigInt. bool counts as the int 0 or 1, as in Python.
// What it is not: float arithmetic (eval.cpp), or the limits themselves (limits.h).
#pragma once

#include <cstdint>
#include <string>

#include "py/bigint.h"
#include "py/value.h"

namespace attn::py {

bool is_int(const Value& v);                 // int or bool
BigInt big_of(const Value& v);               // an int or bool as a BigInt
int64_t small_of(const Value& v);            // an int or bool that fits int64 (not is_big())

// a OP b for two ints (or bools): + - * / // % ** << >> & | ^, with Python's errors.
Value int_binop(const std::string& op, const Value& a, const Value& b);
Value int_neg(const Value& v);
Value int_invert(const Value& v);            // ~v
Value int_abs(const Value& v);

// Exact comparison of two numbers (int, bool, float, any mix): -1, 0, 1, or 2 when unordered
// (a NaN). 2**53 + 1 != float(2**53), as in Python.
int compare_numbers(const Value& a, const Value& b);

Value float_power(double x, double y);        // x ** y of floats, with CPython's errors
// float(v) of an int or bool, rounded half to even; OverflowError beyond the float range.
double int_to_double(const Value& v);
// str(v) of an int: ValueError past limits::kMaxIntStrDigits digits, as CPython 3.11.
std::string int_repr(const Value& v);
// int(text): optional spaces and sign, digits with single underscores between them.
// int(text) in base 10; `shown`, when given, is the str named in the ValueError (the text before
// its Unicode digits and spaces were made ASCII).
Value int_from_string(const std::string& text, const Value* shown = nullptr);
// int(x) of a float: truncated; OverflowError for an infinity, ValueError for a NaN.
Value int_from_double(double x);
Value round_int(const Value& v, const Value& ndigits);   // round(int, ndigits): an int, half to even
int64_t int_hash(const Value& v);            // CPython's hash() of an int

// ---- where an int meets C (the messages are CPython's or PyTorch's own) ----
// A sequence index: IndexError "cannot fit 'int' into an index-sized integer" when too large.
int64_t to_index(const Value& v, const char* what);
// A repetition count (list * n, str * n): OverflowError "cannot fit 'int' into an index-sized integer".
int64_t to_count(const Value& v);
// A slice bound: too large ints clamp to the int64 range, as PySlice_Unpack does.
int64_t to_slice_bound(const Value& v);

}  // namespace attn::py
