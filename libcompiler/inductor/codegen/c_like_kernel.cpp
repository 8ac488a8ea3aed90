#include "libcompiler/inductor/codegen/c_like_kernel.h"

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "libcompiler/ir/tensor_types.h"
#include "libcompiler/tensor/dtype.h"
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

// A buffer's element type in memory: half and bfloat16 as the kernel preamble's 16-bit structs.
std::string c_type(ir::Dtype dtype) {
  switch (dtype) {
    case ir::Dtype::Float32: return "float";
    case ir::Dtype::Float64: return "double";
    case ir::Dtype::Int64: return "int64_t";
    case ir::Dtype::Int32: return "int32_t";
    case ir::Dtype::Bool: return "bool";
    case ir::Dtype::Float16: return "kiln_half";
    case ir::Dtype::BFloat16: return "kiln_bfloat16";
    default: return std::string(ir::dtypeTorchName(dtype));
  }
}

bool is_reduced_float(ir::Dtype dtype) { return dtype == ir::Dtype::Float16 || dtype == ir::Dtype::BFloat16; }

// A value's type in a statement: half and bfloat16 values are computed in float32, as Inductor
// computes them; a conversion to them rounds (kiln_to_half / kiln_to_bfloat16), as a store does.
std::string value_type(ir::Dtype dtype) { return is_reduced_float(dtype) ? "float" : c_type(dtype); }

std::string converted(ir::Dtype dtype, const std::string& value) {
  const std::string cast = "static_cast<" + value_type(dtype) + ">(" + value + ")";
  if (!is_reduced_float(dtype)) return cast;
  return std::string(dtype == ir::Dtype::Float16 ? "kiln_to_half(" : "kiln_to_bfloat16(") + cast + ")";
}

// A load or store of one element: half and bfloat16 through the preamble's converting kiln_load
// and kiln_store, everything else as an array element.
std::string loaded(ir::Dtype dtype, const std::string& pointer, const std::string& index) {
  return is_reduced_float(dtype) ? "kiln_load(" + pointer + " + (" + index + "))" : pointer + "[" + index + "]";
}
std::string stored(ir::Dtype dtype, const std::string& pointer, const std::string& index, const std::string& value) {
  return is_reduced_float(dtype) ? "kiln_store(" + pointer + " + (" + index + "), " + value + ");" : pointer + "[" + index + "] = " + value + ";";
}

