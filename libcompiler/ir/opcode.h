#pragma once
// The kinds of FX nodes (opcodes.def).
#include <string_view>

namespace kiln::ir {

enum class OpCode {
#define KILN_OPCODE(Enumerator, Name) Enumerator,
#include "libcompiler/ir/opcodes.def"
};
std::string_view opcodeName(OpCode op);

}  // namespace kiln::ir
