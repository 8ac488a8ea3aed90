#include "libcompiler/python/interp/object.h"

#include <algorithm>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

// C3 linearisation of `type`'s bases (CPython's mro()).
std::vector<TypeObject*> c3_mro(TypeObject* type) {
  std::vector<std::vector<TypeObject*>> sequences;
  for (const auto& base : type->bases) sequences.push_back(base->mro);
  std::vector<TypeObject*> direct;
  for (const auto& base : type->bases) direct.push_back(base.get());
  sequences.push_back(direct);
  std::vector<TypeObject*> result{type};
  for (;;) {
    sequences.erase(std::remove_if(sequences.begin(), sequences.end(), [](auto& s) { return s.empty(); }),
                    sequences.end());
    if (sequences.empty()) return result;
    TypeObject* candidate = nullptr;
    for (auto& seq : sequences) {
      TypeObject* head = seq.front();
      bool in_tail = std::any_of(sequences.begin(), sequences.end(), [&](auto& other) {
        return std::find(other.begin() + 1, other.end(), head) != other.end();
      });
      if (!in_tail) {
        candidate = head;
        break;
      }
    }
    if (!candidate) raise_error(ExcType::TypeError, "Cannot create a consistent method resolution order (MRO)");
    result.push_back(candidate);
    for (auto& seq : sequences)
      if (seq.front() == candidate) seq.erase(seq.begin());
  }
}

BuiltinTypes make_builtin_types();

// Every builtin type, kept alive for the process (types are immortal, as in CPython).
std::vector<TypeRef>& immortal_types() {
  static std::vector<TypeRef> types;
  return types;
}

}  // namespace

TypeObject::TypeObject(std::string n, std::vector<TypeRef> b, std::string m)
    : Object(ObjectKind::Type, nullptr), name(std::move(n)), module(std::move(m)), bases(std::move(b)) {
  mro = c3_mro(this);
}

Ref TypeObject::lookup(std::string_view attr) const {
  std::string key(attr);
  for (const TypeObject* t : mro) {
    auto it = t->attrs.find(key);
    if (it != t->attrs.end()) return it->second;
  }
  return nullptr;
}

bool TypeObject::is_subtype_of(const TypeObject* other) const {
  return std::find(mro.begin(), mro.end(), other) != mro.end();
}

std::string TypeObject::qualified_name() const {
  return module == "builtins" ? name : module + "." + name;
}

NoneObject::NoneObject() : Object(ObjectKind::None, builtin_types().none) {}
BoolObject::BoolObject(bool v) : Object(ObjectKind::Bool, builtin_types().bool_), value(v) {}
IntObject::IntObject(int64_t v) : Object(ObjectKind::Int, builtin_types().int_), value(v) {}
FloatObject::FloatObject(double v) : Object(ObjectKind::Float, builtin_types().float_), value(v) {}
StrObject::StrObject(std::string v) : Object(ObjectKind::Str, builtin_types().str), value(std::move(v)) {}
ListObject::ListObject(std::vector<Ref> v) : Object(ObjectKind::List, builtin_types().list), items(std::move(v)) {}
TupleObject::TupleObject(std::vector<Ref> v)
    : Object(ObjectKind::Tuple, builtin_types().tuple), items(std::move(v)) {}
DictObject::DictObject() : Object(ObjectKind::Dict, builtin_types().dict) {}
SetObject::SetObject() : Object(ObjectKind::Set, builtin_types().set) {}
RangeObject::RangeObject(int64_t b, int64_t e, int64_t s)
    : Object(ObjectKind::Range, builtin_types().range), start(b), stop(e), step(s) {}
int64_t RangeObject::length() const {
  if (step > 0) return start < stop ? (stop - start - 1) / step + 1 : 0;
  return start > stop ? (start - stop - 1) / (-step) + 1 : 0;
}
SliceObject::SliceObject(Ref l, Ref u, Ref s)
    : Object(ObjectKind::Slice, builtin_types().slice), lower(std::move(l)), upper(std::move(u)), step(std::move(s)) {}
