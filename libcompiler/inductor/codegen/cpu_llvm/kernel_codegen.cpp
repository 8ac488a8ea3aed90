#include "libcompiler/inductor/codegen/cpu_llvm/kernel_codegen.h"

#include <map>
#include <stdexcept>
#include <unordered_map>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>

#include "libcompiler/inductor/codegen/cpu_llvm/vector_math.h"
#include "libdiag/bisect/subsystem_switch.h"

namespace kiln::inductor {

namespace {

// half and bfloat16 values are computed in float32 registers, as Inductor's CPU kernels compute
// them: loads widen them exactly, and a conversion to them (a store included) rounds to nearest even.
llvm::Type* register_type(llvm::LLVMContext& ctx, ir::Dtype dtype) {
  switch (dtype) {
    case ir::Dtype::Float32:
    case ir::Dtype::Float16:
    case ir::Dtype::BFloat16: return llvm::Type::getFloatTy(ctx);
    case ir::Dtype::Float64: return llvm::Type::getDoubleTy(ctx);
    case ir::Dtype::Int64: return llvm::Type::getInt64Ty(ctx);
    case ir::Dtype::Int32: return llvm::Type::getInt32Ty(ctx);
    case ir::Dtype::Bool: return llvm::Type::getInt1Ty(ctx);
    default: throw std::logic_error("codegen: dtype " + std::string(ir::dtypeTorchName(dtype)));
  }
}

// Bools are bytes in memory; halfs IEEE binary16; bfloat16s the upper halves of float32s.
llvm::Type* memory_type(llvm::LLVMContext& ctx, ir::Dtype dtype) {
  if (dtype == ir::Dtype::Bool) return llvm::Type::getInt8Ty(ctx);
  if (dtype == ir::Dtype::Float16) return llvm::Type::getHalfTy(ctx);
  if (dtype == ir::Dtype::BFloat16) return llvm::Type::getInt16Ty(ctx);
  return register_type(ctx, dtype);
}

class KernelEmitter {
 public:
  KernelEmitter(llvm::Module& module, const LoopProgram& program, const FusedKernel& kernel, const CodegenOptions& options)
      : ctx_(module.getContext()), module_(module), b_(ctx_), program_(program), kernel_(kernel), options_(options) {}

  void emit() {
    auto* fn_type = llvm::FunctionType::get(b_.getInt32Ty(), {b_.getPtrTy(), b_.getPtrTy(), b_.getInt64Ty(), b_.getInt64Ty()}, false);
    fn_ = llvm::Function::Create(fn_type, llvm::Function::ExternalLinkage, kernel_.name, module_);
    fn_->addFnAttr(llvm::Attribute::NoUnwind);
    // The compiler bisector's "vectorization" subsystem, kernel by kernel: a disabled kernel's
    // loops stay scalar.
    vectorize_ = !bisect::disable_subsystem("inductor", "vectorization", [&] { return kernel_.name; });
    auto arg = fn_->arg_begin();
    llvm::Value* slots = &*arg++;
    llvm::Value* sizes = &*arg++;
    llvm::Value* begin = &*arg++;
    llvm::Value* end = &*arg;
    b_.SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn_));
    status_ = b_.CreateAlloca(b_.getInt32Ty());
    b_.CreateStore(b_.getInt32(0), status_);
    for (size_t i = 0; i < kernel_.buffers.size(); ++i) {
      llvm::Value* slot = b_.CreateConstGEP1_64(b_.getPtrTy(), slots, i);
      pointers_[kernel_.buffers[i]] = b_.CreateLoad(b_.getPtrTy(), slot, "buf" + std::to_string(kernel_.buffers[i]));
    }
    for (size_t i = 0; i < kernel_.size_symbols.size(); ++i)
      symbols_[kernel_.size_symbols[i]] = b_.CreateLoad(b_.getInt64Ty(), b_.CreateConstGEP1_64(b_.getInt64Ty(), sizes, i), kernel_.size_symbols[i]);
    if (is_column_reduction()) {
      emit_column_reduction(begin, end);
    } else {
      loop(begin, end, [&](llvm::Value* outer) {
        for (const KernelMember& m : kernel_.members) emit_member(m, outer);
      });
    }
    b_.CreateRet(b_.CreateLoad(b_.getInt32Ty(), status_));
  }

