#pragma once
// The object model of Kiln's Python interpreter: every Python value is an Object held by a Ref
// (shared ownership, like CPython's reference counts). Builtin types are immortal TypeObjects made
// once (builtin_types()); user classes are TypeObjects made by `class` statements, and their
// instances are InstanceObjects with an attribute dict. Exceptions are ordinary instances of
// classes deriving from BaseException.
//
// `kind` gives fast dispatch on the C++ representation; `type` is the Python type (a user class
// for instances, a builtin type otherwise).
//
// Reference counts alone never free a reference cycle (a child holding its parent, an instance
// holding itself): the objects that can close one are CycleTracked, and cycle_collector.h finds
// and frees those that only cycles hold, as CPython's gc module does.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tsl/ordered_map.h>

namespace kiln::python {

struct Object;
struct TypeObject;
class Interpreter;
using Ref = std::shared_ptr<Object>;
using TypeRef = std::shared_ptr<TypeObject>;
// Insertion-ordered, as Python's dicts are: vars(obj), __dict__ and class bodies list names in the
// order they were set.
using AttrMap = tsl::ordered_map<std::string, Ref>;

enum class ObjectKind : uint8_t {
  None, Ellipsis, NotImplemented, Bool, Int, Float, Str, List, Tuple, Dict, Set, Range, Slice,
  Function, NativeFunction, BoundMethod, Property, StaticMethod, ClassMethod, Super,
  Type, Module, Instance, Iterator, Generator, Native,
};

struct Object {
  Object(ObjectKind k, TypeObject* t) : kind(k), type(t) {}
  virtual ~Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  const ObjectKind kind;
  TypeObject* type;  // kept alive by the builtin table, or by InstanceObject::cls
};

// An object that holds references which may lead back to it (a container, an instance, a
// function's defaults and closure). Every one is listed while it lives, for the cycle collector.
// It must be owned by a shared_ptr for the collector to consider it (a DictObject inside a
// SetObject is reached through its owner).
class CycleTracked : public std::enable_shared_from_this<CycleTracked> {
 public:
  using ReferenceVisitor = std::function<void(const std::shared_ptr<const void>&)>;
  CycleTracked();
  virtual ~CycleTracked();
  CycleTracked(const CycleTracked&) = delete;
  CycleTracked& operator=(const CycleTracked&) = delete;

  // Calls `visit` on every strong reference this object holds (null ones included).
  virtual void traverse(const ReferenceVisitor& visit) const = 0;
  // Drops the references it can (CPython's tp_clear), so that a garbage cycle falls apart.
  // Immutable objects (a tuple, a bound method) keep theirs: a cycle always runs through a
  // mutable one.
  virtual void clear_references() {}

 private:
  friend class CycleRegistry;
  CycleTracked* previous_ = nullptr;
  CycleTracked* next_ = nullptr;
};

// The positional and keyword arguments of one call.
struct CallArgs {
  std::vector<Ref> args;
  std::vector<std::pair<std::string, Ref>> kwargs;
};

using NativeFn = std::function<Ref(Interpreter&, CallArgs&)>;

struct TypeObject : Object {
  TypeObject(std::string name, std::vector<TypeRef> bases, std::string module);

  std::string name;
  std::string module;  // "builtins" for builtin types ("<class 'int'>"), "__main__" for scripts
  std::vector<TypeRef> bases;
  std::vector<TypeObject*> mro;  // C3 linearisation, self first
  AttrMap attrs;
  // Builds an instance when the type (or the nearest builtin base) is called: int(x), Tensor,
  // Exception(...). Null for plain user classes, which make InstanceObjects.
  NativeFn constructor;
  bool is_builtin = false;