FunctionObject::FunctionObject() : Object(ObjectKind::Function, builtin_types().function) {}
NativeFunctionObject::NativeFunctionObject(std::string n, NativeFn f)
    : Object(ObjectKind::NativeFunction, builtin_types().builtin_function), name(std::move(n)), qualname(name), fn(std::move(f)) {}
BoundMethodObject::BoundMethodObject(Ref s, Ref f)
    : Object(ObjectKind::BoundMethod, builtin_types().method), self(std::move(s)), function(std::move(f)) {}
PropertyObject::PropertyObject(Ref g, Ref s)
    : Object(ObjectKind::Property, builtin_types().property), getter(std::move(g)), setter(std::move(s)) {}
WrapperObject::WrapperObject(ObjectKind k, Ref f)
    : Object(k, k == ObjectKind::StaticMethod ? builtin_types().staticmethod : builtin_types().classmethod),
      function(std::move(f)) {}
SuperObject::SuperObject(TypeObject* s, Ref self)
    : Object(ObjectKind::Super, builtin_types().super), start(s), self(std::move(self)) {}
ModuleObject::ModuleObject(std::string n)
    : Object(ObjectKind::Module, builtin_types().module), name(std::move(n)), globals(py_dict()) {
  globals->set("__name__", py_str(name));
}
InstanceObject::InstanceObject(TypeRef c) : Object(ObjectKind::Instance, c.get()), cls(std::move(c)) {}
IteratorObject::IteratorObject(std::function<Ref()> n)
    : Object(ObjectKind::Iterator, builtin_types().iterator), next(std::move(n)) {}

// ---- the references each tracked object holds (for the cycle collector) ----
namespace {
void visit_all(const std::vector<Ref>& references, const CycleTracked::ReferenceVisitor& visit) {
  for (const Ref& reference : references) visit(reference);
}
void visit_all(const AttrMap& attributes, const CycleTracked::ReferenceVisitor& visit) {
  for (const auto& [name, value] : attributes) visit(value);
}
}  // namespace

void ListObject::traverse(const ReferenceVisitor& visit) const { visit_all(items, visit); }
void ListObject::clear_references() {
  std::vector<Ref> dropped;  // the list is empty before its items go (their finalizers may read it)
  dropped.swap(items);
}
void TupleObject::traverse(const ReferenceVisitor& visit) const { visit_all(items, visit); }
void DictObject::traverse(const ReferenceVisitor& visit) const {
  for (const Entry& entry : slots_) {
    visit(entry.key);
    visit(entry.value);
  }
}
void FunctionObject::traverse(const ReferenceVisitor& visit) const {
  visit_all(defaults, visit);
  visit_all(kw_defaults, visit);
  visit(closure);
  visit(globals);
  visit_all(attrs, visit);
}
void FunctionObject::clear_references() {
  defaults.clear();
  kw_defaults.clear();
  closure = nullptr;
  attrs.clear();
}
void BoundMethodObject::traverse(const ReferenceVisitor& visit) const {
  visit(self);
  visit(function);
}
void PropertyObject::traverse(const ReferenceVisitor& visit) const {
  visit(getter);
  visit(setter);
}
void PropertyObject::clear_references() {
  getter = nullptr;
  setter = nullptr;
}
void InstanceObject::traverse(const ReferenceVisitor& visit) const { visit_all(dict, visit); }
void InstanceObject::clear_references() {
  AttrMap dropped;
  dropped.swap(dict);
}

