#include "libcompiler/inductor/loop_ir.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace kiln::inductor {

namespace {

std::string size_list(const std::vector<SizeExpr>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + values[i].str();
  return out + "]";
}

std::string layout_text(const BufferLayout& layout) {
  return "FixedLayout('cpu', torch." + std::string(ir::dtypeTorchName(layout.dtype)) + ", size=" + size_list(layout.sizes) +
         ", stride=" + size_list(layout.strides) + (layout.offset != size_constant(0) ? ", offset=" + layout.offset.str() : "") + ")";
}

int64_t value_of(const SizeExpr& e, const std::map<std::string, int64_t>& symbols) {
  if (auto c = e.constant()) return *c;
  if (auto v = e.evaluate(symbols)) return *v;
  throw std::logic_error("inductor: no value for a size symbol of " + e.str());
}

void collect_reads(const ExternArgument& arg, std::vector<int>& out) {
  if (arg.buffer) out.push_back(*arg.buffer);
  for (const ExternArgument& item : arg.list) collect_reads(item, out);
}

}  // namespace

SizeExpr BufferLayout::numel() const {
  SizeExpr n = size_constant(1);
  for (const SizeExpr& s : sizes) n = n * s;
  return n;
}

// Symbolic sizes are at least 2, so only a constant size can make the tensor empty.
SizeExpr BufferLayout::storage_size() const {
  SizeExpr last = offset;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == size_constant(0)) return size_constant(0);
    last = last + (sizes[i] - size_constant(1)) * strides[i];
  }
  return last + size_constant(1);
}

BufferLayout::Concrete BufferLayout::evaluate(const std::map<std::string, int64_t>& symbols) const {
  Concrete out;
  out.device = device;
  out.dtype = dtype;
  for (const SizeExpr& s : sizes) out.sizes.push_back(value_of(s, symbols));
  for (const SizeExpr& s : strides) out.strides.push_back(value_of(s, symbols));
  out.offset = value_of(offset, symbols);
  return out;
}

int64_t BufferLayout::Concrete::storage_size() const {
  int64_t last = offset;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) return 0;
    last += (sizes[i] - 1) * strides[i];
  }
  return last + 1;
}

std::string reduction_type_name(ReductionType type) {
  switch (type) {
    case ReductionType::Sum: return "sum";
    case ReductionType::Max: return "max";
    case ReductionType::Min: return "min";
    case ReductionType::Prod: return "prod";
  }
  return "";
}

VarRanges ComputedNode::var_ranges() const {
  VarRanges ranges;
  int v = 0;
  for (const SizeExpr& r : this->ranges) ranges[v++] = r;
  for (const SizeExpr& r : reduction_ranges) ranges[v++] = r;
  return ranges;
}

int LoopProgram::add_buffer(Buffer buffer) {
  buffer.layout.device = device;
  if (buffer.name.empty()) {
    int computed = 0;
    for (const Buffer& b : buffers) computed += b.kind != Buffer::Kind::Input;
    buffer.name = "buf" + std::to_string(computed);
  }
  buffers.push_back(std::move(buffer));
  return static_cast<int>(buffers.size()) - 1;
}

std::vector<int> node_reads(const LoopNode& node) {
  std::vector<int> out;
  if (const auto* c = std::get_if<ComputedNode>(&node)) return loaded_buffers(c->body);
  for (const ExternArgument& a : std::get<ExternNode>(node).args) collect_reads(a, out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> node_writes(const LoopNode& node) {
  if (const auto* c = std::get_if<ComputedNode>(&node)) return {c->output};
  std::vector<int> out;
  for (int b : std::get<ExternNode>(node).outputs)
    if (b >= 0) out.push_back(b);
  return out;
}

std::string print_loop_node(const LoopProgram& program, const LoopNode& node) {
  std::ostringstream out;
  const auto buffer_name = [&](int b) { return program.buffers[b].name; };
  if (const auto* c = std::get_if<ComputedNode>(&node)) {
    const Buffer& buf = program.buffers[c->output];
    out << buf.name << ": ComputedBuffer\n";
    out << buf.name << ".layout = " << layout_text(buf.layout) << "\n";
    out << buf.name << ".origins = {" << c->origin << "}\n";
    out << "class " << buf.name << "_loop_body:\n";
    out << "    var_ranges = {";
    int v = 0;
    for (const SizeExpr& r : c->ranges) out << (v ? ", " : "") << "p" << v << ": " << r.str(), ++v;
    for (const SizeExpr& r : c->reduction_ranges) out << (v ? ", " : "") << "p" << v << ": " << r.str(), ++v;
    out << "}\n";
    out << "    def body(self, ops):\n";
    std::vector<std::string> lines;
    const std::string root = print_expr(c->body, buffer_name, [](int var) { return "p" + std::to_string(var); }, lines);
    for (const std::string& line : lines) out << "        " << line << "\n";
    std::string value = root;
    if (c->reduction) {
      out << "        reduction = ops.reduction(torch." << ir::dtypeTorchName(buf.layout.dtype) << ", '"
          << reduction_type_name(*c->reduction) << "', " << root << ")\n";
      value = "reduction";
    }
    out << "        store = ops.store('" << buf.name << "', <contiguous index>, " << value << ")\n";
    out << "        return store\n";
    return out.str();
  }
  const ExternNode& e = std::get<ExternNode>(node);
  std::string outputs;
  for (int b : e.outputs) outputs += (outputs.empty() ? "" : ", ") + (b >= 0 ? program.buffers[b].name : std::string("_"));
  out << outputs << ": ExternKernel " << e.kernel_name << "\n";
  for (int b : e.outputs)
    if (b >= 0) out << program.buffers[b].name << ".layout = " << layout_text(program.buffers[b].layout) << "\n";
  out << "    args: ";
  std::vector<int> reads = node_reads(node);
  for (size_t i = 0; i < reads.size(); ++i) out << (i ? ", " : "") << buffer_name(reads[i]);
  out << "\n    origins = {" << e.origin << "}\n";
  return out.str();
}

std::string print_loop_program(const LoopProgram& program) {
  std::string out;
  for (const LoopNode& node : program.nodes) out += print_loop_node(program, node) + "\n";
  return out;
}

}  // namespace kiln::inductor
