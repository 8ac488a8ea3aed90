#include "libcompiler/python/torch/pickle_writer.h"

#include <cstring>
#include <limits>

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

namespace {

constexpr size_t kBatchSize = 1000;  // items per APPENDS/SETITEMS, as CPython batches them

void append_le(std::string& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

}  // namespace

std::string PickleWriter::dump(const Ref& value) {
  out_ = "\x80\x02";
  save(value);
  out_ += '.';
  return std::move(out_);
}

void PickleWriter::put(uint32_t index) {
  if (index < 256) {
    out_ += 'q';
    out_ += static_cast<char>(index);
  } else {
    out_ += 'r';
    append_le(out_, index, 4);
  }
}

bool PickleWriter::get_memoized(const void* identity) {
  auto found = memo_.find(identity);
  if (found == memo_.end()) return false;
  uint32_t index = found->second;
  if (index < 256) {
    out_ += 'h';
    out_ += static_cast<char>(index);
  } else {
    out_ += 'j';
    append_le(out_, index, 4);
  }
  return true;
}

void PickleWriter::memoize(const void* identity, Ref keep_alive) {
  auto index = static_cast<uint32_t>(memo_.size() + string_memo_.size());
  memo_.emplace(identity, index);
  kept_alive_.push_back(std::move(keep_alive));
  put(index);
}

void PickleWriter::global(const std::string& module, const std::string& name) {
  std::string key = "global:" + module + "\n" + name;
  if (auto found = string_memo_.find(key); found != string_memo_.end()) {
    uint32_t index = found->second;
    out_ += index < 256 ? 'h' : 'j';
    append_le(out_, index, index < 256 ? 1 : 4);
    return;
  }
  out_ += 'c' + module + '\n' + name + '\n';
  auto index = static_cast<uint32_t>(memo_.size() + string_memo_.size());
  string_memo_.emplace(key, index);
  put(index);
}

void PickleWriter::save_int(int64_t value) {
  if (value >= 0 && value <= 0xff) {
    out_ += 'K';
    append_le(out_, static_cast<uint64_t>(value), 1);
  } else if (value >= 0 && value <= 0xffff) {
    out_ += 'M';
    append_le(out_, static_cast<uint64_t>(value), 2);
  } else if (value >= std::numeric_limits<int32_t>::min() && value <= std::numeric_limits<int32_t>::max()) {
    out_ += 'J';
    append_le(out_, static_cast<uint64_t>(static_cast<uint32_t>(static_cast<int32_t>(value))), 4);
  } else {
    // LONG1: the shortest little-endian two's complement that keeps the sign.
    std::string bytes;
    append_le(bytes, static_cast<uint64_t>(value), 8);
    char fill = value < 0 ? '\xff' : '\0';
    while (bytes.size() > 1 && bytes.back() == fill && ((bytes[bytes.size() - 2] & 0x80) != 0) == (value < 0))
      bytes.pop_back();
    out_ += '\x8a';
    out_ += static_cast<char>(bytes.size());
    out_ += bytes;
  }
}

void PickleWriter::save_float(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  out_ += 'G';
  for (int i = 7; i >= 0; --i) out_ += static_cast<char>((bits >> (8 * i)) & 0xff);
}

void PickleWriter::save_str(const std::string& value) {
  if (auto found = string_memo_.find(value); found != string_memo_.end()) {
    uint32_t index = found->second;
    out_ += index < 256 ? 'h' : 'j';
    append_le(out_, index, index < 256 ? 1 : 4);
    return;
  }
  out_ += 'X';
  append_le(out_, value.size(), 4);
  out_ += value;
  auto index = static_cast<uint32_t>(memo_.size() + string_memo_.size());
  string_memo_.emplace(value, index);
  put(index);
}

void PickleWriter::save_tuple(const std::vector<Ref>& items, const Ref& tuple) {
  if (items.empty()) {
    out_ += ')';
    return;
  }
  if (items.size() > 3) mark();
  for (const auto& item : items) save(item);
  if (items.size() <= 3)
    small_tuple(items.size());
  else
    tuple_from_mark();
  if (tuple) memoize(tuple.get(), tuple);
}

void PickleWriter::save_list(const Ref& list) {
  out_ += ']';
  memoize(list.get(), list);
  const auto& items = as<ListObject>(list).items;
  for (size_t start = 0; start < items.size(); start += kBatchSize) {
    size_t end = std::min(items.size(), start + kBatchSize);
    if (end - start == 1) {
      save(items[start]);
      out_ += 'a';
      continue;
    }
    mark();
    for (size_t i = start; i < end; ++i) save(items[i]);
    out_ += 'e';
  }
}

void PickleWriter::set_items(const std::vector<std::pair<Ref, Ref>>& items) {
  for (size_t start = 0; start < items.size(); start += kBatchSize) {
    size_t end = std::min(items.size(), start + kBatchSize);
    if (end - start == 1) {
      save(items[start].first);
      save(items[start].second);
      out_ += 's';
      continue;
    }
    mark();
    for (size_t i = start; i < end; ++i) {
      save(items[i].first);
      save(items[i].second);
    }
    out_ += 'u';
  }
}

void PickleWriter::save_dict(const Ref& dict) {
  out_ += '}';
  memoize(dict.get(), dict);
  std::vector<std::pair<Ref, Ref>> items;
  for (const auto* entry : as<DictObject>(dict).entries()) items.emplace_back(entry->key, entry->value);
  set_items(items);
}

void PickleWriter::save(const Ref& value) {
  switch (value->kind) {
    case ObjectKind::None:
      out_ += 'N';
      return;
    case ObjectKind::Bool:
      out_ += as<BoolObject>(value).value ? '\x88' : '\x89';
      return;
    case ObjectKind::Int:
      save_int(as<IntObject>(value).value);
      return;
    case ObjectKind::Float:
      save_float(as<FloatObject>(value).value);
      return;
    case ObjectKind::Str:
      save_str(as<StrObject>(value).value);
      return;
    default:
      break;
  }
  if (get_memoized(value.get())) return;
  if (hook_(*this, value)) return;
  switch (value->kind) {
    case ObjectKind::Tuple:
      save_tuple(as<TupleObject>(value).items, value);
      return;
    case ObjectKind::List:
      save_list(value);
      return;
    case ObjectKind::Dict:
      save_dict(value);
      return;
    default:
      raise_error(ExcType::TypeError, "kiln's torch.save cannot pickle an object of type '" + type_of(value)->qualified_name() +
                                          "' (it saves tensors, numbers, strings, None, and lists, tuples and dicts of them)");
  }
}

}  // namespace kiln::python
