#include "libcompiler/inductor/compile_fx.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "libcompiler/inductor/codegen/cpu_llvm/kernel_codegen.h"
#include "libcompiler/inductor/codegen/cpu_llvm/kernel_jit.h"
#include "libcompiler/inductor/graph_lowering.h"
#include "libcompiler/inductor/scheduler.h"
#include "libcompiler/ir/graph_interpreter.h"

namespace kiln::inductor {

CompiledArtifacts compile_graph(const ir::GraphModule& module, const InductorConfig& config) {
  CompiledArtifacts out;
  LoopProgram program = GraphLowering(module).run();
  out.ir_pre_fusion = print_loop_program(program);
  Schedule schedule = schedule_program(program);
  out.ir_post_fusion = print_schedule(program, schedule);

  llvm::LLVMContext context;
  auto llvm_module = std::make_unique<llvm::Module>("kiln_kernels", context);
  configure_module(*llvm_module);
  CodegenOptions options;
  options.inject_relu_bug = config.inject_relu_bug;
  std::vector<std::string> names;
  for (const ScheduledStep& step : schedule.steps) {
    if (const auto* k = std::get_if<FusedKernel>(&step)) {
      emit_kernel(*llvm_module, program, *k, options);
      names.push_back(k->name);
    }
  }
  std::vector<void*> addresses;
  try {
    CompiledObject object = compile_module(*llvm_module);
    addresses = link_object(object.object_code, names);
  } catch (const KernelCompileError& e) {
    throw InductorError(std::string("CppCompileError: C++ compile error\n") + e.what());
  }
  std::vector<KernelFunction> kernels;
  for (void* a : addresses) kernels.push_back(reinterpret_cast<KernelFunction>(a));
  out.program = std::make_shared<CompiledProgram>(std::move(program), std::move(schedule), std::move(kernels));
  return out;
}

aot::AtenFunction compile_fx_inner(std::shared_ptr<const ir::GraphModule> module, const aot::AtenGraphContext&,
                                   const InductorConfig& config) {
  std::shared_ptr<const CompiledProgram> program;
  try {
    program = compile_graph(*module, config).program;
  } catch (const LoweringUnsupported&) {
    return [module](const std::vector<ops::IValue>& inputs) { return ir::GraphInterpreter(*module).run(inputs); };
  }
  return [program](const std::vector<ops::IValue>& inputs) { return program->run(inputs); };
}

}  // namespace kiln::inductor
