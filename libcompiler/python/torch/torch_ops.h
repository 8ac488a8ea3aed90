#pragma once
// torch.ops: the op table by qualified name, as the code of aten graphs calls it
// (torch.ops.aten.add.Tensor(x, 1), torch.ops.aten.relu.default(x)); a packet without an
// overload (torch.ops.aten.add(x, 1)) resolves like torch.add. prims.convert_element_type is
// _to_copy with a dtype.
#include "libcompiler/python/interp/object.h"

namespace kiln::python {

Ref make_torch_ops();

}  // namespace kiln::python
