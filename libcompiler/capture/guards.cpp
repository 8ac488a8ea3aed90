#include "libcompiler/capture/guards.h"

#include <algorithm>
#include <regex>

#include "libcompiler/ops/autocast.h"
#include "libcompiler/ops/autograd/grad_mode.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/torch/tensor_object.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {

using namespace python;

namespace {

std::string optional_list(const std::vector<std::optional<int64_t>>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += values[i] ? std::to_string(*values[i]) : "None";
  }
  return out + "]";
}

// repr() of the constants guards compare with.
std::string python_repr_of_constant(const Ref& value) {
  return constant_repr(value).value_or("<" + value->type->qualified_name() + " object>");
}

std::string object_id(const Ref& value) { return std::to_string(reinterpret_cast<uintptr_t>(value.get())); }

// Dynamo writes failure reasons with frame locals by their names: "L['c'] == 1.5" -> "c == 1.5".
std::string with_local_names(std::string text) {
  static const std::regex local(R"(L\['([A-Za-z_][A-Za-z0-9_]*)'\])");
  return std::regex_replace(text, local, "$1");
}

std::string size_text(const SourceRef& source, int64_t dim) { return source->text() + ".size()[" + std::to_string(dim) + "]"; }

std::optional<std::string> check_tensor(const Guard& g, const Ref& value) {
  std::string prefix = "tensor '" + g.source->guard_name() + "' ";
  if (!is_tensor(value))
    return "expected type of '" + g.source->text() + "' to be a tensor type, ' but found " + "<class '" +
           value->type->qualified_name() + "'>";
  const auto& object = static_cast<const TensorObject&>(*value);
  const tensor::Tensor& t = object.value;
  if (t.dtype() != g.dtype)
    return prefix + "dtype mismatch. expected " + std::string(tensor::scalar_type_name(g.dtype)) + ", actual " +
           std::string(tensor::scalar_type_name(t.dtype()));
  if (object.device() != g.device) return prefix + "device mismatch. expected " + g.device.str() + ", actual " + object.device().str();
  if (t.requires_grad() != g.requires_grad)
    return prefix + "requires_grad mismatch. expected requires_grad=" + std::to_string(g.requires_grad ? 1 : 0);
  if (static_cast<size_t>(t.dim()) != g.sizes.size())
    return prefix + "rank mismatch. expected " + std::to_string(g.sizes.size()) + ", actual " + std::to_string(t.dim());
  for (size_t i = 0; i < g.sizes.size(); ++i)
    if (g.sizes[i] && *g.sizes[i] != t.sizes()[i])
      return prefix + "size mismatch at index " + std::to_string(i) + ". expected " + std::to_string(*g.sizes[i]) +
             ", actual " + std::to_string(t.sizes()[i]);
  for (size_t i = 0; i < g.strides.size(); ++i)
    if (g.strides[i] && *g.strides[i] != t.strides()[i])
      return prefix + "stride mismatch at index " + std::to_string(i) + ". expected " + std::to_string(*g.strides[i]) +
             ", actual " + std::to_string(t.strides()[i]);
  return std::nullopt;
}

int64_t tensor_size(const Ref& value, int64_t dim) {
  if (!value || !is_tensor(value)) return -1;
  const auto& t = static_cast<const TensorObject&>(*value).value;
  return dim < t.dim() ? t.sizes()[static_cast<size_t>(dim)] : -1;
}

int64_t tensor_stride(const Ref& value, int64_t dim) {
  if (!value || !is_tensor(value)) return -1;
  const auto& t = static_cast<const TensorObject&>(*value).value;
  return dim < t.dim() ? t.strides()[static_cast<size_t>(dim)] : -1;
}

}  // namespace

