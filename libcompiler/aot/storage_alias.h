#pragma once
// Which values share storage in an aten graph, as FakeTensors' storages tell PyTorch's passes:
// views and in-place ops alias their first argument (the getitems of split alias the split
// tensor), and _unsafe_view reuses its input's storage without being a view.
#include "libcompiler/ir/graph.h"
#include "libcompiler/ir/table_op.h"

namespace kiln::aot {

// The node whose storage a node's value lives in (itself when it owns it).
const ir::Node* storage_root(const ir::Node* node);

}  // namespace kiln::aot
