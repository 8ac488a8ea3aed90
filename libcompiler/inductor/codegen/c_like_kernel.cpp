#include "libcompiler/inductor/codegen/c_like_kernel.h"

#include <functional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "libcompiler/tensor/python_number_format.h"

namespace kiln::inductor {

namespace {

enum class CForm { Infix, Prefix, Call, Select };

struct CSpelling {
  CForm form;
  const char* text;
};

const CSpelling& c_spelling(ScalarOp op) {
  static const CSpelling table[] = {
#define KILN_SCALAR_OP(Enumerator, Name, Kind, Form, Spelling) {CForm::Form, Spelling},
#include "libcompiler/inductor/scalar_ops.def"
  };
  return table[static_cast<int>(op)];
}

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

std::string c_expr(const Expr& e, const std::vector<std::string>& args, const std::string& index) {
  switch (e.kind) {
    case Expr::Kind::Load: return "";  // handled by the caller (needs the pointer name)
    case Expr::Kind::Constant: return "static_cast<" + c_type(e.dtype) + ">(" + tensor::python_float_repr(e.value) + ")";
    case Expr::Kind::IndexValue: return "static_cast<" + c_type(e.dtype) + ">(" + index + ")";
    case Expr::Kind::Cast: return "static_cast<" + c_type(e.dtype) + ">(" + args[0] + ")";
    case Expr::Kind::Op: break;
  }
  const CSpelling& spelling = c_spelling(e.op);
  switch (spelling.form) {
    case CForm::Infix: return args[0] + " " + spelling.text + " " + args[1];
    case CForm::Prefix: return std::string(spelling.text) + args[0];
    case CForm::Select: return args[0] + " ? " + args[1] + " : " + args[2];
    case CForm::Call: break;
  }
  std::string call = std::string(spelling.text) + "(";
  for (size_t i = 0; i < args.size(); ++i) call += (i ? ", " : "") + args[i];
  return call + ")";
}

std::string index_text(const IndexExpr& index, const std::string& floor_division) { return index.str(kernel_var_name, floor_division); }

// The member's statements: one `auto tmpN = ...;` per DAG node, operands first.
std::string body_lines(const ExprRef& root, const std::function<std::string(int)>& pointer, const std::string& indent,
                       const std::string& floor_division, std::string& result) {
  std::string out;
  std::unordered_map<const Expr*, std::string> names;
  std::function<std::string(const ExprRef&)> walk = [&](const ExprRef& e) -> std::string {
    if (auto it = names.find(e.get()); it != names.end()) return it->second;
    std::vector<std::string> args;
    for (const ExprRef& a : e->args) args.push_back(walk(a));
    const std::string index = index_text(e->index, floor_division);
    const std::string rhs = e->kind == Expr::Kind::Load ? pointer(e->buffer) + "[" + index + "]" : c_expr(*e, args, index);
    const std::string tmp = "tmp" + std::to_string(names.size());
    out += indent + "auto " + tmp + " = " + rhs + ";\n";
    names[e.get()] = tmp;
    return tmp;
  };
  result = walk(root);
  return out;
}

}  // namespace

std::string CLikeFrame::sequential_inner_loop(const std::string& size) {
  return "for (int64_t r0 = 0; r0 < " + size + "; r0++)  // vectorized";
}

const CLikeFrame& cpu_listing_frame() {
  static const CLikeFrame frame{[](const FusedKernel& kernel, const std::string& parameters, bool) {
                                  return "extern \"C\" int " + kernel.name + "(" + parameters + "int64_t begin, int64_t end)\n{\n" +
                                         "    // parallel: [begin, end) is one chunk of x0 in [0, " + kernel.outer_size.str() + ")\n" +
                                         "    for (int64_t x0 = begin; x0 < end; x0++)\n    {\n";
                                },
                                "    }\n    return 0;\n}\n", "//"};
  return frame;
}

bool offsets_fit_30_bits(const LoopProgram& program, const FusedKernel& kernel) {
  constexpr int64_t kLimit = int64_t{1} << 30;
  const auto below_limit = [](const SizeExpr& size) {
    const std::optional<int64_t> value = size.constant();
    return value && *value < kLimit;
  };
  if (!below_limit(kernel.outer_size)) return false;
  const int64_t outer = *kernel.outer_size.constant();
  for (const KernelMember& m : kernel.members)
    if (!below_limit(m.inner_size) || outer * *m.inner_size.constant() >= kLimit) return false;
  for (int b : kernel.buffers)
    if (!below_limit(program.buffers[b].layout.storage_size())) return false;
  return true;
}

std::string render_c_like_kernel(const LoopProgram& program, const FusedKernel& kernel, const CLikeFrame& frame) {
  std::set<int> written;
  for (const KernelMember& m : kernel.members) written.insert(std::get<ComputedNode>(program.nodes[m.node]).output);
  std::unordered_map<int, std::string> pointer;
  std::string params;
  int in = 0, out = 0, reductions = 0;
  for (int b : kernel.buffers) {
    const bool is_out = written.count(b) > 0;
    pointer[b] = is_out ? "out_ptr" + std::to_string(out++) : "in_ptr" + std::to_string(in++);
    params += std::string(is_out ? "" : "const ") + c_type(program.buffers[b].layout.dtype) + "* " + frame.pointer_qualifier +
              pointer[b] + ", ";
  }
  for (const std::string& symbol : kernel.size_symbols) params += "const int64_t " + symbol + ", ";
  std::ostringstream s;
  s << frame.open(kernel, params, offsets_fit_30_bits(program, kernel));
  for (const KernelMember& m : kernel.members) {
    const ComputedNode& node = std::get<ComputedNode>(program.nodes[m.node]);
    const std::string& dst = pointer[node.output];
    std::string result;
    const auto ptr = [&](int b) { return pointer.at(b); };
    if (node.reduction) {
      // Numbered within the kernel, not after the buffer: kernels that compute alike read alike
      // (the CUDA backend compiles such kernels once).
      const int ordinal = reductions++;
      const std::string acc = "tmp_acc" + std::to_string(ordinal);
      const std::string reduction = reduction_type_name(*node.reduction);
      s << "        " << c_type(program.buffers[node.output].layout.dtype) << " " << acc << " = " << reduction << "_identity;\n";
      s << "        " << frame.inner_loop(m.inner_size.str()) << "\n        {\n";
      s << body_lines(m.body, ptr, "            ", frame.floor_division, result);
      s << "            " << acc << " = " << reduction << "_combine(" << acc << ", " << result << ");\n";
      s << "        }\n";
      if (frame.combine_threads) s << "        " << frame.combine_threads(acc, reduction, ordinal) << "\n";
      s << "        " << frame.one_thread << dst << "[x0] = " << acc << ";\n";
    } else if (m.inner_size == size_constant(1)) {
      // A block of its own: the next member's temporaries have the same names.
      s << "        " << frame.one_thread << "{\n" << body_lines(m.body, ptr, "            ", frame.floor_division, result);
      s << "            " << dst << "[x0] = " << result << ";\n        }\n";
    } else {
      s << "        " << frame.inner_loop(m.inner_size.str()) << "\n        {\n";
      s << body_lines(m.body, ptr, "            ", frame.floor_division, result);
      s << "            " << dst << "[" << m.inner_size.str() << "*x0 + r0" << "] = " << result << ";\n";
      s << "        }\n";
    }
    if (*frame.barrier) s << "        " << frame.barrier << "\n";
  }
  s << frame.close;
  return s.str();
}

}  // namespace kiln::inductor
