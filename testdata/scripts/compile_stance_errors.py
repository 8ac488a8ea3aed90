# torch.compiler.set_stance's errors: fail_on_recompile, bad stance names and combinations.
import os.path

import torch
import torch._dynamo


def show(e):
    # The message names this script by its absolute path; the guard failures' lines end with
    # comments that name it too.
    text = str(e).replace(os.path.abspath(__file__), "<script>")
    print(type(e).__name__ + ":", "\n".join(line.split("  #")[0].rstrip() for line in text.splitlines()[:3]))


@torch.compile(backend="eager")
def f(x, scale):
    return (x + 1) * scale


x = torch.ones(3)
print(f(x, 2).sum().item())

with torch.compiler.set_stance("fail_on_recompile"):
    # A call its cached entry serves is fine.
    print(f(x, 2).sum().item())
    # A recompile raises, naming the frame and the guard that failed.
    try:
        f(x, 3)
    except RuntimeError as e:
        show(e)


# A frame never compiled is a recompile too.
@torch.compile(backend="eager")
def g(x):
    return x + 1


with torch.compiler.set_stance("fail_on_recompile"):
    try:
        g(x)
    except RuntimeError as e:
        show(e)
print(f(x, 3).sum().item())

# A stance name is checked when a compiled function runs.
torch.compiler.set_stance("sometimes_eager")
try:
    f(x, 2)
except RuntimeError as e:
    show(e)
torch.compiler.set_stance("default")

try:
    torch.compiler.set_stance("force_eager", force_backend="eager")
except RuntimeError as e:
    show(e)
print(f(x, 2).sum().item())


# A compiled function may not change the stance: Dynamo refuses to trace set_stance.
@torch.compile(backend="eager")
def changes_stance(x):
    y = x + 1
    with torch.compiler.set_stance("force_eager"):
        return y


try:
    changes_stance(x)
except AssertionError as e:
    text = str(e).replace(os.path.abspath(__file__), "<script>")
    print(type(e).__name__ + ":", text.split(" at 0x")[0] + ">")
    print(text.split(">", 1)[1].rstrip())
