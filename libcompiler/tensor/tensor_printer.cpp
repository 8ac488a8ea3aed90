#include "libcompiler/tensor/tensor_printer.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "libcompiler/tensor/copy.h"
#include "libcompiler/tensor/factories.h"
#include "libcompiler/tensor/python_number_format.h"
#include "libcompiler/tensor/type_promotion.h"
#include "libcompiler/tensor/views.h"

namespace kiln::tensor {

namespace {

// The column layout of one tensor's elements (_tensor_str.py's _Formatter): decided once
// from every element that will be shown, then applied to each.
class ElementFormatter {
 public:
  ElementFormatter(const std::vector<Scalar>& shown, bool floating, const PrintOptions& options)
      : floating_(floating), precision_(options.precision) {
    if (!floating_) {
      for (const Scalar& value : shown) max_width_ = std::max(max_width_, value.repr().size());
    } else {
      analyse_floats(shown);
    }
    if (options.sci_mode) sci_mode_ = *options.sci_mode;
  }

  size_t width() const { return max_width_; }

  std::string format(const Scalar& value) const {
    std::string text;
    if (!floating_) {
      text = value.repr();
    } else {
      const double v = value.to<double>();
      if (sci_mode_) {
        text = python_format_scientific(v, precision_);
      } else if (int_mode_) {
        text = python_format_fixed(v, 0);
        if (std::isfinite(v)) text += ".";
      } else {
        text = python_format_fixed(v, precision_);
      }
    }
    if (text.size() < max_width_) text.insert(0, max_width_ - text.size(), ' ');
    return text;
  }

 private:
  void analyse_floats(const std::vector<Scalar>& shown) {
    std::vector<double> values;  // the non-zero finite ones decide the layout
    for (const Scalar& s : shown) {
      const double v = s.to<double>();
      if (std::isfinite(v) && v != 0) values.push_back(v);
    }
    if (values.empty()) return;
    double min_abs = std::abs(values.front()), max_abs = min_abs;
    for (double v : values) {
      min_abs = std::min(min_abs, std::abs(v));
      max_abs = std::max(max_abs, std::abs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    const bool wide_range = max_abs / min_abs > 1000.0 || max_abs > 1.0e8;
    if (int_mode_) {
      sci_mode_ = wide_range;
    } else {
      sci_mode_ = wide_range || min_abs < 1.0e-4;
    }
    for (double v : values) {
      size_t width;
      if (sci_mode_) width = python_format_scientific(v, precision_).size();
      else if (int_mode_) width = python_format_fixed(v, 0).size() + 1;
      else width = python_format_fixed(v, precision_).size();
      max_width_ = std::max(max_width_, width);
    }
  }

  bool floating_;
  int precision_;
  bool int_mode_ = true;
  bool sci_mode_ = false;
  size_t max_width_ = 1;
};

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += separator;
    out += parts[i];
  }
  return out;
}

// "[" + inner + "]", built by appending (GCC 12 warns falsely on "literal" + temporary string).
std::string bracketed(const std::string& inner) {
  std::string out;
  out.reserve(inner.size() + 2);
  out += '[';
  out += inner;
  out += ']';
  return out;
}

// The separator between printed rows: a comma, then blank lines for each extra dimension, then
// the indentation of the next row.
std::string row_separator(int64_t newlines, int64_t indent) {
  std::string out(1, ',');
  out.append(newlines, '\n');
  out.append(indent, ' ');
  return out;
}

// Row indices shown along dim 0: all of them, or the first and last edgeitems with a gap marker.
struct ShownRows {
  std::vector<int64_t> head, tail;
  bool elided;
};

ShownRows shown_rows(int64_t size, bool summarize, const PrintOptions& options) {
  ShownRows rows;
  rows.elided = summarize && size > 2 * options.edgeitems;
  if (!rows.elided) {
    for (int64_t i = 0; i < size; ++i) rows.head.push_back(i);
    return rows;
  }
  for (int64_t i = 0; i < options.edgeitems; ++i) rows.head.push_back(i);
  for (int64_t i = size - options.edgeitems; i < size; ++i) rows.tail.push_back(i);
  return rows;
}

// Every element that will be printed, in order (get_summarized_data).
void collect_shown(const Tensor& self, bool summarize, const PrintOptions& options, std::vector<Scalar>& out) {
  if (self.dim() == 0) {
    out.push_back(item(self));
    return;
  }
  const ShownRows rows = shown_rows(self.size(0), summarize, options);
  for (const auto* part : {&rows.head, &rows.tail})
    for (int64_t i : *part) collect_shown(select(self, 0, i), summarize, options, out);
}

std::string vector_str(const Tensor& self, int64_t indent, bool summarize, const ElementFormatter& formatter,
                       const PrintOptions& options) {
  const int64_t element_length = static_cast<int64_t>(formatter.width()) + 2;
  const int64_t per_line = std::max<int64_t>(1, (options.linewidth - indent) / element_length);
  const ShownRows rows = shown_rows(self.size(0), summarize, options);
  std::vector<std::string> data;
  for (int64_t i : rows.head) data.push_back(formatter.format(item(select(self, 0, i))));
  if (rows.elided) data.push_back(" ...");
  for (int64_t i : rows.tail) data.push_back(formatter.format(item(select(self, 0, i))));
  std::vector<std::string> lines;
  for (size_t start = 0; start < data.size(); start += per_line) {
    const auto first = data.begin() + start;
    const auto last = data.begin() + std::min(data.size(), start + static_cast<size_t>(per_line));
    lines.push_back(join(std::vector<std::string>(first, last), ", "));
  }
  return bracketed(join(lines, row_separator(1, indent + 1)));
}

std::string tensor_str_with_formatter(const Tensor& self, int64_t indent, bool summarize,
                                      const ElementFormatter& formatter, const PrintOptions& options) {
  if (self.dim() == 0) return formatter.format(item(self));
  if (self.dim() == 1) return vector_str(self, indent, summarize, formatter, options);
  const ShownRows rows = shown_rows(self.size(0), summarize, options);
  std::vector<std::string> slices;
  for (int64_t i : rows.head)
    slices.push_back(tensor_str_with_formatter(select(self, 0, i), indent + 1, summarize, formatter, options));
  if (rows.elided) slices.push_back("...");
  for (int64_t i : rows.tail)
    slices.push_back(tensor_str_with_formatter(select(self, 0, i), indent + 1, summarize, formatter, options));
  return bracketed(join(slices, row_separator(self.dim() - 1, indent + 1)));
}

std::string tensor_str(Tensor self, int64_t indent, const PrintOptions& options) {
  const bool summarize = self.numel() > options.threshold;
  // Half and bfloat16 print through float32, as PyTorch does.
  if (is_reduced_floating_point(self.dtype())) self = to_dtype(self, DType::Float32);
  std::vector<Scalar> shown;
  collect_shown(self, summarize, options, shown);
  const ElementFormatter formatter(shown, is_floating_point(self.dtype()), options);
  return tensor_str_with_formatter(self, indent, summarize, formatter, options);
}

// "(2, 0)", "(5,)": str(tuple(shape)).
std::string tuple_str(const Shape& sizes) {
  std::string text = "(";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(sizes[i]);
  }
  if (sizes.size() == 1) text += ",";
  return text + ")";
}

// _add_suffixes: each suffix goes on the last line unless that would pass the line width.
std::string add_suffixes(std::string text, const std::vector<std::string>& suffixes, int64_t indent,
                         const PrintOptions& options) {
  const size_t newline = text.rfind('\n');
  // Python's len(s) - s.rfind("\n") + 1, where rfind gives -1 for no newline.
  int64_t last_line_len = static_cast<int64_t>(text.size()) -
                          (newline == std::string::npos ? -1 : static_cast<int64_t>(newline)) + 1;
  for (const std::string& suffix : suffixes) {
    const int64_t suffix_len = static_cast<int64_t>(suffix.size());
    if (last_line_len + suffix_len + 2 > options.linewidth) {
      text += ",\n" + std::string(indent, ' ') + suffix;
      last_line_len = indent + suffix_len;
    } else {
      text += ", " + suffix;
      last_line_len += suffix_len + 2;
    }
  }
  return text + ")";
}

void append_list_repr(const Tensor& self, std::string& out) {
  if (self.dim() == 0) {
    out += item(self).repr();
    return;
  }
  out += "[";
  for (int64_t i = 0; i < self.size(0); ++i) {
    if (i) out += ", ";
    append_list_repr(select(self, 0, i), out);
  }
  out += "]";
}

}  // namespace

