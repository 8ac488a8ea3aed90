#include "libcompiler/python/torch/torch_module.h"

namespace kiln::python {

void install_torch(Interpreter&) {}

}  // namespace kiln::python
