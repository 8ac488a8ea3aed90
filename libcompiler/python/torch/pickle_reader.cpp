#include "libcompiler/python/torch/pickle_reader.h"

#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {

namespace {

class Unpickler {
 public:
  Unpickler(Interpreter& interp, std::string_view data, const PickleHooks& hooks)
      : interp_(interp), data_(data), hooks_(hooks) {}

  Ref run() {
    while (true) {
      char op = take(1)[0];
      if (op == '.') {
        Ref result = pop();
        return result;
      }
      step(op);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& message) {
    hooks_.fail(message);
    throw std::logic_error("PickleHooks::fail returned");
  }

  std::string_view take(size_t n) {
    if (data_.size() - pos_ < n) fail("pickle data was truncated");
    std::string_view piece = data_.substr(pos_, n);
    pos_ += n;
    return piece;
  }
  std::string_view line() {
    size_t end = data_.find('\n', pos_);
    if (end == std::string_view::npos) fail("pickle data was truncated");
    std::string_view text = data_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return text;
  }
  uint64_t little_endian(size_t n) {
    std::string_view bytes = take(n);
    uint64_t value = 0;
    for (size_t i = 0; i < n; ++i) value |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[i])) << (8 * i);
    return value;
  }
  int64_t signed_little_endian(size_t n) {
    if (n > 8) fail("kiln's unpickler reads integers of at most 64 bits");
    uint64_t value = little_endian(n);
    if (n > 0 && n < 8 && (value >> (8 * n - 1)) & 1) value |= ~uint64_t{0} << (8 * n);
    return static_cast<int64_t>(value);
  }

