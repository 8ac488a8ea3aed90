// Sources are named as Dynamo names them, and fetch what they name.
#include <gtest/gtest.h>

#include "libcompiler/capture/source.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::capture {
namespace {

using namespace python;

TEST(Source, NamesAsDynamo) {
  SourceRef weight = Source::item(Source::attribute(Source::item(Source::attribute(Source::local("mod"), "_modules"), py_str("0")),
                                                    "_parameters"),
                                  py_str("weight"));
  EXPECT_EQ(weight->text(), "L['mod']._modules['0']._parameters['weight']");
  EXPECT_EQ(weight->placeholder_name(), "L_mod_modules_0_parameters_weight_");
  EXPECT_EQ(Source::local("x")->placeholder_name(), "L_x_");
  EXPECT_EQ(Source::local("___stack0")->placeholder_name(), "L_stack0_");
  EXPECT_EQ(Source::item(Source::local("data"), py_int(1))->text(), "L['data'][1]");
  EXPECT_EQ(Source::attribute(Source::global("mod"), "weight")->placeholder_name(), "G_mod_weight");
  EXPECT_EQ(Source::local("x")->guard_name(), "x");
  EXPECT_EQ(Source::global("w")->guard_name(), "G['w']");
}

TEST(Source, FetchesAndFinds) {
  Interpreter interp;
  Ref inner = py_list({py_int(7), py_str("a")});
  auto dict = py_dict();
  dict->set("k", inner);
  FrameInputs inputs;
  inputs.locals = {{"d", dict}};
  SourceRef path = Source::item(Source::item(Source::local("d"), py_str("k")), py_int(1));
  Ref value = path->fetch(interp, inputs);
  ASSERT_TRUE(value);
  EXPECT_EQ(as<StrObject>(value).value, "a");
  EXPECT_FALSE(Source::item(Source::local("d"), py_str("missing"))->fetch(interp, inputs));
  // Breadth first from the locals: the list is found under its key.
  SourceRef found = find_source(interp, inputs, inner);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->text(), "L['d']['k']");
  EXPECT_FALSE(find_source(interp, inputs, py_int(99)));
}

}  // namespace
}  // namespace kiln::capture
