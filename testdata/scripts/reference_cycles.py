# Reference cycles: objects that hold each other are freed by gc.collect() (their __del__ runs),
# and the cycles a script leaves behind are freed when it ends.
import gc

freed = []


class Node:
    def __init__(self, name):
        self.name = name
        self.parent = None
        self.children = []

    def add(self, child):
        child.parent = self
        self.children.append(child)
        return child

    def __del__(self):
        freed.append(self.name)


def build_tree():
    root = Node("root")
    left = root.add(Node("left"))
    left.add(Node("leaf"))
    root.add(Node("right"))


build_tree()
print("alive before collect:", sorted(freed))
found = gc.collect()
print("found garbage:", found > 0)
print("freed by collect:", sorted(freed))


def self_holding_list():
    items = [1, 2]
    items.append(items)
    box = {"items": items}
    items.append(box)
    return len(items)


print("self-holding list:", self_holding_list())


def closure_cycle():
    state = {}

    def step():
        return len(state)

    state["step"] = step  # the dict holds the closure that reads the dict
    return step()


print("closure cycle:", closure_cycle())


class Registry:
    def __init__(self):
        self.entries = []
        self.entries.append(self)  # holds itself


for i in range(3):
    Registry()
print("collected registries:", gc.collect() >= 3)
print("gc enabled:", gc.isenabled())
gc.disable()
print("gc enabled after disable:", gc.isenabled())
gc.enable()

# A tree left behind at exit: the interpreter frees it as it ends.
leftover = Node("leftover")
leftover.add(Node("child")).add(Node("grandchild"))
leftover = None
print("done")
