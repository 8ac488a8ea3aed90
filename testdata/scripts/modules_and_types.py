# sys.modules (the table import consults), the types module, a module's __class__ set to a
# ModuleType subclass, PEP 562 module __getattr__, and torch._dynamo.config's aliased settings.
import os
import sys
import tempfile
import types

# ---- sys.modules ----
print("sys" in sys.modules, sys.modules["sys"] is sys, "no_such_module" in sys.modules)
print(sys.modules[__name__].__name__, type(sys.modules).__name__)

folder = tempfile.mkdtemp()
sys.path.insert(0, folder)
with open(os.path.join(folder, "replaced_on_import.py"), "w") as f:
    f.write("import sys\n"
            "class Stand:\n"
            "    value = 42\n"
            "sys.modules[__name__] = Stand()\n")
with open(os.path.join(folder, "counted.py"), "w") as f:
    f.write("import sys\n"
            "sys.counted_runs = getattr(sys, 'counted_runs', 0) + 1\n")
with open(os.path.join(folder, "lazy_attrs.py"), "w") as f:
    f.write("eager = 1\n"
            "def __getattr__(name):\n"
            "    if name == 'lazy':\n"
            "        return 'made on demand'\n"
            "    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')\n")
with open(os.path.join(folder, "self_classed.py"), "w") as f:
    f.write("import sys, types\n"
            "class _Watched(types.ModuleType):\n"
            "    def __getattr__(self, name):\n"
            "        return 'missing ' + name\n"
            "    def __setattr__(self, name, value):\n"
            "        super().__setattr__(name, value * 2 if isinstance(value, int) else value)\n"
            "limit = 3\n"
            "sys.modules[__name__].__class__ = _Watched\n")

import replaced_on_import
print(type(replaced_on_import).__name__, replaced_on_import.value)
from replaced_on_import import value
print(value)

import counted
import counted
print("runs:", sys.counted_runs)
del sys.modules["counted"]
import counted
print("runs after del:", sys.counted_runs)
sys.modules["made_up"] = types.SimpleNamespace(answer=7)
import made_up
print(made_up.answer)
del sys.modules["made_up"]

# ---- PEP 562 ----
import lazy_attrs
print(lazy_attrs.eager, lazy_attrs.lazy, getattr(lazy_attrs, "other", "default"), hasattr(lazy_attrs, "other"))
from lazy_attrs import lazy
print(lazy)
try:
    lazy_attrs.other
except AttributeError as e:
    print("AttributeError:", e)
try:
    from lazy_attrs import other
except ImportError as e:
    print("ImportError:", str(e).split(" (")[0])

# ---- module __class__ assignment ----
import self_classed
print(type(self_classed).__name__, isinstance(self_classed, types.ModuleType))
print(self_classed.limit, self_classed.anything)
self_classed.limit = 5
print(self_classed.limit, self_classed.__dict__["limit"])
setattr(self_classed, "other", 1)
print(self_classed.other)
class NotAModule:
    pass
for bad in (NotAModule, 3):
    try:
        self_classed.__class__ = bad
    except TypeError as e:
        print("TypeError:", e)

# ---- types ----
def plain():
    yield 1
print(isinstance(plain, types.FunctionType), isinstance(lambda: 0, types.LambdaType), types.FunctionType is types.LambdaType)
print(isinstance(len, types.BuiltinFunctionType), types.BuiltinFunctionType is types.BuiltinMethodType)
print(isinstance(plain(), types.GeneratorType), isinstance(None, types.NoneType), types.NoneType)
print(type(...) is types.EllipsisType, type(NotImplemented) is types.NotImplementedType, types.ModuleType is type(sys))
print(isinstance(int | str, types.UnionType))
print(types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.GeneratorType, types.ModuleType)

class Point:
    def __init__(self, x):
        self.x = x
def double_x(self, factor=2):
    return self.x * factor
p = Point(4)
bound = types.MethodType(double_x, p)
print(bound(), bound(3), bound.__self__ is p, bound.__func__ is double_x, isinstance(bound, types.MethodType))
print(isinstance(p.__init__, types.MethodType))
try:
    types.MethodType(1, p)
except TypeError as e:
    print("TypeError:", e)

m = types.ModuleType("made")
print(m, m.__name__, m.__doc__, sorted(vars(m)))
m.x = 1
print(m.x, types.ModuleType("documented", "the doc").__doc__)
for args in ((), (3,)):
    try:
        types.ModuleType(*args)
    except TypeError as e:
        print("TypeError:", e)

class Config(types.ModuleType):
    def __init__(self, name):
        super().__init__(name)
        self.ready = True
c = Config("cfg")
print(c, type(c).__name__, c.ready, isinstance(c, types.ModuleType))

ns = types.SimpleNamespace(a=1, b="two")
print(ns, repr(types.SimpleNamespace()), ns.a, ns.b)
ns.c = [ns]
print(ns)
del ns.c
print(vars(ns))
print(ns == types.SimpleNamespace(a=1, b="two"), ns == types.SimpleNamespace(a=1), ns != types.SimpleNamespace(a=1))
print(types.SimpleNamespace, type(ns).__name__)
try:
    types.SimpleNamespace(1)
except TypeError as e:
    print("TypeError:", e)
class Named(types.SimpleNamespace):
    pass
print(Named(z=0))

# ---- torch._dynamo.config: cache_size_limit is recompile_limit under another name ----
import torch
import torch._dynamo.config as config
print(config.cache_size_limit, config.recompile_limit)
config.cache_size_limit = 3
print(config.cache_size_limit, config.recompile_limit)
config.recompile_limit = 5
print(config.cache_size_limit, config.recompile_limit)
torch._dynamo.config.accumulated_cache_size_limit = 17
print(torch._dynamo.config.accumulated_recompile_limit, torch._dynamo.config.accumulated_cache_size_limit)
print("cache_size_limit" in vars(config), getattr(config, "cache_size_limit"), hasattr(config, "no_such_setting"))
try:
    config.no_such_setting
except AttributeError as e:
    print("AttributeError:", e)
