#include "libcompiler/inductor/output_code.h"

#include <algorithm>
#include <sstream>

namespace kiln::inductor {

namespace {

std::string size_tuple(const std::vector<SizeExpr>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].str();
  return out + (values.size() == 1 ? ",)" : ")");
}

// The subgraphs the program's conditionals run, in the order they appear (true branch first).
std::vector<std::string> subgraph_names(const LoopProgram& program) {
  std::vector<std::string> names;
  for (const LoopNode& node : program.nodes)
    if (const auto* e = std::get_if<ExternNode>(&node); e && e->conditional)
      for (const std::string& name : {e->conditional->true_graph, e->conditional->false_graph})
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  return names;
}

void render_function(std::ostream& s, const CompiledProgram& compiled, const std::string& function_name);

// The program's kernels, then each subgraph's definitions, then its wrapper function.
void render_definitions(std::ostream& s, const CompiledProgram& compiled, const std::string& function_name) {
  const LoopProgram& program = compiled.program();
  for (const ScheduledStep& step : compiled.schedule().steps)
    if (const auto* k = std::get_if<FusedKernel>(&step))
      s << k->name << " = " << compiled.backend().source_loader() << "('''\n" << compiled.backend().render_kernel(program, *k)
        << "''')\n\n\n";
  for (const std::string& name : subgraph_names(program)) {
    render_definitions(s, *compiled.subgraphs().at(name), name);
    s << "\n\n";
  }
  render_function(s, compiled, function_name);
}

// A conditional as Inductor's wrapper runs it: the predicate read as a number picks the subgraph
// function called on the operands.
void render_conditional(std::ostream& s, const LoopProgram& program, const ExternNode& e) {
  std::string outs, operands;
  for (int b : e.outputs) outs += (b >= 0 ? program.buffers[b].name : std::string("_")) + ", ";
  for (size_t i = 1; i < e.args.size(); ++i) operands += program.buffers[e.args[i].buffer.value()].name + ", ";  // cond operands are tensors
  s << "    if " << program.buffers[*e.args.at(0).buffer].name << ".item():\n";
  s << "        # subgraph: " << e.conditional->true_graph << "\n";
  s << "        " << outs << "= " << e.conditional->true_graph << "([" << operands << "])\n";
  s << "    else:\n";
  s << "        # subgraph: " << e.conditional->false_graph << "\n";
  s << "        " << outs << "= " << e.conditional->false_graph << "([" << operands << "])\n";
}

void render_function(std::ostream& s, const CompiledProgram& compiled, const std::string& function_name) {
  const LoopProgram& program = compiled.program();
  s << "def " << function_name << "(args):\n    ";
  for (size_t i = 0; i < program.inputs.size(); ++i) s << program.input_names[i] << ", ";
  s << "= args\n    args.clear()\n";
  for (const SizeSymbolSource& source : program.size_symbols) {
    const std::string input = program.input_names[static_cast<size_t>(source.input)];
    switch (source.kind) {
      case SizeSymbolSource::Kind::IntInput: s << "    " << source.symbol << " = " << input << "\n"; break;
      case SizeSymbolSource::Kind::Size: s << "    " << source.symbol << " = " << input << ".size(" << source.dim << ")\n"; break;
      case SizeSymbolSource::Kind::Stride: s << "    " << source.symbol << " = " << input << ".stride(" << source.dim << ")\n"; break;
    }
  }
  std::vector<int> last_use(program.buffers.size(), -1);
  for (size_t i = 0; i < compiled.schedule().steps.size(); ++i) {
    const ScheduledStep& step = compiled.schedule().steps[i];
    const std::vector<int> reads = std::holds_alternative<FusedKernel>(step) ? std::get<FusedKernel>(step).buffers
                                                                              : node_reads(program.nodes[std::get<ExternStep>(step).node]);
    for (int b : reads) last_use[b] = static_cast<int>(i);
  }
  for (const ProgramOutput& out : program.outputs)
    if (out.buffer >= 0) last_use[out.buffer] = -2;
  for (size_t i = 0; i < compiled.schedule().steps.size(); ++i) {
    const ScheduledStep& step = compiled.schedule().steps[i];
    if (const auto* k = std::get_if<FusedKernel>(&step)) {
      std::string args;
      for (const KernelMember& m : k->members) {
        const int out = std::get<ComputedNode>(program.nodes[m.node]).output;
        const BufferLayout& layout = program.buffers[out].layout;
        if (compiled.reuse()[out] >= 0)
          s << "    " << program.buffers[out].name << " = " << program.buffers[compiled.reuse()[out]].name << "; del "
            << program.buffers[compiled.reuse()[out]].name << "  # reuse\n";
        else
          s << "    " << program.buffers[out].name << " = " << compiled.backend().allocation_call() << "(" << size_tuple(layout.sizes) << ", "
            << size_tuple(layout.strides) << ", torch." << ir::dtypeTorchName(layout.dtype) << ")\n";
      }
      for (int b : k->buffers) args += program.buffers[b].name + ", ";
      for (const std::string& symbol : k->size_symbols) args += symbol + ", ";
      s << "    " << k->name << "(" << args << "0, " << k->outer_size.str() << ")";
      if (k->size_symbols.empty()) s << "  # parallel chunks of " << kernel_launch(*k, {}).grain;
      s << "\n";
    } else {
      const ExternNode& e = std::get<ExternNode>(program.nodes[std::get<ExternStep>(step).node]);
      if (e.conditional) render_conditional(s, program, e);
      std::string outs, ins;
      for (int b : e.outputs) outs += (outs.empty() ? "" : ", ") + (b >= 0 ? program.buffers[b].name : std::string("_"));
      for (int b : node_reads(program.nodes[std::get<ExternStep>(step).node])) ins += (ins.empty() ? "" : ", ") + program.buffers[b].name;
      if (!e.conditional) s << "    " << outs << " = " << e.kernel_name << "(" << ins << ")\n";
    }
    std::string freed;
    const std::vector<int> touched = std::holds_alternative<FusedKernel>(step) ? std::get<FusedKernel>(step).buffers
                                                                                : node_reads(program.nodes[std::get<ExternStep>(step).node]);
    for (int b : touched)
      if (last_use[b] == static_cast<int>(i) && program.buffers[b].kind != Buffer::Kind::Input) freed += (freed.empty() ? "" : ", ") + program.buffers[b].name;
    if (!freed.empty()) s << "    del " << freed << "\n";
  }
  s << "    return (";
  for (const ProgramOutput& out : program.outputs)
    s << (out.size ? out.size->str() : out.buffer >= 0 ? program.buffers[out.buffer].name : std::string("None")) << ", ";
  s << ")\n";
}

}  // namespace

std::string render_output_code(const CompiledProgram& compiled, const std::string& aot_label) {
  std::ostringstream s;
  s << "# AOT ID: ['" << aot_label << "']\n";
  s << "# Kiln inductor: each kernel below is LLVM IR JIT-compiled in process (shown as C-like code);\n";
  s << "# call() is the wrapper that runs them.\n";
  s << "import torch\nfrom torch import empty_strided\n\naten = torch.ops.aten\n\n";
  render_definitions(s, compiled, "call");
  return s.str();
}

}  // namespace kiln::inductor
