#include "libcompiler/inductor/output_code.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "libcompiler/tensor/python_number_format.h"

namespace kiln::inductor {

namespace {

std::string c_type(ir::Dtype dtype) {
  switch (dtype) {
    case ir::Dtype::Float32: return "float";
    case ir::Dtype::Float64: return "double";
    case ir::Dtype::Int64: return "int64_t";
    case ir::Dtype::Int32: return "int32_t";
    case ir::Dtype::Bool: return "bool";
    default: return std::string(ir::dtypeTorchName(dtype));
  }
}

std::string size_tuple(const std::vector<SizeExpr>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].str();
  return out + (values.size() == 1 ? ",)" : ")");
}

std::string c_expr(const Expr& e, const std::vector<std::string>& args, const std::string& index) {
  switch (e.kind) {
    case Expr::Kind::Load: return "";  // handled by the caller (needs the pointer name)
    case Expr::Kind::Constant: return "static_cast<" + c_type(e.dtype) + ">(" + tensor::python_float_repr(e.value) + ")";
    case Expr::Kind::IndexValue: return "static_cast<" + c_type(e.dtype) + ">(" + index + ")";
    case Expr::Kind::Cast: return "static_cast<" + c_type(e.dtype) + ">(" + args[0] + ")";
    case Expr::Kind::Op: break;
  }
  static const std::unordered_map<std::string, std::string> infix = {
      {"add", "+"}, {"sub", "-"}, {"mul", "*"}, {"truediv", "/"}, {"lt", "<"}, {"le", "<="}, {"gt", ">"},
      {"ge", ">="}, {"eq", "=="}, {"ne", "!="}, {"logical_and", "&&"}, {"logical_or", "||"}};
  const std::string name = scalar_op_name(e.op);
  if (auto it = infix.find(name); it != infix.end()) return args[0] + " " + it->second + " " + args[1];
  if (e.op == ScalarOp::Where) return args[0] + " ? " + args[1] + " : " + args[2];
  if (e.op == ScalarOp::Neg) return "-" + args[0];
  if (e.op == ScalarOp::LogicalNot) return "!" + args[0];
  std::string call = name + "(";
  for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  return call + ")";
}

std::string index_text(const IndexExpr& index) { return index.str(kernel_var_name); }

// The member's statements: one `auto tmpN = ...;` per DAG node, operands first.
std::string body_lines(const ExprRef& root, const std::function<std::string(int)>& pointer, const std::string& indent,
                       std::string& result) {
  std::string out;
  std::unordered_map<const Expr*, std::string> names;
  std::function<std::string(const ExprRef&)> walk = [&](const ExprRef& e) -> std::string {
    if (auto it = names.find(e.get()); it != names.end()) return it->second;
    std::vector<std::string> args;
    for (const ExprRef& a : e->args) args.push_back(walk(a));
    const std::string rhs = e->kind == Expr::Kind::Load ? pointer(e->buffer) + "[" + index_text(e->index) + "]"
                                                        : c_expr(*e, args, index_text(e->index));
    const std::string tmp = "tmp" + std::to_string(names.size());
    out += indent + "auto " + tmp + " = " + rhs + ";\n";
    names[e.get()] = tmp;
    return tmp;
  };
  result = walk(root);
  return out;
}

}  // namespace

std::string render_kernel(const LoopProgram& program, const FusedKernel& kernel) {
  std::set<int> written;
  for (const KernelMember& m : kernel.members) written.insert(std::get<ComputedNode>(program.nodes[m.node]).output);
  std::unordered_map<int, std::string> pointer;
  std::string params;
  int in = 0, out = 0;
  for (int b : kernel.buffers) {
    const bool is_out = written.count(b) > 0;
    pointer[b] = is_out ? "out_ptr" + std::to_string(out++) : "in_ptr" + std::to_string(in++);
    params += std::string(is_out ? "" : "const ") + c_type(program.buffers[b].layout.dtype) + "* " + pointer[b] + ", ";
  }
  for (const std::string& symbol : kernel.size_symbols) params += "const int64_t " + symbol + ", ";
  std::ostringstream s;
  s << "extern \"C\" int " << kernel.name << "(" << params << "int64_t begin, int64_t end)\n{\n";
  s << "    // parallel: [begin, end) is one chunk of x0 in [0, " << kernel.outer_size.str() << ")\n";
  s << "    for (int64_t x0 = begin; x0 < end; x0++)\n    {\n";
  for (const KernelMember& m : kernel.members) {
    const ComputedNode& node = std::get<ComputedNode>(program.nodes[m.node]);
    const std::string& dst = pointer[node.output];
    std::string result;
    const auto ptr = [&](int b) { return pointer.at(b); };
    if (node.reduction) {
      const std::string acc = "tmp_acc_" + program.buffers[node.output].name;
      s << "        " << c_type(program.buffers[node.output].layout.dtype) << " " << acc << " = " << reduction_type_name(*node.reduction)
        << "_identity;\n";
      s << "        for (int64_t r0 = 0; r0 < " << m.inner_size.str() << "; r0++)  // vectorized\n        {\n";
      s << body_lines(m.body, ptr, "            ", result);
      s << "            " << acc << " = " << reduction_type_name(*node.reduction) << "_combine(" << acc << ", " << result << ");\n";
      s << "        }\n";
      s << "        " << dst << "[x0] = " << acc << ";\n";
    } else if (m.inner_size == size_constant(1)) {
      s << body_lines(m.body, ptr, "        ", result);
      s << "        " << dst << "[x0] = " << result << ";\n";
    } else {
      s << "        for (int64_t r0 = 0; r0 < " << m.inner_size.str() << "; r0++)  // vectorized\n        {\n";
      s << body_lines(m.body, ptr, "            ", result);
      s << "            " << dst << "[" << m.inner_size.str() << "*x0 + r0" << "] = " << result << ";\n";
      s << "        }\n";
    }
  }
  s << "    }\n    return 0;\n}\n";
  return s.str();
}

namespace {

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
      s << k->name << " = async_compile.llvm('''\n" << render_kernel(program, *k) << "''')\n\n\n";
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
          s << "    " << program.buffers[out].name << " = empty_strided_cpu(" << size_tuple(layout.sizes) << ", "
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
