# itertools: the iterator building blocks training scripts and data pipelines use.
import itertools
from itertools import accumulate, chain, combinations, count, cycle, groupby, islice, permutations, product, repeat, starmap, zip_longest

print(list(chain([1, 2], (3,), "ab")), list(chain()), list(chain.from_iterable([[1], [2, 3], []])))
params = chain(iter([1, 2]), [3])
print(next(params), list(params), list(itertools.chain(*[[0], [1]])))
print(list(product("ab", range(2))), list(product([1, 2], repeat=2)), list(product()), list(product([], [1])))
print(len(list(product(range(3), range(4), range(2)))), list(product("ab", "c", repeat=2))[:3])
print(list(permutations([1, 2, 3])), list(permutations("abc", 2)), list(permutations([], 0)), list(permutations([1], 2)))
print(list(combinations(range(4), 2)), list(combinations("abc", 3)), list(combinations("ab", 0)), list(combinations("ab", 3)))
print(list(itertools.combinations_with_replacement("abc", 2)))
print(list(islice(range(10), 3)), list(islice(range(10), 2, 8, 3)), list(islice("abcdef", 1, None)), list(islice([1, 2], 5)))
print(list(islice(count(), 4)), list(islice(count(10, 5), 3)), list(islice(count(1.5, 0.5), 3)))
print(list(islice(cycle("ab"), 5)), list(cycle([])), list(repeat("x", 3)), list(islice(repeat(7), 2)), list(repeat(1, 0)))
print(list(zip_longest("abc", [1])), list(zip_longest([1, 2], [3], fillvalue=0)), list(zip_longest()))
print(list(accumulate([1, 2, 3, 4])), list(accumulate([3, 1, 4, 1, 5], max)), list(accumulate([1, 2], initial=10)), list(accumulate([])))
for key, group in groupby("aaabbcaa"):
    print(key, list(group), end=" | ")
print()
rows = [("cat", 1), ("cat", 2), ("dog", 3)]
print([(k, [v for _, v in g]) for k, g in groupby(rows, key=lambda r: r[0])], [k for k, _ in groupby([1, 1, 2, 2, 2, 3])])
print(list(starmap(pow, [(2, 3), (3, 2)])), list(starmap(lambda a, b: a + b, zip([1, 2], [10, 20]))))
print(list(itertools.takewhile(lambda x: x < 3, [1, 2, 3, 1])), list(itertools.dropwhile(lambda x: x < 3, [1, 2, 3, 1])))
print(list(itertools.compress("abcd", [1, 0, 1, 0])), list(itertools.filterfalse(None, [0, 1, "", "a"])), list(itertools.pairwise("abcd")))
batches = iter(range(7))
while True:
    batch = list(islice(batches, 3))
    if not batch:
        break
    print(batch, end=" ")
print()
for step, (epoch, lr) in enumerate(product(range(2), [0.1, 0.01])):
    print(step, epoch, lr, end="; ")
print()
for bad in [lambda: islice([1], -1), lambda: islice([1], 0, 1, 0), lambda: list(combinations([1], -1)), lambda: next(chain())]:
    try:
        bad()
    except (ValueError, StopIteration) as e:
        print(type(e).__name__, e)
it = iter(range(10)); print(list(islice(it, 0, 5, 3)), next(it))