namespace {
BuiltinTypes make_builtin_types() {
  BuiltinTypes t{};
  auto object = std::make_shared<TypeObject>("object", std::vector<TypeRef>{}, "builtins");
  immortal_types().push_back(object);
  t.object = object.get();
  auto make = [&](const char* name, TypeObject* base) {
    auto type = std::make_shared<TypeObject>(name, std::vector<TypeRef>{builtin_type_ref(base)}, "builtins");
    type->is_builtin = true;
    immortal_types().push_back(type);
    return type.get();
  };
  object->is_builtin = true;
#define KILN_PY_BUILTIN_TYPE(field, python_name) \
  if (std::string_view(python_name) != "object") t.field = make(python_name, t.object);
#include "libcompiler/python/interp/builtin_types.def"
  // bool derives from int, as in Python.
  auto& bool_type = *t.bool_;
  bool_type.bases = {builtin_type_ref(t.int_)};
  bool_type.mro = {t.bool_, t.int_, t.object};
  for (const auto& type : immortal_types()) type->type = t.type;
  return t;
}
}  // namespace

const BuiltinTypes& builtin_types() {
  static const BuiltinTypes types = make_builtin_types();
  return types;
}

TypeRef builtin_type_ref(TypeObject* type) { return TypeRef(TypeRef(), type); }

TypeRef type_of(const Ref& value) {
  if (value->kind == ObjectKind::Instance) return as<InstanceObject>(value).cls;
  if (value->kind == ObjectKind::Module && as<ModuleObject>(value).cls) return as<ModuleObject>(value).cls;
  return builtin_type_ref(value->type);
}

TypeObject* make_builtin_type(std::string name, std::vector<TypeObject*> bases, std::string module) {
  std::vector<TypeRef> refs;
  for (TypeObject* base : bases) refs.push_back(builtin_type_ref(base));
  if (refs.empty()) refs.push_back(builtin_type_ref(builtin_types().object));
  auto type = std::make_shared<TypeObject>(std::move(name), std::move(refs), std::move(module));
  type->is_builtin = true;
  type->type = builtin_types().type;
  immortal_types().push_back(type);
  return type.get();
}

TypeRef make_class(std::string name, std::vector<TypeRef> bases, std::string module) {
  if (bases.empty()) bases.push_back(builtin_type_ref(builtin_types().object));
  auto type = std::make_shared<TypeObject>(std::move(name), std::move(bases), std::move(module));
  type->type = builtin_types().type;
  return type;
}

const Ref& none() {
  static const Ref value = std::make_shared<NoneObject>();
  return value;
}
const Ref& ellipsis() {
  static const Ref value = std::make_shared<NativeObject>(builtin_types().ellipsis);
  return value;
}
const Ref& not_implemented() {
  static const Ref value = std::make_shared<NativeObject>(builtin_types().not_implemented);
  return value;
}
const Ref& py_true() {
  static const Ref value = std::make_shared<BoolObject>(true);
  return value;
}
const Ref& py_false() {
  static const Ref value = std::make_shared<BoolObject>(false);
  return value;
}

Ref py_int(int64_t v) {
  // Small ints are shared, as in CPython: loops and indexing allocate nothing.
  static const std::vector<Ref> small = [] {
    std::vector<Ref> values;
    for (int64_t i = -5; i <= 256; ++i) values.push_back(std::make_shared<IntObject>(i));
    return values;
  }();
  if (v >= -5 && v <= 256) return small[static_cast<size_t>(v + 5)];
  return std::make_shared<IntObject>(v);
}
Ref py_float(double v) { return std::make_shared<FloatObject>(v); }
Ref py_str(std::string v) { return std::make_shared<StrObject>(std::move(v)); }
Ref py_list(std::vector<Ref> items) { return std::make_shared<ListObject>(std::move(items)); }
Ref py_tuple(std::vector<Ref> items) { return std::make_shared<TupleObject>(std::move(items)); }
std::shared_ptr<DictObject> py_dict() { return std::make_shared<DictObject>(); }
Ref native_function(std::string name, NativeFn fn) {
  return std::make_shared<NativeFunctionObject>(std::move(name), std::move(fn));
}
void add_method(TypeObject* type, const std::string& name, NativeFn fn) {
  Ref method = native_function(name, std::move(fn));
  as<NativeFunctionObject>(method).qualname = type->name + "." + name;
  as<NativeFunctionObject>(method).owner = type;
  type->attrs[name] = std::move(method);
}
void add_getter(TypeObject* type, const std::string& name, std::function<Ref(Interpreter&, const Ref&)> get) {
  auto getter = native_function(name, [get = std::move(get)](Interpreter& interp, CallArgs& c) {
    return get(interp, c.args.at(0));
  });
  as<NativeFunctionObject>(getter).qualname = type->name + "." + name;
  as<NativeFunctionObject>(getter).owner = type;
  type->attrs[name] = std::make_shared<PropertyObject>(getter, nullptr);
}

