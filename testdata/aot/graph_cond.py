# torch.cond under AOT: the inference graph holds torch.ops.higher_order.cond over the aten
# subgraphs true_graph_0 / false_graph_0 (each decomposed on its own). One compile serves both
# branches; prints each branch's sum.
import torch


def fn(x):
    return torch.cond(x.sum() > 0, lambda x: (x + 1).relu() * 2, lambda x: torch.softmax(x - 1, -1), (x,))


compiled = torch.compile(fn)
print("true_branch", float(compiled(torch.ones(3, 4)).sum()))
print("false_branch", float(compiled(-torch.ones(3, 4)).sum()))
