#pragma once
// Frees the reference cycles that nothing else holds (CPython's gc.collect()): the objects that
// can close a cycle are CycleTracked (object.h), and a collection finds those whose every
// reference comes from other tracked objects and cannot be reached from one held elsewhere (a
// frame, a module, C++ code), then makes them drop their references.
//
// It runs when a script calls gc.collect() and when an interpreter ends, never on its own: C++
// code may hold an object only through a raw pointer between two statements.
#include <cstddef>
#include <functional>
#include <memory>

namespace kiln::python {

class CycleTracked;
// Runs an unreachable object's finalizer (__del__) if it has one that has not run; whether it
// ran. Finalizers run before any garbage is cleared, as CPython's do; what they make reachable
// again (an object that stores itself in a global) survives.
using Finalizer = std::function<bool(const std::shared_ptr<CycleTracked>&)>;

// The number of unreachable objects found (and freed), as gc.collect() returns.
size_t collect_cycles(const Finalizer& finalize = {});

}  // namespace kiln::python
