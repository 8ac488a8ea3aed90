// The table itself: every schema parses and prints back verbatim, names and defaults come out
// right, and argument binding raises PyTorch's Python-parser messages.
#include "libcompiler/ops/argument_binding.h"
#include "libcompiler/tensor/torch_error.h"
#include "ops_test_support.h"

namespace kiln::ops::test {

namespace {

std::string type_error_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const tensor::TorchError& e) {
    EXPECT_EQ(e.kind(), tensor::PyErrorKind::TypeError);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace

TEST(OpTable, EverySchemaPrintsBackAsWritten) {
  // ops.def is the source of the texts; printing the parsed schema must reproduce each exactly.
  std::vector<std::string> texts;
#define KILN_OP(Id, Schema, ...) texts.push_back(Schema);
#include "libcompiler/ops/ops.def"
  ASSERT_EQ(texts.size(), all_ops().size());
  for (size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(all_ops()[i].schema.str(), texts[i]);
}

TEST(OpTable, ParsesArgumentsDefaultsAndAliases) {
  const FunctionSchema& add = op_info(OpId::add_Tensor).schema;
  EXPECT_EQ(add.qualified_name(), "add.Tensor");
  ASSERT_EQ(add.arguments.size(), 3u);
  EXPECT_FALSE(add.arguments[1].kwarg_only);
  EXPECT_TRUE(add.arguments[2].kwarg_only);
  EXPECT_EQ(add.arguments[2].default_value->to_int(), 1);

  const FunctionSchema& sum = op_info(OpId::sum_dim_IntList).schema;
  EXPECT_TRUE(sum.arguments[1].type.is_list && sum.arguments[1].type.is_optional);
  EXPECT_EQ(*sum.arguments[1].type.list_size, 1);

  const FunctionSchema& nll = op_info(OpId::nll_loss).schema;
  EXPECT_EQ(nll.arguments[3].default_value->to_int(), static_cast<int64_t>(Reduction::Mean));
  EXPECT_EQ(nll.arguments[4].default_value->to_int(), -100);
  EXPECT_DOUBLE_EQ(op_info(OpId::layer_norm).schema.arguments[4].default_value->to_double(), 1e-5);
  EXPECT_EQ(op_info(OpId::gelu).schema.arguments[1].default_value->to_string(), "none");

  EXPECT_TRUE(op_info(OpId::add__Tensor).schema.is_inplace());
  EXPECT_FALSE(add.is_inplace());
  const FunctionSchema& max_dim = op_info(OpId::max_dim).schema;
  ASSERT_EQ(max_dim.returns.size(), 2u);
  EXPECT_EQ(max_dim.returns[1].name, "indices");
  EXPECT_EQ(op_info(OpId::split_Tensor).schema.returns[0].type.str(), "Tensor(a)[]");

  EXPECT_EQ(find_op("aten::add.Tensor"), &op_info(OpId::add_Tensor));
  EXPECT_EQ(find_op("mm.default"), &op_info(OpId::mm));
  EXPECT_EQ(find_op("no_such_op"), nullptr);
  EXPECT_EQ(overloads_of("div").size(), 4u);
  EXPECT_THROW(parse_schema("add(Tensr self) -> Tensor"), std::invalid_argument);
}

TEST(OpTable, PythonSignature) {
  EXPECT_EQ(python_signature(op_info(OpId::add_Tensor).schema), "Tensor input, Tensor other, *, Number alpha = 1");
  EXPECT_EQ(python_signature(op_info(OpId::sum_dim_IntList).schema),
            "Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None");
}

TEST(ArgumentBinding, BindsKeywordsDefaultsAndNumbers) {
  const Tensor x = values({1, 2}, {2});
  auto [op, args] = resolve_overload("add", {x, 3}, {{"alpha", 2}});
  EXPECT_EQ(op->id, OpId::add_Tensor);  // a number binds to Tensor for add, as in PyTorch
  EXPECT_TRUE(args.tensor(1).is_wrapped_number());
  expect_values(call(*op, args)[0], {7, 8}, {2});

  auto [sum_op, sum_args] = resolve_overload("sum", {x}, {{"dim", 0}});
  EXPECT_EQ(sum_op->id, OpId::sum_dim_IntList);
  EXPECT_EQ(sum_args.int_list(1), std::vector<int64_t>{0});  // int[1] takes a single int
  EXPECT_FALSE(sum_args.bool_value(2));
}

TEST(ArgumentBinding, PyTorchMessages) {
  const Tensor m = values({1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(type_error_of([&] { resolve_overload("mm", {m, 1}, {}); }),
            "mm(): argument 'mat2' (position 2) must be Tensor, not int");
  EXPECT_EQ(type_error_of([&] { resolve_overload("mm", {m}, {}); }),
            "mm() missing 1 required positional arguments: \"mat2\"");
  EXPECT_EQ(type_error_of([&] { resolve_overload("mm", {m, m, m}, {}); }),
            "mm() takes 2 positional arguments but 3 were given");
  EXPECT_EQ(type_error_of([&] { resolve_overload("mm", {m, m}, {{"bogus", 1}}); }),
            "mm() got an unexpected keyword argument 'bogus'");
  EXPECT_EQ(type_error_of([&] { resolve_overload("relu", {m}, {{"input", m}}); }),
            "relu() got multiple values for argument 'input'");
  EXPECT_EQ(type_error_of([&] { resolve_overload("add", {m, "x"}, {}); }),
            "add() received an invalid combination of arguments - got (Tensor, str), but expected one of:\n"
            " * (Tensor input, Tensor other, *, Number alpha = 1)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"
            " * (Tensor input, Number other, Number alpha = 1)\n"
            "      didn't match because some of the arguments have invalid types: (Tensor, !str!)");
}

}  // namespace kiln::ops::test
