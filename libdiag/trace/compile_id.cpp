#include "libdiag/trace/compile_id.h"

namespace kiln::trace {
namespace {

void append_part(std::string& text, const std::optional<uint32_t>& part) {
  if (part) text += std::to_string(*part);
  else text += '-';
}

void append_attempt(std::string& text, const std::optional<uint32_t>& attempt) {
  if (attempt && *attempt != 0) {
    text += '_';
    text += std::to_string(*attempt);
  }
}

}  // namespace

std::string CompileId::display() const {
  if (malformed) return "(unknown)";
  std::string text = "[";
  if (compiled_autograd_id) {
    text += '!';
    text += std::to_string(*compiled_autograd_id);
    text += '/';
  }
  append_part(text, frame_id);
  text += '/';
  append_part(text, frame_compile_id);
  append_attempt(text, attempt);
  text += ']';
  return text;
}

std::string CompileId::directory(uint64_t line) const {
  std::string text;
  if (malformed) {
    text = "unknown_";
    text += std::to_string(line);
    return text;
  }
  for (const auto* part : {&compiled_autograd_id, &frame_id, &frame_compile_id, &attempt}) {
    if (!text.empty()) text += '_';
    append_part(text, *part);
  }
  return text;
}

std::string CompileId::pytorch_text() const {
  // PyTorch's str(TraceId): the CompileId text, then "_<attempt>" unless the attempt is 0.
  const bool has_frame = frame_id || frame_compile_id;
  if (malformed || (!compiled_autograd_id && !has_frame)) return "None";
  std::string text;
  if (compiled_autograd_id) {
    text += '!';
    text += std::to_string(*compiled_autograd_id);
    if (has_frame) text += '/';
  }
  if (has_frame) {
    append_part(text, frame_id);
    text += '/';
    append_part(text, frame_compile_id);
  }
  append_attempt(text, attempt);
  return text;
}

CompileId CompileId::normalized() const {
  CompileId key = *this;
  if (key.frame_compile_id && !key.attempt) key.attempt = 0;
  return key;
}

}  // namespace kiln::trace
