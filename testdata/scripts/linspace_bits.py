# torch.linspace's values to the last bit for float32, float64, bfloat16, half and integer dtypes:
# ATen fills each element from the nearer end as a fused multiply-add (rounded twice, a third of
# the elements differed in the last bit). Every 97th element of the long ones, all of the short.
import torch

cases = [(-12, 12, 50000), (-750, 750, 10003), (0, 1, 7), (3, -5, 33), (0.1, 0.7, 17), (2.5, 2.5, 4), (7, 9, 1), (1, 2, 0)]
for dtype in [torch.float32, torch.float64, torch.bfloat16, torch.float16]:
    for start, end, steps in cases:
        values = torch.linspace(start, end, steps, dtype=dtype)
        print(dtype, start, end, steps, values[::97].tolist() if steps > 100 else values.tolist())
for dtype in [torch.int64, torch.int32, torch.int16, torch.uint8]:
    print(dtype, torch.linspace(-3 if dtype != torch.uint8 else 3, 100, 23, dtype=dtype).tolist())
print(torch.linspace(-1, 1, 10001)[::250].tolist())