std::string Guard::code() const {
  switch (kind) {
    case GuardKind::TensorMatch: {
      // As Dynamo prints it: the dispatch keys of the tensor's backend, and its device index
      // (None for the CPU's).
      const bool cuda = device.type == tensor::DeviceType::CUDA;
      const std::string backend = cuda ? "CUDA" : "CPU";
      return "check_tensor(" + source->text() + ", " + (parameter ? "Parameter" : "Tensor") + ", DispatchKeySet(" + backend +
             ", BackendSelect, ADInplaceOrView, Autograd" + backend + "), torch." + std::string(tensor::dtype_name(dtype)) +
             ", device=" + (cuda ? std::to_string(std::max(device.index, 0)) : "None") +
             ", requires_grad=" + (requires_grad ? "True" : "False") + ", size=" + optional_list(sizes) + ", stride=" +
             optional_list(strides) + ")";
    }
    case GuardKind::EqualsMatch: return source->text() + " == " + python_repr_of_constant(expected);
    case GuardKind::IdMatch: return "___check_obj_id(" + source->text() + ", " + object_id(expected) + ")";
    case GuardKind::TypeMatch: return "___check_type_id(" + source->text() + ", " + object_id(expected) + ")";
    case GuardKind::LengthCheck: return "len(" + source->text() + ") == " + std::to_string(length);
    case GuardKind::DictKeys: {
      std::string keys;
      for (size_t i = 0; i < this->keys.size(); ++i) keys += (i ? ", " : "") + python_repr_of_constant(this->keys[i]);
      return "list(" + source->text() + ".keys()) == [" + keys + "]";
    }
    case GuardKind::SizeLowerBound: return "2 <= " + size_text(source, dim);
    case GuardKind::SizeValue: return size_text(source, dim) + " == " + std::to_string(length);
    case GuardKind::SizeEquality: return size_text(source, dim) + " == " + size_text(other, other_dim);
    case GuardKind::StrideEquality:
      return source->text() + ".stride()[" + std::to_string(dim) + "] == " + size_text(other, other_dim);
    case GuardKind::GlobalState: return std::string("___check_global_state() grad_mode=") + (grad_mode ? "True" : "False");
    case GuardKind::DuplicateInput: return source->text() + " is " + other->text();
    case GuardKind::ShapeRelation: {
      // As PyTorch prints a shape guard: the symbols spelled as the sizes they stand for.
      std::map<std::string, ir::SymExpr> spelled;
      for (const SymbolSource& s : relation_symbols) spelled.emplace(s.symbol, ir::SymExpr::symbol(size_text(s.source, s.dim)));
      return ir::ShapeDecision{relation->lhs.substitute(spelled), relation->rhs.substitute(spelled), relation->relation}.str();
    }
  }
  return {};
}

std::string guard_line(const Guard& guard) {
  std::string code = guard.code();
  if (guard.user_code.empty()) return code;
  if (code.size() < 60) code.resize(60, ' ');
  return code + "  # " + guard.user_code;
}

void GuardSet::add(Guard guard) {
  if (guard.kind == GuardKind::SizeValue)
    for (const Guard& g : guards_)
      if (g.kind == GuardKind::SizeValue && g.dim == guard.dim && g.source->text() == guard.source->text()) return;
  if (guard.source && guard.kind != GuardKind::SizeEquality && guard.kind != GuardKind::StrideEquality &&
      guard.kind != GuardKind::SizeValue && guard.kind != GuardKind::ShapeRelation &&
      guard.kind != GuardKind::DuplicateInput && has(guard.kind, guard.source->text()))
    return;
  guards_.push_back(std::move(guard));
}

void GuardSet::attribute(size_t from, const std::string& user_code, const UserFrame& frame) {
  for (size_t i = from; i < guards_.size(); ++i) {
    guards_[i].user_code = user_code;
    guards_[i].user_frame = frame;
  }
}

bool GuardSet::has(GuardKind kind, const std::string& source_text) const {
  for (const Guard& g : guards_)
    if (g.kind == kind && g.source && g.source->text() == source_text) return true;
  return false;
}

