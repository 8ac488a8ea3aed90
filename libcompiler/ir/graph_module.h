#pragma once
// A graph with the module around it, as FX's GraphModule: the class name it prints under, the
// tensors that get_attr nodes read (parameters and buffers, by dotted name), and submodules
// that are graphs themselves (the branches of torch.cond, ...).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libcompiler/ir/fake_value.h"
#include "libcompiler/ir/graph.h"

namespace kiln::ir {

struct ModuleAttribute {
  TensorMeta meta;
  bool isParameter = false;  // a parameter rather than a buffer
  // The value's repr where repro files inline it (buffers of at most 4 elements); without it
  // they make random data of the meta's shape and dtype.
  std::optional<std::string> inlineRepr;
};

class GraphModule {
 public:
  explicit GraphModule(std::string className = "GraphModule") : className(std::move(className)) {}

  // Adds (or replaces) the submodule called name and returns it.
  GraphModule& addSubmodule(const std::string& name, std::unique_ptr<GraphModule> module);
  GraphModule* submodule(const std::string& name) const;
  const std::vector<std::pair<std::string, std::unique_ptr<GraphModule>>>& submodules() const { return submodules_; }

  std::string className;  // "GraphModule", "<lambda>", "inner_f", "cond_true_0"
  Graph graph;
  std::map<std::string, ModuleAttribute> attributes;
  // The "# graph id: N" line that the pre-grad trace artifacts print after the module (N is
  // Python's id() of the graph object); kept so that such payloads print back unchanged.
  std::optional<std::string> graphId;

 private:
  std::vector<std::pair<std::string, std::unique_ptr<GraphModule>>> submodules_;  // in printing order
};

// Whether every placeholder and call node carries its value's metadata (meta["val"]), as AOT's
// graphs do. A get_attr of a subgraph (a cond branch) has no value of its own. Graphs read back
// from their printed form lack it where FX prints no annotation (a node with several outputs);
// graphs of repro files carry none.
bool fullyAnnotated(const GraphModule& module);

}  // namespace kiln::ir
