# random: CPython's exact Mersenne Twister sequences for integer seeds, and the methods on it.
import random

random.seed(0)
print(random.random(), random.random(), random.randint(1, 100), random.uniform(-1, 1))
random.seed(42)
print([random.randint(0, 9) for _ in range(10)], random.choice("abcdef"), random.randrange(10), random.randrange(5, 50, 5))
items = list(range(10))
random.shuffle(items)
print(items, random.sample(range(100), 5), random.sample(items, 3), random.getrandbits(8), random.getrandbits(40))
print(random.gauss(0, 1), random.gauss(0, 1), random.normalvariate(5, 2), random.expovariate(1.5))
print(random.choices("xyz", k=4), random.choices([1, 2, 3], weights=[0.1, 0.1, 10], k=3), random.sample(range(1000), 3))
random.seed(2**40 + 7)
print(random.random(), random.randint(-5, 5))
state = random.getstate()
first = [random.random() for _ in range(3)]
random.setstate(state)
print(first == [random.random() for _ in range(3)])
rng = random.Random(123)
other = random.Random(123)
print(rng.random() == other.random(), rng.randint(0, 1000), [rng.choice([10, 20, 30]) for _ in range(5)])
random.seed(-3)
print(random.random(), random.Random(3).random())
for bad in [lambda: random.choice([]), lambda: random.randrange(0), lambda: random.sample([1, 2], 3), lambda: random.randint(5, 1)]:
    try:
        bad()
    except (IndexError, ValueError) as e:
        print(type(e).__name__, e)