  void push(Ref value) { stack_.push_back(std::move(value)); }
  Ref pop() {
    if (stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back())) fail("unpickling stack underflow");
    Ref top = std::move(stack_.back());
    stack_.pop_back();
    return top;
  }
  Ref& top() {
    if (stack_.empty()) fail("unpickling stack underflow");
    return stack_.back();
  }
  std::vector<Ref> pop_mark() {
    if (marks_.empty()) fail("could not find MARK");
    size_t start = marks_.back();
    marks_.pop_back();
    std::vector<Ref> items(stack_.begin() + static_cast<long>(start), stack_.end());
    stack_.resize(start);
    return items;
  }
  std::vector<Ref> pop_n(size_t n) {
    if (stack_.size() < n) fail("unpickling stack underflow");
    std::vector<Ref> items(stack_.end() - static_cast<long>(n), stack_.end());
    stack_.resize(stack_.size() - n);
    return items;
  }
  void memo_put(uint64_t index) { memo_[index] = top(); }
  void memo_get(uint64_t index) {
    auto found = memo_.find(index);
    if (found == memo_.end()) fail("Memo value not found at index " + std::to_string(index));
    push(found->second);
  }

  void append_items(const Ref& target, const std::vector<Ref>& items) {
    if (target->kind == ObjectKind::List) {
      auto& list = as<ListObject>(target).items;
      list.insert(list.end(), items.begin(), items.end());
      return;
    }
    Ref append = getattr(interp_, target, "append");
    for (const auto& item : items) call(interp_, append, std::vector<Ref>{item});
  }
  void set_items(const Ref& target, const std::vector<Ref>& items) {
    if (items.size() % 2) fail("odd number of items for SETITEMS");
    for (size_t i = 0; i < items.size(); i += 2) {
      if (target->kind == ObjectKind::Dict)
        as<DictObject>(target).set(interp_, items[i], items[i + 1]);
      else
        setitem(interp_, target, items[i], items[i + 1]);
    }
  }
  void build(const Ref& target, const Ref& state) {
    if (Ref setstate = try_getattr(interp_, target, "__setstate__")) {
      call(interp_, setstate, std::vector<Ref>{state});
      return;
    }
    auto set_attributes = [&](const Ref& attributes) {
      if (is_none(attributes)) return;
      if (attributes->kind != ObjectKind::Dict) fail("state is not a dictionary");
      for (const auto* entry : as<DictObject>(attributes).entries())
        setattr(interp_, target, to_str(entry->key, "attribute name"), entry->value);
    };
    if (state->kind == ObjectKind::Tuple && as<TupleObject>(state).items.size() == 2) {
      set_attributes(as<TupleObject>(state).items[0]);
      set_attributes(as<TupleObject>(state).items[1]);
      return;
    }
    set_attributes(state);
  }
  Ref text_number(std::string_view text, bool is_float) {
    std::string s(text);
    if (!s.empty() && s.back() == 'L') s.pop_back();
    if (s == "00") return py_false();
    if (s == "01") return py_true();
    try {
      return is_float ? py_float(std::stod(s)) : py_int(std::stoll(s));
    } catch (const std::exception&) {
      fail("could not convert string to number: " + s);
    }
  }

  void step(char op) {
    switch (op) {
      case '\x80': take(1); return;                      // PROTO
      case '\x95': take(8); return;                      // FRAME
      case '(': marks_.push_back(stack_.size()); return;  // MARK
      case '0': pop(); return;                           // POP
      case '1': pop_mark(); return;                      // POP_MARK
      case '2': push(top()); return;                     // DUP
      case 'N': push(none()); return;
      case '\x88': push(py_true()); return;
      case '\x89': push(py_false()); return;
      case 'I': push(text_number(line(), false)); return;
      case 'L': push(text_number(line(), false)); return;
      case 'F': push(text_number(line(), true)); return;
      case 'J': push(py_int(signed_little_endian(4))); return;
      case 'K': push(py_int(static_cast<int64_t>(little_endian(1)))); return;
      case 'M': push(py_int(static_cast<int64_t>(little_endian(2)))); return;
      case '\x8a': push(py_int(signed_little_endian(little_endian(1)))); return;  // LONG1
      case '\x8b': push(py_int(signed_little_endian(little_endian(4)))); return;  // LONG4
      case 'G': {
        uint64_t bits = 0;
        for (char c : take(8)) bits = (bits << 8) | static_cast<unsigned char>(c);
        double value;
        std::memcpy(&value, &bits, sizeof value);
        push(py_float(value));
        return;
      }
      case 'X': push(py_str(std::string(take(little_endian(4))))); return;     // BINUNICODE
      case '\x8c': push(py_str(std::string(take(little_endian(1))))); return;  // SHORT_BINUNICODE
      case '\x8d': push(py_str(std::string(take(little_endian(8))))); return;  // BINUNICODE8
      case 'U': push(py_str(std::string(take(little_endian(1))))); return;     // SHORT_BINSTRING
      case 'T': push(py_str(std::string(take(little_endian(4))))); return;     // BINSTRING
      case 'V': push(py_str(std::string(line()))); return;                     // UNICODE
      case 'C': case 'B': case '\x8e':
        fail("kiln's unpickler does not read bytes objects");
      case ')': push(py_tuple()); return;
      case 't': push(py_tuple(pop_mark())); return;
      case '\x85': push(py_tuple(pop_n(1))); return;
      case '\x86': push(py_tuple(pop_n(2))); return;
      case '\x87': push(py_tuple(pop_n(3))); return;
      case ']': push(py_list()); return;
      case 'l': push(py_list(pop_mark())); return;
      case 'a': {
        Ref item = pop();
        append_items(top(), {item});
        return;
      }
      case 'e': {
        std::vector<Ref> items = pop_mark();
        append_items(top(), items);
        return;
      }
      case '}': push(py_dict()); return;
      case 'd': {
        Ref dict = py_dict();
        set_items(dict, pop_mark());
        push(dict);
        return;
      }
      case 's': {
        std::vector<Ref> pair = pop_n(2);
        set_items(top(), pair);
        return;
      }
      case 'u': {
        std::vector<Ref> items = pop_mark();
        set_items(top(), items);
        return;
      }
      case 'c': {
        std::string module(line());
        std::string name(line());
        push(hooks_.find_global(module, name));
        return;
      }
      case '\x93': {  // STACK_GLOBAL
        Ref name = pop();
        Ref module = pop();
        push(hooks_.find_global(to_str(module, "module name"), to_str(name, "global name")));
        return;
      }
      case 'R': {
        Ref args = pop();
        Ref callable = pop();
        if (args->kind != ObjectKind::Tuple) fail("REDUCE argument must be a tuple");
        push(call(interp_, callable, as<TupleObject>(args).items));
        return;
      }
      case '\x81': {  // NEWOBJ: cls(*args), which is what cls.__new__ makes for the types allowed
        Ref args = pop();
        Ref cls = pop();
        if (args->kind != ObjectKind::Tuple) fail("NEWOBJ expected an arg tuple");
        push(call(interp_, cls, as<TupleObject>(args).items));
        return;
      }
      case 'b': {
        Ref state = pop();
        build(top(), state);
        return;
      }
      case 'p': memo_put(static_cast<uint64_t>(std::stoll(std::string(line())))); return;
      case 'q': memo_put(little_endian(1)); return;
      case 'r': memo_put(little_endian(4)); return;
      case '\x94': memo_put(memo_.size()); return;  // MEMOIZE
      case 'g': memo_get(static_cast<uint64_t>(std::stoll(std::string(line())))); return;
      case 'h': memo_get(little_endian(1)); return;
      case 'j': memo_get(little_endian(4)); return;
      case 'P': push(hooks_.persistent_load(py_str(std::string(line())))); return;
      case 'Q': push(hooks_.persistent_load(pop())); return;
      default: {
        static const char kHex[] = "0123456789abcdef";
        auto byte = static_cast<unsigned char>(op);
        std::string shown = byte >= 0x20 && byte < 0x7f ? std::string(1, op)
                                                       : std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
        fail("invalid load key, '" + shown + "'.");
      }
    }
  }

  Interpreter& interp_;
  std::string_view data_;
  const PickleHooks& hooks_;
  size_t pos_ = 0;
  std::vector<Ref> stack_;
  std::vector<size_t> marks_;
  std::unordered_map<uint64_t, Ref> memo_;
};

}  // namespace

Ref unpickle(Interpreter& interp, std::string_view data, const PickleHooks& hooks) {
  return Unpickler(interp, data, hooks).run();
}

}  // namespace kiln::python
