// Graph breaks are worded as Dynamo 2.11 words them.
#include <gtest/gtest.h>

#include "libcompiler/capture/graph_break.h"

namespace kiln::capture {
namespace {

TEST(GraphBreak, BuiltinCallMessage) {
  GraphBreak b(BreakKind::BuiltinCall, {"print", "['str']", "False"},
               "builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False");
  // The text PyTorch 2.11 printed for print("woo") under fullgraph=True (real/fullgraph_error).
  EXPECT_EQ(b.message(),
            "Failed to trace builtin operator\n"
            "  Explanation: Dynamo does not know how to trace builtin operator `print` with argument types ['str'] (has_kwargs False)\n"
            "  Hint: Avoid calling builtin `print` with argument types ['str']. Consider using an equivalent alternative "
            "function/method to `print`.\n"
            "  Hint: If you are attempting to call a logging function (e.g. `print`), you can try adding it to "
            "`torch._dynamo.config.reorderable_logging_functions`.\n"
            "  Hint: Please report an issue to PyTorch.\n"
            "\n"
            "  Developer debug context: builtin print [<class 'torch._dynamo.variables.constant.ConstantVariable'>] False\n"
            "\n"
            " For more details about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html");
  EXPECT_TRUE(b.restarts());
  EXPECT_FALSE(GraphBreak(BreakKind::DataDependentBranch, {}, "").restarts());
}

TEST(GraphBreak, KilnsOwnBreaksHaveNoPage) {
  GraphBreak b(BreakKind::Unsupported, {"something"}, "");
  EXPECT_EQ(b.message().find("please visit"), std::string::npos);
  EXPECT_NE(b.message().find("kiln's graph capture does not support something."), std::string::npos);
}

}  // namespace
}  // namespace kiln::capture
