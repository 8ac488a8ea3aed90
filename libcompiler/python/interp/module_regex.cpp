// _kiln_regex: the matching engine under re.py, on PCRE2. Python's pattern syntax is PCRE's for
// the patterns scripts write; the few spellings that differ are rewritten before compiling. Offsets
// cross this boundary as code-point indices (str indexes code points; PCRE2 works in UTF-8 bytes).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "libcompiler/python/interp/builtin_setup.h"
#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

// re's flag values (CPython's sre constants).
constexpr int64_t kIgnoreCase = 2, kMultiline = 8, kDotAll = 16, kAscii = 256, kVerbose = 64;

struct CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
using Code = std::unique_ptr<pcre2_code, CodeDeleter>;

struct Compiled {
  Code code;                                   // null when the pattern has an error
  std::string error;                           // PCRE2's message
  int64_t error_offset = 0;                    // code points into the pattern
  uint32_t groups = 0;
  std::vector<std::pair<std::string, uint32_t>> names;
};

size_t code_points_before(std::string_view text, size_t byte_offset) {
  size_t n = 0;
  for (size_t i = 0; i < byte_offset && i < text.size(); ++i) n += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  return n;
}

// Python spellings PCRE2 reads differently: \Z (end of string only: PCRE's \z) and \uXXXX /
// \UXXXXXXXX (PCRE's \x{...}). Everything else is passed through, escapes kept whole.
std::string to_pcre_syntax(const std::string& pattern) {
  std::string out;
  out.reserve(pattern.size());
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '\\' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    char next = pattern[i + 1];
    size_t hex_digits = next == 'u' ? 4 : next == 'U' ? 8 : 0;
    if (next == 'Z') {
      out += "\\z";
    } else if (hex_digits && i + 2 + hex_digits <= pattern.size() &&
               pattern.find_first_not_of("0123456789abcdefABCDEF", i + 2) >= i + 2 + hex_digits) {
      out += "\\x{" + pattern.substr(i + 2, hex_digits) + "}";
      i += hex_digits;
    } else {
      out += pattern.substr(i, 2);
    }
    ++i;
  }
  return out;
}

// Where the construct that PCRE2 found unterminated opens: the last '(' left open, or the '[' of
// the class still open at the end (Python reports the opener, PCRE2 the end of the pattern).
size_t unterminated_opener(const std::string& pattern, char opener) {
  std::vector<size_t> open_groups;
  size_t open_class = std::string::npos;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char ch = pattern[i];
    if (ch == '\\') {
      ++i;
    } else if (open_class != std::string::npos) {
      if (ch == ']' && i > open_class + 1 && !(i == open_class + 2 && pattern[open_class + 1] == '^')) open_class = std::string::npos;
    } else if (ch == '[') {
      open_class = i;
    } else if (ch == '(') {
      open_groups.push_back(i);
    } else if (ch == ')' && !open_groups.empty()) {
      open_groups.pop_back();
    }
  }
  if (opener == '[') return open_class == std::string::npos ? pattern.size() : open_class;
  return open_groups.empty() ? pattern.size() : open_groups.back();
}

// Python's words for the errors scripts make most; PCRE2's own message otherwise.
void describe_error(Compiled& compiled, const std::string& source, int error, size_t error_offset) {
  switch (error) {
    case 114:  // missing closing parenthesis
      compiled.error = "missing ), unterminated subpattern";
      error_offset = unterminated_opener(source, '(');
      break;
    case 106:  // missing terminating ] for character class
      compiled.error = "unterminated character set";
      error_offset = unterminated_opener(source, '[');
      break;
    case 122:  // unmatched closing parenthesis
      compiled.error = "unbalanced parenthesis";
      break;
    case 109:  // quantifier does not follow a repeatable item
      compiled.error = "nothing to repeat";
      if (error_offset) --error_offset;
      break;
    default: {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(error, message, sizeof message);
      compiled.error = reinterpret_cast<const char*>(message);
    }
  }
  compiled.error_offset = static_cast<int64_t>(code_points_before(source, error_offset));
}

