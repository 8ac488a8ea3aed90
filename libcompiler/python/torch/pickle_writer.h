#pragma once
// PickleWriter: Python's pickle protocol 2 (what torch.save writes), for the values a checkpoint
// holds: None, bools, ints, floats, strs, tuples, lists, dicts and what the caller's hook takes
// over (tensors, OrderedDicts, dtypes). Containers are memoized by identity and strings by value,
// so a shared object is written once and referred to after; the memo keeps those objects alive
// while the pickle is written.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "libcompiler/python/interp/object.h"

namespace kiln::python {

class PickleWriter {
 public:
  // Writes `value` itself when it is one of its kind, returning true; false leaves it to the
  // writer (which raises a PicklingError-like TypeError for anything it does not know).
  using Hook = std::function<bool(PickleWriter&, const Ref& value)>;

  explicit PickleWriter(Hook hook) : hook_(std::move(hook)) {}

  // The whole pickle of `value`: PROTO 2, the value, STOP.
  std::string dump(const Ref& value);

  // For hooks: the pieces a reduce is written with.
  void save(const Ref& value);
  void global(const std::string& module, const std::string& name);
  void mark() { out_ += '('; }
  void tuple_from_mark() { out_ += 't'; }
  void reduce() { out_ += 'R'; }
  void build() { out_ += 'b'; }
  void persistent_id() { out_ += 'Q'; }
  void empty_tuple() { out_ += ')'; }
  // TUPLE1..TUPLE3: a tuple of the last `n` (1 to 3) values written.
  void small_tuple(size_t n) { out_ += static_cast<char>(0x85 + n - 1); }
  // Writes each (key, value) with SETITEM(S), onto the dict-like object on the stack.
  void set_items(const std::vector<std::pair<Ref, Ref>>& items);
  // Memoizes the object just built (the stack's top) under `identity`; true if it was already
  // written, in which case the caller writes nothing and a BINGET has been emitted instead.
  bool get_memoized(const void* identity);
  void memoize(const void* identity, Ref keep_alive);

 private:
  void save_int(int64_t value);
  void save_float(double value);
  void save_str(const std::string& value);
  void save_tuple(const std::vector<Ref>& items, const Ref& tuple);
  void save_list(const Ref& list);
  void save_dict(const Ref& dict);
  void put(uint32_t index);

  Hook hook_;
  std::string out_;
  std::map<const void*, uint32_t> memo_;
  std::map<std::string, uint32_t> string_memo_;
  std::vector<Ref> kept_alive_;
};

}  // namespace kiln::python
