# set_stance(skip_guard_eval_unsafe=True): only the guards that told cache entries apart are
# evaluated; the others are assumed to hold, and a miss raises.
import torch
import torch._dynamo


@torch.compile(backend="eager")
def scaled(x, mode):
    if mode == "double":
        return x * 2
    return x * 3


x = torch.ones(2)
print(scaled(x, "double"))
with torch.compiler.set_stance(skip_guard_eval_unsafe=True):
    # One entry: no guard is evaluated, so mode == "double" is assumed (the unsafe part).
    print(scaled(x, "triple"))
print(scaled(x, "triple"))
with torch.compiler.set_stance(skip_guard_eval_unsafe=True):
    # mode told the two entries apart: its guards are evaluated, each call gets its own entry.
    print(scaled(x, "double"), scaled(x, "triple"))
    # Tensors' guards are always evaluated: a float64 input misses.
    try:
        scaled(x.double(), "double")
    except RuntimeError as e:
        print(type(e).__name__ + ":", str(e))
    # No entry serves "half": compiling it would be a recompile, which the stance refuses.
    try:
        scaled(x, "half")
    except RuntimeError as e:
        print(type(e).__name__ + ":", str(e))
print(scaled(x, "half"))
