# torch.compiler.set_stance: as a call, a context manager and a decorator.
import torch
import torch._dynamo

compiles = []


def counting_backend(gm, example_inputs):
    compiles.append(len(example_inputs))
    return gm.forward


@torch.compile(backend=counting_backend)
def f(x):
    return torch.sin(x) + 1


x = torch.ones(3)

# force_eager: nothing compiles.
torch.compiler.set_stance("force_eager")
print(f(x).sum().item(), len(compiles))
torch.compiler.set_stance("default")
print(f(x).sum().item(), len(compiles))

# As a context manager: the stance holds inside the block only.
torch._dynamo.reset()
compiles.clear()
with torch.compiler.set_stance("force_eager"):
    f(x)
    print("inside", len(compiles))
f(x)
print("after", len(compiles))


# As a decorator: the stance holds while the decorated function runs.
@torch.compiler.set_stance("force_eager")
def run_eagerly(v):
    return f(v)


torch._dynamo.reset()
compiles.clear()
run_eagerly(torch.ones(4))
print("decorated", len(compiles))
f(torch.ones(4))
print("undecorated", len(compiles))

# eager_on_recompile: entries compiled before are used; a recompile runs eagerly instead.
torch._dynamo.reset()
compiles.clear()
f(torch.ones(2))
with torch.compiler.set_stance("eager_on_recompile"):
    f(torch.ones(2))
    f(torch.ones(5))
    f(torch.ones(6, 2))
print("eager_on_recompile", len(compiles))
f(torch.ones(6, 2))
print("then default", len(compiles))

# eager_then_compile: the first call runs eagerly, the next ones compile.
torch._dynamo.reset()
compiles.clear()
with torch.compiler.set_stance("eager_then_compile"):
    f(torch.ones(7))
    print("first call", len(compiles))
    f(torch.ones(8))
    print("second call", len(compiles))
    f(torch.ones(9))
    print("third call", len(compiles))

# aot_eager_then_compile: the first call compiles with aot_eager, not the given backend.
torch._dynamo.reset()
compiles.clear()
with torch.compiler.set_stance("aot_eager_then_compile"):
    print(f(torch.ones(7)).sum().item(), len(compiles))
    f(torch.ones(8))
    print("second call", len(compiles))

# force_backend: the stance's backend replaces the one torch.compile was given.
torch._dynamo.reset()
compiles.clear()
with torch.compiler.set_stance(force_backend="eager"):
    print(f(x).sum().item(), len(compiles))
f(x)
print("own backend", len(compiles))


# aot_eager_then_compile on a function not called before: its first call compiles with aot_eager,
# the next ones with its own backend (sizes that changed between the two compile dynamic).
@torch.compile(backend=counting_backend)
def g(x):
    return torch.cos(x) * 2


compiles.clear()
with torch.compiler.set_stance("aot_eager_then_compile"):
    g(torch.ones(3))
    print("aot first call", len(compiles))
    g(torch.ones(3))
    print("same sizes", len(compiles))
    g(torch.ones(4))
    g(torch.ones(5))
    print("other sizes", len(compiles), compiles)


# eager_then_compile: the sizes that changed between the first two calls compile dynamic.
@torch.compile(backend=counting_backend)
def h(x, y):
    return x.sum() + y.sum()


compiles.clear()
with torch.compiler.set_stance("eager_then_compile"):
    h(torch.ones(2, 3), torch.ones(4))
    h(torch.ones(5, 3), torch.ones(4))
    h(torch.ones(6, 3), torch.ones(4))
    print("dynamic first dim", len(compiles))
    h(torch.ones(6, 3), torch.ones(7))
    print("y recompiled", len(compiles))
