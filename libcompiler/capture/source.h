#pragma once
// Where a value that compiled code reads comes from, named as Dynamo names it: L['x'],
// G['mod'], L['mod']._modules['0']._parameters['weight'], L['data'][0], L['___stack0']. Guards
// are checked against sources, graph placeholders are named after them (L_x_), and the values of
// a later call are fetched through them.
#include <memory>
#include <string>
#include <vector>

#include "libcompiler/python/interp/object.h"

namespace kiln::capture {

using python::Ref;

class SideEffects;

// The values a frame starts with: its locals by name (arguments, or the live variables and stack
// values a resume frame receives) and its globals.
struct FrameInputs {
  std::vector<std::pair<std::string, Ref>> locals;
  std::shared_ptr<python::DictObject> globals;
  // While the frame is captured, the objects it changed: sources are searched through what they
  // held at the start (a compiled entry reads its inputs before it replays the changes).
  const SideEffects* changed = nullptr;
  Ref local(const std::string& name) const;
};

class Source;
using SourceRef = std::shared_ptr<const Source>;

class Source {
 public:
  enum class Kind { Local, Global, Builtins, Attribute, Item, DictKey, DictValue };
  static SourceRef local(std::string name);
  static SourceRef global(std::string name);
  // The builtins module's dict, as Dynamo reaches it: G['__builtins_dict___1'] (items only).
  static SourceRef builtins();
  static SourceRef attribute(SourceRef base, std::string name);
  static SourceRef item(SourceRef base, Ref key);  // key: an int or a str
  // A dict's entries by position, for keys a source cannot spell (an optimizer's state, keyed by
  // parameter): list(dict.keys(B))[i] and B[list(dict.keys(B))[i]], as Dynamo names them.
  static SourceRef dict_key(SourceRef dict, size_t index);
  static SourceRef dict_value(SourceRef dict, size_t index);

  Kind kind() const { return kind_; }
  const SourceRef& base() const { return base_; }
  const std::string& name() const { return name_; }
  size_t index() const { return index_; }  // DictKey, DictValue
  // "L['x']", "G['mod']._parameters['weight']".
  std::string text() const;
  // The graph placeholder's name: every run of characters other than letters and digits becomes
  // one '_' ("L['x']" -> "L_x_").
  std::string placeholder_name() const;
  // How guard failures name it: the variable for a local ("x"), else the full text.
  std::string guard_name() const;
  // The value now, or null when the path no longer leads anywhere.
  Ref fetch(python::Interpreter& interp, const FrameInputs& inputs) const;

 private:
  Source(Kind kind, SourceRef base, std::string name, Ref key, size_t index = 0);
  Kind kind_;
  SourceRef base_;
  std::string name_;
  Ref key_;
  size_t index_;  // DictKey, DictValue
};

// Where attribute `name` of `object` (reached through `base`) is read from, as Dynamo names it:
// through the module registry that holds it (L['self']._modules['fc']), else as an attribute.
SourceRef member_source(const SourceRef& base, const python::Ref& object, const std::string& name, const python::Ref& value);

// Finds where `target` can be reached from the frame's inputs: the locals in order, then the
// globals, through module submodules/parameters/buffers, instance attributes, list/tuple items,
// dict values and tensors' gradients, breadth first, a few levels deep. Null when it cannot be
// reached.
SourceRef find_source(python::Interpreter& interp, const FrameInputs& inputs, const Ref& target);
// Every way the frame's locals reach `target`, nearest first: one tensor passed twice
// (fn([x, x])) is one graph input, and the entry holds only while the two stay one object.
std::vector<SourceRef> local_sources(const FrameInputs& inputs, const Ref& target);

}  // namespace kiln::capture
