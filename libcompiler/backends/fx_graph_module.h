#pragma once
// The torch.fx face of a captured graph that script-defined backends receive: a GraphModule
// (callable; .graph, .code, .print_readable()), its Graph (.nodes) and Nodes (.op, .name,
// .target, .args, .kwargs), with targets the very torch functions the script can compare with
// (`node.target == torch.relu`).
#include <memory>

#include "libcompiler/fx/backend_registry.h"
#include "libcompiler/python/interp/object.h"

namespace kiln::backends {

python::Ref make_graph_module(python::Interpreter& interp, std::shared_ptr<const fx::BackendGraph> graph);

}  // namespace kiln::backends