std::string c_expr(const Expr& e, const std::vector<std::string>& args, const std::string& index) {
  switch (e.kind) {
    case Expr::Kind::Load: return "";  // handled by the caller (needs the pointer name)
    case Expr::Kind::Constant: return converted(e.dtype, tensor::python_float_repr(e.value));
    case Expr::Kind::IndexValue: return converted(e.dtype, index);
    case Expr::Kind::Cast: return converted(e.dtype, args[0]);
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

// How a statement reads a load of the loop IR, given the load's index as text.
using LoadText = std::function<std::string(const Expr& load, const std::string& index)>;

// Loads of one element each, from the buffers `pointer` names; a load at x0 of a buffer whose
// value for x0 the row's threads hold (`row_values`: the local that holds it) reads that local.
LoadText element_loads(const std::unordered_map<int, std::string>& pointer, const std::unordered_map<int, std::string>& row_values) {
  return [&pointer, &row_values](const Expr& e, const std::string& index) {
    if (const auto held = row_values.find(e.buffer); held != row_values.end() && e.index.key() == IndexExpr::var(kOuterVar).key())
      return held->second;
    return loaded(e.dtype, pointer.at(e.buffer), index);
  };
}

// The member's statements: one `auto tmpN = ...;` per DAG node, operands first.
std::string body_lines(const ExprRef& root, const LoadText& load_text, const std::string& indent, const std::string& floor_division,
                       std::string& result) {
  std::string out;
  std::unordered_map<const Expr*, std::string> names;
  std::function<std::string(const ExprRef&)> walk = [&](const ExprRef& e) -> std::string {
    if (auto it = names.find(e.get()); it != names.end()) return it->second;
    std::vector<std::string> args;
    for (const ExprRef& a : e->args) args.push_back(walk(a));
    const std::string index = index_text(e->index, floor_division);
    const std::string rhs = e->kind == Expr::Kind::Load ? load_text(*e, index) : c_expr(*e, args, index);
    const std::string tmp = "tmp" + std::to_string(names.size());
    out += indent + "auto " + tmp + " = " + rhs + ";\n";
    names[e.get()] = tmp;
    return tmp;
  };
  result = walk(root);
  return out;
}

void visit_loads(const ExprRef& e, const std::function<void(const Expr&)>& visit) {
  if (e->kind == Expr::Kind::Load) visit(*e);
  for (const ExprRef& a : e->args) visit_loads(a, visit);
}

int written_buffer(const LoopProgram& program, const KernelMember& member) {
  return std::get<ComputedNode>(program.nodes[member.node]).output;
}

std::string quad_name(const std::string& pointer) { return pointer + "_quad"; }

// A member's statements for the four positions of quad `quad`, a block each in which `var` (x0 or
// r0) is the lane's position, loads of `quad_buffers` read from their quads (`<pointer>_quad`),
// other loads as `element_load` reads them; `use(result, component)` is the lane's last statement.
std::string quad_lanes(const ExprRef& body, const std::string& var, const std::string& quad, const std::set<int>& quad_buffers,
                       const std::unordered_map<int, std::string>& pointer, const LoadText& element_load,
                       const std::string& floor_division, const std::string& indent,
                       const std::function<std::string(const std::string& result, const std::string& component)>& use) {
  static const char* const kLanes[] = {"x", "y", "z", "w"};
  std::string out;
  for (int lane = 0; lane < 4; ++lane) {
    const std::string component = std::string(".") + kLanes[lane];
    const LoadText load = [&](const Expr& e, const std::string& index) {
      return quad_buffers.count(e.buffer) ? quad_name(pointer.at(e.buffer)) + component : element_load(e, index);
    };
    std::string result;
    out += indent + "{\n" + indent + "    const kiln_index " + var + " = 4 * " + quad + " + " + std::to_string(lane) + ";\n";
    out += body_lines(body, load, indent + "    ", floor_division, result);
    out += indent + "    " + use(result, component) + "\n" + indent + "}\n";
  }
  return out;
}

// The statements of a kernel's quad q: the quads of the buffers it only reads, loaded first; then
// each member's lanes; a member whose output is a quad buffer assembles that quad and stores it.
std::string point_quads_body(const LoopProgram& program, const FusedKernel& kernel, const std::set<int>& quad_buffers,
                             const std::unordered_map<int, std::string>& pointer, const std::set<int>& written,
                             const std::string& floor_division) {
  const std::unordered_map<int, std::string> no_row_values;
  std::ostringstream s;
  for (int b : kernel.buffers)
    if (quad_buffers.count(b))
      s << "        " << (written.count(b) ? "kiln_quad " + quad_name(pointer.at(b))
                                           : "const kiln_quad " + quad_name(pointer.at(b)) + " = kiln_load_quad(" + pointer.at(b) + ", q)")
        << ";\n";
  for (const KernelMember& m : kernel.members) {
    const int out = written_buffer(program, m);
    const std::string& dst = pointer.at(out);
    const bool quad_out = quad_buffers.count(out) > 0;
    s << quad_lanes(m.body, "x0", "q", quad_buffers, pointer, element_loads(pointer, no_row_values), floor_division, "        ",
                    [&](const std::string& result, const std::string& c) {
      return quad_out ? quad_name(dst) + c + " = " + result + ";" : stored(program.buffers[out].layout.dtype, dst, "x0", result);
    });
    if (quad_out) s << "        kiln_store_quad(" << dst << ", q, " << quad_name(dst) << ");\n";
  }
  return s.str();
}

// What a member's loop over r0 may move four neighbouring r0 at a time: the float32 buffers other
// than its output, each read by the member at one index r0 + c where c is a multiple of four (so
// that a quad starts where the buffer's pointer is 16-byte aligned), and the member's output when
// it is float32 and written at inner*x0 + r0. Only for rows whose length is a known multiple of 4.
// A buffer an earlier member wrote is read after the row's threads waited for each other, through
// the coherent path (kiln_load_written_quad), not the read-only cache.
struct RowQuads {
  std::set<int> loads;
  std::map<int, IndexExpr> row_start;  // per quad load: its index at r0 = 0
  bool store = false;
};

bool multiple_of_four(const SizeExpr& size) {
  const std::optional<int64_t> value = size.constant();
  return value && *value % 4 == 0;
}

RowQuads row_quads(const LoopProgram& program, const FusedKernel& kernel, const KernelMember& member) {
  RowQuads quads;
  if (member.inner_size == size_constant(1) || !multiple_of_four(member.inner_size)) return quads;
  std::map<int, std::string> index_of;
  std::set<int> refused;
  visit_loads(member.body, [&](const Expr& load) {
    const IndexExpr& index = load.index;
    bool fits = load.buffer != written_buffer(program, member) && program.buffers[load.buffer].layout.dtype == ir::Dtype::Float32 &&
                index.affine_in(kInnerVar) && index.coefficient_of(kInnerVar) == size_constant(1) && multiple_of_four(index.constant_term());
    for (const IndexTerm& term : index.terms())
      if (!(term.atom.kind == IndexAtom::Kind::Var && term.atom.var == kInnerVar)) fits = fits && multiple_of_four(term.coefficient);
    const auto [at, added] = index_of.try_emplace(load.buffer, index.key());
    if (!fits || at->second != index.key()) refused.insert(load.buffer);
    else if (added)
      quads.row_start[load.buffer] =
          index.substitute({{kInnerVar, IndexExpr::constant(0)}}, {{kOuterVar, kernel.outer_size}, {kInnerVar, member.inner_size}});
  });
  for (const auto& [buffer, start] : quads.row_start)
    if (!refused.count(buffer)) quads.loads.insert(buffer);
  for (int b : refused) quads.row_start.erase(b);
  quads.store = !member.reduces && program.buffers[written_buffer(program, member)].layout.dtype == ir::Dtype::Float32;
  if (quads.loads.empty() && !quads.store) return {};
  return quads;
}

// A row held in registers for the whole x0, `quads` quads from `start`: one the kernel only reads
// (loaded at the start of the x0), or one of its private rows (computed by a member).
struct ResidentRow {
  IndexExpr start;
  int64_t quads = 0;
  bool computed = false;
};

// What rendering one kernel's statements reads: its program, its frame, its buffers' names, the
// rows it holds in registers and the row values its threads hold.
struct KernelText {
  const LoopProgram& program;
  const FusedKernel& kernel;
  const CLikeFrame& frame;
  const std::unordered_map<int, std::string>& pointer;
  const std::set<int>& written;
  const std::map<int, ResidentRow>& resident;
  const std::unordered_map<int, std::string>& row_values;  // grows as members are rendered
};

std::string resident_name(const std::string& pointer) { return pointer + "_row"; }

// The most quads a thread keeps in registers across a kernel's members (32 floats).
constexpr int64_t kResidentQuads = 8;

// Rows a Rows kernel keeps in registers for the whole x0, as Triton's persistent reductions keep a
// row, where the frame's threads take a known number of a row's quads each (quads_per_thread), at
// most kResidentQuads in all, first come first kept:
// - its private rows (kernel_private_rows: softmax's exp) that every member reads and writes as
//   quads: each thread reads back only the quads it computed, so they need neither shared memory
//   nor a barrier;
// - rows of buffers it only reads that more than one member reads as the same quads (layer norm's
//   input: the mean's, the variance's and the normalization's loops), loaded once instead of by
//   each loop (from L1, at best).
std::map<int, ResidentRow> resident_rows(const LoopProgram& program, const FusedKernel& kernel, const CLikeFrame& frame,
                                         const std::set<int>& written, const std::map<int, int64_t>& private_rows) {
  if (!frame.quads_per_thread) return {};
  std::map<int, ResidentRow> rows;
  std::map<int, int> readers;
  std::set<int> refused;
  const auto offer = [&](int b, const ResidentRow& row) {
    const auto [at, added] = rows.try_emplace(b, row);
    if (!added && (at->second.start.key() != row.start.key() || at->second.quads != row.quads)) refused.insert(b);
  };
  for (const KernelMember& m : kernel.members) {
    const RowQuads quads = row_quads(program, kernel, m);
    const int64_t count = quads.loads.empty() && !quads.store ? 0 : *m.inner_size.constant() / 4;
    for (int b : quads.loads) {
      offer(b, {quads.row_start.at(b), count, written.count(b) > 0});
      ++readers[b];
    }
    visit_loads(m.body, [&](const Expr& load) {
      if (!quads.loads.count(load.buffer)) refused.insert(load.buffer);
    });
    const int out = written_buffer(program, m);
    if (quads.store && !m.reduces && private_rows.count(out))
      offer(out, {IndexExpr::var(kOuterVar) * *m.inner_size.constant(), count, true});
    else if (written.count(out)) refused.insert(out);
  }
  std::vector<int> order;
  for (const auto& [b, row] : rows)
    if (row.computed) order.insert(order.begin(), b);
    else order.push_back(b);
  std::map<int, ResidentRow> kept;
  int64_t quads_kept = 0;
  for (int b : order) {
    const ResidentRow& row = rows.at(b);
    const int64_t per_thread = frame.quads_per_thread(kernel, row.quads);
    if (refused.count(b) || per_thread == 0 || quads_kept + per_thread > kResidentQuads) continue;
    if (row.computed ? !private_rows.count(b) : readers[b] < 2) continue;
    quads_kept += per_thread;
    kept.emplace(b, row);
  }
  return kept;
}

// The resident rows' registers, declared at the start of an x0, and the quads of those the kernel
// only reads loaded there, each thread its own.
std::string load_resident_rows(const KernelText& k) {
  std::string lines;
  for (const auto& [b, row] : k.resident) {
    const std::string& pointer = k.pointer.at(b);
    lines += "        kiln_quad " + resident_name(pointer) + "[" + std::to_string(k.frame.quads_per_thread(k.kernel, row.quads)) + "];\n";
    if (!row.computed)
      lines += k.frame.open_quad_loop(k.kernel, row.quads) + "            " + resident_name(pointer) + "[r4_step] = kiln_load_quad(" +
               pointer + " + (" + index_text(row.start, k.frame.floor_division) + "), r4);\n        }\n";
  }
  return lines;
}

// A member's loop over r0, each r0's value combined into a reduction's accumulator (`combine`:
// "acc = sum_combine(acc, ") or stored at inner*x0 + r0 (`combine` empty): over the row's quads of
// r0 with a frame that moves quads, when the member's buffers allow, else one r0 at a time.
std::string row_loop(const KernelText& k, const KernelMember& m, const std::string& combine) {
  const int out = written_buffer(k.program, m);
  const std::string& dst = k.pointer.at(out);
  const ir::Dtype dtype = k.program.buffers[out].layout.dtype;
  const auto use = [&](const std::string& value) {
    return combine.empty() ? stored(dtype, dst, m.inner_size.str() + "*x0 + r0", value) : combine + value + ");";
  };
  const RowQuads quads = k.frame.open_quad_loop ? row_quads(k.program, k.kernel, m) : RowQuads{};
  const bool store_quads = quads.store && combine.empty();
  if (quads.loads.empty() && !store_quads) {
    const LoadText load = element_loads(k.pointer, k.row_values);
    std::string result;
    const std::string statements = body_lines(m.body, load, "            ", k.frame.floor_division, result);
    const std::string loop =
        "        " + k.frame.inner_loop(m.inner_size.str()) + "\n        {\n" + statements + "            " + use(result) + "\n        }\n";
    if (!k.frame.batch_loop) return loop;
    // A block of its own: each member's loops declare their r0_batch.
    std::string batch = "        {\n        " + k.frame.batch_loop(m.inner_size.str()) + "\n        {\n";
    for (int i = 0; i < k.frame.batch; ++i) {
      batch += "            {\n                const kiln_index r0 = r0_batch + " + std::to_string(i) + " * kiln_r0_step;\n" +
               body_lines(m.body, load, "                ", k.frame.floor_division, result) + "                " + use(result) +
               "\n            }\n";
    }
    return batch + "        }\n" + loop + "        }\n";
  }
  std::string body = k.frame.open_quad_loop(k.kernel, *m.inner_size.constant() / 4);
  for (int b : quads.loads) {
    const std::string& pointer = k.pointer.at(b);
    body += "            const kiln_quad " + quad_name(pointer) + " = ";
    if (k.resident.count(b)) body += resident_name(pointer) + "[r4_step];\n";
    else
      body += (k.written.count(b) ? "kiln_load_written_quad(" : "kiln_load_quad(") + pointer + " + (" +
              index_text(quads.row_start.at(b), k.frame.floor_division) + "), r4);\n";
  }
  if (store_quads) body += "            kiln_quad " + quad_name(dst) + ";\n";
  body += quad_lanes(m.body, "r0", "r4", quads.loads, k.pointer, element_loads(k.pointer, k.row_values), k.frame.floor_division, "            ",
                     [&](const std::string& value, const std::string& component) {
                       return store_quads ? quad_name(dst) + component + " = " + value + ";" : use(value);
                     });
  if (store_quads && k.resident.count(out)) body += "            " + resident_name(dst) + "[r4_step] = " + quad_name(dst) + ";\n";
  else if (store_quads) body += "            kiln_store_quad(" + dst + " + " + m.inner_size.str() + "*x0, r4, " + quad_name(dst) + ");\n";
  return body + "        }\n";
}

}  // namespace

std::set<int> point_quad_buffers(const LoopProgram& program, const FusedKernel& kernel) {
  std::set<int> quads, elsewhere, written;
  const std::string at_x0 = IndexExpr::var(kOuterVar).key();
  for (const KernelMember& m : kernel.members) {
    if (m.reduces || !(m.inner_size == size_constant(1))) return {};
    visit_loads(m.body, [&](const Expr& load) { (load.index.key() == at_x0 ? quads : elsewhere).insert(load.buffer); });
    const int out = written_buffer(program, m);
    // Read before this member writes it (an in-place update): a quad is either loaded or assembled.
    if (quads.count(out) || elsewhere.count(out)) return {};
    written.insert(out);
    quads.insert(out);
  }
  std::set<int> result;
  for (int b : quads)
    if (!elsewhere.count(b) && program.buffers[b].layout.dtype == ir::Dtype::Float32) result.insert(b);
  for (int b : written)
    if (elsewhere.count(b)) return {};  // a point of a buffer this kernel writes, read by another thread
  return result;
}

std::map<int, int64_t> kernel_private_rows(const LoopProgram& program, const FusedKernel& kernel) {
  std::map<int, int64_t> rows;
  std::set<int> members;
  for (const KernelMember& m : kernel.members) {
    members.insert(m.node);
    const std::optional<int64_t> length = m.inner_size.constant();
    const int out = written_buffer(program, m);
    if (!m.reduces && length && *length > 1 && program.buffers[out].kind == Buffer::Kind::Computed) rows[out] = *length;
  }
  for (const ProgramOutput& output : program.outputs) rows.erase(output.buffer);
  for (size_t n = 0; n < program.nodes.size(); ++n)
    if (!members.count(static_cast<int>(n)))
      for (int b : node_reads(program.nodes[n])) rows.erase(b);
  for (const KernelMember& m : kernel.members)
    visit_loads(m.body, [&](const Expr& load) {
      const auto row = rows.find(load.buffer);
      if (row == rows.end()) return;
      const IndexExpr row_element = IndexExpr::var(kOuterVar) * row->second + IndexExpr::var(kInnerVar);
      if (!(m.inner_size == size_constant(row->second)) || load.index.key() != row_element.key()) rows.erase(row);
    });
  return rows;
}

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

std::set<int> row_value_buffers(const LoopProgram& program, const FusedKernel& kernel) {
  std::set<int> values, elsewhere;
  for (const KernelMember& m : kernel.members)
    if (m.reduces || m.inner_size == size_constant(1)) values.insert(written_buffer(program, m));
  const std::string at_x0 = IndexExpr::var(kOuterVar).key();
  for (const KernelMember& m : kernel.members)
    visit_loads(m.body, [&](const Expr& load) {
      if (load.index.key() != at_x0) elsewhere.insert(load.buffer);
    });
  for (int b : elsewhere) values.erase(b);
  return values;
}

std::string render_c_like_kernel(const LoopProgram& program, const FusedKernel& kernel, const CLikeFrame& frame) {
  std::set<int> written;
  for (const KernelMember& m : kernel.members) written.insert(written_buffer(program, m));
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
  const bool narrow_offsets = offsets_fit_30_bits(program, kernel);
  const std::set<int> quad_buffers = frame.open_point_quads ? point_quad_buffers(program, kernel) : std::set<int>{};
  const std::map<int, int64_t> private_rows = kernel_private_rows(program, kernel);
  const std::map<int, ResidentRow> resident =
      quad_buffers.empty() ? resident_rows(program, kernel, frame, written, private_rows) : std::map<int, ResidentRow>{};
  std::unordered_map<int, std::string> row_values;
  const std::set<int> held = frame.shares_row_values ? row_value_buffers(program, kernel) : std::set<int>{};
  const KernelText text{program, kernel, frame, pointer, written, resident, row_values};
  if (quad_buffers.empty()) {
    s << frame.open(kernel, params, narrow_offsets);
    if (frame.keep_private_rows) {
      std::vector<PrivateRow> rows;
      for (const auto& [b, length] : private_rows) {
        if (resident.count(b)) continue;
        const ir::Dtype dtype = program.buffers[b].layout.dtype;
        rows.push_back({pointer[b], c_type(dtype), length, static_cast<int64_t>(tensor::itemsize(*ir::tensorDtype(dtype)))});
      }
      if (!rows.empty()) s << frame.keep_private_rows(kernel, rows);
    }
    s << load_resident_rows(text);
  } else {
    s << frame.open_point_quads(kernel, params, narrow_offsets);
    s << point_quads_body(program, kernel, quad_buffers, pointer, written, frame.floor_division);
    // Quads cover an outer range of a known multiple of four: no x0 is left for one at a time.
    if (multiple_of_four(kernel.outer_size)) return s.str() + frame.close;
    s << frame.point_quads_rest;
  }
  const LoadText load = element_loads(pointer, row_values);
  for (const KernelMember& m : kernel.members) {
    const ComputedNode& node = std::get<ComputedNode>(program.nodes[m.node]);
    const std::string& dst = pointer[node.output];
    const ir::Dtype dtype = program.buffers[node.output].layout.dtype;
    // A value every thread of the row holds: read from its local by later members, so that they
    // need not wait for the one thread that stores it.
    const bool holds = held.count(node.output) > 0;
    const std::string local = dst + "_x0";
    std::string result;
    if (node.reduction) {
      // Numbered within the kernel, not after the buffer: kernels that compute alike read alike
      // (the CUDA backend compiles such kernels once).
      const int ordinal = reductions++;
      const std::string acc = "tmp_acc" + std::to_string(ordinal);
      const std::string reduction = reduction_type_name(*node.reduction);
      s << "        " << value_type(dtype) << " " << acc << " = " << reduction << "_identity;\n";
      s << row_loop(text, m, acc + " = " + reduction + "_combine(" + acc + ", ");
      if (frame.combine_threads) s << "        " << frame.combine_threads(acc, reduction, ordinal) << "\n";
      if (holds) s << "        const " << value_type(dtype) << " " << local << " = " << converted(dtype, acc) << ";\n";
      s << "        " << frame.one_thread << stored(dtype, dst, "x0", acc) << "\n";
    } else if (m.inner_size == size_constant(1)) {
      // A block of its own: the next member's temporaries have the same names.
      if (holds) {
        s << "        " << value_type(dtype) << " " << local << ";\n        {\n" << body_lines(m.body, load, "            ", frame.floor_division, result);
        s << "            " << local << " = " << converted(dtype, result) << ";\n        }\n";
        s << "        " << frame.one_thread << stored(dtype, dst, "x0", local) << "\n";
      } else {
        s << "        " << frame.one_thread << "{\n" << body_lines(m.body, load, "            ", frame.floor_division, result);
        s << "            " << stored(dtype, dst, "x0", result) << "\n        }\n";
      }
    } else {
      s << row_loop(text, m, "");
    }
    // Nothing another thread reads waits in memory after a member whose output is held (a row
    // value every thread has, or a resident row each thread reads back its own part of).
    if (holds) row_values[node.output] = local;
    else if (*frame.barrier && !resident.count(node.output)) s << "        " << frame.barrier << "\n";
  }
  s << frame.close;
  return s.str();
}

}  // namespace kiln::inductor
