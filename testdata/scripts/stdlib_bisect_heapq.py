import bisect
import heapq

scores = [1, 3, 3, 5, 8, 13]
for x in [0, 3, 4, 13, 20]:
    print(x, bisect.bisect_left(scores, x), bisect.bisect_right(scores, x), bisect.bisect(scores, x),
          bisect.bisect_left(scores, x, 2), bisect.bisect_right(scores, x, 0, 3))
records = [("a", 1), ("b", 4), ("c", 9)]
print(bisect.bisect_left(records, 4, key=lambda r: r[1]), bisect.bisect_right(records, 4, key=lambda r: r[1]))
bisect.insort(records, ("d", 5), key=lambda r: r[1])
bisect.insort_left(records, ("e", 4), key=lambda r: r[1])
print(records)
lst = []
for v in [5, 1, 4, 1, 5, 9, 2, 6]:
    bisect.insort(lst, v)
bisect.insort_left(lst, 4)
print(lst)
try:
    bisect.bisect_left([1], 1, -1)
except ValueError as e:
    print("ValueError:", e)

heap = []
for v in [5, 7, 9, 1, 3, 1, 8, 2, 6, 4]:
    heapq.heappush(heap, v)
print(heap)
print([heapq.heappop(heap) for _ in range(3)], heap)
data = [9, 4, 7, 1, 8, 2, 6, 3, 5, 0, 4, 4]
heapq.heapify(data)
print(data)
print(heapq.heapreplace(data, 10), data)
print(heapq.heappushpop(data, -1), heapq.heappushpop(data, 3), data)
print(heapq.nlargest(3, [3, 1, 4, 1, 5, 9, 2, 6]), heapq.nsmallest(3, [3, 1, 4, 1, 5, 9, 2, 6]))
people = [("al", 30), ("bo", 25), ("cy", 30), ("di", 20)]
print(heapq.nlargest(2, people, key=lambda p: p[1]), heapq.nsmallest(2, people, key=lambda p: p[1]))
print(heapq.nlargest(0, [1]), heapq.nsmallest(10, [2, 1]))
print(list(heapq.merge([1, 4, 7], [2, 5, 8], [0, 3, 6, 9])))
print(list(heapq.merge(["a1", "c1"], ["a2", "b2"], key=lambda s: s[0])))
print(list(heapq.merge([7, 4, 1], [8, 5, 2], reverse=True)), list(heapq.merge()), list(heapq.merge([], [1])))
pq = []
for priority, task in [(2, "eval"), (1, "train"), (3, "save"), (1, "log")]:
    heapq.heappush(pq, (priority, task))
print([heapq.heappop(pq) for _ in range(len(pq))])
for op in [lambda: heapq.heappop([]), lambda: heapq.heapreplace([], 1)]:
    try:
        op()
    except IndexError as e:
        print("IndexError:", e)
