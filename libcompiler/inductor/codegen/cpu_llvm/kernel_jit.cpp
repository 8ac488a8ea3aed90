#include "libcompiler/inductor/codegen/cpu_llvm/kernel_jit.h"

#include <mutex>

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace kiln::inductor {

namespace {

std::string message(llvm::Error error) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << error;
  return text;
}

template <class T>
T take(llvm::Expected<T> value, const char* what) {
  if (!value) throw KernelCompileError(std::string(what) + ": " + message(value.takeError()));
  return std::move(*value);
}

template <class T>
T& take(llvm::Expected<T&> value, const char* what) {
  if (!value) throw KernelCompileError(std::string(what) + ": " + message(value.takeError()));
  return *value;
}

// The process's JIT and host target machine, made once.
struct Jit {
  std::unique_ptr<llvm::orc::LLJIT> lljit;
  std::unique_ptr<llvm::TargetMachine> target;
  std::mutex mutex;
  int next_dylib = 0;

  Jit() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    auto builder = take(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host");
    builder.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    target = take(builder.createTargetMachine(), "creating the target machine");
    lljit = take(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(builder).create(), "creating the JIT");
    // Link errors come back to the caller as exceptions; the session must not also print them.
    lljit->getExecutionSession().setErrorReporter([](llvm::Error error) { llvm::consumeError(std::move(error)); });
  }
};

// Never destroyed: the warm-up thread may still be making it while the process exits.
Jit& jit() {
  static Jit* instance = new Jit;
  return *instance;
}

// A function the kernels call that neither the module nor the process defines: linking would fail
// for the whole module ("Failed to materialize symbols: {every kernel}"), so the kernel that
// calls it is named first.
void throw_on_undefined_calls(const llvm::Module& module) {
  static const bool process_searchable = !llvm::sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
  for (const llvm::Function& function : module) {
    if (!function.isDeclaration() || function.isIntrinsic()) continue;
    const std::string name = function.getName().str();
    if (process_searchable && llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(name)) continue;
    const std::string op = function.getFnAttribute(kUndefinedCallOpAttribute).getValueAsString().str();
    for (const llvm::User* user : function.users())
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(user))
        throw KernelCompileError("kernel " + call->getFunction()->getName().str() + " calls '" + name + "', which is defined nowhere" +
                                     (op.empty() ? "" : " (from its " + op + ")"),
                                 call->getFunction()->getName().str(), op);
  }
}

}  // namespace

std::string host_target() {
  Jit& j = jit();
  return j.target->getTargetTriple().str() + ";" + j.target->getTargetCPU().str() + ";" + j.target->getTargetFeatureString().str();
}

void configure_module(llvm::Module& module) {
  Jit& j = jit();
  module.setTargetTriple(j.target->getTargetTriple().str());
  module.setDataLayout(j.target->createDataLayout());
}

CompiledObject compile_module(llvm::Module& module) {
  Jit& j = jit();
  std::lock_guard lock(j.mutex);
  std::string errors;
  llvm::raw_string_ostream err(errors);
  if (llvm::verifyModule(module, &err)) throw KernelCompileError("invalid kernel module: " + errors);
  throw_on_undefined_calls(module);

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder pb(j.target.get(), tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(module, mam);

  CompiledObject out;
  llvm::raw_string_ostream ir(out.optimized_ir);
  module.print(ir, nullptr);
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager codegen;
  if (j.target->addPassesToEmitFile(codegen, os, nullptr, llvm::CodeGenFileType::ObjectFile))
    throw KernelCompileError("the target cannot emit object files");
  codegen.run(module);
  out.object_code.assign(buffer.begin(), buffer.end());
  return out;
}

std::vector<void*> link_object(const std::string& object_code, const std::vector<std::string>& symbols) {
  Jit& j = jit();
  std::lock_guard lock(j.mutex);
  auto& dylib = take(j.lljit->createJITDylib("kiln_graph_" + std::to_string(j.next_dylib++)), "creating a JITDylib");
  dylib.addGenerator(take(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(j.lljit->getDataLayout().getGlobalPrefix()),
                          "searching the process"));
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object_code, "kiln_kernels.o");
  if (auto error = j.lljit->addObjectFile(dylib, std::move(buffer))) throw KernelCompileError("linking kernels: " + message(std::move(error)));
  std::vector<void*> addresses;
  for (const std::string& name : symbols)
    addresses.push_back(take(j.lljit->lookup(dylib, name), "linking kernels").toPtr<void*>());
  return addresses;
}

}  // namespace kiln::inductor