std::optional<std::string> GuardSet::check(Interpreter& interp, const FrameInputs& inputs, const Guard** failed,
                                           const std::set<std::string>* only_sources) const {
  for (const Guard& g : guards_) {
    if (only_sources && g.kind != GuardKind::TensorMatch && (!g.source || !only_sources->count(g.source->text()))) continue;
    if (failed) *failed = &g;
    if (g.kind == GuardKind::GlobalState) {
      if (ops::GradMode::is_enabled() != g.grad_mode || ops::autocast_states() != g.autocast)
        return std::string("___check_global_state()");
      continue;
    }
    if (g.kind == GuardKind::ShapeRelation) {
      std::map<std::string, int64_t> values;
      for (const SymbolSource& s : g.relation_symbols) values[s.symbol] = tensor_size(s.source->fetch(interp, inputs), s.dim);
      if (!g.relation->holds(values)) return with_local_names(guard_line(g));
      continue;
    }
    Ref value = g.source->fetch(interp, inputs);
    if (!value) return with_local_names(g.source->text()) + " is missing";
    bool holds = true;
    switch (g.kind) {
      case GuardKind::TensorMatch:
        if (auto failure = check_tensor(g, value)) return failure;
        continue;
      case GuardKind::EqualsMatch:
        holds = value->kind == g.expected->kind && equals(interp, value, g.expected);
        break;
      case GuardKind::IdMatch: holds = value == g.expected; break;
      case GuardKind::TypeMatch: holds = value->type == g.expected.get(); break;
      case GuardKind::LengthCheck:
        holds = (is_list_or_tuple(value) || value->kind == ObjectKind::Dict) &&
                len(interp, value) == g.length;
        break;
      case GuardKind::DictKeys: {
        holds = value->kind == ObjectKind::Dict;
        if (holds) {
          auto entries = as<DictObject>(value).entries();
          holds = entries.size() == g.keys.size();
          for (size_t i = 0; holds && i < entries.size(); ++i) holds = same_dict_key(interp, entries[i]->key, g.keys[i]);
        }
        break;
      }
      case GuardKind::SizeLowerBound: holds = tensor_size(value, g.dim) >= 2; break;
      case GuardKind::SizeValue: holds = tensor_size(value, g.dim) == g.length; break;
      case GuardKind::SizeEquality: holds = tensor_size(value, g.dim) == tensor_size(g.other->fetch(interp, inputs), g.other_dim); break;
      case GuardKind::StrideEquality:
        holds = tensor_stride(value, g.dim) == tensor_size(g.other->fetch(interp, inputs), g.other_dim);
        break;
      case GuardKind::DuplicateInput: holds = value == g.other->fetch(interp, inputs); break;
      case GuardKind::GlobalState:
      case GuardKind::ShapeRelation: break;
    }
    if (!holds) {
      std::string reason = with_local_names(guard_line(g));
      if (g.user_frame)
        reason += "\nUser stack trace:\n  File \"" + g.user_frame->filename + "\", line " + std::to_string(g.user_frame->line) +
                  ", in " + g.user_frame->function + "\n    " + g.user_frame->code;
      return reason;
    }
  }
  return std::nullopt;
}

bool same_dict_key(Interpreter& interp, const Ref& a, const Ref& b) {
  if (a == b) return true;
  return !is_tensor(a) && !is_tensor(b) && equals(interp, a, b);
}

void guard_value(GuardSet& guards, const SourceRef& source, const Ref& value, int depth) {
  if (is_tensor(value) || depth > 2) return;
  auto guard = [&](GuardKind kind) {
    Guard g{kind, source, value};
    g.value_type = value->type->qualified_name();
    return g;
  };
  if (is_constant(value)) {
    guards.add(guard(GuardKind::EqualsMatch));
    return;
  }
  switch (value->kind) {
    case ObjectKind::List:
    case ObjectKind::Tuple: {
      Guard length = guard(GuardKind::LengthCheck);
      const auto& items = sequence_items(value);
      length.length = static_cast<int64_t>(items.size());
      guards.add(std::move(length));
      for (size_t i = 0; i < items.size(); ++i)
        guard_value(guards, Source::item(source, py_int(static_cast<int64_t>(i))), items[i], depth + 1);
      return;
    }
    case ObjectKind::Dict: {
      Guard keys = guard(GuardKind::DictKeys);
      for (const auto* e : as<DictObject>(value).entries()) keys.keys.push_back(e->key);
      guards.add(std::move(keys));
      for (const auto* e : as<DictObject>(value).entries())
        if (e->key->kind == ObjectKind::Str || e->key->kind == ObjectKind::Int)
          guard_value(guards, Source::item(source, e->key), e->value, depth + 1);
      return;
    }
    default: guards.add(guard(GuardKind::IdMatch)); return;
  }
}

}  // namespace kiln::capture
