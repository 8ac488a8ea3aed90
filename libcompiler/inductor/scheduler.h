#pragma once
// The scheduler (Inductor's scheduler.py): groups the loop program's computed nodes into fused
// kernels. A kernel iterates one outer range; each member node runs, per outer index, its own
// inner loop (its reduction, or the rest of its pointwise range) in program order. Chains of
// pointwise nodes, pointwise epilogues of reductions, and reductions over the same rows fuse when
// every read of a buffer made inside the kernel stays within the current outer index (row-local),
// so the members' loops can run one after the other per row. Printed as ir_post_fusion.txt.
#include <string>
#include <variant>
#include <vector>

#include "libcompiler/inductor/loop_ir.h"

namespace kiln::inductor {

// A computed node as a kernel runs it: body variables 0 (the outer index) and 1 (the inner
// index); the output element is at outer·inner_size + inner (outer for a reduction).
struct KernelMember {
  int node = -1;
  SizeExpr inner_size = size_constant(1);
  ExprRef body;
  bool reduces = false;  // a reduction: its loop over r0 combines into one value per x0
};

struct FusedKernel {
  std::string name;  // <backend's kernel prefix>_<ops>_<n>: cpp_fused_add_mul_0
  SizeExpr outer_size = size_constant(1);
  std::vector<KernelMember> members;
  std::vector<int> buffers;  // every buffer the kernel reads or writes: its argument slots
  // The size symbols its sizes and indices mention, in the order the kernel takes their values.
  std::vector<std::string> size_symbols;
};

struct ExternStep {
  int node = -1;
};

using ScheduledStep = std::variant<FusedKernel, ExternStep>;

struct Schedule {
  std::vector<ScheduledStep> steps;
};

// `first_kernel`: the number the first kernel's name ends with (a subgraph's kernels continue the
// numbering of the graph around them, as in Inductor's one output module).
Schedule schedule_program(const LoopProgram& program, int first_kernel = 0);

// ir_post_fusion.txt: each kernel with its members (their nodes as ir_pre_fusion prints them).
std::string print_schedule(const LoopProgram& program, const Schedule& schedule);

// The outer/inner variables of kernel bodies.
inline constexpr int kOuterVar = 0;
inline constexpr int kInnerVar = 1;
// Their names in printed kernels: x0 and r0.
std::string kernel_var_name(int var);

}  // namespace kiln::inductor
