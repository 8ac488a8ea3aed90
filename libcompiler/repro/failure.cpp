#include "libcompiler/repro/failure.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "libcompiler/python/interp/protocols.h"

namespace kiln::repro {

using namespace python;

std::string Failure::describe() const {
  switch (kind) {
    case Kind::None: return "no failure";
    case Kind::Invalid: return "the graph itself fails eagerly (" + type + ": " + message + ")";
    case Kind::Accuracy: return "accuracy failure (" + message + ")";
    case Kind::Exception: return message.empty() ? type : type + ": " + message;
    case Kind::Crash: return "crash (the process died of a signal)";
    case Kind::Hang: return "hang (the run passed its time limit)";
  }
  return "";
}

Failure failure_of(Interpreter& interp, const PyException& error) {
  Ref exception = error.exception;
  if (exception->type->name == "BackendCompilerFailed") {
    Ref inner = error.context ? error.context : try_getattr(interp, exception, "__context__");
    if (inner && is_exception_instance(inner)) exception = inner;
  }
  return {Failure::Kind::Exception, exception->type->name, exception_message(interp, exception)};
}

namespace {

// The length of the absolute path that starts at `at` (a '/' that starts a word and a second
// '/' before the word ends), or 0.
size_t absolute_path_length(std::string_view text, size_t at) {
  if (text[at] != '/' || (at > 0 && !std::strchr(" \t'\"(=[", text[at - 1]))) return 0;
  size_t end = at;
  while (end < text.size() && !std::strchr(" \t'\"),:]", text[end])) ++end;
  return text.substr(at + 1, end - at - 1).find('/') == std::string_view::npos ? 0 : end - at;
}

}  // namespace

std::string message_class(std::string_view message) {
  message = message.substr(0, message.find('\n'));
  auto is_digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  auto is_hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  std::string masked;
  for (size_t i = 0; i < message.size();) {
    // A file's absolute path becomes '#' and its extension: compilers name the files they
    // generate by a hash of their source (PyTorch's "Failed to import
    // /tmp/torchinductor_root/5f/c5fclc5s...py"), which is new for every candidate.
    if (const size_t length = absolute_path_length(message, i)) {
      const std::string_view path = message.substr(i, length);
      const size_t dot = path.rfind('.');
      masked += '#';
      if (dot != std::string_view::npos && dot > path.rfind('/')) masked += path.substr(dot);
      i += length;
      continue;
    }
    // A number, or a hex word holding a digit (a hash, an address), becomes one '#'.
    size_t end = i;
    // A node's counter ("relu_3" of "relu") goes altogether: the same node may be renamed.
    if (message[i] == '_' && i > 0 && std::isalnum(static_cast<unsigned char>(message[i - 1]))) {
      size_t digits = i + 1;
      while (digits < message.size() && is_digit(message[digits])) ++digits;
      if (digits > i + 1 && (digits == message.size() || !std::isalnum(static_cast<unsigned char>(message[digits])))) {
        i = digits;
        continue;
      }
    }
    if (is_digit(message[i])) {
      while (end < message.size() && is_digit(message[end])) ++end;
    } else if (i == 0 || !std::isalnum(static_cast<unsigned char>(message[i - 1]))) {
      while (end < message.size() && is_hex(message[end])) ++end;
      if (std::none_of(message.begin() + i, message.begin() + end, is_digit)) end = i;
    }
    if (end > i) {
      masked += '#';
      i = end;
    } else {
      masked += message[i++];
    }
  }
  return masked;
}

bool same_failure(const Failure& found, const Failure& expected, const std::string& check_str) {
  if (found.kind != expected.kind || !found.failed()) return false;
  if (!check_str.empty() && (found.type + ": " + found.message).find(check_str) == std::string::npos) return false;
  // An accuracy failure stays the same failure only where it was seen (outputs or gradients):
  // a forward bug must not be traded for an unrelated gradient mismatch of another node.
  if (found.kind == Failure::Kind::Accuracy) return found.message == expected.message;
  if (found.kind != Failure::Kind::Exception) return true;
  return found.type == expected.type && message_class(found.message) == message_class(expected.message);
}

}  // namespace kiln::repro