PrintOptions& print_options() {
  static PrintOptions options;
  return options;
}

std::string tensor_repr(const Tensor& self, std::string_view grad_fn_name) {
  const PrintOptions& options = print_options();
  const std::string prefix = "tensor(";
  const int64_t indent = static_cast<int64_t>(prefix.size());
  std::vector<std::string> suffixes;
  if (self.device().type != DeviceType::CPU) suffixes.push_back("device='" + self.device().str() + "'");

  const DType dtype = self.dtype();
  const bool default_dtype = dtype == default_float_dtype() || dtype == DType::Int64 || dtype == DType::Bool;
  std::string body;
  if (self.device().type == DeviceType::Meta) {
    suffixes.push_back("size=" + tuple_str(self.sizes()));
    if (dtype != default_float_dtype()) suffixes.push_back("dtype=" + torch_name(dtype));
    body = "...";
  } else if (self.numel() == 0) {
    // No elements to show what kind of numbers these are, so the dtype is spelled out.
    if (self.dim() != 1) suffixes.push_back("size=" + tuple_str(self.sizes()));
    if (dtype != default_float_dtype()) suffixes.push_back("dtype=" + torch_name(dtype));
    body = "[]";
  } else {
    if (!default_dtype) suffixes.push_back("dtype=" + torch_name(dtype));
    body = tensor_str(to_host(self), indent, options);
  }
  if (!grad_fn_name.empty()) suffixes.push_back("grad_fn=<" + std::string(grad_fn_name) + ">");
  else if (self.requires_grad()) suffixes.push_back("requires_grad=True");
  return add_suffixes(prefix + body, suffixes, indent, options);
}

std::string size_repr(const Shape& sizes) { return "torch.Size(" + shape_str(sizes) + ")"; }

std::string tolist_repr(const Tensor& self) {
  std::string out;
  append_list_repr(to_host(self), out);
  return out;
}

std::string item_repr(const Tensor& self) { return item(self).repr(); }

}  // namespace kiln::tensor