  // The attribute along the MRO, or null.
  Ref lookup(std::string_view attr) const;
  bool is_subtype_of(const TypeObject* other) const;
  std::string qualified_name() const;  // "int", "__main__.Foo", "torch.nn.Linear"
};

struct NoneObject : Object {
  NoneObject();
};
struct BoolObject : Object {
  explicit BoolObject(bool v);
  const bool value;
};
struct IntObject : Object {
  explicit IntObject(int64_t v);
  const int64_t value;
};
struct FloatObject : Object {
  explicit FloatObject(double v);
  const double value;
};
struct StrObject : Object {
  explicit StrObject(std::string v);
  const std::string value;  // UTF-8
};
struct ListObject : Object, CycleTracked {
  explicit ListObject(std::vector<Ref> v = {});
  void traverse(const ReferenceVisitor& visit) const override;
  void clear_references() override;
  std::vector<Ref> items;
};
struct TupleObject : Object, CycleTracked {
  explicit TupleObject(std::vector<Ref> v = {});
  void traverse(const ReferenceVisitor& visit) const override;
  const std::vector<Ref> items;
};

// Insertion-ordered hash map with Python key semantics (1 == 1.0 == True).
struct DictObject : Object, CycleTracked {
  DictObject();
  void traverse(const ReferenceVisitor& visit) const override;
  void clear_references() override { clear(); }
  struct Entry {
    Ref key;
    Ref value;
    size_t hash;
  };
  // Null when absent.
  Ref get(Interpreter& interp, const Ref& key) const;
  Ref get(std::string_view key) const;
  void set(Interpreter& interp, const Ref& key, Ref value);
  void set(std::string_view key, Ref value);
  // False when absent.
  bool erase(Interpreter& interp, const Ref& key);
  size_t size() const { return live_; }
  // Entries in insertion order (erased ones skipped).
  std::vector<const Entry*> entries() const;
  void clear();

