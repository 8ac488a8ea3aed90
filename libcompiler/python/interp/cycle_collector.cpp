#include "libcompiler/python/interp/cycle_collector.h"

#include <map>
#include <mutex>
#include <vector>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

// Every live CycleTracked object, in an intrusive list (objects come and go far more often than
// a collection runs). Objects may be released on another thread than the one that made them.
class CycleRegistry {
 public:
  static CycleRegistry& instance() {
    static CycleRegistry& registry = *new CycleRegistry;  // outlives every static object
    return registry;
  }
  void link(CycleTracked* object) {
    std::lock_guard lock(mutex_);
    object->next_ = head_;
    if (head_) head_->previous_ = object;
    head_ = object;
  }
  void unlink(CycleTracked* object) {
    std::lock_guard lock(mutex_);
    if (object->previous_) object->previous_->next_ = object->next_;
    else head_ = object->next_;
    if (object->next_) object->next_->previous_ = object->previous_;
  }
  // The tracked objects a shared_ptr owns now, each held once more by the result.
  std::vector<std::shared_ptr<CycleTracked>> owned_objects() {
    std::lock_guard lock(mutex_);
    std::vector<std::shared_ptr<CycleTracked>> objects;
    for (CycleTracked* object = head_; object; object = object->next_)
      if (std::shared_ptr<CycleTracked> owned = object->weak_from_this().lock()) objects.push_back(std::move(owned));
    return objects;
  }

 private:
  std::mutex mutex_;
  CycleTracked* head_ = nullptr;
};

CycleTracked::CycleTracked() { CycleRegistry::instance().link(this); }
CycleTracked::~CycleTracked() { CycleRegistry::instance().unlink(this); }

namespace {

// The tracked objects that only other unreachable tracked objects hold, each held once more by
// the result.
std::vector<std::shared_ptr<CycleTracked>> unreachable_objects() {
  std::vector<std::shared_ptr<CycleTracked>> objects = CycleRegistry::instance().owned_objects();
  // Tracked objects by ownership: a reference of any type (Ref, shared_ptr<Scope>) to the same
  // object shares its control block.
  std::map<std::weak_ptr<const void>, size_t, std::owner_less<>> index;
  for (size_t i = 0; i < objects.size(); ++i) index.emplace(objects[i], i);
  auto index_of = [&](const std::shared_ptr<const void>& reference) -> long {
    if (!reference) return -1;
    auto found = index.find(reference);
    return found == index.end() ? -1 : static_cast<long>(found->second);
  };

  // References from outside the tracked objects: all of an object's owners, less the one
  // `objects` adds and those tracked objects hold.
  std::vector<long> outside(objects.size());
  for (size_t i = 0; i < objects.size(); ++i) outside[i] = objects[i].use_count() - 1;
  for (const auto& object : objects)
    object->traverse([&](const std::shared_ptr<const void>& reference) {
      if (long i = index_of(reference); i >= 0) --outside[i];
    });

  // Whatever an object held from outside reaches stays.
  std::vector<bool> reachable(objects.size(), false);
  std::vector<size_t> pending;
  for (size_t i = 0; i < objects.size(); ++i)
    if (outside[i] > 0) {
      reachable[i] = true;
      pending.push_back(i);
    }
  while (!pending.empty()) {
    size_t i = pending.back();
    pending.pop_back();
    objects[i]->traverse([&](const std::shared_ptr<const void>& reference) {
      long j = index_of(reference);
      if (j >= 0 && !reachable[j]) {
        reachable[j] = true;
        pending.push_back(j);
      }
    });
  }

  std::vector<std::shared_ptr<CycleTracked>> garbage;
  for (size_t i = 0; i < objects.size(); ++i)
    if (!reachable[i]) garbage.push_back(std::move(objects[i]));
  return garbage;
}

}  // namespace

size_t collect_cycles(const Finalizer& finalize) {
  std::vector<std::shared_ptr<CycleTracked>> garbage = unreachable_objects();
  const size_t found = garbage.size();
  if (finalize) {
    bool finalized = false;
    for (const auto& object : garbage) finalized |= finalize(object);
    if (finalized) {
      garbage.clear();
      garbage = unreachable_objects();
    }
  }
  // Kept alive here while each drops its references, then let go together.
  for (const auto& object : garbage) object->clear_references();
  garbage.clear();
  return found;
}

}  // namespace kiln::python
