#pragma once
// The abstract object layer (CPython's abstract.c and object.c): what every construct of the
// language does to a value — attribute access, calls, truth, iteration, indexing, hashing,
// equality, repr/str — with dunder methods of user classes honoured. The interpreter and every
// native module go through these, so a user class behaves the same wherever it is used.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

std::string repr(Interpreter& interp, const Ref& value);
// Guards the repr of an object that may contain itself: `recursive` when its repr is already under
// way ("[...]", "namespace(...)").
struct ReprGuard {
  static std::vector<const Object*>& active() {
    static std::vector<const Object*> objects;
    return objects;
  }
  explicit ReprGuard(const Object* o) : object(o) {
    for (const Object* a : active())
      if (a == o) recursive = true;
    if (!recursive) active().push_back(o);
  }
  ~ReprGuard() {
    if (!recursive) active().pop_back();
  }
  const Object* object;
  bool recursive = false;
};

// repr() of None, a bool, int, float or str (what needs no interpreter); nullopt for anything else.
std::optional<std::string> constant_repr(const Ref& value);
// None, bool, int, float or str: the values constant_repr renders (and EQUALS_MATCH guards hold).
inline bool is_constant(const Ref& value) { return constant_repr(value).has_value(); }
std::string str(Interpreter& interp, const Ref& value);
bool truthy(Interpreter& interp, const Ref& value);

// obj.name; AttributeError when missing.
Ref getattr(Interpreter& interp, const Ref& obj, const std::string& name);
// obj.name, or null when missing. An AttributeError that a __getattr__ or a getter raises
// propagates (its message is the one CPython shows).
Ref try_getattr(Interpreter& interp, const Ref& obj, const std::string& name);
// obj.name, or null when missing or when looking it up raised AttributeError: getattr() with a
// default, hasattr(), `from m import name`.
Ref getattr_or_null(Interpreter& interp, const Ref& obj, const std::string& name);
void setattr(Interpreter& interp, const Ref& obj, const std::string& name, Ref value);
void delattr(Interpreter& interp, const Ref& obj, const std::string& name);
// object.__setattr__: stores without consulting the class's __setattr__.
void generic_setattr(Interpreter& interp, const Ref& obj, const std::string& name, Ref value);
// An attribute found on a type, bound to `self` (functions become bound methods, properties run).
Ref bind_attribute(Interpreter& interp, const Ref& attr, const Ref& self, TypeObject* owner);

Ref call(Interpreter& interp, const Ref& callee, CallArgs args);
Ref call(Interpreter& interp, const Ref& callee, std::vector<Ref> args);
// Calls the dunder `name` of value's type, or returns null when the type has none.
Ref call_dunder(Interpreter& interp, const Ref& value, const char* name, std::initializer_list<Ref> args);
bool is_callable(const Ref& value);

Ref iter(Interpreter& interp, const Ref& iterable);
// The next item, or null when the iterator is exhausted.
Ref next(Interpreter& interp, const Ref& iterator);
std::vector<Ref> to_vector(Interpreter& interp, const Ref& iterable);
int64_t len(Interpreter& interp, const Ref& value);

Ref getitem(Interpreter& interp, const Ref& container, const Ref& key);
void setitem(Interpreter& interp, const Ref& container, const Ref& key, Ref value);
void delitem(Interpreter& interp, const Ref& container, const Ref& key);
bool contains(Interpreter& interp, const Ref& container, const Ref& item);
// The (key, value) pairs of a mapping, in its order: a dict, or any object with keys() and
// __getitem__ (what `**`, {**m} and dict(m) accept, as in CPython); nullopt for anything else.
std::optional<std::vector<std::pair<Ref, Ref>>> mapping_items(Interpreter& interp, const Ref& mapping);

size_t hash_value(Interpreter& interp, const Ref& value);
bool equals(Interpreter& interp, const Ref& a, const Ref& b);
bool is_same(const Ref& a, const Ref& b);  // the `is` operator

bool isinstance(const Ref& value, const TypeObject* type);
// "int", "Foo": the name of the value's type as messages give it.
std::string type_name(const Ref& value);

// An int argument (ints, bools and objects with __index__); TypeError otherwise.
int64_t to_index(Interpreter& interp, const Ref& value, const char* what = nullptr);
// A float argument (floats, ints, bools, objects with __float__).
double to_double(Interpreter& interp, const Ref& value);
// A str argument; TypeError otherwise.
const std::string& to_str(const Ref& value, const char* what);
// Normalises a possibly negative index of a sequence of `size` items; IndexError when outside.
size_t sequence_index(int64_t index, size_t size, const char* what);
// Resolves a slice against a sequence length: start, stop, step and the number of items.
struct SliceBounds {
  int64_t start, stop, step, length;
};
SliceBounds slice_bounds(Interpreter& interp, const SliceObject& slice, int64_t size);

}  // namespace kiln::python
