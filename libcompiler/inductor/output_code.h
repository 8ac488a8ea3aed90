#pragma once
// output_code: a readable rendering of what a graph compiled to, in the shape of Inductor's
// generated module — each kernel as C-like loops (what the LLVM IR computes: the outer loop runs
// in parallel chunks, inner loops are vectorized by LLVM), then `def call(args)`, the wrapper
// that allocates buffers, calls kernels and extern kernels, frees (or reuses) buffers and
// returns the outputs. TORCH_LOGS=output_code prints it; traces carry it as inductor_output_code;
// the debug folder keeps it as output_code.py.
#include <string>

#include "libcompiler/inductor/wrapper.h"

namespace kiln::inductor {

// `aot_label`: Inductor's "# AOT ID: ['0_forward']" names the graph.
std::string render_output_code(const CompiledProgram& program, const std::string& aot_label);

}  // namespace kiln::inductor
