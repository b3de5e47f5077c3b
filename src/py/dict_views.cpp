// py/dict_views.cpp: d.keys(), d.values() and d.items(), CPython's dict views.
//
// What it is: live views of a dict (they see later changes), printed dict_keys([...]) (odict_keys
// for an OrderedDict), with len, `in`, iteration, reversed(), ==, and for keys and items the set
// operators & | - ^ (a set, as CPython's dictviews_* build it: set(left) op right) and
// isdisjoint. What it is not: the `mapping` attribute, or views of a dict subclass written in
// Python (attn has none).
#include <fmt/format.h>

#include <map>

#include "py/exceptions.h"
#include "py/interpreter.h"

namespace attn::py {

namespace {

int view_tag;
enum class View { keys, values, items };

struct DictViewObj : InstanceObj {
  Value dict;
  View kind = View::keys;
  void gc_traverse(GcVisitor& visit) override {   // d['k'] = d.keys() is a cycle
    InstanceObj::gc_traverse(visit);
    visit(dict);
  }
};

DictViewObj& view_of(const Value& v) { return *native_cast<DictViewObj>(v, &view_tag); }
DictObj& dict_of(const DictViewObj& v) { return *static_cast<DictObj*>(v.dict.obj.get()); }

std::vector<Value> view_items(const DictViewObj& v) {
  std::vector<Value> out;
  out.reserve(dict_of(v).items.size());
  for (const auto& kv : dict_of(v).items)
    out.push_back(v.kind == View::keys ? kv.first : v.kind == View::values ? kv.second : Value::tuple({kv.first, kv.second}));
  return out;
}

bool view_contains(Interpreter& in, const DictViewObj& v, const Value& item) {
  if (v.kind == View::keys) return dict_of(v).find(item) != nullptr;
  if (v.kind == View::items) {
    if (item.kind != Value::Tuple || as_seq(item).size() != 2) return false;
    const Value* at = dict_of(v).find(as_seq(item)[0]);
    if (!at) return false;
    const Value found = *at, want = as_seq(item)[1];   // copies: == may run Python that changes the dict
    return (found.obj && found.obj == want.obj) || in.truth(in.compare("==", found, want));
  }
  const auto& items = dict_of(v).items;
  for (size_t k = 0; k < items.size(); ++k) {   // by position, the size re-read: == may change the dict
    const Value value = items[k].second;
    if (in.truth(in.compare("==", value, item))) return true;
  }
  return false;
}

Value as_set(Interpreter& in, const Value& v) {
  if (v.kind == Value::Set) return v;
  return Value::set(in.iterate(v));
}

// keys/items op other (or other op keys/items): set(left), then the set operator with right.
std::optional<Value> view_binary(Interpreter& in, const std::string& op, const Value& self, const Value& other, bool reflected) {
  if (view_of(self).kind == View::values || (op != "&" && op != "|" && op != "-" && op != "^")) return std::nullopt;
  if (!in.iterable(other)) return std::nullopt;
  const Value left = as_set(in, reflected ? other : self), right = as_set(in, reflected ? self : other);
  return set_operator(op, *static_cast<SetObj*>(left.obj.get()), *static_cast<SetObj*>(right.obj.get()));
}

// keys/items == a set or a keys/items view: the same size and each item in the other.
std::optional<Value> view_compare(Interpreter& in, const std::string& op, const Value& self, const Value& other) {
  const DictViewObj& v = view_of(self);
  const DictViewObj* o = native_cast<DictViewObj>(other, &view_tag);
  const bool set_like = other.kind == Value::Set || (o && o->kind != View::values);
  if ((op != "==" && op != "!=") || v.kind == View::values || !set_like) return std::nullopt;
  const std::vector<Value> theirs = in.iterate(other);
  bool same = theirs.size() == dict_of(v).items.size();
  for (size_t k = 0; same && k < theirs.size(); ++k) same = view_contains(in, v, theirs[k]);
  return Value::boolean(op == "==" ? same : !same);
}

std::string view_repr(Interpreter& in, const Value& self) {
  const DictViewObj& v = view_of(self);
  std::string out;
  for (const Value& item : view_items(v)) out += (out.empty() ? "" : ", ") + in.repr_of(item);
  return out;
}

ClassPtr make_view_class(const std::string& name, View kind) {
  ClassPtr c = make_native_class(name, "builtins");
  c->native_tag = &view_tag;
  c->slots.len = [](Interpreter&, const Value& self) { return static_cast<int64_t>(dict_of(view_of(self)).items.size()); };
  const std::string iter_name = kind == View::keys ? "dict_keyiterator" : kind == View::values ? "dict_valueiterator" : "dict_itemiterator";
  c->slots.iter = [iter_name](Interpreter&, const Value& self) {
    const DictViewObj& v = view_of(self);
    if (!dict_of(v).ordered) return dict_live_iterator(iter_name, v.dict, v.kind == View::keys ? 0 : v.kind == View::values ? 1 : 2);
    return checked_iterator("odict_iterator", view_items(v), v.dict);
  };
  c->slots.contains = [](Interpreter& in, const Value& self, const Value& item) { return view_contains(in, view_of(self), item); };
  c->slots.repr = [name](Interpreter& in, const Value& self) { return name + "([" + view_repr(in, self) + "])"; };
  if (kind != View::values)   // keys and items compare as sets, so they have no hash; values hash by identity
    c->slots.hash = [name](const Value&) -> int64_t { throw TypeError("unhashable type: '" + name + "'"); };
  c->slots.binary = view_binary;
  c->slots.compare = view_compare;
  const std::string reversed_name = kind == View::keys ? "dict_reversekeyiterator" : kind == View::values ? "dict_reversevalueiterator" : "dict_reverseitemiterator";
  c->methods["__reversed__"] = method(name + ".__reversed__", [reversed_name](Interpreter&, CallArgs& a) {
    const DictViewObj& v = view_of(a.pos.at(0));
    std::vector<Value> items = view_items(v);
    std::reverse(items.begin(), items.end());
    return checked_iterator(dict_of(v).ordered ? "odict_iterator" : reversed_name, std::move(items), v.dict);
  });
  if (kind != View::values)
    c->methods["isdisjoint"] = method(name + ".isdisjoint", [](Interpreter& in, CallArgs& a) {
      const Value self = a.pos.at(0), other = arg(a, 1, "other");
      for (const Value& item : in.iterate(other))
        if (view_contains(in, view_of(self), item)) return Value::boolean(false);
      return Value::boolean(true);
    });
  return c;
}

}  // namespace

Value dict_view(const Value& dict, const std::string& kind) {
  static std::map<std::string, ClassPtr> classes;
  const bool ordered = static_cast<DictObj*>(dict.obj.get())->ordered;
  const std::string name = (ordered ? "odict_" : "dict_") + kind;
  const View k = kind == "keys" ? View::keys : kind == "values" ? View::values : View::items;
  ClassPtr& c = classes[name];
  if (!c) c = make_view_class(name, k);
  auto o = std::make_shared<DictViewObj>();
  o->cls = c;
  o->dict = dict;
  o->kind = k;
  return Value::of_instance(std::move(o));
}

Value dict_fromkeys(Interpreter& in, CallArgs& a) {
  if (a.pos.empty() || a.pos.size() > 2) throw TypeError(fmt::format("fromkeys expected {}, got {}", a.pos.empty() ? "at least 1 argument" : "at most 2 arguments", a.pos.size()));
  if (!a.kw.empty()) throw TypeError("dict.fromkeys() takes no keyword arguments");
  const Value value = a.pos.size() == 2 ? a.pos[1] : Value::none();
  Value d = Value::dict();
  for (const Value& key : in.iterate(a.pos[0])) static_cast<DictObj*>(d.obj.get())->set(key, value);
  return d;
}

}  // namespace attn::py
