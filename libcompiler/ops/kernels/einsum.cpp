// einsum(equation, tensors) as ATen computes it: every operand permuted (and unsqueezed) into one
// dimension order, the output's dims first and the contracted ones after, then the operands
// multiplied left to right, each contracted dim summed at the last operand that has it, by batched
// matrix products (sumproduct_pair). A composite: autograd records the permutes, sums and bmms.
// Ellipses broadcast; a subscript repeated within one operand (a diagonal) is not implemented.
#include <array>
#include <string>

#include "libcompiler/ops/dispatch.h"
#include "libcompiler/ops/kernels/kernels.h"
#include "libcompiler/ops/ops.h"
#include "libcompiler/tensor/torch_error.h"

namespace kiln::ops {

namespace {

using tensor::throw_runtime_error;

constexpr int kLetters = 52;  // 'A'..'Z' then 'a'..'z', the order of an implicit output
constexpr int kEllipsis = -1;

char subscript_of(int label) { return static_cast<char>(label < 26 ? 'A' + label : 'a' + (label - 26)); }

// One term of the equation (starting at `offset` in it): its labels, kEllipsis where "..." stands.
std::vector<int> parse_term(const std::string& term, size_t offset) {
  std::vector<int> labels;
  bool ellipsis = false;
  for (size_t i = 0; i < term.size(); ++i) {
    const char c = term[i];
    if (c == '.') {
      if (ellipsis || term.compare(i, 3, "...") != 0)
        throw_runtime_error("einsum(): found '.' for operand that is not part of any ellipsis");
      ellipsis = true;
      labels.push_back(kEllipsis);
      i += 2;
    } else if (c >= 'A' && c <= 'Z') {
      labels.push_back(c - 'A');
    } else if (c >= 'a' && c <= 'z') {
      labels.push_back(26 + (c - 'a'));
    } else if (c != ' ') {
      throw_runtime_error("einsum(): invalid subscript given at index " + std::to_string(offset + i) +
                          " in the equation string, subscripts must be in [a-zA-Z]");
    }
  }
  return labels;
}

std::vector<std::string> split_terms(const std::string& inputs) {
  std::vector<std::string> terms(1);
  for (char c : inputs) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  return terms;
}

// The product of left and right (aligned: one dim order, size 1 where absent) with the dims in
// `summed` summed out and kept as size 1: lro (in both), lo (left only), ro (right only) dims
// become a bmm's batch, rows and columns, summed dims its inner dimension.
Tensor sumproduct_pair(Tensor left, Tensor right, const std::vector<bool>& summed) {
  const int64_t dim = left.dim();
  std::vector<int64_t> lro, lo, ro, sum_dims;
  int64_t lro_size = 1, lo_size = 1, ro_size = 1, sum_size = 1;
  for (int64_t d = 0; d < dim; ++d) {
    const bool in_left = left.sizes()[d] != 1, in_right = right.sizes()[d] != 1;
    if (summed[d]) {
      sum_dims.push_back(d);
      if (in_left && in_right) sum_size *= left.sizes()[d];
      else if (in_left) left = ops::sum(left, {d}, true);
      else if (in_right) right = ops::sum(right, {d}, true);
    } else if (in_left && in_right) {
      lro.push_back(d);
      lro_size *= left.sizes()[d];
    } else if (in_left) {
      lo.push_back(d);
      lo_size *= left.sizes()[d];
    } else {
      ro.push_back(d);
      ro_size *= right.sizes()[d];
    }
  }
  const auto concat = [](std::initializer_list<const std::vector<int64_t>*> parts) {
    std::vector<int64_t> all;
    for (const auto* part : parts) all.insert(all.end(), part->begin(), part->end());
    return all;
  };
  std::vector<int64_t> out_size;
  for (int64_t d : lro) out_size.push_back(left.sizes()[d]);
  for (int64_t d : lo) out_size.push_back(left.sizes()[d]);
  out_size.insert(out_size.end(), sum_dims.size(), 1);
  for (int64_t d : ro) out_size.push_back(right.sizes()[d]);
  const std::vector<int64_t> out_order = concat({&lro, &lo, &sum_dims, &ro});
  std::vector<int64_t> back(dim);
  for (int64_t i = 0; i < dim; ++i) back[out_order[i]] = i;
  const Tensor lhs = ops::reshape(ops::permute(left, out_order), {lro_size, lo_size, sum_size});
  const Tensor rhs = ops::reshape(ops::permute(right, concat({&lro, &sum_dims, &ro, &lo})), {lro_size, sum_size, ro_size});
  const Tensor product = ops::bmm(lhs, rhs);
  return ops::permute(ops::reshape(product, out_size), back);
}

}  // namespace

std::vector<Tensor> kernel_einsum(const Arguments& args) {
  std::string equation = args[0].to_string();
  const std::vector<Tensor>& operands = args.tensor_list(1);
  if (operands.empty()) throw_runtime_error("einsum(): must provide at least one operand");
  const size_t arrow = equation.find("->");
  const std::vector<std::string> terms = split_terms(equation.substr(0, arrow));
  if (terms.size() < operands.size()) throw_runtime_error("einsum(): more operands were provided than specified in the equation");
  if (terms.size() > operands.size()) throw_runtime_error("einsum(): fewer operands were provided than specified in the equation");

  // Each operand's labels; the ellipsis covers the dims its labels leave, right-aligned with the
  // other operands' ellipses (they broadcast).
  std::vector<std::vector<int>> labels;
  std::array<int, kLetters> occurrences{};
  int64_t ellipsis_dims = 0;
  size_t offset = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    labels.push_back(parse_term(terms[i], offset));
    offset += terms[i].size() + 1;
    std::array<bool, kLetters> seen{};
    bool has_ellipsis = false;
    for (int label : labels[i]) {
      if (label == kEllipsis) {
        has_ellipsis = true;
        continue;
      }
      if (seen[label])
        throw tensor::TorchError(tensor::PyErrorKind::NotImplementedError,
                                 "kiln: einsum with a subscript repeated within one operand (a diagonal) is not implemented");
      seen[label] = true;
      ++occurrences[label];
    }
    const int64_t named = static_cast<int64_t>(labels[i].size()) - (has_ellipsis ? 1 : 0);
    const int64_t dims = operands[i].dim();
    if (has_ellipsis ? named > dims : named != dims)
      throw_runtime_error("einsum(): the number of subscripts in the equation (" + std::to_string(named) +
                          ") does not match the number of dimensions (" + std::to_string(dims) + ") for operand " +
                          std::to_string(i) + (has_ellipsis ? "" : " and no ellipsis was given"));
    if (has_ellipsis) ellipsis_dims = std::max(ellipsis_dims, dims - named);
  }

