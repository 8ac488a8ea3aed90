#include "libcompiler/capture/source.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_set>

#include "libcompiler/capture/side_effects.h"
#include "libcompiler/ops/autograd/autograd_meta.h"
#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/python/interp/protocols.h"
#include "libcompiler/python/python_repr.h"
#include "libcompiler/python/torch/tensor_object.h"

namespace kiln::capture {

using namespace python;

Ref FrameInputs::local(const std::string& name) const {
  for (const auto& [n, v] : locals)
    if (n == name) return v;
  return nullptr;
}

Source::Source(Kind kind, SourceRef base, std::string name, Ref key, size_t index)
    : kind_(kind), base_(std::move(base)), name_(std::move(name)), key_(std::move(key)), index_(index) {}

SourceRef Source::local(std::string name) { return SourceRef(new Source(Kind::Local, nullptr, std::move(name), nullptr)); }
SourceRef Source::global(std::string name) { return SourceRef(new Source(Kind::Global, nullptr, std::move(name), nullptr)); }
SourceRef Source::builtins() { return SourceRef(new Source(Kind::Builtins, nullptr, "", nullptr)); }

SourceRef Source::attribute(SourceRef base, std::string name) {
  return SourceRef(new Source(Kind::Attribute, std::move(base), std::move(name), nullptr));
}
SourceRef Source::item(SourceRef base, Ref key) { return SourceRef(new Source(Kind::Item, std::move(base), "", std::move(key))); }
SourceRef Source::dict_key(SourceRef dict, size_t index) {
  return SourceRef(new Source(Kind::DictKey, std::move(dict), "", nullptr, index));
}
SourceRef Source::dict_value(SourceRef dict, size_t index) {
  return SourceRef(new Source(Kind::DictValue, std::move(dict), "", nullptr, index));
}

std::string Source::text() const {
  switch (kind_) {
    case Kind::Local: return "L['" + name_ + "']";
    case Kind::Global: return "G['" + name_ + "']";
    case Kind::Builtins: return "G['__builtins_dict___1']";
    case Kind::Attribute: return base_->text() + "." + name_;
    case Kind::Item:
      if (key_->kind == ObjectKind::Str) return base_->text() + "['" + as<StrObject>(key_).value + "']";
      return base_->text() + "[" + std::to_string(as<IntObject>(key_).value) + "]";
    case Kind::DictKey: return "list(dict.keys(" + base_->text() + "))[" + std::to_string(index_) + "]";
    case Kind::DictValue: return base_->text() + "[" + dict_key(base_, index_)->text() + "]";
  }
  return {};
}

std::string Source::placeholder_name() const {
  std::string out;
  bool in_run = false;
  for (char c : text()) {
    bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (word) {
      out += c;
      in_run = false;
    } else if (!in_run) {
      out += '_';
      in_run = true;
    }
  }
  return out;
}

std::string Source::guard_name() const { return kind_ == Kind::Local ? name_ : text(); }

Ref Source::fetch(Interpreter& interp, const FrameInputs& inputs) const {
  switch (kind_) {
    case Kind::Local: return inputs.local(name_);
    case Kind::Global: return inputs.globals ? inputs.globals->get(name_) : nullptr;
    case Kind::Builtins: return nullptr;  // its items are read through interp.builtins()
    case Kind::Attribute: {
      Ref base = base_->fetch(interp, inputs);
      if (!base) return nullptr;
      if (base->kind == ObjectKind::Instance) {
        auto& dict = as<InstanceObject>(base).dict;
        if (auto it = dict.find(name_); it != dict.end()) return it->second;
      }
      return try_getattr(interp, base, name_);
    }
    case Kind::Item: {
      if (base_->kind() == Kind::Builtins) return interp.builtins().get(interp, key_);
      Ref base = base_->fetch(interp, inputs);
      if (!base) return nullptr;
      if (base->kind == ObjectKind::Dict) return as<DictObject>(base).get(interp, key_);
      if (is_list_or_tuple(base)) {
        const auto& items = sequence_items(base);
        int64_t i = as<IntObject>(key_).value;
        return i >= 0 && static_cast<size_t>(i) < items.size() ? items[static_cast<size_t>(i)] : nullptr;
      }
      return nullptr;
    }
    case Kind::DictKey:
    case Kind::DictValue: {
      Ref base = base_->fetch(interp, inputs);
      if (!base || base->kind != ObjectKind::Dict) return nullptr;
      const auto entries = as<DictObject>(base).entries();
      if (index_ >= entries.size()) return nullptr;
      return kind_ == Kind::DictKey ? entries[index_]->key : entries[index_]->value;
    }
  }
  return nullptr;
}

namespace {

constexpr int kSearchDepth = 6;

// An nn.Module's registries of parameters, submodules and buffers.
constexpr const char* kRegistries[] = {"_parameters", "_modules", "_buffers"};
bool is_registry(const std::string& name) {
  return std::any_of(std::begin(kRegistries), std::end(kRegistries), [&](const char* registry) { return name == registry; });
}

// The registry of a module's attributes that holds `value` under `name`, if one does.
const char* registry_holding(const AttrMap& attributes, const std::string& name, const Ref& value) {
  for (const char* registry : kRegistries) {
    auto it = attributes.find(registry);
    if (it == attributes.end() || it->second->kind != ObjectKind::Dict) continue;
    if (const Ref held = as<DictObject>(it->second).get(name); held && held == value) return registry;
  }
  return nullptr;
}

// The children of a value that a search follows, with the source of each (of an object the frame
// changed, those it had at the start).
void children(const Ref& value, const SourceRef& source, const SideEffects* changed, std::vector<std::pair<SourceRef, Ref>>& out) {
  if (is_tensor(value)) {
    // A gradient that is there (Tensor.grad of a non-leaf would warn).
    const auto& meta = static_cast<TensorObject&>(*value).value.autograd_meta();
    if (meta && meta->grad.defined()) out.emplace_back(Source::attribute(source, "grad"), wrap_tensor(meta->grad));
    return;
  }
  const SideEffects::Snapshot* original = changed ? changed->original(value.get()) : nullptr;
  switch (value->kind) {
    case ObjectKind::List:
    case ObjectKind::Tuple: {
      const auto& items = original ? original->items : sequence_items(value);
      for (size_t i = 0; i < items.size(); ++i) out.emplace_back(Source::item(source, py_int(static_cast<int64_t>(i))), items[i]);
      return;
    }
    case ObjectKind::Dict: {
      std::vector<std::pair<Ref, Ref>> entries;
      if (original) entries = original->entries;
      else
        for (const auto* e : as<DictObject>(value).entries()) entries.emplace_back(e->key, e->value);
      for (size_t i = 0; i < entries.size(); ++i) {
        const auto& [key, item] = entries[i];
        bool spelled = key->kind == ObjectKind::Str || key->kind == ObjectKind::Int;
        out.emplace_back(spelled ? Source::item(source, key) : Source::dict_value(source, i), item);
      }
      return;
    }
    case ObjectKind::Instance: {
      const auto& dict = original ? original->attributes : as<InstanceObject>(value).dict;
      // Modules through their registries only, as Dynamo names parameters and submodules
      // (L['self']._modules['fc']._parameters['weight']): kiln's nn.Module also keeps each entry
      // as a plain attribute, for speed, which is not searched.
      for (const char* registry : kRegistries)
        if (auto it = dict.find(registry); it != dict.end()) out.emplace_back(Source::attribute(source, registry), it->second);
      std::vector<std::string> names;
      for (const auto& [name, v] : dict)
        if (!is_registry(name) && !registry_holding(dict, name, v)) names.push_back(name);
      std::sort(names.begin(), names.end());
      for (const auto& name : names) out.emplace_back(Source::attribute(source, name), dict.at(name));
      return;
    }
    default: return;
  }
}

bool searchable(const Ref& value) {
  switch (value->kind) {
    case ObjectKind::List:
    case ObjectKind::Tuple:
    case ObjectKind::Dict:
    case ObjectKind::Instance: return true;
    default: return is_tensor(value);  // its .grad
  }
}

}  // namespace

namespace {

using SearchQueue = std::deque<std::tuple<SourceRef, Ref, int>>;

// Breadth first, a few levels deep: the sources that reach `target`, nearest first, at most `limit`.
std::vector<SourceRef> search(SearchQueue queue, const Ref& target, size_t limit, const SideEffects* changed) {
  std::vector<SourceRef> found;
  std::unordered_set<const Object*> seen;
  while (!queue.empty() && found.size() < limit) {
    auto [source, value, depth] = std::move(queue.front());
    queue.pop_front();
    if (value == target) {
      found.push_back(source);
      continue;
    }
    if (depth >= kSearchDepth || !searchable(value) || !seen.insert(value.get()).second) continue;
    std::vector<std::pair<SourceRef, Ref>> next;
    children(value, source, changed, next);
    for (auto& [s, v] : next) {
      // A module's registry dict is a step of the path, not a level of the search: the entry
      // under it is the level (self.fc.weight and L['self']._modules['fc']._parameters['weight']
      // are as deep).
      const bool registry = s->kind() == Source::Kind::Attribute && is_registry(s->name());
      queue.emplace_back(std::move(s), std::move(v), registry ? depth : depth + 1);
    }
  }
  return found;
}

SearchQueue local_roots(const FrameInputs& inputs) {
  SearchQueue roots;
  for (const auto& [name, value] : inputs.locals) roots.emplace_back(Source::local(name), value, 0);
  return roots;
}

}  // namespace

SourceRef member_source(const SourceRef& base, const Ref& object, const std::string& name, const Ref& value) {
  if (object->kind == ObjectKind::Instance)
    if (const char* registry = registry_holding(as<InstanceObject>(object).dict, name, value))
      return Source::item(Source::attribute(base, registry), py_str(name));
  return Source::attribute(base, name);
}

SourceRef find_source(Interpreter&, const FrameInputs& inputs, const Ref& target) {
  // All of the locals before any global: a tensor passed in a list or dict argument is read
  // through the argument (L['xs'][0]), even when the script also holds it in a global, and a
  // later call passes other tensors in that argument.
  if (auto found = search(local_roots(inputs), target, 1, inputs.changed); !found.empty()) return found.front();
  SearchQueue globals;
  if (inputs.globals)
    for (const auto* e : inputs.globals->entries())
      if (e->key->kind == ObjectKind::Str && (e->value == target || searchable(e->value)))
        globals.emplace_back(Source::global(as<StrObject>(e->key).value), e->value, 0);
  auto found = search(std::move(globals), target, 1, inputs.changed);
  return found.empty() ? nullptr : found.front();
}

std::vector<SourceRef> local_sources(const FrameInputs& inputs, const Ref& target) {
  return search(local_roots(inputs), target, std::numeric_limits<size_t>::max(), inputs.changed);
}

}  // namespace kiln::capture
