# dtype promotion and conversion results, printed.
import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
b = torch.tensor([True, False, True])
print(i.dtype, f.dtype, b.dtype, (i + f).dtype, (i + 1.5).dtype, (i * 2).dtype, (i / 2).dtype, (i // 2).dtype, (b + 1).dtype, (b * b).dtype)
print(i / 2, i // 2, -i // 2, i % 2, -i % 2, i ** 2, i.float() ** 0.5, 2 ** i)
print(f.to(torch.int64), f.long(), f.int(), f.half(), f.double(), f.bfloat16(), b.int(), i.bool(), i.to(torch.float16).dtype)
print(torch.tensor([1.0, 2.0], dtype=torch.float64) + torch.tensor([1.0], dtype=torch.float32))
print((torch.ones(2, dtype=torch.float16) + torch.ones(2, dtype=torch.float32)).dtype, (torch.ones(2, dtype=torch.int32) + torch.ones(2, dtype=torch.int64)).dtype)
print((torch.ones(2, dtype=torch.bfloat16) * 2.5).dtype, (torch.ones(2, dtype=torch.int32) * 2.5).dtype, torch.tensor(3).dtype, torch.tensor(3.0).dtype, torch.tensor(True).dtype)
print(torch.tensor([1.123456789], dtype=torch.float64), torch.tensor([1.123456789], dtype=torch.float16), torch.tensor([1.123456789], dtype=torch.bfloat16))
print(torch.zeros(2, dtype=torch.int32), torch.ones(2, dtype=torch.bool), torch.arange(3, dtype=torch.float64), torch.full((2,), 3, dtype=torch.int64))
print(i.float().mean(), i.sum().dtype, b.sum(), b.sum().dtype, f.sum().dtype, i.prod(), (i > 1).dtype, i.eq(2), i.float().is_floating_point(), i.is_floating_point())
print(torch.int64, torch.float32, torch.long, torch.float, torch.bool, torch.float16 == torch.half)
# Bool tensors add with the default alpha; a bool alpha needs a bool result; bools do not subtract.
flags = torch.tensor([True, False, True])
print(flags + flags, torch.add(flags, flags, alpha=True), flags * flags)
for make in (lambda: torch.add(torch.ones(2), torch.ones(2), alpha=True), lambda: flags - flags,
             lambda: torch.add(torch.ones(2, dtype=torch.int64), 1, alpha=0.5)):
    try:
        make()
    except RuntimeError as e:
        print("RuntimeError", e)
