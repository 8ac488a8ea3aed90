#include "libcompiler/repro/passes/pass.h"

namespace kiln::repro {

const std::vector<const ReproPass*>& repro_passes() {
  static const std::vector<ReproPass> table = {
#define KILN_REPRO_PASS(Id, Name) {Name, passes::Id::item_count, passes::Id::candidate},
#include "libcompiler/repro/passes/passes.def"
  };
  static const std::vector<const ReproPass*> all = [] {
    std::vector<const ReproPass*> pointers;
    for (const ReproPass& pass : table) pointers.push_back(&pass);
    return pointers;
  }();
  return all;
}

}  // namespace kiln::repro
