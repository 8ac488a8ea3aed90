#pragma once
// torch.Generator on the CPU: a generator of its own (Mt19937 and its cached normal), seeded with
// manual_seed, that random functions draw from when given generator=.
#include "libcompiler/python/interp/object.h"
#include "libcompiler/tensor/cpu_generator.h"

namespace kiln::python {

// The type torch.Generator (registered by the torch module).
Ref generator_type();
// The generator a generator= argument names: the default one for None.
tensor::CpuGenerator& generator_of(const Ref& value);

}  // namespace kiln::python
