#pragma once
// Which build of Kiln is running, for the keys of the compile caches (the AOT autograd cache and
// inductor's FX graph cache): an entry one build wrote must not be read by another, whose graphs
// or kernels' calling convention may differ, though the version number is the same. PyTorch keys
// its caches by a hash of its own sources for the same reason. The identity is the executable's
// GNU build id (a hash of its contents, made by the linker), or its size and modification time
// when it has none.
#include <string>

namespace kiln::aot {

const std::string& build_identity();

}  // namespace kiln::aot
