// py/module_stdlib.cpp: the standard library modules attn writes in its own Python
// (src/py/python/*.py, embedded into the binary by cmake/embed_python.cmake) and the one native
// helpers they need (`_attn_stdlib.make_class`, `write_stderr` for warnings, `refusal` and `exit` for
// os and sys, `cpu_count`); and `time`, a clock in C++.
//
// What it is: each file becomes a built-in module that is parsed and run the first time a session
// imports it (a process that never imports functools pays nothing), its parse shared by every
// session. make_class(name, bases, module) is type(name, bases, {}) for collections.namedtuple:
// a class statement cannot take its name from a string.
// time: time(), time_ns(), perf_counter(), monotonic(), process_time() (and their _ns forms) read
// the clocks CPython reads; sleep(secs) checks its argument as CPython does and returns at once, so
// a lesson can never block a lab (docs/lesson-authors.md: What attn's Python supports).
// What it is not: the modules written in C++ (math, copy: module_math.cpp, module_copy.cpp; the
// rest in modules.cpp), or an import system: no sys.path, no .pyc.
#include <time.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "print/unicode.h"
#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/signature.h"

namespace attn::py {

const std::vector<std::pair<std::string_view, std::string_view>>& python_sources();   // generated: src/py/python/*.py

namespace {

// What a cell writes to stderr (sys.stderr.write, warnings), as CPython's stderr writes it with
// its backslashreplace handler (a lone surrogate is `\ud800`), and with attn's promise for its
// stderr: control characters but newline and tab, and the bidirectional controls, shown escaped
// (`\x1b`, `\u202e`), so a cell cannot move the cursor or repaint the terminal through it.
std::string stderr_text(const std::string& text) {
  std::string out;
  for (char32_t c : print::unicode::decode(text)) {
    const bool control = (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0);
    const bool bidi = (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
    const bool surrogate = c >= 0xd800 && c <= 0xdfff;
    out += control || bidi || surrogate ? char_escape(c) : print::unicode::encode(c);
  }
  return out;
}

Value make_class_fn(Interpreter& in, CallArgs& a) {
  static const Signature sig = Signature::parse("def make_class(name, bases, module)");
  Args b = bind_args(sig, a, "make_class");
  auto cls = std::make_shared<ClassObj>();
  cls->name = b.string("name");
  cls->module = b.string("module");
  for (const Value& base : in.iterate(b.get("bases"))) {
    if (base.kind != Value::Class) throw TypeError("make_class: bases must be classes");
    cls->bases.push_back(std::static_pointer_cast<ClassObj>(base.obj));
  }
  if (cls->bases.empty()) cls->bases.push_back(builtin_class("object"));
  return Value::of_class(cls);
}

double seconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int64_t nanoseconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

Value clock_function(const std::string& name, clockid_t clock, bool ns) {
  return builtin("time." + name, [name, clock, ns](Interpreter&, CallArgs& a) {
    if (!a.pos.empty() || !a.kw.empty())
      throw TypeError(fmt::format("time.{}() takes no arguments ({} given)", name, a.pos.size() + a.kw.size()));
    return ns ? Value::integer(nanoseconds(clock)) : Value::number(seconds(clock));
  });
}

Value time_module() {
  auto ns = std::make_shared<NamespaceObj>();
  for (const auto& [name, clock] : std::vector<std::pair<std::string, clockid_t>>{
           {"time", CLOCK_REALTIME}, {"perf_counter", CLOCK_MONOTONIC}, {"monotonic", CLOCK_MONOTONIC},
           {"process_time", CLOCK_PROCESS_CPUTIME_ID}}) {
    ns->names[name] = clock_function(name, clock, false);
    ns->names[name + "_ns"] = clock_function(name + "_ns", clock, true);
  }
  ns->names["sleep"] = builtin("time.sleep", [](Interpreter&, CallArgs& a) {
    if (a.pos.size() != 1 || !a.kw.empty())
      throw TypeError(fmt::format("time.sleep() takes exactly one argument ({} given)", a.pos.size() + a.kw.size()));
    const Value& secs = a.pos[0];
    if (!secs.is_number()) throw TypeError("'" + type_name(secs) + "' object cannot be interpreted as an integer");
    double s = secs.kind == Value::Float ? secs.f : static_cast<double>(secs.kind == Value::Bool ? secs.b : secs.i);
    if (std::isnan(s)) throw ValueError("Invalid value NaN (not a number)");
    const double ns = s * 1e9;   // CPython keeps a timeout as int64 nanoseconds
    if (secs.is_big() || !(ns >= -9223372036854775808.0 && ns < 9223372036854775808.0))
      throw OverflowError("timestamp too large to convert to C _PyTime_t");
    if (s < 0) throw ValueError("sleep length must be non-negative");
    return Value::none();   // never blocks: a lab's time is the lesson's
  });
  return module_value("time", ns);
}

}  // namespace

void add_random_core(Interpreter& in);   // module_random.cpp: _random
void add_json_core(Interpreter& in);     // module_json.cpp: _json
void add_re_core(Interpreter& in);       // module_re.cpp: _re
void add_dataclasses_module(Interpreter& in);   // module_dataclasses.cpp

// weakref.ref(obj): a reference that does not keep obj alive; calling it gives obj, or None once
// obj is gone (lr_scheduler's wrapper of optimizer.step keeps its optimizer this way, as PyTorch's
// does, so the two do not hold each other). Instances, classes and functions, as CPython allows.
Value weakref_module() {
  auto ns = std::make_shared<NamespaceObj>();
  ns->names["ref"] = builtin("weakref.ref", [](Interpreter&, CallArgs& a) {
    if (a.pos.size() == 2 && !a.pos[1].is_none())
      throw NotImplementedError("attn's weakref.ref takes no callback");
    if (a.pos.empty() || a.pos.size() > 2 || !a.kw.empty())
      throw TypeError(fmt::format("ref() takes 1 or 2 arguments ({} given)", a.pos.size() + a.kw.size()));
    const Value& target = a.pos[0];
    if (target.kind != Value::Instance && target.kind != Value::Class && target.kind != Value::Function)
      throw TypeError("cannot create weak reference to '" + type_name(target) + "' object");
    std::weak_ptr<Obj> weak = target.obj;
    const Value::Kind kind = target.kind;
    return builtin("weakref", [weak, kind](Interpreter&, CallArgs& call) {
      if (!call.pos.empty() || !call.kw.empty()) throw TypeError("weakref expected 0 arguments");
      Value v;
      if (std::shared_ptr<Obj> alive = weak.lock()) {
        v.kind = kind;
        v.obj = std::move(alive);
      }
      return v;
    });
  });
  return module_value("weakref", ns);
}

void add_stdlib_python_modules(Interpreter& in) {
  add_random_core(in);
  add_json_core(in);
  add_re_core(in);
  add_dataclasses_module(in);
  for (const auto& [file, text] : python_sources()) {
    const std::string name(file.substr(0, file.size() - 3));   // functools.py -> functools
    in.add_source_module(name, "<" + name + ".py>", text);
  }
  in.add_module("time", [](Interpreter&) { return time_module(); });
  in.add_module("weakref", [](Interpreter&) { return weakref_module(); });
  in.add_module("_attn_stdlib", [](Interpreter&) {
    auto ns = std::make_shared<NamespaceObj>();
    ns->names["make_class"] = builtin("_attn_stdlib.make_class", make_class_fn);
    // read_only() -> whether a prose placeholder is being evaluated (Interpreter::read_only): bundled
    // code that would change what the lesson holds (defaultdict's insert) refuses then.
    ns->names["read_only"] = builtin("_attn_stdlib.read_only", [](Interpreter& in, CallArgs&) { return Value::boolean(in.read_only); });
    ns->names["product"] = builtin("product", product_fn);   // itertools.product, heapq.merge: native lazy iterators
    ns->names["merge"] = builtin("merge", merge_fn);
    ns->names["write_stderr"] = builtin("_attn_stdlib.write_stderr", [](Interpreter& in, CallArgs& a) {   // warnings' output
      std::ostream& err = in.err ? *in.err : std::cerr;
      err << stderr_text(str(arg(a, 0, "text"))) << std::flush;
      return Value::none();
    });
    // location(level) -> (filename, lineno, module name) of the frame `level` calls above the
    // Python function that calls it (1: that function's caller), or None past the outermost one;
    // getline(filename, lineno): that line's text or "" (warnings' stacklevel and source line).
    ns->names["location"] = builtin("_attn_stdlib.location", [](Interpreter& in, CallArgs& a) {
      const Value level = arg(a, 0, "level");
      if (level.kind != Value::Int) throw TypeError("location() takes an int");
      std::optional<Interpreter::Location> where;
      if (level.i >= 0 && level.i < (int64_t{1} << 30)) where = in.location(static_cast<int>(level.i));
      if (!where) return Value::none();
      return Value::tuple({Value::str(where->file), Value::integer(where->line), Value::str(where->module)});
    });
    ns->names["getline"] = builtin("_attn_stdlib.getline", [](Interpreter& in, CallArgs& a) {
      const Value file = arg(a, 0, "filename"), line = arg(a, 1, "lineno");
      if (file.kind != Value::Str || line.kind != Value::Int || line.i > (int64_t{1} << 30)) return Value::str("");
      return Value::str(in.source_line(file.s, static_cast<int>(line.i)));
    });
    // refusal(name, message[, kind]): a function that raises kind(message) at its caller's line
    // (PermissionError by default: os.makedirs, os.path.exists, ...: lesson code has no file access).
    ns->names["refusal"] = builtin("_attn_stdlib.refusal", [](Interpreter&, CallArgs& a) {
      const std::string name = str(arg(a, 0, "name")), message = str(arg(a, 1, "message"));
      const std::string kind = a.pos.size() > 2 ? str(a.pos[2]) : "PermissionError";
      if (!exception_class(kind)) throw ValueError("_attn_stdlib.refusal: no exception class " + kind);
      return builtin(name, [message, kind](Interpreter&, CallArgs&) -> Value { throw error(kind, message); });
    });
    ns->names["exit"] = builtin("sys.exit", [](Interpreter&, CallArgs& a) -> Value {   // at the caller's line
      if (a.pos.size() > 1 || !a.kw.empty()) throw TypeError(fmt::format("exit expected at most 1 argument, got {}", a.pos.size()));
      throw PyError(new_exception("SystemExit", a.pos));
    });
    // pickle's helpers: the lesson's module (__main__, what a pickled class or function is found
    // in), any module by name, and a float as the 8 bytes of struct.pack('>d', x) and back.
    ns->names["main_module"] = builtin("_attn_stdlib.main_module", [](Interpreter& in, CallArgs&) { return module_value("__main__", in.main_module()); });
    // (the module a pickle names: lesson data, so never one of attn's internal modules)
    ns->names["import_module"] = builtin("_attn_stdlib.import_module", [](Interpreter& in, CallArgs& a) { return in.import_for_lesson(str(arg(a, 0, "name"))); });
    ns->names["float_pack"] = builtin("_attn_stdlib.float_pack", [](Interpreter&, CallArgs& a) {
      const double x = to_double(arg(a, 0, "x"), "x");
      uint64_t bits;
      std::memcpy(&bits, &x, 8);
      std::string out;
      for (int k = 7; k >= 0; --k) out += static_cast<char>((bits >> (8 * k)) & 0xFF);
      return make_bytes(out);
    });
    ns->names["float_unpack"] = builtin("_attn_stdlib.float_unpack", [](Interpreter&, CallArgs& a) {
      const std::string* d = bytes_data(arg(a, 0, "data"));
      if (!d || d->size() != 8) throw ValueError("unpack requires a buffer of 8 bytes");
      uint64_t bits = 0;
      for (char c : *d) bits = (bits << 8) | static_cast<unsigned char>(c);
      double x;
      std::memcpy(&x, &bits, 8);
      return Value::number(x);
    });
    ns->names["cpu_count"] = builtin("os.cpu_count", [](Interpreter&, CallArgs& a) {
      if (!a.pos.empty() || !a.kw.empty()) throw TypeError("cpu_count() takes no arguments");
      const unsigned n = std::thread::hardware_concurrency();
      return n ? Value::integer(n) : Value::none();
    });
    return module_value("_attn_stdlib", ns);
  });
}

}  // namespace attn::py