 private:
  long find(Interpreter* interp, const Ref& key, size_t hash) const;
  std::vector<Entry> slots_;  // erased entries have a null key until compaction
  std::unordered_multimap<size_t, size_t> index_;
  size_t live_ = 0;
};

struct SetObject : Object, CycleTracked {
  SetObject();
  void traverse(const ReferenceVisitor& visit) const override { items.traverse(visit); }
  void clear_references() override { items.clear(); }
  DictObject items;  // values unused
};
struct RangeObject : Object {
  RangeObject(int64_t start, int64_t stop, int64_t step);
  const int64_t start, stop, step;
  int64_t length() const;
};
struct SliceObject : Object {
  SliceObject(Ref lower, Ref upper, Ref step);
  const Ref lower, upper, step;  // None when omitted
};

struct FunctionDef;
struct Lambda;
struct Arguments;
struct Statement;
struct Expression;
struct CodeInfo;
struct Scope;

// A function made by `def` or `lambda`: its code, defaults, the globals it was defined in and
// the scope of the enclosing function (its closure).
struct FunctionObject : Object, CycleTracked {
  FunctionObject();
  void traverse(const ReferenceVisitor& visit) const override;
  void clear_references() override;
  std::string name;
  std::string qualname;
  const Arguments* params = nullptr;
  const std::vector<std::unique_ptr<Statement>>* body = nullptr;  // for def
  const Expression* lambda_body = nullptr;                         // for lambda
  bool is_generator = false;
  const CodeInfo* code = nullptr;
  int first_line = 0;                     // co_firstlineno: the first decorator's line, else the def's
  std::vector<Ref> defaults;              // for the last positional parameters
  std::vector<Ref> kw_defaults;           // one per keyword-only parameter (null: required)
  std::shared_ptr<Scope> closure;
  std::shared_ptr<DictObject> globals;
  std::shared_ptr<struct LoadedCode> loaded;  // the parsed module that owns the AST
  std::weak_ptr<TypeObject> owner_class;  // the class whose body defined it (zero-argument super())
  AttrMap attrs;                          // __name__ and attributes set by decorators
};

struct NativeFunctionObject : Object {
  NativeFunctionObject(std::string name, NativeFn fn);
  std::string name;
  // Its name as graphs print it: "Tensor.sum", "torch.abs" (the name alone unless set).
  std::string qualname;
  // The type whose method it is, or the module whose function it is (null: neither): graph
  // capture tells families of callees (every Tensor method, every torch function) by it.
  const Object* owner = nullptr;
  NativeFn fn;
};

struct BoundMethodObject : Object, CycleTracked {
  BoundMethodObject(Ref self, Ref function);
  void traverse(const ReferenceVisitor& visit) const override;
  const Ref self;
  const Ref function;
};

struct PropertyObject : Object, CycleTracked {
  PropertyObject(Ref getter, Ref setter);
  void traverse(const ReferenceVisitor& visit) const override;
  void clear_references() override;
  Ref getter, setter;
};
// staticmethod(f) / classmethod(f) wrappers, unwrapped by attribute lookup.
struct WrapperObject : Object, CycleTracked {
  WrapperObject(ObjectKind kind, Ref function);
  void traverse(const ReferenceVisitor& visit) const override { visit(function); }
  const Ref function;
};
// super(): attribute lookup in the MRO of `self`'s type after `start`.
struct SuperObject : Object, CycleTracked {
  SuperObject(TypeObject* start, Ref self);
  void traverse(const ReferenceVisitor& visit) const override { visit(self); }
  void clear_references() override { self = nullptr; }
  TypeObject* start;
  Ref self;
};

struct ModuleObject : Object {
  explicit ModuleObject(std::string name);
  std::string name;
  std::shared_ptr<DictObject> globals;
  // The ModuleType subclass it is an instance of (made by one, or its __class__ set to one), kept
  // alive here as InstanceObject::cls keeps an instance's class; null for a plain module.
  TypeRef cls;
  // Consulted when an attribute is missing (torch.<op> falls back to the op table).
  std::function<Ref(Interpreter&, const std::string&)> fallback;
};

struct InstanceObject : Object, CycleTracked {
  explicit InstanceObject(TypeRef cls);
  void traverse(const ReferenceVisitor& visit) const override;
  void clear_references() override;
  TypeRef cls;
  AttrMap dict;
  bool finalized = false;  // its __del__ has run (it runs once)
};

// An iterator implemented in C++ (over a list, a range, dict keys, zip, ...): next() returns
// null when exhausted.
struct IteratorObject : Object {
  explicit IteratorObject(std::function<Ref()> next);
  std::function<Ref()> next;
};

// A C++ value that is not a builtin Python type (Tensor, dtype, device, torch.Size...): its
// type's attrs hold the methods.
struct NativeObject : Object {
  explicit NativeObject(TypeObject* type) : Object(ObjectKind::Native, type) {}
};

// ---- the builtin types and singletons ----
struct BuiltinTypes {
#define KILN_PY_BUILTIN_TYPE(field, python_name) TypeObject* field;
#include "libcompiler/python/interp/builtin_types.def"
};
const BuiltinTypes& builtin_types();
// Makes an immortal builtin type (for native modules such as torch).
TypeObject* make_builtin_type(std::string name, std::vector<TypeObject*> bases, std::string module = "builtins");
// A Ref to an immortal builtin type (it owns nothing: builtin types live for the process).
TypeRef builtin_type_ref(TypeObject* type);
// type(value) as a Ref: the class of an instance, the builtin type otherwise.
TypeRef type_of(const Ref& value);

const Ref& none();
const Ref& ellipsis();
const Ref& not_implemented();
const Ref& py_true();
const Ref& py_false();
inline const Ref& py_bool(bool v) { return v ? py_true() : py_false(); }
Ref py_int(int64_t v);
Ref py_float(double v);
Ref py_str(std::string v);
Ref py_list(std::vector<Ref> items = {});
Ref py_tuple(std::vector<Ref> items = {});
std::shared_ptr<DictObject> py_dict();
Ref native_function(std::string name, NativeFn fn);
// Adds a method (a native function taking self first) to a type.
void add_method(TypeObject* type, const std::string& name, NativeFn fn);
// A read-only attribute computed from self.
void add_getter(TypeObject* type, const std::string& name, std::function<Ref(Interpreter&, const Ref&)> get);
// A new class (for `class` statements and native modules that define Python-visible classes).
TypeRef make_class(std::string name, std::vector<TypeRef> bases, std::string module);

inline bool is_none(const Ref& r) { return r->kind == ObjectKind::None; }
template <typename T>
T& as(const Ref& r) {
  return static_cast<T&>(*r);
}

inline bool is_list_or_tuple(const Ref& r) { return r->kind == ObjectKind::List || r->kind == ObjectKind::Tuple; }
// The items of a list or tuple (the caller has checked it is one).
inline const std::vector<Ref>& sequence_items(const Ref& list_or_tuple) {
  return list_or_tuple->kind == ObjectKind::List ? as<ListObject>(list_or_tuple).items : as<TupleObject>(list_or_tuple).items;
}
// A new list when `like` is a list, else a new tuple: a list or tuple rebuilt with other items.
// A list or tuple of the kind of `like`; a tuple keeps like's type (a named result tuple such as
// torch.return_types.max stays one).
inline Ref py_list_or_tuple_like(const Ref& like, std::vector<Ref> items) {
  if (like->kind == ObjectKind::List) return py_list(std::move(items));
  Ref tuple = py_tuple(std::move(items));
  tuple->type = like->type;
  return tuple;
}

}  // namespace kiln::python
