#pragma once
// Calling an op of the table: autocast's casts of its inputs (autocast.h), the meta function for
// meta tensors, the kernel otherwise, then autograd recording (a TableNode for Formula rows),
// version bumps of in-place ops, and the in-place checks PyTorch makes. Every eager op call, from
// C++ or from the interpreter, goes here.
#include <vector>

#include "libcompiler/ops/op_table.h"

namespace kiln::ops {

// `args` already bound to op's schema (argument_binding.h does that for Python-style calls).
std::vector<Tensor> call(const OpInfo& op, const Arguments& args);
// Positional arguments; trailing ones with defaults may be left out.
std::vector<Tensor> call(OpId id, std::vector<IValue> args);
// The single output of a one-output op.
Tensor call_single(OpId id, std::vector<IValue> args);

// Watches op calls for an aten-level tracer (make_fx): while installed on a thread, every
// outermost call of a table op is reported with its bound arguments and outputs. Composite ops
// (PyTorch's CompositeImplicitAutograd) are not reported themselves: the table ops their kernels
// call are, as make_fx sees linear as t + addmm. Calls made inside a reported op (its kernel or
// meta function calling other ops) are not reported again.
class CallRecorder {
 public:
  virtual ~CallRecorder() = default;
  virtual void record(const OpInfo& op, const Arguments& args, const std::vector<Tensor>& outputs) = 0;
  // Whether a call of `op` runs as its decomposition (ops.def's Decomposition column) below
  // autograd: the op still records its own backward formula, but what the recorder is told of are
  // the table ops the decomposition calls (make_fx with a decomposition table).
  virtual bool decomposes(const OpInfo& op) const {
    (void)op;
    return false;
  }
};
// Installs `recorder` (null: none) on this thread and returns the one it replaces.
CallRecorder* set_call_recorder(CallRecorder* recorder);
// Whether op calls on this thread are being recorded now (a recorder is installed and no reported
// op is running).
bool is_recording_calls();

// While one is alive on this thread, factories (ops with a meta function and no tensor input)
// make meta tensors instead of running: graph capture traces torch.randn and the like this way,
// as Dynamo's fake tensor mode does, so that tracing draws no random numbers.
class FakeFactoryScope {
 public:
  FakeFactoryScope();
  ~FakeFactoryScope();
  FakeFactoryScope(const FakeFactoryScope&) = delete;
  FakeFactoryScope& operator=(const FakeFactoryScope&) = delete;

 private:
  bool previous_;
};

// Fresh tensors shaped as the meta function says (on the meta device they have no data).
// The metas' sizes and strides are moved into the tensors.
std::vector<Tensor> allocate_outputs(std::vector<TensorMeta> metas);

}  // namespace kiln::ops
