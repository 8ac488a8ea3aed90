# The five CPU workloads of PyTorch's bench.py (../shared/real/pytorch-2.11/bench.py) at its CPU
# sizes, timed eager and compiled with the default backend (inductor) under kiln. Prints one JSON
# line per workload (json is not in kiln's Python subset: the line is formatted by hand): median seconds per call, the cold compile time (first call), and the
# relative error of the compiled result against a float64 eager reference; then Dynamo's compile
# times table (its _compile.compile_inner row is the frame's whole compile).
import time, torch
import torch.nn.functional as F

def timeit(fn, iters):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(iters):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]

torch.manual_seed(0)
def rn(*s):
    return torch.randn(*s)
x1 = rn(1 << 22)
x2 = rn(2048, 1024)
x3 = rn(4096, 1024)
w3, b3 = rn(1024), rn(1024)
x4 = rn(1024, 1024)
W1, W2 = rn(4096, 1024) * 0.02, rn(1024, 4096) * 0.02

def pointwise_gelu(x):
    return F.gelu(x * 1.5 + 0.25) * torch.sigmoid(x)
def softmax_lastdim(x):
    return torch.softmax(x, -1)
def layernorm_relu(x, w, b):
    return F.layer_norm(x, (1024,), w, b).relu()
def sum_dim0(x):
    return x.sum(dim=0)
def mlp_fwd(x, a, b):
    return F.linear(F.gelu(F.linear(x, a)), b)

for name, f, args in [("pointwise_gelu", pointwise_gelu, (x1,)), ("softmax_lastdim", softmax_lastdim, (x2,)),
                      ("layernorm_relu", layernorm_relu, (x3, w3, b3)), ("sum_dim0", sum_dim0, (x3,)),
                      ("mlp_fwd", mlp_fwd, (x4, W1, W2))]:
    torch._dynamo.reset()
    eager = timeit(lambda: f(*args), 20)
    cf = torch.compile(f)
    t = time.perf_counter()
    cf(*args)
    cold = time.perf_counter() - t
    compiled = timeit(lambda: cf(*args), 20)
    ref = f(*[a.double() for a in args])
    diff = cf(*args).double() - ref
    err = ((diff * diff).sum() / (ref * ref).sum()).sqrt().item()
    print('{"name": "%s", "eager_s": %.6g, "compiled_s": %.6g, "cold_compile_s": %.6g, "rel_err": %.3g}' % (name, eager, compiled, cold, err))
    print(torch._dynamo.utils.compile_times())