std::shared_ptr<const Compiled> compile(const std::string& pattern, int64_t flags) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, int64_t>, std::shared_ptr<const Compiled>> cache;
  std::lock_guard lock(mutex);
  auto key = std::make_pair(pattern, flags);
  if (auto found = cache.find(key); found != cache.end()) return found->second;

  uint32_t options = PCRE2_UTF;
  if (!(flags & kAscii)) options |= PCRE2_UCP;
  if (flags & kIgnoreCase) options |= PCRE2_CASELESS;
  if (flags & kMultiline) options |= PCRE2_MULTILINE;
  if (flags & kDotAll) options |= PCRE2_DOTALL;
  if (flags & kVerbose) options |= PCRE2_EXTENDED;
  auto compiled = std::make_shared<Compiled>();
  const std::string source = to_pcre_syntax(pattern);
  int error = 0;
  PCRE2_SIZE error_offset = 0;
  compiled->code.reset(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(), options, &error,
                                     &error_offset, nullptr));
  if (!compiled->code) {
    describe_error(*compiled, source, error, error_offset);
  } else {
    pcre2_pattern_info(compiled->code.get(), PCRE2_INFO_CAPTURECOUNT, &compiled->groups);
    uint32_t name_count = 0, entry_size = 0;
    PCRE2_SPTR table = nullptr;
    pcre2_pattern_info(compiled->code.get(), PCRE2_INFO_NAMECOUNT, &name_count);
    pcre2_pattern_info(compiled->code.get(), PCRE2_INFO_NAMEENTRYSIZE, &entry_size);
    pcre2_pattern_info(compiled->code.get(), PCRE2_INFO_NAMETABLE, &table);
    for (uint32_t i = 0; i < name_count; ++i) {
      PCRE2_SPTR entry = table + i * entry_size;
      compiled->names.emplace_back(reinterpret_cast<const char*>(entry + 2), (entry[0] << 8) | entry[1]);
    }
    // Python numbers named groups in pattern order; the name table is sorted by name.
    std::sort(compiled->names.begin(), compiled->names.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
  }
  if (cache.size() > 512) cache.clear();  // CPython's re cache is bounded too
  return cache[key] = compiled;
}

const std::string& str_arg(const Ref& value) {
  if (value->kind != ObjectKind::Str) raise_error(ExcType::TypeError, "expected str, got " + type_name(value));
  return as<StrObject>(value).value;
}

int64_t int_arg(const Ref& value) {
  if (value->kind != ObjectKind::Int) raise_error(ExcType::TypeError, "expected int, got " + type_name(value));
  return as<IntObject>(value).value;
}

std::shared_ptr<const Compiled> compiled_arg(const std::vector<Ref>& a) { return compile(str_arg(a[0]), int_arg(a[1])); }

// compile(pattern, flags) -> (groups, [(name, index)...]) or (None, message, offset).
Ref compile_info(Interpreter&, CallArgs& c) {
  auto a = bind_native("compile", c, {{"pattern"}, {"flags"}});
  auto compiled = compiled_arg(a);
  if (!compiled->code) return py_tuple({none(), py_str(compiled->error), py_int(compiled->error_offset)});
  std::vector<Ref> names;
  for (const auto& [name, index] : compiled->names) names.push_back(py_tuple({py_str(name), py_int(index)}));
  return py_tuple({py_int(compiled->groups), py_list(std::move(names))});
}

// The subject string with its code-point offsets: str indexes code points, PCRE2 UTF-8 bytes.
// Built once per call, so that iterating over every match of a long string stays linear.
class Subject {
 public:
  explicit Subject(const std::string& text) : text_(text) {
    ascii_ = std::all_of(text.begin(), text.end(), [](char ch) { return !(ch & 0x80); });
    if (ascii_) return;
    for (size_t i = 0; i < text.size(); ++i)
      if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts_.push_back(i);
    starts_.push_back(text.size());
  }
  const std::string& text() const { return text_; }
  int64_t length() const { return static_cast<int64_t>(ascii_ ? text_.size() : starts_.size() - 1); }
  // pos/endpos as re clamps them, in bytes.
  size_t byte_of(int64_t code_point) const {
    code_point = std::clamp<int64_t>(code_point, 0, length());
    return ascii_ ? static_cast<size_t>(code_point) : starts_[static_cast<size_t>(code_point)];
  }
  int64_t code_point_of(size_t byte) const {
    if (ascii_) return static_cast<int64_t>(byte);
    return std::lower_bound(starts_.begin(), starts_.end(), byte) - starts_.begin();
  }

 private:
  const std::string& text_;
  bool ascii_ = true;
  std::vector<size_t> starts_;
};

// One compiled pattern matched repeatedly against one subject.
class Matcher {
 public:
  Matcher(std::shared_ptr<const Compiled> compiled, const Subject& subject)
      : compiled_(std::move(compiled)), subject_(subject),
        data_(pcre2_match_data_create_from_pattern(compiled_->code.get(), nullptr), pcre2_match_data_free) {}

