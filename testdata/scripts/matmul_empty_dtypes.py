# ATen's bmm and mv check their operands' dtypes only when both have elements; with an empty one
# the result takes the second operand's dtype (mv's vector's). matmul inherits this wherever it
# calls them; mm always checks. Compiled graphs take the same dtypes.
import torch

D, F, L = torch.float64, torch.float32, torch.int64
cases = [((3, 2, 0), D, (3, 0, 4), F), ((3, 2, 0), F, (3, 0, 4), D), ((0, 2, 3), F, (0, 3, 4), D),
         ((2, 0), D, (0,), F), ((0, 2), F, (2,), D), ((0,), F, (0, 2), D), ((2, 0), F, (0, 3), D),
         ((3, 2, 3), F, (3, 4), D), ((2, 0), F, (3, 0, 4), D), ((3, 2, 0), L, (3, 0, 4), F),
         ((3, 2, 2), F, (3, 2, 0), D), ((3, 2, 1), D, (3, 1, 4), F), ((2, 2), F, (2,), D),
         ((3, 2, 0), F, (0,), D), ((0,), D, (3, 0, 4), F), ((2,), F, (3, 2, 4), D), ((0, 0, 6, 0), F, (0, 0, 0, 5), D)]
for sa, da, sb, db in cases:
    a, b = torch.ones(sa, dtype=da), torch.ones(sb, dtype=db)
    for name, op in [("matmul", torch.matmul), ("bmm", torch.bmm), ("mv", torch.mv)]:
        try:
            r = op(a, b)
            print(sa, sb, name, list(r.shape), r.dtype, r.sum().item())
        except RuntimeError as e:
            print(sa, sb, name, "RuntimeError:", str(e).split("\n")[0])


def product(x, y):
    return (x @ y) * 2


for backend in ["aot_eager", "inductor"]:
    r = torch.compile(product, backend=backend)(torch.ones(3, 2, 0), torch.ones(3, 0, 4, dtype=D))
    print(backend, list(r.shape), r.dtype, r.sum().item())
    r = torch.compile(product, backend=backend)(torch.ones(2, 0, dtype=D), torch.ones(0))
    print(backend, list(r.shape), r.dtype, r.sum().item())
    torch._dynamo.reset()
