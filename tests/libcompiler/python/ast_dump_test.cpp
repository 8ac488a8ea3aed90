// ast.dump of small snippets equals what CPython 3.11's ast.dump prints for them (the expected
// strings were produced by CPython).
#include <gtest/gtest.h>

#include "libcompiler/python/ast_dump.h"
#include "libcompiler/python/parser.h"

namespace kiln::python {
namespace {

struct SnippetCase {
  const char* source;
  const char* dump;  // CPython's ast.dump of the first statement
};

const SnippetCase kSnippets[] = {
    {"x = 1",
     "Assign(targets=[Name(id='x', ctx=Store())], value=Constant(value=1))"},
    {"a, b = b, a",
     "Assign(targets=[Tuple(elts=[Name(id='a', ctx=Store()), Name(id='b', ctx=Store())], ctx=Store())], value=Tuple(elts=[Name(id='b', ctx=Load()), Name(id='a', ctx=Load())], ctx=Load()))"},
    {"x = y = 0",
     "Assign(targets=[Name(id='x', ctx=Store()), Name(id='y', ctx=Store())], value=Constant(value=0))"},
    {"x += 1",
     "AugAssign(target=Name(id='x', ctx=Store()), op=Add(), value=Constant(value=1))"},
    {"x: int = 3",
     "AnnAssign(target=Name(id='x', ctx=Store()), annotation=Name(id='int', ctx=Load()), value=Constant(value=3), simple=1)"},
    {"(x): int",
     "AnnAssign(target=Name(id='x', ctx=Store()), annotation=Name(id='int', ctx=Load()), simple=0)"},
    {"del a[0], b.c",
     "Delete(targets=[Subscript(value=Name(id='a', ctx=Load()), slice=Constant(value=0), ctx=Del()), Attribute(value=Name(id='b', ctx=Load()), attr='c', ctx=Del())])"},
    {"import torch.nn as nn, os",
     "Import(names=[alias(name='torch.nn', asname='nn'), alias(name='os')])"},
    {"from ..a import (b as c, d)",
     "ImportFrom(module='a', names=[alias(name='b', asname='c'), alias(name='d')], level=2)"},
    {"from . import *",
     "ImportFrom(names=[alias(name='*')], level=1)"},
    {"def f(a, b=1, *args, c, d=2, **kw) -> int: return a",
     "FunctionDef(name='f', args=arguments(posonlyargs=[], args=[arg(arg='a'), arg(arg='b')], vararg=arg(arg='args'), kwonlyargs=[arg(arg='c'), arg(arg='d')], kw_defaults=[None, Constant(value=2)], kwarg=arg(arg='kw'), defaults=[Constant(value=1)]), body=[Return(value=Name(id='a', ctx=Load()))], decorator_list=[], returns=Name(id='int', ctx=Load()))"},
    {"def g(a, /, b): pass",
     "FunctionDef(name='g', args=arguments(posonlyargs=[arg(arg='a')], args=[arg(arg='b')], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Pass()], decorator_list=[])"},
    {"@torch.compile\ndef f(x):\n    return x.sin()",
     "FunctionDef(name='f', args=arguments(posonlyargs=[], args=[arg(arg='x')], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Return(value=Call(func=Attribute(value=Name(id='x', ctx=Load()), attr='sin', ctx=Load()), args=[], keywords=[]))], decorator_list=[Attribute(value=Name(id='torch', ctx=Load()), attr='compile', ctx=Load())])"},
    {"class M(torch.nn.Module):\n    def forward(self, x):\n        return x",
     "ClassDef(name='M', bases=[Attribute(value=Attribute(value=Name(id='torch', ctx=Load()), attr='nn', ctx=Load()), attr='Module', ctx=Load())], keywords=[], body=[FunctionDef(name='forward', args=arguments(posonlyargs=[], args=[arg(arg='self'), arg(arg='x')], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Return(value=Name(id='x', ctx=Load()))], decorator_list=[])], decorator_list=[])"},
    {"if a:\n    pass\nelif b:\n    pass\nelse:\n    pass",
     "If(test=Name(id='a', ctx=Load()), body=[Pass()], orelse=[If(test=Name(id='b', ctx=Load()), body=[Pass()], orelse=[Pass()])])"},
    {"for i, x in enumerate(xs):\n    continue\nelse:\n    pass",
     "For(target=Tuple(elts=[Name(id='i', ctx=Store()), Name(id='x', ctx=Store())], ctx=Store()), iter=Call(func=Name(id='enumerate', ctx=Load()), args=[Name(id='xs', ctx=Load())], keywords=[]), body=[Continue()], orelse=[Pass()])"},
    {"while x:\n    break",
     "While(test=Name(id='x', ctx=Load()), body=[Break()], orelse=[])"},
    {"with torch.no_grad(), a as (b, c):\n    pass",
     "With(items=[withitem(context_expr=Call(func=Attribute(value=Name(id='torch', ctx=Load()), attr='no_grad', ctx=Load()), args=[], keywords=[])), withitem(context_expr=Name(id='a', ctx=Load()), optional_vars=Tuple(elts=[Name(id='b', ctx=Store()), Name(id='c', ctx=Store())], ctx=Store()))], body=[Pass()])"},
    {"try:\n    pass\nexcept (A, B) as e:\n    raise C from e\nelse:\n    pass\nfinally:\n    pass",
     "Try(body=[Pass()], handlers=[ExceptHandler(type=Tuple(elts=[Name(id='A', ctx=Load()), Name(id='B', ctx=Load())], ctx=Load()), name='e', body=[Raise(exc=Name(id='C', ctx=Load()), cause=Name(id='e', ctx=Load()))])], orelse=[Pass()], finalbody=[Pass()])"},
    {"assert x, 'message'",
     "Assert(test=Name(id='x', ctx=Load()), msg=Constant(value='message'))"},
    {"global a, b",
     "Global(names=['a', 'b'])"},
    {"def f():\n    x = 0\n    def g():\n        nonlocal x\n        x = 1",
     "FunctionDef(name='f', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Assign(targets=[Name(id='x', ctx=Store())], value=Constant(value=0)), FunctionDef(name='g', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Nonlocal(names=['x']), Assign(targets=[Name(id='x', ctx=Store())], value=Constant(value=1))], decorator_list=[])], decorator_list=[])"},
    {"lambda x, *, y=1: x if y else -x",
     "Expr(value=Lambda(args=arguments(posonlyargs=[], args=[arg(arg='x')], kwonlyargs=[arg(arg='y')], kw_defaults=[Constant(value=1)], defaults=[]), body=IfExp(test=Name(id='y', ctx=Load()), body=Name(id='x', ctx=Load()), orelse=UnaryOp(op=USub(), operand=Name(id='x', ctx=Load())))))"},
    {"a < b <= c is not d not in e",
     "Expr(value=Compare(left=Name(id='a', ctx=Load()), ops=[Lt(), LtE(), IsNot(), NotIn()], comparators=[Name(id='b', ctx=Load()), Name(id='c', ctx=Load()), Name(id='d', ctx=Load()), Name(id='e', ctx=Load())]))"},
    {"not a and b or c",
     "Expr(value=BoolOp(op=Or(), values=[BoolOp(op=And(), values=[UnaryOp(op=Not(), operand=Name(id='a', ctx=Load())), Name(id='b', ctx=Load())]), Name(id='c', ctx=Load())]))"},
    {"-x ** -y",
     "Expr(value=UnaryOp(op=USub(), operand=BinOp(left=Name(id='x', ctx=Load()), op=Pow(), right=UnaryOp(op=USub(), operand=Name(id='y', ctx=Load())))))"},
    {"a @ b + c // d % e",
     "Expr(value=BinOp(left=BinOp(left=Name(id='a', ctx=Load()), op=MatMult(), right=Name(id='b', ctx=Load())), op=Add(), right=BinOp(left=BinOp(left=Name(id='c', ctx=Load()), op=FloorDiv(), right=Name(id='d', ctx=Load())), op=Mod(), right=Name(id='e', ctx=Load()))))"},
    {"x[1:2, ::3, ...]",
     "Expr(value=Subscript(value=Name(id='x', ctx=Load()), slice=Tuple(elts=[Slice(lower=Constant(value=1), upper=Constant(value=2)), Slice(step=Constant(value=3)), Constant(value=Ellipsis)], ctx=Load()), ctx=Load()))"},
    {"x[*a]",
     "Expr(value=Subscript(value=Name(id='x', ctx=Load()), slice=Tuple(elts=[Starred(value=Name(id='a', ctx=Load()), ctx=Load())], ctx=Load()), ctx=Load()))"},
    {"f(*a, b=1, **c)",
     "Expr(value=Call(func=Name(id='f', ctx=Load()), args=[Starred(value=Name(id='a', ctx=Load()), ctx=Load())], keywords=[keyword(arg='b', value=Constant(value=1)), keyword(value=Name(id='c', ctx=Load()))]))"},
    {"f(x for x in y if x)",
     "Expr(value=Call(func=Name(id='f', ctx=Load()), args=[GeneratorExp(elt=Name(id='x', ctx=Load()), generators=[comprehension(target=Name(id='x', ctx=Store()), iter=Name(id='y', ctx=Load()), ifs=[Name(id='x', ctx=Load())], is_async=0)])], keywords=[]))"},
    {"[x * 2 for x in a for y in b if x if y]",
     "Expr(value=ListComp(elt=BinOp(left=Name(id='x', ctx=Load()), op=Mult(), right=Constant(value=2)), generators=[comprehension(target=Name(id='x', ctx=Store()), iter=Name(id='a', ctx=Load()), ifs=[], is_async=0), comprehension(target=Name(id='y', ctx=Store()), iter=Name(id='b', ctx=Load()), ifs=[Name(id='x', ctx=Load()), Name(id='y', ctx=Load())], is_async=0)]))"},
    {"{k: v for k, v in d.items()}",
     "Expr(value=DictComp(key=Name(id='k', ctx=Load()), value=Name(id='v', ctx=Load()), generators=[comprehension(target=Tuple(elts=[Name(id='k', ctx=Store()), Name(id='v', ctx=Store())], ctx=Store()), iter=Call(func=Attribute(value=Name(id='d', ctx=Load()), attr='items', ctx=Load()), args=[], keywords=[]), ifs=[], is_async=0)]))"},
    {"{x for x in s}",
     "Expr(value=SetComp(elt=Name(id='x', ctx=Load()), generators=[comprehension(target=Name(id='x', ctx=Store()), iter=Name(id='s', ctx=Load()), ifs=[], is_async=0)]))"},
    {"(x for x in g)",
     "Expr(value=GeneratorExp(elt=Name(id='x', ctx=Load()), generators=[comprehension(target=Name(id='x', ctx=Store()), iter=Name(id='g', ctx=Load()), ifs=[], is_async=0)]))"},
    {"{**a, 'b': 1}",
     "Expr(value=Dict(keys=[None, Constant(value='b')], values=[Name(id='a', ctx=Load()), Constant(value=1)]))"},
    {"[*a, *b]",
     "Expr(value=List(elts=[Starred(value=Name(id='a', ctx=Load()), ctx=Load()), Starred(value=Name(id='b', ctx=Load()), ctx=Load())], ctx=Load()))"},
    {"f'{x!r:>{width}} and {y=}'",
     "Expr(value=JoinedStr(values=[FormattedValue(value=Name(id='x', ctx=Load()), conversion=114, format_spec=JoinedStr(values=[Constant(value='>'), FormattedValue(value=Name(id='width', ctx=Load()), conversion=-1)])), Constant(value=' and y='), FormattedValue(value=Name(id='y', ctx=Load()), conversion=114)]))"},
    {"'a' 'b' u'c'",
     "Expr(value=Constant(value='abc'))"},
    {"b'\\x00' b'z'",
     "Expr(value=Constant(value=b'\\x00z'))"},
    {"r'\\d' f'{x}'",
     "Expr(value=JoinedStr(values=[Constant(value='\\\\d'), FormattedValue(value=Name(id='x', ctx=Load()), conversion=-1)]))"},
    {"x = 1_000 + 0x1F + 0o7 + 0b1 + 1.5e-3 + .5 + 1e400",
     "Assign(targets=[Name(id='x', ctx=Store())], value=BinOp(left=BinOp(left=BinOp(left=BinOp(left=BinOp(left=BinOp(left=Constant(value=1000), op=Add(), right=Constant(value=31)), op=Add(), right=Constant(value=7)), op=Add(), right=Constant(value=1)), op=Add(), right=Constant(value=0.0015)), op=Add(), right=Constant(value=0.5)), op=Add(), right=Constant(value=inf)))"},
    {"'\\u00e9\\q' if 0 else '\\t\\x41\\101'",
     "Expr(value=IfExp(test=Constant(value=0), body=Constant(value='é\\\\q'), orelse=Constant(value='\\tAA')))"},
    {"def gen():\n    yield\n    yield x\n    y = yield from z",
     "FunctionDef(name='gen', args=arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]), body=[Expr(value=Yield()), Expr(value=Yield(value=Name(id='x', ctx=Load()))), Assign(targets=[Name(id='y', ctx=Store())], value=YieldFrom(value=Name(id='z', ctx=Load())))], decorator_list=[])"},
    {"x = ...",
     "Assign(targets=[Name(id='x', ctx=Store())], value=Constant(value=Ellipsis))"},
    {"print(None, True, False)",
     "Expr(value=Call(func=Name(id='print', ctx=Load()), args=[Constant(value=None), Constant(value=True), Constant(value=False)], keywords=[]))"},
    {"a.b.c(d)[e].f",
     "Expr(value=Attribute(value=Subscript(value=Call(func=Attribute(value=Attribute(value=Name(id='a', ctx=Load()), attr='b', ctx=Load()), attr='c', ctx=Load()), args=[Name(id='d', ctx=Load())], keywords=[]), slice=Name(id='e', ctx=Load()), ctx=Load()), attr='f', ctx=Load()))"},
    {"x = (1,)",
     "Assign(targets=[Name(id='x', ctx=Store())], value=Tuple(elts=[Constant(value=1)], ctx=Load()))"},
    {"x = ()",
     "Assign(targets=[Name(id='x', ctx=Store())], value=Tuple(elts=[], ctx=Load()))"},
    {"[]",
     "Expr(value=List(elts=[], ctx=Load()))"},
    {"{}",
     "Expr(value=Dict(keys=[], values=[]))"},
    {"pass; break_ = 1",
     "Pass()"},
};

TEST(AstDump, SnippetsMatchCPython) {
  for (const SnippetCase& snippet : kSnippets) {
    SCOPED_TRACE(snippet.source);
    std::unique_ptr<Module> module = parse_source(snippet.source);
    ASSERT_FALSE(module->body.empty());
    EXPECT_EQ(dump(*module->body.front()), snippet.dump);
  }
}

TEST(AstDump, ModuleAndAttributes) {
  std::unique_ptr<Module> module = parse_source("x = f(1)\n");
  EXPECT_EQ(dump(*module),
            "Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=Call(func=Name(id='f', ctx=Load()), "
            "args=[Constant(value=1)], keywords=[]))], type_ignores=[])");
  EXPECT_EQ(dump(*module->body.front(), {.include_attributes = true}),
            "Assign(targets=[Name(id='x', ctx=Store(), lineno=1, col_offset=0, end_lineno=1, end_col_offset=1)], "
            "value=Call(func=Name(id='f', ctx=Load(), lineno=1, col_offset=4, end_lineno=1, end_col_offset=5), "
            "args=[Constant(value=1, lineno=1, col_offset=6, end_lineno=1, end_col_offset=7)], keywords=[], "
            "lineno=1, col_offset=4, end_lineno=1, end_col_offset=8), lineno=1, col_offset=0, end_lineno=1, "
            "end_col_offset=8)");
}

TEST(AstNodes, EveryNodeKnowsItsFile) {
  std::unique_ptr<Module> module = parse_source("def f(x):\n    return x\n", "model.py");
  const auto& function = cast<FunctionDef>(*module->body.front());
  EXPECT_EQ(function.loc.file, module->file.get());
  EXPECT_EQ(function.loc.file->name(), "model.py");
  const auto& ret = cast<Return>(*function.body.front());
  EXPECT_EQ(ret.loc.line, 2u);
  EXPECT_EQ(ret.loc.col, 4u);
  EXPECT_EQ(ret.loc.end_col, 12u);
  EXPECT_EQ(ret.value->loc.file->line_text(ret.value->loc.line), "    return x");
}

TEST(AstNodes, GeneratorFunctionsAreMarked) {
  std::unique_ptr<Module> module =
      parse_source("def plain():\n    return [x for x in y]\ndef gen():\n    if a:\n        yield 1\nl = lambda: (yield)\n");
  EXPECT_FALSE(cast<FunctionDef>(*module->body[0]).is_generator);
  EXPECT_TRUE(cast<FunctionDef>(*module->body[1]).is_generator);
  const auto& assign = cast<Assign>(*module->body[2]);
  EXPECT_TRUE(cast<Lambda>(*assign.value).is_generator);
}

TEST(AstNodes, KindChecks) {
  std::unique_ptr<Module> module = parse_source("a.b\n");
  const Expression& value = *cast<ExprStmt>(*module->body.front()).value;
  EXPECT_TRUE(isa<Attribute>(value));
  EXPECT_EQ(dyn_cast<Name>(&value), nullptr);
  ASSERT_NE(dyn_cast<Attribute>(&value), nullptr);
  EXPECT_EQ(python_name(value.kind), "Attribute");
  EXPECT_EQ(python_name(NodeKind::ExprStmt), "Expr");
}

}  // namespace
}  // namespace kiln::python