  // The match at or after `start` bytes, ending by `end`, or null: ([start0, end0, start1, ...] in
  // code points, -1 for groups that took no part; [text0, text1, ...], None for those). The texts
  // come from the bytes here: slicing a str by code points would cost a pass over it per group.
  // how: 0 search, 1 match, 2 fullmatch.
  Ref find(size_t start, size_t end, int64_t how, bool must_advance, size_t* match_end = nullptr) {
    uint32_t options = how == 1 ? PCRE2_ANCHORED : how == 2 ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0;
    if (must_advance) options |= PCRE2_NOTEMPTY_ATSTART;
    // PCRE2 checks the whole subject is UTF-8 on every call unless told not to: once is enough.
    if (utf_checked_) options |= PCRE2_NO_UTF_CHECK;
    utf_checked_ = true;
    const int rc = pcre2_match(compiled_->code.get(), reinterpret_cast<PCRE2_SPTR>(subject_.text().data()), end, start,
                               options, data_.get(), nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) return nullptr;
    if (rc < 0) {
      PCRE2_UCHAR message[256];
      pcre2_get_error_message(rc, message, sizeof message);
      raise_error(ExcType::RuntimeError, std::string("regular expression matching failed: ") +
                                             reinterpret_cast<const char*>(message));
    }
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data_.get());
    std::vector<Ref> spans, texts;
    for (uint32_t g = 0; g <= compiled_->groups; ++g) {
      const bool took_part = g < static_cast<uint32_t>(rc) && ovector[2 * g] != PCRE2_UNSET;
      for (int side = 0; side < 2; ++side)
        spans.push_back(py_int(took_part ? subject_.code_point_of(ovector[2 * g + side]) : -1));
      texts.push_back(took_part ? py_str(subject_.text().substr(ovector[2 * g], ovector[2 * g + 1] - ovector[2 * g])) : none());
    }
    if (match_end) *match_end = ovector[1];
    return py_tuple({py_list(std::move(spans)), py_list(std::move(texts))});
  }

 private:
  std::shared_ptr<const Compiled> compiled_;
  const Subject& subject_;
  std::unique_ptr<pcre2_match_data, void (*)(pcre2_match_data*)> data_;
  bool utf_checked_ = false;
};

size_t end_byte(const Subject& subject, const Ref& endpos) {
  return is_none(endpos) ? subject.text().size() : subject.byte_of(int_arg(endpos));
}

// match(pattern, flags, string, pos, endpos, how) -> spans or None (endpos None: the end).
Ref match(Interpreter&, CallArgs& c) {
  auto a = bind_native("match", c, {{"pattern"}, {"flags"}, {"string"}, {"pos"}, {"endpos"}, {"how"}});
  const Subject subject(str_arg(a[2]));
  const size_t start = subject.byte_of(int_arg(a[3])), end = end_byte(subject, a[4]);
  if (start > end) return none();
  Ref spans = Matcher(compiled_arg(a), subject).find(start, end, int_arg(a[5]), false);
  return spans ? spans : none();
}

// match_all(pattern, flags, string, pos, endpos, limit) -> [spans, ...]: the successive matches of
// a search (at most `limit` when it is positive); after an empty match the next one must not be
// empty at the same place (re's rule since 3.7).
Ref match_all(Interpreter&, CallArgs& c) {
  auto a = bind_native("match_all", c, {{"pattern"}, {"flags"}, {"string"}, {"pos"}, {"endpos"}, {"limit"}});
  const Subject subject(str_arg(a[2]));
  size_t start = subject.byte_of(int_arg(a[3]));
  const size_t end = end_byte(subject, a[4]);
  const int64_t limit = int_arg(a[5]);
  Matcher matcher(compiled_arg(a), subject);
  std::vector<Ref> found;
  bool must_advance = false;
  while (start <= end && (limit <= 0 || static_cast<int64_t>(found.size()) < limit)) {
    size_t match_end = 0;
    Ref spans = matcher.find(start, end, 0, must_advance, &match_end);
    if (!spans) break;
    const auto& items = as<ListObject>(as<TupleObject>(spans).items[0]).items;
    must_advance = as<IntObject>(items[0]).value == as<IntObject>(items[1]).value;
    found.push_back(std::move(spans));
    start = match_end;
  }
  return py_list(std::move(found));
}

// segments(string, matches) -> the text before the first match, between each two, and after the
// last (matches as match_all returns them): what sub and split keep, cut in one pass.
Ref segments(Interpreter& ip, CallArgs& c) {
  auto a = bind_native("segments", c, {{"string"}, {"matches"}});
  const Subject subject(str_arg(a[0]));
  std::vector<Ref> out;
  size_t last = 0;
  for (const Ref& found : to_vector(ip, a[1])) {
    const auto& spans = as<ListObject>(as<TupleObject>(found).items.at(0)).items;
    const size_t start = subject.byte_of(int_arg(spans.at(0))), end = subject.byte_of(int_arg(spans.at(1)));
    out.push_back(py_str(subject.text().substr(last, start - last)));
    last = end;
  }
  out.push_back(py_str(subject.text().substr(last)));
  return py_list(std::move(out));
}

}  // namespace

void init_regex_module(Interpreter&, ModuleObject& m) {
  m.globals->set("compile", native_function("compile", compile_info));
  m.globals->set("match", native_function("match", match));
  m.globals->set("match_all", native_function("match_all", match_all));
  m.globals->set("segments", native_function("segments", segments));
}

}  // namespace kiln::python
