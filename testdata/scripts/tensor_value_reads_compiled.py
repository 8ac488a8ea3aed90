# Reading a tensor's value in a compiled function: .item(), float() and int() break the graph as
# Dynamo 2.11 breaks it (gb0124; an integer tolist() as a data-dependent operator, gb0033) unless
# scalar outputs are captured, which fullgraph=True implies.
import torch
import torch._dynamo


def reads_float(x):
    return x * float(x.sum())


def reads_int(x):
    return x * int(x.long().max())


def reads_item(x):
    return x + x.sum().item()


def reads_int_list(x):
    return x * len(x.long().tolist())


for fn in (reads_float, reads_int, reads_item, reads_int_list):
    torch._dynamo.reset()
    explanation = torch._dynamo.explain(fn)(torch.ones(3))
    reason = explanation.break_reasons[0].reason.splitlines()
    print(fn.__name__, explanation.graph_count, explanation.graph_break_count, "|", reason[0], "|",
          [line.strip() for line in reason if "graph-break-site" in line])

torch._dynamo.reset()
print("fullgraph", torch.compile(reads_item, fullgraph=True)(torch.ones(3)))
