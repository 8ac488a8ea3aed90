# torch.compile's mode= and options=: what each backend accepts, what it refuses and when, and
# compiles shared between torch.compile calls that name the same backend.
import torch
import torch._dynamo.testing


def f(x):
    return x.sin() + 1


x = torch.ones(2)


def attempt(label, **kwargs):
    torch._dynamo.reset()
    try:
        compiled = torch.compile(f, **kwargs)
    except RuntimeError as e:
        print(label, "refused by torch.compile:", str(e)[:56])
        return
    try:
        print(label, compiled(x))
    except RuntimeError as e:
        print(label, "refused when called:", str(e)[:56])


for backend in ["eager", "aot_eager", "inductor"]:
    attempt(backend + " reduce-overhead", backend=backend, mode="reduce-overhead")
    attempt(backend + " max-autotune", backend=backend, mode="max-autotune")
    attempt(backend + " bogus mode", backend=backend, mode="bogus")
    attempt(backend + " known option", backend=backend, options={"max_autotune": True})
    attempt(backend + " dashed option", backend=backend, options={"max-autotune": True})
    attempt(backend + " unknown option", backend=backend, options={"no_such_option": 1})
    attempt(backend + " option of the wrong type", backend=backend, options={"max_autotune": 1})
    attempt(backend + " mode and options", backend=backend, mode="default", options={})

print(sorted(torch._inductor.list_mode_options()))
print(torch._inductor.list_mode_options("max-autotune"))
try:
    torch._inductor.list_mode_options("fast")
except RuntimeError as e:
    print(e)

# A backend given mode or options receives them as keyword arguments.
def strict_backend(gm, example_inputs):
    return gm.forward


def lenient_backend(gm, example_inputs, **kwargs):
    print("lenient_backend got", kwargs)
    return gm.forward


torch._dynamo.reset()
try:
    torch.compile(f, backend=strict_backend, mode="max-autotune")(x)
except Exception as e:
    print(type(e).__name__, "from a backend without keyword arguments")
torch._dynamo.reset()
print(torch.compile(f, backend=lenient_backend, mode="max-autotune")(x))
print(torch.compile(f, backend=lenient_backend, options={"debug": True})(x))

# One backend object in two torch.compile calls: the second call reuses the first's compile.
torch._dynamo.reset()
counter = torch._dynamo.testing.CompileCounter()
print(torch.compile(f, backend=counter)(x), torch.compile(f, backend=counter)(x))
print("frames", counter.frame_count, "ops", counter.op_count)
torch.compile(f, backend=counter, dynamic=False)(x)
print("another dynamic= compiles again:", counter.frame_count)
counter.clear()
print(counter.frame_count, counter.op_count)
