// RecursiveAstWalker walks every child of every node kind, and a walker's hooks and visit_<Kind>
// members replace the defaults wherever the walk reaches.
#include "libcompiler/python/ast_walker.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "libcompiler/python/parser.h"

namespace kiln::python {
namespace {

// Every child expression of every node kind holds a name v_<where>; nothing else is spelled v_.
constexpr const char* kEveryKind = R"(import os.path as osp
from os import sep
@v_decorator
def f(pos=v_posonly_default, /, a: v_arg_annotation = v_default, *args: v_vararg_annotation,
      k: v_kwonly_annotation = v_kwonly_default, **kw: v_kwarg_annotation) -> v_returns:
    global g
    def inner():
        nonlocal a
        return v_return
    del v_delete
    v_assign_target = v_assign_value
    v_aug_target += v_aug_value
    v_ann_target: v_ann_annotation = v_ann_value
    for v_for_target in v_for_iter:
        v_for_body
        break
    else:
        v_for_else
    while v_while_test:
        v_while_body
        continue
    else:
        v_while_else
    if v_if_test:
        v_if_body
    else:
        v_if_else
    with v_with_context as v_with_vars:
        v_with_body
    try:
        v_try_body
    except v_handler_type as e:
        v_handler_body
    else:
        v_try_else
    finally:
        v_try_finally
    assert v_assert_test, v_assert_msg
    raise v_raise_exc from v_raise_cause
    pass
    yield v_yield
    yield from v_yield_from
@v_class_decorator
class C(v_class_base):
    v_class_body
v_bool_left and v_bool_right
v_bin_left + v_bin_right
-v_unary_operand
lambda p=v_lambda_default, *, q=v_lambda_kwonly_default: v_lambda_body
v_ifexp_body if v_ifexp_test else v_ifexp_orelse
{v_dict_key: v_dict_value, **v_dict_unpacked}
{v_set_elt}
[v_listcomp_elt for v_listcomp_target in v_listcomp_iter if v_listcomp_if]
{v_setcomp_elt for v_setcomp_target in v_setcomp_iter}
{v_dictcomp_key: v_dictcomp_value for v_dictcomp_target in v_dictcomp_iter}
(v_genexp_elt for v_genexp_target in v_genexp_iter)
v_compare_left < v_compare_right
v_call_func(v_call_arg, *v_call_starred, kw=v_call_keyword, **v_call_kwargs)
f"{v_fstring_value!r:{v_fstring_spec}}"
v_attribute_value.attr
v_subscript_value[v_subscript_slice]
v_slice_value[v_slice_lower:v_slice_upper:v_slice_step]
[v_list_elt]
(v_tuple_elt,)
None
)";

std::set<std::string> names_spelled(const std::string& source, const std::string& prefix) {
  std::set<std::string> names;
  const std::regex name("\\b" + prefix + "\\w+");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), name); it != std::sregex_iterator(); ++it)
    names.insert(it->str());
  return names;
}

// Every Name it reaches.
template <typename Derived>
struct NameCollector : RecursiveAstWalker<Derived> {
  std::set<std::string> ids;
  void visit_Name(const Name& node) { ids.insert(node.id); }
};

// Every Name, and the kind of every statement and expression, it reaches.
struct EveryName : NameCollector<EveryName> {
  std::set<NodeKind> kinds;

  void walk_stmt(const Statement& node) {
    kinds.insert(node.kind);
    RecursiveAstWalker::walk_stmt(node);
  }
  void walk_expr(const ExprPtr& node) {
    if (node) kinds.insert(node->kind);
    RecursiveAstWalker::walk_expr(node);
  }
};

TEST(RecursiveAstWalker, WalksEveryChildOfEveryKind) {
  auto module = parse_source(kEveryKind);
  EveryName walker;
  walker.walk_module(*module);
  EXPECT_EQ(walker.ids, names_spelled(kEveryKind, "v_"));
  std::set<NodeKind> every_kind = {
#define KILN_PY_STMT(Kind, python_name) NodeKind::Kind,
#define KILN_PY_EXPR(Kind, python_name) NodeKind::Kind,
#include "libcompiler/python/ast_nodes.def"
  };
  EXPECT_EQ(walker.kinds, every_kind);
}

// A hook a walker overrides is what the defaults call too.
struct NoAnnotations : NameCollector<NoAnnotations> {
  void walk_annotation(const ExprPtr&) {}
};

TEST(RecursiveAstWalker, AnOverriddenHookChangesEveryPlaceItWalks) {
  auto module = parse_source(kEveryKind);
  NoAnnotations walker;
  walker.walk_module(*module);
  std::set<std::string> expected;
  for (const std::string& id : names_spelled(kEveryKind, "v_"))
    if (id.find("annotation") == std::string::npos && id != "v_returns") expected.insert(id);
  EXPECT_EQ(walker.ids, expected);
}

}  // namespace
}  // namespace kiln::python
