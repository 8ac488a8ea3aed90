# torch._dynamo.explain's ExplainOutput: its fields as well as its report.
import torch
import torch._dynamo


def toy(a, b):
    x = a / (torch.abs(a) + 1)
    print("woo")
    if b.sum() < 0:
        b = b * -1
    return torch.relu(x * b)


torch.manual_seed(0)
explanation = torch._dynamo.explain(toy)(torch.randn(4), torch.randn(4))
print(explanation.graph_count, explanation.graph_break_count, explanation.op_count)
print(len(explanation.break_reasons))
for reason in explanation.break_reasons:
    print(reason.graph_break, reason.reason.splitlines()[0])
    for frame in reason.user_stack:
        print(" ", frame.filename.split("/")[-1], frame.lineno, frame.name, frame.line)
print([len(ops) for ops in explanation.ops_per_graph])
print(explanation.ops_per_graph[0][0] is torch.abs,
      any(getattr(op, "__name__", "") == "truediv" for ops in explanation.ops_per_graph for op in ops))
print(explanation.ops_per_graph[-1][-1] is torch.relu)
print(len(explanation.out_guards) > 0, str(explanation.out_guards[0]).splitlines()[0])
print(explanation.compile_times.splitlines()[0])
print(str(explanation).splitlines()[:3])
print(len(explanation.graphs), [type(g).__name__ for g in explanation.graphs],
      [len([n for n in g.graph.nodes if n.op == "call_function"]) for g in explanation.graphs])
