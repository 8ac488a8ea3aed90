#pragma once
// Side effects of a captured frame on objects it did not create (Dynamo's SideEffects): capture
// runs the frame's Python for real, so the first change to such an object (an instance's
// attributes, a list's items, a dict's entries) snapshots it; when the capture ends, each object is
// put back as it was and its final state is kept, to be set after the graph on every run of the
// compiled entry. Guards on what the code read (self.calls == 0, len(log) == 0) keep that final
// state right: another starting state recompiles.
#include <string>
#include <utility>
#include <vector>

#include "libcompiler/capture/source.h"
#include "libcompiler/python/interp/object.h"

namespace kiln::capture {

class SideEffects {
 public:
  // Before `target` (reached through `source`) changes: snapshots it the first time.
  void changing(const python::Ref& target, const SourceRef& source);

  // What changed in one object since its snapshot, as operations to replay: attributes or keys
  // set (names as str) and removed, items appended to a list. A list changed otherwise (items
  // replaced, removed, reordered) cannot be replayed that way.
  struct Change {
    python::Ref target;
    SourceRef source;
    std::vector<std::pair<python::Ref, python::Ref>> set;
    std::vector<python::Ref> removed;
    std::vector<python::Ref> appended;
    bool replayable = true;
  };
  std::vector<Change> changes(python::Interpreter& interp) const;
  // Puts every changed object back as it was when first changed.
  void restore(python::Interpreter& interp);

  struct Snapshot {
    python::AttrMap attributes;                                 // an instance
    std::vector<python::Ref> items;                             // a list
    std::vector<std::pair<python::Ref, python::Ref>> entries;  // a dict
  };
  // What `target` held when the frame first changed it; null if the frame has not changed it.
  const Snapshot* original(const python::Object* target) const;

 private:
  struct Changed {
    python::Ref target;
    SourceRef source;
  };
  std::vector<Changed> changed_;
  std::vector<Snapshot> snapshots_;
};

}  // namespace kiln::capture
