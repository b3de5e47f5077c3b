// py/signature.h: a native function's Python signature (`def sorted(iterable, /, *, key=None,
// reverse=False)`), and the binder that matches a call's arguments to it with CPython 3.11's
// errors ("f() missing 1 required positional argument: 'a'").
//
// What it is: Signature::parse("def f(a, b=1, *args, c, **no)") once, at start-up; bind_args()
// per call; Args reads the bound values by parameter name and refuses, afterwards, an argument
// the implementation never read (NotImplementedError), so a native function cannot ignore an
// argument silently. A library may parse its own notation into the same Signature (Param::type
// and type_text are the library's: src/torch reads PyTorch's own notation).
// What it is not: the binding of `def` functions written in Python (calls.cpp).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "py/value.h"

namespace attn::py {

// A signature text that cannot be parsed, or a table that registers a name twice: a bug in attn,
// found when the table is built (at start-up, and by the tests).
struct SignatureError : std::logic_error {
  using std::logic_error::logic_error;
};

struct Param {
  std::string name;
  int type = 0;                 // 0: any value (Python style); other values are a library's own types
  std::string type_text;        // the type's name in messages ("tuple of ints"), the library's
  int list_size = 0;            // a library's `int[1]`: a single int stands for a list of that size
  bool nullable = false;        // a library's `?`: None is accepted and means "not given"
  bool has_default = false;     // `=...`: may be left out
  Value default_value;          // None unless the signature gives another
  bool keyword_only = false;    // after `*`
  bool positional_only = false; // before `/`
  bool star_args = false;       // `*args`: takes the remaining positional arguments
  bool required() const { return !has_default && !star_args; }
};

struct Signature {
  enum class Style { python, library };
  Style style = Style::python;
  std::string name;             // "sorted", "Linear.__init__"
  std::vector<Param> params;
  size_t min_args = 0;          // parameters without a default
  size_t max_pos_args = 0;      // parameters before `*`
  bool varargs_intlist = false; // the library's: one positional int list takes all positionals (rand(2, 3))
  bool noargs_method = false;   // the library's: a method without parameters (CPython's METH_NOARGS errors)

  // "def name(params)": Python parameters, `=default` (None, True, False, numbers, 'strings', []),
  // `*`, `/`, `*args`. SignatureError naming the text when it is not one.
  static Signature parse(std::string_view text);
  int index_of(std::string_view param) const;   // -1 when absent
  void count();                                 // min_args, max_pos_args from params
};

// A call bound to a signature. Accessors read by parameter name and return the default for an
// argument the call left out; check_all_read() then refuses what the call gave and nothing read.
class Args {
 public:
  Args(const Signature& sig, size_t overload, std::string qualname);

  size_t overload() const { return overload_; }          // index among a function's signatures
  const std::string& qualname() const { return qualname_; }   // "sorted", "torch.sum"
  bool given(std::string_view name) const;                // passed, and not None
  const Value& get(std::string_view name);                // the value, or the default

  int64_t integer(std::string_view name);
  std::optional<int64_t> opt_integer(std::string_view name);   // None -> nullopt
  double number(std::string_view name);
  bool flag(std::string_view name);
  std::vector<int64_t> ints(std::string_view name);      // int list (a single int is [int])
  std::string string(std::string_view name);

  // Raise NotImplementedError for an argument attn does not implement, naming it and its value.
  [[noreturn]] void unsupported(std::string_view name, std::string_view why = "");
  // After the implementation ran: an argument it never read raises NotImplementedError.
  void check_all_read() const;

  // Used by binders.
  void set(size_t k, Value v, bool given);
  void mark_read(size_t k) { read_[k] = true; }
  bool given_at(size_t k) const { return given_[k]; }
  const Value& value_at(size_t k) const { return values_[k]; }
  const Signature& signature() const { return *sig_; }

 protected:
  size_t at(std::string_view name) const;

 private:
  const Signature* sig_;
  size_t overload_;
  std::string qualname_;
  std::vector<Value> values_;
  std::vector<bool> given_;
  std::vector<bool> read_;
};

// Bind a call to a Python-style signature, or raise CPython's TypeError.
Args bind_args(const Signature& sig, const CallArgs& call, const std::string& qualname);
void bind_python(const Signature& sig, const CallArgs& call, Args& out);

// How an argument is named in a NotImplementedError: its repr when short, else its type.
std::string shown(const Value& v);
std::string quoted_names(const std::vector<std::string>& names);   // 'a', 'a' and 'b', 'a', 'b', and 'c'
// A default written in a signature: None, True, False, [], 'text', an int or a float.
Value parse_default(std::string_view text, const std::string& d, bool as_float);
std::vector<std::string> split_params(std::string_view s);           // at top-level ", "
[[noreturn]] void bad_signature(std::string_view text, const std::string& why);

}  // namespace attn::py
