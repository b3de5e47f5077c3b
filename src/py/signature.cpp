// py/signature.cpp: Python-style signatures, Args, and binding a call with CPython 3.11's
// messages (see signature.h).
#include "py/signature.h"

#include <fmt/format.h>

#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::py {

void bad_signature(std::string_view text, const std::string& why) {
  throw SignatureError(fmt::format("signature '{}': {}", text, why));
}

std::vector<std::string> split_params(std::string_view s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    depth += (c == '[' || c == '(') - (c == ']' || c == ')');
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (!(c == ' ' && cur.empty())) cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

Value parse_default(std::string_view text, const std::string& d, bool as_float) {
  if (d == "None") return Value::none();
  if (d == "True" || d == "False") return Value::boolean(d == "True");
  if (d == "[]") return Value::tuple({});
  if (d.size() >= 2 && (d.front() == '\'' || d.front() == '"')) return Value::str(d.substr(1, d.size() - 2));
  char* end = nullptr;
  if (d.find_first_of(".eE") == std::string::npos) {
    long long i = std::strtoll(d.c_str(), &end, 10);
    if (end && *end == '\0' && !d.empty()) return as_float ? Value::number(static_cast<double>(i)) : Value::integer(i);
  }
  double f = std::strtod(d.c_str(), &end);
  if (!end || *end != '\0' || d.empty()) bad_signature(text, "cannot read the default '" + d + "'");
  return Value::number(f);
}

namespace {

Param parse_python_param(std::string_view text, std::string p) {
  Param out;
  if (p.rfind("*", 0) == 0) {
    out.star_args = true;
    p = p.substr(1);
  }
  auto eq = p.find('=');
  if (eq != std::string::npos) {
    out.has_default = true;
    out.default_value = parse_default(text, p.substr(eq + 1), false);
    p = p.substr(0, eq);
  }
  if (p.empty() || p.find(' ') != std::string::npos) bad_signature(text, "bad Python parameter '" + p + "'");
  out.name = p;
  return out;
}

}  // namespace

void Signature::count() {
  min_args = max_pos_args = 0;
  for (const Param& p : params) {
    if (p.required()) ++min_args;
    if (!p.keyword_only && !p.star_args) ++max_pos_args;
  }
}

Signature Signature::parse(std::string_view text) {
  Signature s;
  std::string_view body = text;
  if (body.rfind("def ", 0) != 0) bad_signature(text, "a Python signature starts with 'def '");
  body.remove_prefix(4);
  auto open = body.find('(');
  if (open == std::string_view::npos || body.back() != ')') bad_signature(text, "expected name(parameters)");
  s.name = std::string(body.substr(0, open));
  bool kw_only = false, pos_only_seen = false;
  for (std::string& p : split_params(body.substr(open + 1, body.size() - open - 2))) {
    if (p == "*") {
      kw_only = true;
      continue;
    }
    if (p == "/") {
      if (pos_only_seen) bad_signature(text, "'/' appears twice");
      for (Param& q : s.params) q.positional_only = true;
      pos_only_seen = true;
      continue;
    }
    Param q = parse_python_param(text, p);
    q.keyword_only = kw_only && !q.star_args;
    if (q.star_args) kw_only = true;
    if (s.index_of(q.name) >= 0) bad_signature(text, "parameter '" + q.name + "' appears twice");
    s.params.push_back(std::move(q));
  }
  s.count();
  return s;
}

int Signature::index_of(std::string_view param) const {
  for (size_t k = 0; k < params.size(); ++k)
    if (params[k].name == param) return static_cast<int>(k);
  return -1;
}

// ---- Args ----

Args::Args(const Signature& sig, size_t overload, std::string qualname)
    : sig_(&sig), overload_(overload), qualname_(std::move(qualname)), values_(sig.params.size()),
      given_(sig.params.size(), false), read_(sig.params.size(), false) {
  for (size_t k = 0; k < sig.params.size(); ++k) values_[k] = sig.params[k].default_value;
}

void Args::set(size_t k, Value v, bool given) {
  values_[k] = std::move(v);
  given_[k] = given && !values_[k].is_none();
}

size_t Args::at(std::string_view name) const {
  int k = sig_->index_of(name);
  if (k < 0) throw std::logic_error(fmt::format("{}: the implementation reads '{}', which its signature lacks", qualname_, name));
  return static_cast<size_t>(k);
}

bool Args::given(std::string_view name) const { return given_[at(name)]; }

const Value& Args::get(std::string_view name) {
  size_t k = at(name);
  read_[k] = true;
  return values_[k];
}

int64_t Args::integer(std::string_view name) { return to_int(get(name), std::string(name).c_str()); }

std::optional<int64_t> Args::opt_integer(std::string_view name) {
  const Value& v = get(name);
  if (v.is_none()) return std::nullopt;
  return to_int(v, std::string(name).c_str());
}

double Args::number(std::string_view name) { return to_double(get(name), std::string(name).c_str()); }

bool Args::flag(std::string_view name) { return truthy(get(name)); }

std::vector<int64_t> Args::ints(std::string_view name) {
  const Value& v = get(name);
  std::vector<int64_t> out;
  if (v.kind == Value::Tuple || v.kind == Value::List) {
    for (const Value& d : std::vector<Value>(as_seq(v))) out.push_back(to_int(d, std::string(name).c_str()));   // a copy: __index__ may change the list
  } else if (!v.is_none()) {
    out.push_back(to_int(v, std::string(name).c_str()));
  }
  return out;
}

std::string Args::string(std::string_view name) { return str(get(name)); }

namespace {

bool simple(const Value& v) {
  switch (v.kind) {
    case Value::None: case Value::Bool: case Value::Int: case Value::Float: case Value::Str: return true;
    case Value::Tuple: case Value::List:
      for (const Value& x : as_seq(v))
        if (!simple(x)) return false;
      return as_seq(v).size() <= 8;
    case Value::Instance: return type_of(v)->tag() && !type_of(v)->slots.len;   // a small native value: torch.float32
    default: return false;
  }
}

}  // namespace

std::string shown(const Value& v) { return simple(v) ? repr(v) : type_name(v); }

void Args::unsupported(std::string_view name, std::string_view why) {
  size_t k = at(name);
  read_[k] = true;
  throw NotImplementedError(fmt::format("{}(): attn does not implement {}={}{}{}", qualname_, name,
                                       shown(values_[k]), why.empty() ? "" : ": ", why));
}

void Args::check_all_read() const {
  for (size_t k = 0; k < values_.size(); ++k)
    if (given_[k] && !read_[k])
      throw NotImplementedError(fmt::format("{}(): attn does not implement {}={}", qualname_,
                                           sig_->params[k].name, shown(values_[k])));
}

// ---- binding: CPython 3.11's messages ----

std::string quoted_names(const std::vector<std::string>& names) {
  std::string out;
  for (size_t k = 0; k < names.size(); ++k) {
    if (k) out += names.size() == 2 ? " and " : (k + 1 == names.size() ? ", and " : ", ");
    out += "'" + names[k] + "'";
  }
  return out;
}

void bind_python(const Signature& s, const CallArgs& c, Args& out) {
  const size_t nargs = c.pos.size();
  std::vector<bool> bound(s.params.size(), false);
  size_t npos = 0, defaults = 0;
  int star = -1;
  for (size_t k = 0; k < s.params.size(); ++k) {
    if (s.params[k].star_args) star = static_cast<int>(k);
    else if (!s.params[k].keyword_only) {
      ++npos;
      defaults += s.params[k].has_default;
    }
  }
  for (size_t k = 0; k < std::min(nargs, npos); ++k) {
    out.set(k, c.pos[k], true);
    bound[k] = true;
  }
  if (star >= 0) {
    std::vector<Value> rest(c.pos.begin() + static_cast<std::ptrdiff_t>(std::min(nargs, npos)), c.pos.end());
    out.set(static_cast<size_t>(star), Value::tuple(rest), !rest.empty());
    bound[static_cast<size_t>(star)] = true;
  }
  std::vector<std::string> posonly_as_kw;
  for (auto& [name, v] : c.kw) {
    int k = s.index_of(name);
    if (k >= 0 && s.params[static_cast<size_t>(k)].positional_only) {
      posonly_as_kw.push_back(name);
      continue;
    }
    if (k < 0 || s.params[static_cast<size_t>(k)].star_args)
      throw TypeError(fmt::format("{}() got an unexpected keyword argument '{}'", s.name, name));
    if (bound[static_cast<size_t>(k)]) throw TypeError(fmt::format("{}() got multiple values for argument '{}'", s.name, name));
    out.set(static_cast<size_t>(k), v, true);
    bound[static_cast<size_t>(k)] = true;
  }
  if (!posonly_as_kw.empty())
    throw TypeError(fmt::format("{}() got some positional-only arguments passed as keyword arguments: {}", s.name, quoted_names(posonly_as_kw)));
  if (nargs > npos && star < 0) {
    size_t kwonly_given = 0;
    for (size_t k = 0; k < s.params.size(); ++k) kwonly_given += s.params[k].keyword_only && bound[k];
    std::string takes = defaults ? fmt::format("from {} to {}", npos - defaults, npos) : std::to_string(npos);
    bool plural = defaults || npos != 1;
    std::string kwonly = kwonly_given ? fmt::format(" positional argument{} (and {} keyword-only argument{})", nargs != 1 ? "s" : "",
                                                    kwonly_given, kwonly_given != 1 ? "s" : "")
                                      : "";
    throw TypeError(fmt::format("{}() takes {} positional argument{} but {}{} {} given", s.name, takes, plural ? "s" : "", nargs, kwonly,
                                nargs == 1 && !kwonly_given ? "was" : "were"));
  }
  for (bool kw_only : {false, true}) {
    std::vector<std::string> missing;
    for (size_t k = 0; k < s.params.size(); ++k)
      if (!bound[k] && s.params[k].required() && s.params[k].keyword_only == kw_only) missing.push_back(s.params[k].name);
    if (!missing.empty())
      throw TypeError(fmt::format("{}() missing {} required {} argument{}: {}", s.name, missing.size(), kw_only ? "keyword-only" : "positional",
                                  missing.size() == 1 ? "" : "s", quoted_names(missing)));
  }
}

Args bind_args(const Signature& sig, const CallArgs& call, const std::string& qualname) {
  Args out(sig, 0, qualname);   // points to `sig`, which outlives the call
  bind_python(sig, call, out);
  return out;
}

}  // namespace attn::py
