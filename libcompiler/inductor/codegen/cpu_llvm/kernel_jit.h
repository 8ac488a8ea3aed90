#pragma once
// The in-process JIT for kernels (LLVM ORC LLJIT): a module is optimized for the host CPU
// (O3: the loop vectorizer with the host's vector width), compiled to an object file, and the
// object linked into its own JITDylib; libm resolves from the process. The object code is what
// the compile cache stores: a cache hit links it without running LLVM's optimizer or backend.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "libcompiler/inductor/codegen/kernel_backend.h"

namespace kiln::inductor {

// The function attribute that names, on a declaration the codegen knows to be defined nowhere,
// the op whose code calls it (the testing knob's "compile error!").
inline constexpr const char* kUndefinedCallOpAttribute = "kiln-undefined-call-op";

struct CompiledObject {
  std::string object_code;   // the relocatable object file
  std::string optimized_ir;  // the module after optimization (for output_code / debugging)
};

// Optimizes `module` for the host and emits its object file.
CompiledObject compile_module(llvm::Module& module);

// Links an object file and returns the addresses of `symbols`, in order. Throws
// KernelCompileError when a symbol is missing or undefined references remain.
std::vector<void*> link_object(const std::string& object_code, const std::vector<std::string>& symbols);

// The CPU and features object code is compiled for (part of the compile cache's key).
std::string host_target();

// Prepares a module for the host (triple and data layout).
void configure_module(llvm::Module& module);

}  // namespace kiln::inductor
