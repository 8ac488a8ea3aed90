#pragma once
// torch._dynamo.config as scripts set it, read when a frame is compiled.
#include <cstdint>
#include <vector>

#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

struct DynamoConfig {
  // recompile_limit (alias cache_size_limit): entries of one code for the same ID_MATCH'd locals;
  // accumulated_recompile_limit (alias accumulated_cache_size_limit): entries of one code in all.
  int64_t recompile_limit = 8;
  int64_t accumulated_recompile_limit = 256;
  bool suppress_errors = false;
  bool error_on_recompile = false;  // a recompile raises RecompileError
  bool capture_scalar_outputs = false;
  bool automatic_dynamic_shapes = true;
  bool replay_record_enabled = false;
  std::vector<python::Ref> reorderable_logging_functions;
};

DynamoConfig read_dynamo_config(python::Interpreter& interp);

}  // namespace kiln::capture
