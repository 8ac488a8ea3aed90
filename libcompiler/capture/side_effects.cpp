#include "libcompiler/capture/side_effects.h"

#include "libcompiler/capture/guards.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::capture {

using namespace python;

void SideEffects::changing(const Ref& target, const SourceRef& source) {
  for (const Changed& c : changed_)
    if (c.target == target) return;
  Snapshot snapshot;
  switch (target->kind) {
    case ObjectKind::Instance: snapshot.attributes = as<InstanceObject>(target).dict; break;
    case ObjectKind::List: snapshot.items = as<ListObject>(target).items; break;
    case ObjectKind::Dict:
      for (const auto* e : as<DictObject>(target).entries()) snapshot.entries.emplace_back(e->key, e->value);
      break;
    default: return;
  }
  changed_.push_back({target, source});
  snapshots_.push_back(std::move(snapshot));
}

const SideEffects::Snapshot* SideEffects::original(const Object* target) const {
  for (size_t i = 0; i < changed_.size(); ++i)
    if (changed_[i].target.get() == target) return &snapshots_[i];
  return nullptr;
}

std::vector<SideEffects::Change> SideEffects::changes(Interpreter& interp) const {
  std::vector<Change> out;
  for (size_t i = 0; i < changed_.size(); ++i) {
    const Ref& target = changed_[i].target;
    const Snapshot& before = snapshots_[i];
    Change change{target, changed_[i].source, {}, {}, {}, true};
    switch (target->kind) {
      case ObjectKind::Instance: {
        const AttrMap& now = as<InstanceObject>(target).dict;
        for (const auto& [name, value] : now)
          if (auto it = before.attributes.find(name); it == before.attributes.end() || it->second != value)
            change.set.emplace_back(py_str(name), value);
        for (const auto& [name, value] : before.attributes)
          if (!now.count(name)) change.removed.push_back(py_str(name));
        break;
      }
      case ObjectKind::List: {
        const auto& now = as<ListObject>(target).items;
        bool extends = now.size() >= before.items.size();
        for (size_t k = 0; extends && k < before.items.size(); ++k) extends = now[k] == before.items[k];
        change.replayable = extends;
        if (extends) change.appended.assign(now.begin() + static_cast<long>(before.items.size()), now.end());
        break;
      }
      case ObjectKind::Dict: {
        const auto& now = as<DictObject>(target);
        for (const auto* e : now.entries()) {
          bool same = false;
          for (const auto& [key, value] : before.entries)
            if (same_dict_key(interp, key, e->key)) same = value == e->value;
          if (!same) change.set.emplace_back(e->key, e->value);
        }
        for (const auto& [key, value] : before.entries)
          if (!now.get(interp, key)) change.removed.push_back(key);
        break;
      }
      default: break;
    }
    out.push_back(std::move(change));
  }
  return out;
}

void SideEffects::restore(Interpreter& interp) {
  for (size_t i = 0; i < changed_.size(); ++i) {
    const Ref& target = changed_[i].target;
    Snapshot& snapshot = snapshots_[i];
    switch (target->kind) {
      case ObjectKind::Instance: as<InstanceObject>(target).dict = snapshot.attributes; break;
      case ObjectKind::List: as<ListObject>(target).items = snapshot.items; break;
      case ObjectKind::Dict: {
        auto& dict = as<DictObject>(target);
        dict.clear();
        for (const auto& [key, value] : snapshot.entries) dict.set(interp, key, value);
        break;
      }
      default: break;
    }
  }
}

}  // namespace kiln::capture
