# torch._dynamo.error_on_graph_break: a graph break raises instead of splitting the graph, inside
# the block or the decorated function; it does not lift fullgraph=True.
import torch
import torch._dynamo


def show(e):
    print(type(e).__name__ + ":", str(e).splitlines()[0])


def breaks(x):
    x = x + 1
    torch._dynamo.graph_break()
    return x * 2


f = torch.compile(breaks, backend="eager")
x = torch.ones(2)

with torch._dynamo.error_on_graph_break(True):
    try:
        f(x)
    except torch._dynamo.exc.Unsupported as e:
        show(e)
# Outside the block the break splits the graph again.
print(f(x))


@torch.compile(backend="eager")
@torch._dynamo.error_on_graph_break(True)
def decorated(x):
    x = x.sin()
    torch._dynamo.graph_break()
    return x.cos()


try:
    decorated(x)
except torch._dynamo.exc.Unsupported as e:
    show(e)


# Set inside the compiled function, only what breaks under it raises.
def inner(x):
    torch._dynamo.graph_break()
    return x - 1


@torch.compile(backend="eager")
def outer(x):
    x = x * 3
    with torch._dynamo.error_on_graph_break(False):
        x = inner(x)
    return x + 1


with torch._dynamo.error_on_graph_break(True):
    print(outer(x))

# error_on_graph_break(False) does not lift fullgraph=True.
g = torch.compile(breaks, backend="eager", fullgraph=True)
with torch._dynamo.error_on_graph_break(False):
    try:
        g(torch.ones(3))
    except torch._dynamo.exc.Unsupported as e:
        show(e)
