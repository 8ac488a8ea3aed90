#pragma once
// PickleReader: the unpickling machine for protocols 0-5 as far as checkpoints use them (the
// opcodes CPython's pickler writes for None, bools, ints, floats, strings, bytes, tuples, lists,
// dicts, sets, globals with REDUCE/BUILD/NEWOBJ, persistent ids and the memo). It never imports
// or calls anything by itself: globals and persistent ids go to the caller, which allows what it
// knows (torch.load's weights-only rule) and raises for the rest.
#include <functional>
#include <string>
#include <string_view>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

struct PickleHooks {
  // The object a GLOBAL/STACK_GLOBAL names (module, qualified name).
  std::function<Ref(const std::string& module, const std::string& name)> find_global;
  // The object a persistent id stands for.
  std::function<Ref(const Ref& persistent_id)> persistent_load;
  // Raises the loader's error for a malformed pickle.
  std::function<void(const std::string& message)> fail;
};

Ref unpickle(Interpreter& interp, std::string_view data, const PickleHooks& hooks);

}  // namespace kiln::python