 private:
  const ComputedNode& node(const KernelMember& m) const { return std::get<ComputedNode>(program_.nodes[m.node]); }

  // for (iv = start; iv < end; ++iv) body(iv); the latch carries vectorization hints.
  void loop(llvm::Value* start, llvm::Value* end, const std::function<void(llvm::Value*)>& body) {
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(ctx_, "loop", fn_);
    auto* exit = llvm::BasicBlock::Create(ctx_, "loop.exit", fn_);
    b_.CreateCondBr(b_.CreateICmpSLT(start, end), header, exit);
    b_.SetInsertPoint(header);
    llvm::PHINode* iv = b_.CreatePHI(b_.getInt64Ty(), 2);
    iv->addIncoming(start, pre);
    body(iv);
    llvm::Value* next = b_.CreateAdd(iv, b_.getInt64(1), "", true, true);
    llvm::BranchInst* latch = b_.CreateCondBr(b_.CreateICmpSLT(next, end), header, exit);
    iv->addIncoming(next, b_.GetInsertBlock());
    if (llvm::MDNode* md = loop_metadata()) latch->setMetadata(llvm::LLVMContext::MD_loop, md);
    b_.SetInsertPoint(exit);
  }

  // Vectorization off (the bisector disabled it), or max-autotune's forced vector width;
  // otherwise LLVM's cost model decides.
  llvm::MDNode* loop_metadata() {
    std::vector<llvm::Metadata*> ops = {nullptr};
    if (!vectorize_)
      ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.vectorize.enable"),
                                             llvm::ConstantAsMetadata::get(b_.getFalse())}));
    else if (options_.vector_width)
      ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.vectorize.width"),
                                             llvm::ConstantAsMetadata::get(b_.getInt32(options_.vector_width))}));
    else
      return nullptr;
    llvm::MDNode* md = llvm::MDNode::getDistinct(ctx_, ops);
    md->replaceOperandWith(0, md);
    return md;
  }

  void emit_member(const KernelMember& m, llvm::Value* outer) {
    const ComputedNode& n = node(m);
    const ir::Dtype dtype = program_.buffers[n.output].layout.dtype;
    if (n.reduction) {
      llvm::Value* acc = b_.CreateAlloca(register_type(ctx_, dtype));
      // Allocas belong in the entry block, where mem2reg promotes them.
      llvm::cast<llvm::AllocaInst>(acc)->moveBefore(&*fn_->getEntryBlock().getFirstInsertionPt());
      b_.CreateStore(identity(*n.reduction, dtype), acc);
      loop(b_.getInt64(0), size_value(m.inner_size), [&](llvm::Value* inner) {
        std::unordered_map<const Expr*, llvm::Value*> memo;
        llvm::Value* v = eval(m.body, outer, inner, memo);
        b_.CreateStore(combine(*n.reduction, b_.CreateLoad(v->getType(), acc), v), acc);
      });
      store(n.output, outer, b_.CreateLoad(register_type(ctx_, dtype), acc));
      return;
    }
    if (m.inner_size == size_constant(1)) {
      std::unordered_map<const Expr*, llvm::Value*> memo;
      store(n.output, outer, eval(m.body, outer, b_.getInt64(0), memo));
      return;
    }
    llvm::Value* row = b_.CreateMul(outer, size_value(m.inner_size));
    loop(b_.getInt64(0), size_value(m.inner_size), [&](llvm::Value* inner) {
      std::unordered_map<const Expr*, llvm::Value*> memo;
      store(n.output, b_.CreateAdd(row, inner), eval(m.body, outer, inner, memo));
    });
  }

  // A lone reduction whose input is read along columns (the outer index is the contiguous one,
  // as in x.sum(dim=0)): accumulate into the output row by row, so the loop over outer indices
  // is innermost and contiguous.
  bool is_column_reduction() const {
    if (kernel_.members.size() != 1) return false;
    const KernelMember& m = kernel_.members[0];
    const SizeExpr one = size_constant(1);
    if (!node(m).reduction || !always_less(one, m.inner_size)) return false;
    bool column = false;
    for (int buffer : loaded_buffers(m.body)) {
      for (const IndexExpr& index : loads_of(m.body, buffer)) {
        if (index.coefficient_of(kInnerVar) == one) return false;
        if (index.coefficient_of(kOuterVar) == one && index.affine_in(kInnerVar) && always_less(one, index.coefficient_of(kInnerVar))) column = true;
      }
    }
    return column;
  }

  void emit_column_reduction(llvm::Value* begin, llvm::Value* end) {
    const KernelMember& m = kernel_.members[0];
    const ComputedNode& n = node(m);
    const ir::Dtype dtype = program_.buffers[n.output].layout.dtype;
    loop(begin, end, [&](llvm::Value* outer) { store(n.output, outer, identity(*n.reduction, dtype)); });
    loop(b_.getInt64(0), size_value(m.inner_size), [&](llvm::Value* inner) {
      loop(begin, end, [&](llvm::Value* outer) {
        std::unordered_map<const Expr*, llvm::Value*> memo;
        llvm::Value* v = eval(m.body, outer, inner, memo);
        store(n.output, outer, combine(*n.reduction, load(n.output, dtype, outer), v));
      });
    });
  }

  llvm::Value* identity(ReductionType type, ir::Dtype dtype) {
    llvm::Type* t = register_type(ctx_, dtype);
    const bool fp = t->isFloatingPointTy();
    const double inf = std::numeric_limits<double>::infinity();
    // A bool's lowest value is false; its signed minimum as a 1-bit integer would be true.
    if (t->isIntegerTy(1)) return llvm::ConstantInt::get(t, type == ReductionType::Prod || type == ReductionType::Min ? 1 : 0);
    switch (type) {
      case ReductionType::Sum: return fp ? llvm::ConstantFP::get(t, 0.0) : llvm::ConstantInt::get(t, 0);
      case ReductionType::Prod: return fp ? llvm::ConstantFP::get(t, 1.0) : llvm::ConstantInt::get(t, 1);
      case ReductionType::Max:
        return fp ? llvm::ConstantFP::get(t, -inf) : llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(t->getIntegerBitWidth()));
      case ReductionType::Min:
        return fp ? llvm::ConstantFP::get(t, inf) : llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(t->getIntegerBitWidth()));
    }
    return nullptr;
  }

  llvm::Value* combine(ReductionType type, llvm::Value* acc, llvm::Value* v) {
    const bool fp = acc->getType()->isFloatingPointTy();
    if (fp) {
      // Reassociation lets the vectorizer keep several partial accumulators.
      llvm::FastMathFlags flags;
      flags.setAllowReassoc();
      flags.setNoSignedZeros();
      llvm::IRBuilder<>::FastMathFlagGuard guard(b_);
      b_.setFastMathFlags(flags);
      switch (type) {
        case ReductionType::Sum: return b_.CreateFAdd(acc, v);
        case ReductionType::Prod: return b_.CreateFMul(acc, v);
        case ReductionType::Max: return b_.CreateBinaryIntrinsic(llvm::Intrinsic::maximum, acc, v);
        case ReductionType::Min: return b_.CreateBinaryIntrinsic(llvm::Intrinsic::minimum, acc, v);
      }
    }
    if (acc->getType()->isIntegerTy(1)) {
      switch (type) {
        case ReductionType::Sum:
        case ReductionType::Max: return b_.CreateOr(acc, v);
        case ReductionType::Prod:
        case ReductionType::Min: return b_.CreateAnd(acc, v);
      }
    }
    switch (type) {
      case ReductionType::Sum: return b_.CreateAdd(acc, v);
      case ReductionType::Prod: return b_.CreateMul(acc, v);
      case ReductionType::Max: return b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, acc, v);
      case ReductionType::Min: return b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, acc, v);
    }
    return nullptr;
  }

  llvm::Value* address(int buffer, ir::Dtype dtype, llvm::Value* index) {
    return b_.CreateInBoundsGEP(memory_type(ctx_, dtype), pointers_.at(buffer), index);
  }

  llvm::Value* load(int buffer, ir::Dtype dtype, llvm::Value* index) {
    llvm::Value* v = b_.CreateLoad(memory_type(ctx_, dtype), address(buffer, dtype, index));
    if (dtype == ir::Dtype::BFloat16)
      return b_.CreateBitCast(b_.CreateShl(b_.CreateZExt(v, b_.getInt32Ty()), 16), b_.getFloatTy());
    if (dtype == ir::Dtype::Float16) return b_.CreateFPExt(v, b_.getFloatTy());
    return dtype == ir::Dtype::Bool ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
  }

  void store(int buffer, llvm::Value* index, llvm::Value* value) {
    const ir::Dtype dtype = program_.buffers[buffer].layout.dtype;
    value = convert(value, dtype);
    if (dtype == ir::Dtype::Bool) value = b_.CreateZExt(value, b_.getInt8Ty());
    // A rounded bfloat16 is exact in its float32's upper half.
    if (dtype == ir::Dtype::BFloat16) value = b_.CreateTrunc(b_.CreateLShr(b_.CreateBitCast(value, b_.getInt32Ty()), 16), b_.getInt16Ty());
    if (dtype == ir::Dtype::Float16) value = b_.CreateFPTrunc(value, b_.getHalfTy());  // exact: already rounded
    b_.CreateStore(value, address(buffer, dtype, index));
  }

  // c10::BFloat16's round to nearest even, kept in a float32 (NaN becomes the quiet NaN 0x7fc0).
  llvm::Value* round_to_bfloat16(llvm::Value* v) {
    llvm::Value* bits = b_.CreateBitCast(v, b_.getInt32Ty());
    llvm::Value* lsb = b_.CreateAnd(b_.CreateLShr(bits, 16), b_.getInt32(1));
    llvm::Value* rounded = b_.CreateAnd(b_.CreateAdd(bits, b_.CreateAdd(lsb, b_.getInt32(0x7fff))), b_.getInt32(0xffff0000u));
    llvm::Value* is_nan = b_.CreateFCmpUNO(v, v);
    return b_.CreateBitCast(b_.CreateSelect(is_nan, b_.getInt32(0x7fc00000), rounded), b_.getFloatTy());
  }

  // Python's floor division and modulo (the divisor is positive; the numerator may not be).
  llvm::Value* floor_div(llvm::Value* a, llvm::Value* d) {
    llvm::Value* q = b_.CreateSDiv(a, d);
    llvm::Value* inexact_negative = b_.CreateAnd(b_.CreateICmpNE(b_.CreateMul(q, d), a), b_.CreateICmpSLT(a, b_.getInt64(0)));
    return b_.CreateSub(q, b_.CreateZExt(inexact_negative, b_.getInt64Ty()));
  }

  // A size expression's value: a constant, or computed from the kernel's size symbols. Not
  // memoized: a value made inside one loop would not dominate a later one (LLVM hoists them).
  llvm::Value* size_value(const SizeExpr& e) {
    if (auto c = e.constant()) return b_.getInt64(*c);
    llvm::Value* sum = nullptr;
    for (const SizeExpr::Term& t : e.terms()) {
      llvm::Value* product = t.factors.empty() || t.coefficient != 1 ? b_.getInt64(t.coefficient) : nullptr;
      for (const SizeExpr::Factor& f : t.factors) {
        llvm::Value* base = nullptr;
        switch (f.kind) {
          case SizeExpr::Factor::Kind::Symbol: base = symbols_.at(f.name); break;
          case SizeExpr::Factor::Kind::FloorDiv: base = floor_div(size_value(f.operands[0]), size_value(f.operands[1])); break;
          case SizeExpr::Factor::Kind::Mod: {
            llvm::Value* a = size_value(f.operands[0]);
            llvm::Value* d = size_value(f.operands[1]);
            base = b_.CreateSub(a, b_.CreateMul(floor_div(a, d), d));
            break;
          }
          case SizeExpr::Factor::Kind::Max:
          case SizeExpr::Factor::Kind::Min:
            base = size_value(f.operands[0]);
            for (size_t i = 1; i < f.operands.size(); ++i)
              base = b_.CreateBinaryIntrinsic(f.kind == SizeExpr::Factor::Kind::Max ? llvm::Intrinsic::smax : llvm::Intrinsic::smin, base,
                                              size_value(f.operands[i]));
            break;
        }
        for (unsigned k = 0; k < f.exponent; ++k) product = product ? b_.CreateMul(product, base) : base;
      }
      sum = sum ? b_.CreateAdd(sum, product) : product;
    }
    return sum;
  }

  // An index's divisor: a size, max(size, 1) where it may be 0 (the tensor is then empty and the
  // division never needed; LLVM may still compute it speculatively).
  llvm::Value* index_divisor(const SizeExpr& divisor) {
    llvm::Value* d = size_value(divisor);
    if (always_less(size_constant(0), divisor)) return d;
    return b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, d, b_.getInt64(1));
  }

  llvm::Value* index_value(const IndexExpr& index, llvm::Value* outer, llvm::Value* inner) {
    llvm::Value* v = size_value(index.constant_term());
    for (const IndexTerm& t : index.terms()) {
      llvm::Value* atom = nullptr;
      switch (t.atom.kind) {
        case IndexAtom::Kind::Var: atom = t.atom.var == kOuterVar ? outer : inner; break;
        case IndexAtom::Kind::FloorDiv:
          atom = b_.CreateSDiv(index_value(*t.atom.operand, outer, inner), index_divisor(t.atom.divisor));
          break;
        case IndexAtom::Kind::Mod:
          atom = b_.CreateSRem(index_value(*t.atom.operand, outer, inner), index_divisor(t.atom.divisor));
          break;
      }
      v = b_.CreateAdd(v, t.coefficient == size_constant(1) ? atom : b_.CreateMul(atom, size_value(t.coefficient)));
    }
    return v;
  }

  llvm::Value* convert(llvm::Value* v, ir::Dtype dtype) {
    if (dtype == ir::Dtype::BFloat16) return round_to_bfloat16(convert(v, ir::Dtype::Float32));
    // c10::Half's conversion from float rounds to nearest even, as LLVM's fptrunc does.
    if (dtype == ir::Dtype::Float16) return b_.CreateFPExt(b_.CreateFPTrunc(convert(v, ir::Dtype::Float32), b_.getHalfTy()), b_.getFloatTy());
    llvm::Type* to = register_type(ctx_, dtype);
    llvm::Type* from = v->getType();
    if (from == to) return v;
    if (to->isIntegerTy(1)) return from->isFloatingPointTy() ? b_.CreateFCmpUNE(v, llvm::ConstantFP::get(from, 0.0))
                                                              : b_.CreateICmpNE(v, llvm::ConstantInt::get(from, 0));
    if (from->isIntegerTy(1)) return to->isFloatingPointTy() ? b_.CreateUIToFP(v, to) : b_.CreateZExt(v, to);
    if (from->isFloatingPointTy() && to->isFloatingPointTy()) return b_.CreateFPCast(v, to);
    if (from->isFloatingPointTy()) return b_.CreateFPToSI(v, to);
    if (to->isFloatingPointTy()) return b_.CreateSIToFP(v, to);
    return b_.CreateSExtOrTrunc(v, to);
  }

  llvm::Value* constant(double value, ir::Dtype dtype) {
    llvm::Type* t = register_type(ctx_, dtype);
    if (t->isFloatingPointTy()) return llvm::ConstantFP::get(t, value);
    return llvm::ConstantInt::get(t, static_cast<uint64_t>(static_cast<int64_t>(value)), true);
  }

  llvm::Value* relu(llvm::Value* x) {
    llvm::Type* t = x->getType();
    llvm::Value* zero = t->isFloatingPointTy() ? llvm::ConstantFP::get(t, 0.0) : llvm::ConstantInt::get(t, 0);
    llvm::Value* r = b_.CreateSelect(t->isFloatingPointTy() ? b_.CreateFCmpOLT(x, zero) : b_.CreateICmpSLT(x, zero), zero, x);
    if (!options_.inject_relu_bug) return r;
    const std::string& bug = *options_.inject_relu_bug;
    if (bug != "compile_error" && bug != "runtime_error" && bug != "accuracy")
      throw std::invalid_argument("unrecognized config cpp.inject_relu_bug_TESTING_ONLY = '" + bug + "'");
    // The compiler bisector's "testing_knobs" subsystem: each relu the knob breaks is one
    // application; a disabled one is a correct relu.
    if (bisect::disable_subsystem("inductor", "testing_knobs",
                                  [&] { return "cpp.inject_relu_bug_TESTING_ONLY=" + bug + " breaks a relu of " + kernel_.name; }))
      return r;
    if (bug == "compile_error") {
      // A call of a function that exists nowhere: linking the kernel fails. The declaration names
      // the op whose code calls it, so that the error can point at that op's line.
      llvm::FunctionCallee missing = module_.getOrInsertFunction("compile error!", t, t);
      llvm::cast<llvm::Function>(missing.getCallee())->addFnAttr(kUndefinedCallOpAttribute, "relu");
      return b_.CreateCall(missing, {x});
    }
    if (bug == "runtime_error") {
      b_.CreateStore(b_.getInt32(1), status_);
      return r;
    }
    // "accuracy": x + 1 in place of the relu, as inductor's C++ relu computes it.
    return t->isFloatingPointTy() ? b_.CreateFAdd(x, llvm::ConstantFP::get(t, 1.0)) : b_.CreateAdd(x, llvm::ConstantInt::get(t, 1));
  }

  llvm::Value* eval(const ExprRef& e, llvm::Value* outer, llvm::Value* inner, std::unordered_map<const Expr*, llvm::Value*>& memo) {
    if (auto it = memo.find(e.get()); it != memo.end()) return it->second;
    llvm::Value* v = nullptr;
    switch (e->kind) {
      case Expr::Kind::Load: v = load(e->buffer, e->dtype, index_value(e->index, outer, inner)); break;
      case Expr::Kind::Constant: v = constant(e->value, e->dtype); break;
      case Expr::Kind::IndexValue: v = convert(index_value(e->index, outer, inner), e->dtype); break;
      case Expr::Kind::Cast: v = convert(eval(e->args[0], outer, inner, memo), e->dtype); break;
      case Expr::Kind::Op: {
        std::vector<llvm::Value*> a;
        for (const ExprRef& arg : e->args) a.push_back(eval(arg, outer, inner, memo));
        v = apply(e->op, a, !e->args.empty() && is_unsigned(e->args.back()->dtype));
        break;
      }
    }
    memo[e.get()] = v;
    return v;
  }

  // `unsigned_ints`: the operands are bool or uint8, ordered as unsigned numbers (true > false).
  llvm::Value* apply(ScalarOp op, const std::vector<llvm::Value*>& a, bool unsigned_ints) {
    llvm::Type* t = a.back()->getType();
    const bool fp = t->isFloatingPointTy();
    const bool bit = t->isIntegerTy(1);
    auto one = [&] { return llvm::ConstantFP::get(t, 1.0); };
    switch (op) {
      case ScalarOp::Add: return fp ? b_.CreateFAdd(a[0], a[1]) : bit ? b_.CreateOr(a[0], a[1]) : b_.CreateAdd(a[0], a[1]);
      case ScalarOp::Sub: return fp ? b_.CreateFSub(a[0], a[1]) : b_.CreateSub(a[0], a[1]);
      case ScalarOp::Mul: return fp ? b_.CreateFMul(a[0], a[1]) : bit ? b_.CreateAnd(a[0], a[1]) : b_.CreateMul(a[0], a[1]);
      case ScalarOp::TrueDiv: return b_.CreateFDiv(a[0], a[1]);
      case ScalarOp::Maximum: return b_.CreateBinaryIntrinsic(fp ? llvm::Intrinsic::maximum : unsigned_ints ? llvm::Intrinsic::umax : llvm::Intrinsic::smax, a[0], a[1]);
      case ScalarOp::Minimum: return b_.CreateBinaryIntrinsic(fp ? llvm::Intrinsic::minimum : unsigned_ints ? llvm::Intrinsic::umin : llvm::Intrinsic::smin, a[0], a[1]);
      case ScalarOp::Pow: {
        if (auto* k = llvm::dyn_cast<llvm::ConstantFP>(a[1])) {
          const double p = k->getValueAPF().convertToDouble();
          if (p == 2.0) return b_.CreateFMul(a[0], a[0]);
          if (p == 3.0) return b_.CreateFMul(b_.CreateFMul(a[0], a[0]), a[0]);
          if (p == 0.5) return b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a[0]);
          if (p == 1.0) return a[0];
          if (p == -1.0) return b_.CreateFDiv(one(), a[0]);
        }
        return b_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, a[0], a[1]);
      }
      case ScalarOp::Neg: return fp ? b_.CreateFNeg(a[0]) : b_.CreateNeg(a[0]);
      case ScalarOp::Abs: return fp ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a[0]) : b_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, a[0], b_.getFalse());
      case ScalarOp::Relu: return relu(a[0]);
      case ScalarOp::Exp: return emit_exp(b_, a[0]);
      case ScalarOp::Log: return emit_log(b_, a[0]);
      case ScalarOp::Sqrt: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a[0]);
      case ScalarOp::Rsqrt: return b_.CreateFDiv(one(), b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a[0]));
      case ScalarOp::Reciprocal: return b_.CreateFDiv(one(), a[0]);
      case ScalarOp::Tanh: return emit_tanh(b_, a[0]);
      case ScalarOp::Sigmoid: return emit_sigmoid(b_, a[0]);
      case ScalarOp::Erf: return emit_erf(b_, a[0]);
      case ScalarOp::Sin: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::sin, a[0]);
      case ScalarOp::Cos: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::cos, a[0]);
      case ScalarOp::Fma: return b_.CreateIntrinsic(llvm::Intrinsic::fma, {t}, {a[0], a[1], a[2]});
      case ScalarOp::Lt: return fp ? b_.CreateFCmpOLT(a[0], a[1]) : b_.CreateICmp(unsigned_ints ? llvm::CmpInst::ICMP_ULT : llvm::CmpInst::ICMP_SLT, a[0], a[1]);
      case ScalarOp::Le: return fp ? b_.CreateFCmpOLE(a[0], a[1]) : b_.CreateICmp(unsigned_ints ? llvm::CmpInst::ICMP_ULE : llvm::CmpInst::ICMP_SLE, a[0], a[1]);
      case ScalarOp::Gt: return fp ? b_.CreateFCmpOGT(a[0], a[1]) : b_.CreateICmp(unsigned_ints ? llvm::CmpInst::ICMP_UGT : llvm::CmpInst::ICMP_SGT, a[0], a[1]);
      case ScalarOp::Ge: return fp ? b_.CreateFCmpOGE(a[0], a[1]) : b_.CreateICmp(unsigned_ints ? llvm::CmpInst::ICMP_UGE : llvm::CmpInst::ICMP_SGE, a[0], a[1]);
      case ScalarOp::Eq: return fp ? b_.CreateFCmpOEQ(a[0], a[1]) : b_.CreateICmpEQ(a[0], a[1]);
      case ScalarOp::Ne: return fp ? b_.CreateFCmpUNE(a[0], a[1]) : b_.CreateICmpNE(a[0], a[1]);
      case ScalarOp::LogicalAnd: return b_.CreateAnd(a[0], a[1]);
      case ScalarOp::LogicalOr: return b_.CreateOr(a[0], a[1]);
      case ScalarOp::LogicalNot: return b_.CreateNot(a[0]);
      case ScalarOp::Where: return b_.CreateSelect(a[0], a[1], a[2]);
    }
    throw std::logic_error("codegen: scalar op " + scalar_op_name(op));
  }

  llvm::LLVMContext& ctx_;
  llvm::Module& module_;
  llvm::IRBuilder<> b_;
  const LoopProgram& program_;
  const FusedKernel& kernel_;
  const CodegenOptions& options_;
  llvm::Function* fn_ = nullptr;
  llvm::Value* status_ = nullptr;
  bool vectorize_ = true;
  std::map<int, llvm::Value*> pointers_;
  std::map<std::string, llvm::Value*> symbols_;  // each size symbol's value, loaded at entry
};

}  // namespace

void emit_kernel(llvm::Module& module, const LoopProgram& program, const FusedKernel& kernel, const CodegenOptions& options) {
  KernelEmitter(module, program, kernel, options).emit();
}

}  // namespace kiln::inductor
