#pragma once
// torch._dynamo.config as scripts set it, read when a frame is compiled.
#include <cstdint>
#include <vector>

#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

struct DynamoConfig {
  int64_t cache_size_limit = 8;
  bool suppress_errors = false;
  bool capture_scalar_outputs = false;
  bool automatic_dynamic_shapes = true;
  bool replay_record_enabled = false;
  std::vector<python::Ref> reorderable_logging_functions;
};

DynamoConfig read_dynamo_config(python::Interpreter& interp);

}  // namespace kiln::capture
