# torch._inductor.inductor_prims: imported by PyTorch's repro files; kiln's graphs need none of its prims.
