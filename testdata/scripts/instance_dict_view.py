# An instance's __dict__ (and vars()) is a live view: updates, item writes and deletes change the
# instance, as CPython's instance dict does.
class Config:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)
c = Config(lr=0.1, depth=3)
print(c.lr, c.depth, sorted(vars(c).items()), "lr" in c.__dict__, len(c.__dict__))
c.__dict__["width"] = 8
del c.__dict__["depth"]
print(c.width, hasattr(c, "depth"), c.__dict__.get("zz", 5), c.__dict__.pop("width"), hasattr(c, "width"))
d = c.__dict__
d.setdefault("x", 1)
print(c.x, sorted(d.keys()), sorted(dict(d).items()), d == {"lr": 0.1, "x": 1}, d.copy() == {"lr": 0.1, "x": 1})
try:
    c.__dict__["nope"]
except KeyError as e:
    print("KeyError", e)
