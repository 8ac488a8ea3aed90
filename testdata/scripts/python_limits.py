# Where CPython raises instead of computing: float overflow, huge allocations, storage sizes past
# 64 bits; round() past the float range; __del__ when the last reference goes.
import torch

try:
    10.0 ** 400
except OverflowError as error:
    print("OverflowError", error)
try:
    (-10.0) ** 401.0
except OverflowError as error:
    print("OverflowError", error)
print(2.0 ** -10000, float("inf") ** 2)
print(round(1e308, -400), round(-1e308, -400), round(123.456, -1), round(1.5, -308))
try:
    round(1.7e308, -308)
except OverflowError as error:
    print("OverflowError", error)

for make in [lambda: [0] * 10**12, lambda: "a" * 10**12, lambda: list(range(10**12))]:
    try:
        make()
    except MemoryError as error:
        print("MemoryError", repr(error))

for make in [lambda: torch.arange(0, 2**62), lambda: torch.ones(2**32, 2**32), lambda: torch.zeros(2**31, 2**31, 4)]:
    try:
        make()
    except RuntimeError as error:
        print("RuntimeError", error)


class Resource:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("closing", self.name)


r = Resource("first")
del r
print("after del")
r = Resource("second")
r = None
print("after rebinding")
items = [Resource("in a list")]
items.clear()
print("after clear")

# A script signalling itself: SIGINT (by os.kill and by signal.raise_signal) becomes a
# KeyboardInterrupt at the next statement, as in CPython.
import os
import signal

for send in [lambda: os.kill(os.getpid(), signal.SIGINT), lambda: signal.raise_signal(signal.SIGINT)]:
    try:
        send()
        for _ in range(1000):
            pass
        print("not interrupted")
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
print(int(signal.SIGSEGV), int(signal.SIGTERM))
try:
    signal.raise_signal(100)
except OSError as error:
    print("OSError", error)