// ---- DictObject ----

long DictObject::find(Interpreter* interp, const Ref& key, size_t hash) const {
  auto [begin, end] = index_.equal_range(hash);
  for (auto it = begin; it != end; ++it) {
    const Ref& candidate = slots_[it->second].key;
    if (candidate == key) return static_cast<long>(it->second);
    if (interp ? equals(*interp, candidate, key) : false) return static_cast<long>(it->second);
  }
  return -1;
}

Ref DictObject::get(Interpreter& interp, const Ref& key) const {
  long i = find(&interp, key, hash_value(interp, key));
  return i < 0 ? nullptr : slots_[static_cast<size_t>(i)].value;
}

Ref DictObject::get(std::string_view key) const {
  auto [begin, end] = index_.equal_range(std::hash<std::string_view>()(key));
  for (auto it = begin; it != end; ++it) {
    const Ref& candidate = slots_[it->second].key;
    if (candidate->kind == ObjectKind::Str && as<StrObject>(candidate).value == key) return slots_[it->second].value;
  }
  return nullptr;
}

void DictObject::set(Interpreter& interp, const Ref& key, Ref value) {
  size_t hash = hash_value(interp, key);
  long i = find(&interp, key, hash);
  if (i >= 0) {
    slots_[static_cast<size_t>(i)].value = std::move(value);
    return;
  }
  index_.emplace(hash, slots_.size());
  slots_.push_back({key, std::move(value), hash});
  ++live_;
}

void DictObject::set(std::string_view key, Ref value) {
  size_t hash = std::hash<std::string_view>()(key);
  auto [begin, end] = index_.equal_range(hash);
  for (auto it = begin; it != end; ++it) {
    const Ref& candidate = slots_[it->second].key;
    if (candidate->kind == ObjectKind::Str && as<StrObject>(candidate).value == key) {
      slots_[it->second].value = std::move(value);
      return;
    }
  }
  index_.emplace(hash, slots_.size());
  slots_.push_back({py_str(std::string(key)), std::move(value), hash});
  ++live_;
}

bool DictObject::erase(Interpreter& interp, const Ref& key) {
  size_t hash = hash_value(interp, key);
  long i = find(&interp, key, hash);
  if (i < 0) return false;
  auto [begin, end] = index_.equal_range(hash);
  for (auto it = begin; it != end; ++it)
    if (it->second == static_cast<size_t>(i)) {
      index_.erase(it);
      break;
    }
  slots_[static_cast<size_t>(i)] = Entry{nullptr, nullptr, 0};
  --live_;
  if (slots_.size() > 32 && live_ * 2 < slots_.size()) {
    // Compact so that erased entries do not accumulate (positions change; rebuild the index).
    std::vector<Entry> kept;
    for (auto& e : slots_)
      if (e.key) kept.push_back(std::move(e));
    slots_ = std::move(kept);
    index_.clear();
    for (size_t j = 0; j < slots_.size(); ++j) index_.emplace(slots_[j].hash, j);
  }
  return true;
}

std::vector<const DictObject::Entry*> DictObject::entries() const {
  std::vector<const Entry*> out;
  out.reserve(live_);
  for (const auto& e : slots_)
    if (e.key) out.push_back(&e);
  return out;
}

void DictObject::clear() {
  // The values die after the dict is empty and consistent: dropping one may run Python code
  // (a generator's finally block) that reads this very dict.
  std::vector<Entry> dropped;
  dropped.swap(slots_);
  index_.clear();
  live_ = 0;
}

}  // namespace kiln::python