  // The output's labels: as written, or (implicit) the ellipsis then the labels seen once, sorted.
  std::vector<int> output;
  if (arrow != std::string::npos) {
    output = parse_term(equation.substr(arrow + 2), arrow + 2);
    std::array<bool, kLetters> seen{};
    for (int label : output) {
      if (label == kEllipsis) continue;
      const std::string subscript(1, subscript_of(label));
      if (seen[label]) throw_runtime_error("einsum(): output subscript " + subscript + " appears more than once in the output");
      if (occurrences[label] == 0)
        throw_runtime_error("einsum(): output subscript " + subscript + " does not appear in the equation for any input operand");
      seen[label] = true;
    }
  } else {
    if (ellipsis_dims > 0) output.push_back(kEllipsis);
    for (int label = 0; label < kLetters; ++label)
      if (occurrences[label] == 1) output.push_back(label);
  }

  // The aligned dim order: the output's dims (an ellipsis as ellipsis_dims dims), then the
  // contracted labels; position[label] is a label's place in it.
  std::array<int64_t, kLetters> position;
  position.fill(-1);
  int64_t ellipsis_at = -1, aligned_dims = 0, output_dims = 0;
  for (int label : output) {
    if (label == kEllipsis) {
      ellipsis_at = aligned_dims;
      aligned_dims += ellipsis_dims;
    } else {
      position[label] = aligned_dims++;
    }
  }
  output_dims = aligned_dims;
  if (ellipsis_at < 0 && ellipsis_dims > 0) {  // an ellipsis summed away: its dims are contracted
    ellipsis_at = aligned_dims;
    aligned_dims += ellipsis_dims;
  }
  for (int label = 0; label < kLetters; ++label)
    if (occurrences[label] > 0 && position[label] < 0) position[label] = aligned_dims++;
  std::vector<int> last_operand(aligned_dims, -1);  // the last operand each aligned dim occurs in

  std::vector<Tensor> aligned;
  for (size_t i = 0; i < operands.size(); ++i) {
    // Where each of the operand's dims goes, then a permute of its dims into that order with
    // size-1 dims (unsqueezed) for the aligned dims it lacks.
    std::vector<int64_t> target(aligned_dims, -1);
    int64_t dim = 0;
    for (int label : labels[i]) {
      if (label == kEllipsis) {
        const int64_t own = operands[i].dim() - (static_cast<int64_t>(labels[i].size()) - 1);
        for (int64_t e = 0; e < own; ++e) target[ellipsis_at + ellipsis_dims - own + e] = dim++;
      } else {
        target[position[label]] = dim++;
      }
    }
    Tensor t = operands[i];
    std::vector<int64_t> order;
    for (int64_t d = 0; d < aligned_dims; ++d) {
      if (target[d] < 0) {
        t = ops::unsqueeze(t, t.dim());
        order.push_back(t.dim() - 1);
      } else {
        order.push_back(target[d]);
        last_operand[d] = static_cast<int>(i);
      }
    }
    aligned.push_back(ops::permute(t, order));
  }

  // Multiply left to right; a contracted dim is summed with the last operand that has it.
  const auto summed_at = [&](size_t i) {
    std::vector<bool> summed(aligned_dims, false);
    for (int64_t d = output_dims; d < aligned_dims; ++d) summed[d] = last_operand[d] <= static_cast<int>(i);
    return summed;
  };
  Tensor result = aligned[0];
  if (operands.size() == 1) {
    std::vector<int64_t> contracted;
    for (int64_t d = output_dims; d < aligned_dims; ++d) contracted.push_back(d);
    if (!contracted.empty()) result = ops::sum(result, contracted, true);
  }
  for (size_t i = 1; i < aligned.size(); ++i) {
    const std::vector<bool> summed = summed_at(i);
    bool sums = false;  // whether a dim to sum is still wider than 1 on either side
    for (int64_t d = output_dims; d < aligned_dims; ++d)
      sums = sums || (summed[d] && (result.sizes()[d] != 1 || aligned[i].sizes()[d] != 1));
    result = sums ? sumproduct_pair(result, aligned[i], summed) : ops::mul(result, aligned[i]);
  }
  if (aligned_dims == output_dims) return {result};
  std::vector<int64_t> out_sizes(result.sizes().begin(), result.sizes().begin() + output_dims);
  return {ops::reshape(result, out_sizes)};
}

}  // namespace kiln::ops
