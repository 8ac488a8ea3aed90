#!/usr/bin/env python3
"""Random small torch programs for differential testing (issue 14).

A program is deterministic from its seed (and the --avoid list): a function `f` (or an
nn.Module) over inputs built from integer arithmetic (no RNG, so kiln and PyTorch get the same
bits), called several times -- with growing and then shrinking sizes when it is dynamic -- eagerly,
eagerly on float64 copies (the accuracy reference), and under torch.compile with each backend.
The generator models shapes and dtypes of every value for every call, so that it only writes
programs real PyTorch accepts; the driver (run.py) discards the few it still rejects.

Every run prints one line `@@<seed> <mode> <value>` (or `@@<seed> <mode> !ERR <Type>: <msg>`),
where <value> is an expression over T(shape, dtype, flat values), L(...), S(scalar) and None that
run.py evaluates. `python3 generate.py --seed N` prints one standalone program.
"""

import argparse
import random
import sys

BACKENDS = ["eager", "aot_eager", "aot_eager_decomp_partition", "inductor"]

# Features that hit bugs already being fixed; --avoid NAME,... keeps the generator off them.
KNOWN_BUG_FEATURES = ["dyn_shrink", "attr_mutation", "softmax_empty"]

# Spellings real PyTorch has and kiln does not have yet (AttributeError/TypeError under kiln): not
# generated unless asked for (run.py --all-ops), so that what is found is wrong answers, not gaps.
KILN_UNSUPPORTED = [
    "hardtanh", "floor", "ceil", "trunc", "exp2", "expm1", "log2", "softplus", "atan", "sinh", "mish",
    "nan_to_num", "fmod", "lerp_scalar", "atan2", "hypot", "copysign", "xlogy", "argmin", "argmin_full",
    "unbiased_kwarg", "all_dim", "logsumexp", "norm", "einsum", "unflatten", "movedim", "mT",
    "squeeze_all", "torch_flatten", "narrow", "take_along", "index_add", "index_fill", "masked_fill",
    "scatter_add", "scatter", "clamp_", "abs_", "sqrt_", "neg_", "new_ones", "l1_loss", "smooth_l1_loss",
]

FLOAT = ("float32", "float64")
ORDER = {"bool": 0, "int64": 1, "float32": 2, "float64": 3}
CAT = {"bool": 0, "int64": 1, "float32": 2, "float64": 2}
TORCH_DT = {"bool": "torch.bool", "int64": "torch.int64", "float32": "torch.float32", "float64": "torch.float64"}
KIND = {"float32": "f", "float64": "d", "int64": "i", "bool": "b"}

PRELUDE = r'''import torch
import torch.nn.functional as F


def _mk(shape, kind, salt, fp64, grad):
    # Deterministic values from integer arithmetic: identical bits under kiln and PyTorch.
    n = 1
    for s in shape:
        n = n * s
    i = torch.arange(n)
    if kind == "f" or kind == "d":
        t = ((i * 37 + salt * 13) % 101 - 50).to(torch.float64) / 25.0
        if kind == "f" and not fp64:
            t = t.to(torch.float32)
    elif kind == "i":
        t = (i * 7 + salt) % 11 - 5
    else:
        t = (i * 5 + salt) % 3 == 0
    t = t.reshape(shape)
    if grad and (kind == "f" or kind == "d"):
        t.requires_grad_(True)
    return t


def _lay(t, layout):
    # Non-contiguous inputs: "t" made transposed, "s" made with a doubled last dim and sliced.
    if layout == "t":
        return t.transpose(-1, -2)
    if layout == "s":
        return t[..., ::2]
    return t


def _fmt(v):
    if isinstance(v, torch.Tensor):
        t = v.detach()
        return "T(" + repr(list(t.shape)) + "," + repr(str(t.dtype)) + "," + repr(t.reshape(-1).tolist()) + ")"
    if isinstance(v, (list, tuple)):
        return "L(" + ",".join([_fmt(x) for x in v]) + ")"
    if v is None:
        return "None"
    return "S(" + repr(v) + ")"


def _loss(out, grad):
    # grad "sum": the outputs' gradients are expanded ones (stride 0), as with out.sum().backward();
    # "dense": (o * 1.0).sum(), so that they are dense tensors.
    outs = out if isinstance(out, (list, tuple)) else [out]
    loss = None
    for o in outs:
        if isinstance(o, torch.Tensor) and o.requires_grad:
            s = o.sum() if grad == "sum" else (o * 1.0).sum()
            loss = s if loss is None else loss + s
    return loss


def _run(mode, f, build, mk, ncalls, mutated, grad, dyn):
    fp64 = mode == "fp64"
    m = None
    if build is not None:
        m = build(fp64)
        f = m
    if mode != "plain" and mode != "fp64":
        torch._dynamo.reset()
        if dyn:
            f = torch.compile(f, backend=mode, dynamic=True)
        else:
            f = torch.compile(f, backend=mode)
    res = []
    for c in range(ncalls):
        args = mk(c, fp64, grad)
        out = f(*args)
        item = [out]
        if len(mutated) > 0:
            item.append([args[j] for j in mutated])
        if grad:
            loss = _loss(out, grad)
            if loss is not None:
                loss.backward()
            item.append([a.grad if isinstance(a, torch.Tensor) else None for a in args])
        res.append(item)
    if m is not None:
        res.append(m.state_for_difftest())
        if grad:
            res.append([p.grad for p in m.parameters()])
    return res


def _try(seed, mode, f, build, mk, ncalls, mutated, grad, dyn):
    try:
        s = _fmt(_run(mode, f, build, mk, ncalls, mutated, grad, dyn))
    except Exception as e:
        msg = " | ".join([l.strip() for l in str(e).strip().split("\n") if l.strip()][:3])[:400]
        print("@@" + str(seed) + " " + mode + " !ERR " + type(e).__name__ + ": " + msg, flush=True)
        return
    print("@@" + str(seed) + " " + mode + " " + s, flush=True)
'''


class Val:
    def __init__(self, name, dtype, shapes, grad=False, kind="fresh"):
        self.name = name
        self.dtype = dtype
        self.shapes = shapes  # one tuple per call
        self.grad = grad
        self.kind = kind  # "input", "fresh", "view"

    @property
    def rank(self):
        return len(self.shapes[0])

    @property
    def isfloat(self):
        return self.dtype in FLOAT

    def dim_sizes(self, d):
        return [s[d] for s in self.shapes]

    def min_dim(self, d):
        return min(self.dim_sizes(d))

    def numels(self):
        out = []
        for s in self.shapes:
            n = 1
            for x in s:
                n *= x
            out.append(n)
        return out


def broadcast(a, b):
    r = max(len(a), len(b))
    a = (1,) * (r - len(a)) + tuple(a)
    b = (1,) * (r - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return tuple(out)


def broadcast_all(sa, sb):
    out = []
    for a, b in zip(sa, sb):
        r = broadcast(a, b)
        if r is None:
            return None
        out.append(r)
    return out


def promote(tensors, scalar=None):
    """tensors: [(dtype, is_zero_dim)]; scalar: None, 'int', 'float', 'bool'."""
    dimmed = [d for d, z in tensors if not z]
    zerod = [d for d, z in tensors if z]
    top = lambda ds: max(ds, key=lambda d: ORDER[d]) if ds else None
    res = top(dimmed)
    zd = top(zerod)
    if res is None:
        res = zd
    elif zd is not None and CAT[zd] > CAT[res]:
        res = zd
    if scalar == "float" and CAT[res] < 2:
        res = "float32"
    elif scalar == "int" and res == "bool":
        res = "int64"
    return res


def slice_len(n, start, stop, step):
    return len(range(*slice(start, stop, step).indices(n)))


class Program:
    def __init__(self, seed, features, defs, ncalls, mutated, grad, dyn, is_module):
        self.seed = seed
        self.features = features
        self.defs = defs
        self.ncalls = ncalls
        self.mutated = mutated
        self.grad = grad
        self.dyn = dyn
        self.is_module = is_module

    def call(self, mode):
        s = self.seed
        f = "None" if self.is_module else "f_%d" % s
        b = "build_%d" % s if self.is_module else "None"
        return '_try(%d, "%s", %s, %s, mk_%d, %d, %r, %r, %s)' % (
            s, mode, f, b, s, self.ncalls, self.mutated, self.grad, self.dyn)


class Gen:
    def __init__(self, seed, avoid=()):
        self.seed = seed
        self.r = random.Random(seed * 7919 + 17)
        self.avoid = set(avoid)
        self.features = set()
        self.lines = []
        self.nvar = 0
        self.inputs = []  # (Val, template, kind, layout)
        self.pool = []
        self.ind = "    "

    # ---- helpers -----------------------------------------------------------------------------
    def ok(self, feat):
        return feat not in self.avoid

    def feat(self, *names):
        for n in names:
            self.features.add(n)

    def chance(self, p):
        return self.r.random() < p

    def dim_with_items(self, v, r):
        """A random dimension of a rank-r value and its smallest size over the calls; None when the
        value has no dimension or that one is empty in some call."""
        if r < 1:
            return None
        d = self.r.randint(0, r - 1)
        m = v.min_dim(d)
        return None if m < 1 else (d, m)

    def pick(self, xs):
        return self.r.choice(xs)

    def var(self):
        self.nvar += 1
        return "v%d" % self.nvar

    def emit(self, line):
        self.lines.append(self.ind + line)

    def add(self, expr, dtype, shapes, grad, kind="fresh", feats=()):
        name = self.var()
        self.emit("%s = %s" % (name, expr))
        v = Val(name, dtype, shapes, grad, kind)
        self.pool.append(v)
        self.feat(*feats)
        return v

    def template_of(self, shapes):
        t = []
        for d in range(len(shapes[0])):
            sizes = [s[d] for s in shapes]
            if all(x == sizes[0] for x in sizes):
                t.append(sizes[0])
            elif self.dyn and sizes == self.nseq:
                t.append("n")
            else:
                return None
        return t

    def shapes_of(self, template):
        return [tuple(self.nseq[c] if x == "n" else x for x in template) for c in range(self.ncalls)]

    def new_input(self, template, dtype, layout="c"):
        name = "a%d" % len(self.inputs)
        grad = self.grad and dtype in FLOAT
        v = Val(name, dtype, self.shapes_of(template), grad, "input")
        if len(template) < 2 and layout == "t":
            layout = "c"
        if len(template) < 1 and layout == "s":
            layout = "c"
        self.inputs.append((v, list(template), dtype, layout))
        if layout != "c":
            self.feat("noncontig_input")
        return v

    def pick_val(self, pred=lambda v: True, prefer_recent=True):
        cands = [v for v in self.pool if pred(v)]
        if not cands:
            return None
        if prefer_recent and self.chance(0.6):
            return cands[-1] if self.chance(0.5) else self.pick(cands[-3:])
        return self.pick(cands)

    def bcast_partner(self, v, dtype):
        """A new input whose shape broadcasts against v (possibly fewer dims or 1s)."""
        t = self.template_of(v.shapes)
        if t is None:
            return None
        t = list(t)
        if t and self.chance(0.4):
            t = t[self.r.randint(0, len(t)):]
        t = [1 if (self.chance(0.25)) else x for x in t]
        layout = self.pick(["c", "c", "c", "t", "s"])
        return self.new_input(t, dtype, layout)

    def rand_dtype(self):
        return self.pick(["float32"] * 6 + ["float64", "int64", "int64", "bool"])

    def scalar(self, dtype):
        if dtype in FLOAT:
            return self.pick(["0.5", "2.0", "-1.5", "3", "0.25", "1e-3"])
        if dtype == "int64":
            return self.pick(["2", "3", "-1", "1"])
        return self.pick(["2", "1.5"])

    # ---- op families ------------------------------------------------------------------------
    def op_unary_float(self):
        v = self.pick_val(lambda v: v.isfloat)
        if v is None:
            return False
        n = v.name
        forms = [
            ("neg", "-%s" % n), ("neg", "torch.neg(%s)" % n), ("abs", "%s.abs()" % n),
            ("exp", "torch.exp(%s.clamp(max=4.0))" % n), ("log", "torch.log(%s.abs() + 1)" % n),
            ("log1p", "%s.abs().log1p()" % n), ("sqrt", "%s.abs().sqrt()" % n),
            ("rsqrt", "(%s.abs() + 0.5).rsqrt()" % n), ("reciprocal", "(%s.abs() + 0.5).reciprocal()" % n),
            ("square", "%s.square()" % n), ("sin", "%s.sin()" % n), ("cos", "torch.cos(%s)" % n),
            ("tan", "torch.tan(%s.clamp(-1.2, 1.2))" % n), ("tanh", "%s.tanh()" % n),
            ("sigmoid", "torch.sigmoid(%s)" % n), ("erf", "torch.erf(%s)" % n), ("relu", "F.relu(%s)" % n),
            ("relu", "%s.relu()" % n), ("gelu", "F.gelu(%s)" % n), ("gelu_tanh", "F.gelu(%s, approximate='tanh')" % n),
            ("silu", "F.silu(%s)" % n), ("sign", "%s.sign()" % n), ("round", "%s.round()" % n),
            ("clamp", "%s.clamp(-0.5, 1.25)" % n), ("clamp_min", "torch.clamp_min(%s, 0.1)" % n),
            ("clamp_max", "%s.clamp(max=0.3)" % n), ("sigmoid", "%s.sigmoid()" % n),
            ("pow_scalar", "%s ** 2" % n), ("pow_scalar", "%s.abs().pow(1.5)" % n), ("pow_scalar", "torch.pow(%s, 3)" % n),
            ("leaky_relu", "F.leaky_relu(%s, 0.1)" % n), ("hardtanh", "F.hardtanh(%s)" % n),
            ("floor", "%s.floor()" % n), ("ceil", "torch.ceil(%s)" % n), ("trunc", "%s.trunc()" % n),
            ("exp2", "torch.exp2(%s.clamp(max=4.0))" % n), ("expm1", "torch.expm1(%s.clamp(max=4.0))" % n),
            ("log2", "torch.log2(%s.abs() + 1)" % n), ("softplus", "F.softplus(%s)" % n),
            ("elu", "F.elu(%s)" % n), ("atan", "torch.atan(%s)" % n), ("sinh", "torch.sinh(%s.clamp(-3, 3))" % n),
            ("mish", "F.mish(%s)" % n), ("nan_to_num", "torch.nan_to_num(%s)" % n),
        ]
        op, expr = self.pick(forms)
        if not self.ok(op):
            return False
        self.add(expr, v.dtype, v.shapes, v.grad, feats=[op])
        return True

    def op_unary_any(self):
        v = self.pick_val(lambda v: v.dtype != "bool")
        if v is None:
            return False
        n = v.name
        op, expr, dt = self.pick([
            ("abs", "torch.abs(%s)" % n, v.dtype), ("neg", "%s.neg()" % n, v.dtype),
            ("isnan", "torch.isnan(%s)" % n, "bool"), ("isfinite", "%s.isfinite()" % n, "bool"),
            ("logical_not", "torch.logical_not(%s)" % n, "bool"), ("sign", "torch.sign(%s)" % n, v.dtype),
            ("clamp", "%s.clamp(min=-2, max=3)" % n, v.dtype), ("square", "torch.square(%s)" % n, v.dtype),
        ])
        self.add(expr, dt, v.shapes, v.grad and dt in FLOAT, feats=[op])
        return True

    def binary_operand(self, v):
        """Another tensor broadcasting against v: from the pool or a new input."""
        cands = [w for w in self.pool if w is not v and broadcast_all(v.shapes, w.shapes) == v.shapes]
        cands2 = [w for w in self.pool if w is not v and broadcast_all(v.shapes, w.shapes) is not None]
        if cands2 and self.chance(0.2):
            return self.pick(cands2)
        if cands and self.chance(0.5):
            return self.pick(cands)
        dt = v.dtype if self.chance(0.6) else self.rand_dtype()
        return self.bcast_partner(v, dt)

    def op_binary(self):
        v = self.pick_val()
        if v is None:
            return False
        op = self.pick(["add", "sub", "mul", "div", "add", "mul", "maximum", "minimum", "pow",
                        "floor_divide", "remainder", "rsub", "add_alpha", "div_mode", "lerp_scalar",
                        "atan2", "fmod", "hypot", "copysign", "xlogy"])
        if not self.ok(op):
            return False
        use_scalar = self.chance(0.3)
        if use_scalar:
            w = None
            wdt = None
            sval = self.scalar(v.dtype)
            skind = "float" if "." in sval or "e" in sval else "int"
            sv = self.pick_val(lambda w: w.rank >= 1, prefer_recent=False)
            if sv is not None and self.chance(0.3) and v.dtype != "bool":
                # a size as a Python number: symbolic under dynamic shapes
                d = self.r.randint(0, sv.rank - 1)
                sval = self.pick(["%s.shape[%d]" % (sv.name, d), "%s.size(%d)" % (sv.name, d),
                                  "(%s.shape[%d] + 1)" % (sv.name, d), "%s.numel()" % sv.name, "len(%s)" % sv.name])
                skind = "int"
                self.feat("size_as_scalar")
            res_dt = promote([(v.dtype, v.rank == 0)], skind)
        else:
            w = self.binary_operand(v)
            if w is None:
                return False
            res_dt = promote([(v.dtype, v.rank == 0), (w.dtype, w.rank == 0)])
            shapes = broadcast_all(v.shapes, w.shapes)
            if shapes is None:
                return False
        a = v.name
        b = sval if use_scalar else w.name
        bshapes = v.shapes if use_scalar else broadcast_all(v.shapes, w.shapes)
        bdt = None if use_scalar else w.dtype
        grad = v.grad or (w is not None and w.grad)
        # bool arithmetic is mostly rejected by PyTorch; keep bools to add/mul with a non-bool.
        if v.dtype == "bool" and (use_scalar or bdt == "bool"):
            return False
        if res_dt == "bool":
            return False
        if op == "add":
            expr = self.pick(["%s + %s", "torch.add(%s, %s)", "%s.add(%s)"]) % (a, b)
        elif op == "sub":
            if "bool" in (v.dtype, bdt):
                return False
            expr = self.pick(["%s - %s", "torch.sub(%s, %s)"]) % (a, b)
        elif op == "mul":
            expr = self.pick(["%s * %s", "torch.mul(%s, %s)", "%s.mul(%s)"]) % (a, b)
        elif op == "add_alpha":
            if use_scalar or "bool" in (v.dtype, bdt):
                return False
            alpha = "2" if res_dt == "int64" else "0.5"
            expr = "torch.add(%s, %s, alpha=%s)" % (a, b, alpha)
        elif op == "div":
            if "bool" in (v.dtype, bdt):
                return False
            if use_scalar:
                expr = "%s / %s" % (a, self.pick(["2.0", "3", "-0.5", "7"]))
            else:
                expr = "%s / (%s.abs() + 1)" % (a, b)
            res_dt = res_dt if res_dt in FLOAT else "float32"
        elif op == "div_mode":
            if "bool" in (v.dtype, bdt):
                return False
            mode = self.pick(["floor", "trunc"])
            den = "3" if use_scalar else "(%s.abs() + 1)" % b
            expr = "torch.div(%s, %s, rounding_mode='%s')" % (a, den, mode)
            op = "div_" + mode
            grad = False if res_dt not in FLOAT else grad
        elif op in ("floor_divide", "remainder", "fmod"):
            if "bool" in (v.dtype, bdt):
                return False
            den = self.pick(["3", "2"]) if use_scalar else "(%s.abs() + 1)" % b
            sym = {"floor_divide": "//", "remainder": "%", "fmod": None}[op]
            if sym is None:
                expr = "torch.fmod(%s, %s)" % (a, den)
            else:
                expr = "%s %s %s" % (a, sym, den)
            if op == "floor_divide":
                if self.grad and res_dt in FLOAT:
                    return False  # PyTorch has no derivative for floor_divide
                grad = False
        elif op in ("maximum", "minimum"):
            if use_scalar:
                return False
            expr = "torch.%s(%s, %s)" % (op, a, b)
        elif op == "pow":
            if res_dt not in FLOAT:
                if use_scalar:
                    expr = "%s ** 2" % a
                else:
                    return False
            elif use_scalar:
                expr = "%s.abs() ** %s" % (a, self.pick(["0.5", "2", "1.5", "3"]))
            else:
                if not v.isfloat:
                    return False
                expr = "torch.pow(%s.abs() + 0.5, %s)" % (a, b)
        elif op == "rsub":
            if "bool" in (v.dtype, bdt) or not use_scalar:
                return False
            expr = "%s - %s" % (sval, a)
        elif op == "lerp_scalar":
            if use_scalar or res_dt not in FLOAT or v.dtype != w.dtype:
                return False
            expr = "torch.lerp(%s, %s, 0.3)" % (a, b)
        elif op in ("atan2", "hypot", "copysign", "xlogy"):
            if use_scalar or res_dt not in FLOAT or not v.isfloat or not w.isfloat:
                return False
            if op == "xlogy":
                expr = "torch.xlogy(%s, %s.abs() + 1)" % (a, b)
            else:
                expr = "torch.%s(%s, %s)" % (op, a, b)
        else:
            return False
        bcast = not use_scalar and (bshapes != w.shapes or bshapes != v.shapes)
        self.add(expr, res_dt, bshapes, grad and res_dt in FLOAT, feats=[op] + (["broadcast"] if bcast else []))
        return True

    def op_compare(self):
        v = self.pick_val()
        if v is None:
            return False
        op = self.pick(["eq", "ne", "lt", "le", "gt", "ge"])
        sym = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}[op]
        if self.chance(0.5):
            thr = "0.37" if v.isfloat else "1"
            if v.dtype == "bool":
                thr = "True"
            expr = "%s %s %s" % (v.name, sym, thr)
            shapes = v.shapes
        else:
            w = self.binary_operand(v)
            if w is None:
                return False
            shapes = broadcast_all(v.shapes, w.shapes)
            if shapes is None:
                return False
            expr = self.pick(["%s %s %s" % (v.name, sym, w.name), "torch.%s(%s, %s)" % (op, v.name, w.name)])
        self.add(expr, "bool", shapes, False, feats=[op])
        return True

    def op_logical(self):
        v = self.pick_val()
        if v is None:
            return False
        op = self.pick(["logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not"])
        if op.startswith("bitwise"):
            if v.dtype not in ("int64", "bool"):
                return False
            if op == "bitwise_not":
                self.add("~%s" % v.name, v.dtype, v.shapes, False, feats=[op])
                return True
            w = self.binary_operand(v)
            if w is None or w.dtype not in ("int64", "bool"):
                return False
            shapes = broadcast_all(v.shapes, w.shapes)
            if shapes is None:
                return False
            sym = {"bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^"}[op]
            dt = promote([(v.dtype, v.rank == 0), (w.dtype, w.rank == 0)])
            self.add("%s %s %s" % (v.name, sym, w.name), dt, shapes, False, feats=[op])
            return True
        w = self.binary_operand(v)
        if w is None:
            return False
        shapes = broadcast_all(v.shapes, w.shapes)
        if shapes is None:
            return False
        self.add("torch.%s(%s, %s)" % (op, v.name, w.name), "bool", shapes, False, feats=[op])
        return True

    def op_where(self):
        v = self.pick_val()
        if v is None:
            return False
        c = self.pick_val(lambda c: c.dtype == "bool" and broadcast_all(v.shapes, c.shapes) is not None, prefer_recent=False)
        if c is None or self.chance(0.4):
            # not "> 0" on floats: a value that is 0 up to rounding would flip between implementations
            cexpr = ("%s > 0.1234" if v.isfloat else "%s > 0") % v.name if v.dtype != "bool" else v.name
            cshapes = v.shapes
        else:
            cexpr = c.name
            cshapes = c.shapes
        if self.chance(0.4):
            # scalar other
            if v.dtype == "bool":
                return False
            expr = "torch.where(%s, %s, %s)" % (cexpr, v.name, self.scalar(v.dtype) if v.isfloat else "0")
            shapes = broadcast_all(cshapes, v.shapes)
            dt = v.dtype if v.isfloat else promote([(v.dtype, v.rank == 0)], "int")
            grad = v.grad
        else:
            w = self.binary_operand(v)
            if w is None:
                return False
            shapes = broadcast_all(cshapes, v.shapes)
            shapes = shapes and broadcast_all(shapes, w.shapes)
            dt = promote([(v.dtype, v.rank == 0), (w.dtype, w.rank == 0)])
            expr = "torch.where(%s, %s, %s)" % (cexpr, v.name, w.name)
            grad = v.grad or w.grad
        if shapes is None:
            return False
        self.add(expr, dt, shapes, grad and dt in FLOAT, feats=["where"])
        return True

    def reduce_dims(self, v):
        r = v.rank
        if r == 0:
            return None
        if self.chance(0.25) and r >= 2:
            ds = sorted(self.r.sample(range(r), 2))
            return ds
        return [self.r.randint(-r, r - 1)]

    def op_reduce(self):
        v = self.pick_val()
        if v is None:
            return False
        op = self.pick(["sum", "sum", "mean", "amax", "amin", "prod", "max_dim", "min_dim", "argmax", "argmin",
                        "var", "std", "var_mean", "all", "any", "sum_full", "mean_full", "max_full", "logsumexp", "norm"])
        if not self.ok(op):
            return False
        full = op.endswith("_full") or v.rank == 0 or self.chance(0.15)
        dims = None if full else self.reduce_dims(v)
        keep = self.chance(0.3)
        n = v.name

        def reduced_shapes(dims_, keep_):
            out = []
            for s in v.shapes:
                if dims_ is None:
                    out.append(tuple(1 for _ in s) if keep_ else ())
                    continue
                dd = [d % len(s) for d in dims_]
                out.append(tuple((1 if keep_ else None) if i in dd else x for i, x in enumerate(s)))
                out[-1] = tuple(x for x in out[-1] if x is not None)
            return out

        def empty_reduce(dims_):
            # A reduction without identity over an empty extent is an error in PyTorch.
            for s in v.shapes:
                if dims_ is None:
                    if any(x == 0 for x in s):
                        return True
                elif any(s[d % len(s)] == 0 for d in dims_) if s else False:
                    return True
            return False

        ks = ", keepdim=True" if keep else ""
        base = op.replace("_full", "")
        if base in ("mean", "var", "std", "var_mean", "logsumexp", "norm") and not v.isfloat:
            return False
        if base in ("prod",) and v.dtype == "bool":
            return False
        if base == "prod" and not v.isfloat:
            return False
        dstr = None
        if dims is not None:
            dstr = str(dims[0]) if len(dims) == 1 else "(%d, %d)" % tuple(dims)
        res_grad = v.grad
        if base in ("sum", "mean", "prod", "amax", "amin", "all", "any", "logsumexp", "norm"):
            if base in ("amax", "amin") and empty_reduce(dims):
                return False
            if base in ("all", "any"):
                dt = "bool"
                res_grad = False
            elif base == "sum":
                dt = v.dtype if v.isfloat else "int64"
            elif base == "prod":
                dt = v.dtype
            else:
                dt = v.dtype
            if base == "logsumexp" and dims is None:
                dims = list(range(v.rank))
                if not dims:
                    return False
                dstr = "(" + ", ".join(map(str, dims)) + ",)"
            if base == "norm":
                if dims is None:
                    expr = "torch.linalg.vector_norm(%s)" % n
                else:
                    expr = "torch.linalg.vector_norm(%s, dim=%s%s)" % (n, dstr, ks)
            elif dims is None:
                expr = self.pick(["%s.%s()" % (n, base), "torch.%s(%s)" % (base, n)])
            else:
                if base == "prod" and len(dims) > 1:
                    return False
                if base in ("all", "any") and len(dims) > 1:
                    return False
                if base in ("all", "any"):
                    if not self.ok("all_dim"):
                        return False
                    self.feat("all_dim")
                expr = "%s.%s(%s%s)" % (n, base, dstr, ks)
            shapes = reduced_shapes(dims, keep and dims is not None)
            if dims is None and base != "norm":
                shapes = reduced_shapes(None, False)
            if base == "norm" and dims is None:
                shapes = reduced_shapes(None, False)
            self.add(expr, dt, shapes, res_grad and dt in FLOAT, feats=[base])
            return True
        if base in ("max_dim", "min_dim", "argmax", "argmin"):
            if v.dtype == "bool" and base in ("argmax", "argmin"):
                return False
            if not self.ok(base) or not self.ok(base + "_full"):
                return False
            if base == "max" or dims is None or len(dims) > 1:
                if base in ("argmax", "argmin"):
                    if empty_reduce(None):
                        return False
                    self.add("%s.%s()" % (n, base), "int64", [()] * self.ncalls, False, feats=[base + "_full"])
                    return True
                dims = [self.r.randint(-v.rank, v.rank - 1)] if v.rank else None
                if dims is None:
                    return False
                dstr = str(dims[0])
            if empty_reduce(dims):
                return False
            shapes = reduced_shapes(dims, keep)
            if base in ("argmax", "argmin"):
                self.add("torch.%s(%s, dim=%s%s)" % (base, n, dstr, ks), "int64", shapes, False, feats=[base])
                return True
            fn = base[:3]
            if self.chance(0.5):
                vals = self.add("%s.%s(%s%s)[0]" % (n, fn, dstr, ks), v.dtype, shapes, v.grad and v.isfloat, feats=[base])
            else:
                name_v, name_i = self.var(), self.var()
                self.emit("%s, %s = torch.%s(%s, %s%s)" % (name_v, name_i, fn, n, dstr, ks))
                self.pool.append(Val(name_v, v.dtype, shapes, v.grad and v.isfloat))
                self.pool.append(Val(name_i, "int64", shapes, False))
                self.feat(base, "tuple_unpack")
            return True
        if base == "max":
            if empty_reduce(None):
                return False
            self.add("%s.max()" % n, v.dtype, [()] * self.ncalls, v.grad and v.isfloat, feats=["max_full"])
            return True
        if base in ("var", "std", "var_mean"):
            corr = self.pick(["", ", correction=0", ", unbiased=False"])
            if "unbiased" in corr:
                if not self.ok("unbiased_kwarg"):
                    return False
                self.feat("unbiased_kwarg")
            if dims is None:
                if base == "var_mean":
                    return False
                expr = "%s.%s()" % (n, base) if corr == "" else "torch.%s(%s%s)" % (base, n, corr)
                shapes = reduced_shapes(None, False)
            else:
                if base == "var_mean":
                    shapes = reduced_shapes(dims, keep)
                    a_, b_ = self.var(), self.var()
                    self.emit("%s, %s = torch.var_mean(%s, dim=%s%s%s)" % (a_, b_, n, dstr, corr, ks))
                    self.pool.append(Val(a_, v.dtype, shapes, v.grad))
                    self.pool.append(Val(b_, v.dtype, shapes, v.grad))
                    self.feat("var_mean", "tuple_unpack")
                    return True
                expr = "%s.%s(dim=%s%s%s)" % (n, base, dstr, corr, ks)
                shapes = reduced_shapes(dims, keep)
            self.add(expr, v.dtype, shapes, v.grad, feats=[base])
            return True
        return False

    def op_softmax(self):
        v = self.pick_val(lambda v: v.isfloat and v.rank >= 1)
        if v is None:
            return False
        if 0 in v.numels():
            if not self.ok("softmax_empty"):
                return False
            self.feat("softmax_empty")
        d = self.r.randint(-v.rank, v.rank - 1)
        op, expr = self.pick([("softmax", "F.softmax(%s, dim=%d)"), ("softmax", "%s.softmax(%d)"),
                              ("log_softmax", "F.log_softmax(%s, dim=%d)"), ("log_softmax", "torch.log_softmax(%s, %d)")])
        self.add(expr % (v.name, d), v.dtype, v.shapes, v.grad, feats=[op])
        return True

    def op_layer_norm(self):
        v = self.pick_val(lambda v: v.isfloat and v.rank >= 1 and v.min_dim(-1) > 0)
        if v is None:
            return False
        t = self.template_of(v.shapes)
        last = v.shapes[0][-1]
        if t is not None and t[-1] != "n" and self.chance(0.5):
            w = self.new_input([last], v.dtype)
            b = self.new_input([last], v.dtype)
            expr = "F.layer_norm(%s, (%d,), %s, %s)" % (v.name, last, w.name, b.name)
            grad = True
        else:
            expr = "F.layer_norm(%s, %s.shape[-1:])" % (v.name, v.name)
            grad = v.grad
        self.add(expr, v.dtype, v.shapes, grad and self.grad, feats=["layer_norm"])
        return True

    def op_matmul(self):
        v = self.pick_val(lambda v: v.rank >= 1 and v.dtype in FLOAT)
        if v is None:
            return False
        tv = self.template_of(v.shapes)
        if tv is None:
            return False
        k = tv[-1]
        m = self.pick([1, 3, 4, 5])
        form = self.pick(["matmul", "mm", "linear", "bmm", "mv", "dot", "addmm", "einsum"])
        if not self.ok(form):
            return False
        if form == "mm" and v.rank == 2:
            w = self.new_input([k, m], v.dtype, self.pick(["c", "t"]))
            self.add(self.pick(["torch.mm(%s, %s)", "%s.mm(%s)"]) % (v.name, w.name), v.dtype,
                     [(s[0], m) for s in v.shapes], v.grad or w.grad, feats=["mm"])
        elif form == "addmm" and v.rank == 2:
            w = self.new_input([k, m], v.dtype)
            b = self.new_input([m], v.dtype)
            self.add("torch.addmm(%s, %s, %s)" % (b.name, v.name, w.name), v.dtype,
                     [(s[0], m) for s in v.shapes], True and self.grad, feats=["addmm"])
        elif form == "bmm" and v.rank == 3:
            w = self.new_input([tv[0], k, m], v.dtype)
            self.add("torch.bmm(%s, %s)" % (v.name, w.name), v.dtype,
                     [(s[0], s[1], m) for s in v.shapes], v.grad or w.grad, feats=["bmm"])
        elif form == "mv" and v.rank == 2:
            w = self.new_input([k], v.dtype)
            self.add("torch.mv(%s, %s)" % (v.name, w.name), v.dtype, [(s[0],) for s in v.shapes], self.grad, feats=["mv"])
        elif form == "dot" and v.rank == 1:
            w = self.new_input([k], v.dtype)
            self.add("torch.dot(%s, %s)" % (v.name, w.name), v.dtype, [()] * self.ncalls, self.grad, feats=["dot"])
        elif form == "linear":
            w = self.new_input([m, k], v.dtype)
            if self.chance(0.5):
                b = self.new_input([m], v.dtype)
                expr = "F.linear(%s, %s, %s)" % (v.name, w.name, b.name)
            else:
                expr = "F.linear(%s, %s)" % (v.name, w.name)
            self.add(expr, v.dtype, [s[:-1] + (m,) for s in v.shapes], self.grad, feats=["linear"])
        elif form == "einsum" and v.rank == 2:
            w = self.new_input([k, m], v.dtype)
            self.add("torch.einsum('ij,jk->ik', %s, %s)" % (v.name, w.name), v.dtype,
                     [(s[0], m) for s in v.shapes], self.grad, feats=["einsum"])
        else:
            # matmul / @ with broadcasting batch dims
            if v.rank == 1:
                w = self.new_input([k, m], v.dtype)
                shapes = [(m,)] * self.ncalls
            else:
                bt = tv[:-2] if self.chance(0.5) else []
                w = self.new_input(bt + [k, m], v.dtype, self.pick(["c", "t"]))
                shapes = [broadcast(s[:-2], tuple(self.shapes_of(bt)[c])) + (s[-2], m) for c, s in enumerate(v.shapes)]
            self.add(self.pick(["%s @ %s", "torch.matmul(%s, %s)"]) % (v.name, w.name), v.dtype, shapes,
                     self.grad, feats=["matmul"])
        return True

    def op_view(self):
        v = self.pick_val()
        if v is None:
            return False
        r = v.rank
        n = v.name
        op = self.pick(["reshape_flat", "view_flat", "reshape_merge", "permute", "transpose", "t", "unsqueeze",
                        "squeeze", "expand", "slice", "slice", "select", "flatten", "contiguous", "split", "chunk",
                        "unflatten", "narrow", "movedim", "index_neg", "mT"])
        if not self.ok(op):
            return False
        shapes = None
        kind = "view"
        if op == "reshape_flat":
            expr = self.pick(["%s.reshape(-1)", "torch.reshape(%s, (-1,))"]) % n
            shapes = [(x,) for x in v.numels()]
            kind = "fresh_or_view"
        elif op == "view_flat":
            # view needs compatible strides: only on a fresh contiguous result
            expr = "%s.contiguous().view(-1)" % n
            shapes = [(x,) for x in v.numels()]
        elif op == "reshape_merge":
            if r < 2:
                return False
            d = self.r.randint(0, r - 2)
            if any(0 in s for s in v.shapes):
                return False
            expr = "%s.reshape(%s)" % (n, ", ".join(
                ["%s.shape[%d]" % (n, i) for i in range(d)] + ["-1"] + ["%s.shape[%d]" % (n, i) for i in range(d + 2, r)]))
            if r == 2 and d == 0:
                expr = "%s.reshape(-1)" % n
            shapes = [s[:d] + (s[d] * s[d + 1],) + s[d + 2:] for s in v.shapes]
            kind = "fresh_or_view"
            op = "reshape"
        elif op == "unflatten":
            if r < 1:
                return False
            d = self.r.randint(0, r - 1)
            sizes = v.dim_sizes(d)
            if any(x % 2 or x == 0 for x in sizes):
                return False
            expr = "%s.unflatten(%d, (2, -1))" % (n, d)
            shapes = [s[:d] + (2, s[d] // 2) + s[d + 1:] for s in v.shapes]
        elif op == "permute":
            if r < 2:
                return False
            p = list(range(r))
            self.r.shuffle(p)
            expr = self.pick(["%s.permute(%s)" % (n, ", ".join(map(str, p))),
                              "torch.permute(%s, (%s,))" % (n, ", ".join(map(str, p)))])
            shapes = [tuple(s[i] for i in p) for s in v.shapes]
        elif op == "movedim":
            if r < 2:
                return False
            a, b = self.r.sample(range(r), 2)
            expr = "torch.movedim(%s, %d, %d)" % (n, a, b)
            shapes = []
            for s in v.shapes:
                l = list(s)
                x = l.pop(a)
                l.insert(b, x)
                shapes.append(tuple(l))
        elif op == "transpose":
            if r < 2:
                return False
            a, b = self.r.sample(range(-r, r), 2)
            if a % r == b % r:
                return False
            expr = self.pick(["%s.transpose(%d, %d)", "torch.transpose(%s, %d, %d)"]) % (n, a, b)
            shapes = []
            for s in v.shapes:
                l = list(s)
                l[a], l[b] = l[b], l[a]
                shapes.append(tuple(l))
        elif op in ("t", "mT"):
            if r != 2 and op == "t":
                return False
            if r < 2:
                return False
            expr = "%s.t()" % n if op == "t" else "%s.mT" % n
            shapes = [s[:-2] + (s[-1], s[-2]) for s in v.shapes]
        elif op == "unsqueeze":
            d = self.r.randint(-r - 1, r)
            expr = self.pick(["%s.unsqueeze(%d)", "torch.unsqueeze(%s, %d)"]) % (n, d)
            dd = d % (r + 1)
            shapes = [s[:dd] + (1,) + s[dd:] for s in v.shapes]
        elif op == "index_neg":
            if r < 1:
                return False
            expr = "%s[None]" % n if self.chance(0.5) else "%s[..., None]" % n
            shapes = [(1,) + s for s in v.shapes] if "[None]" in expr else [s + (1,) for s in v.shapes]
            op = "index_none"
        elif op == "squeeze":
            if r < 1:
                return False
            ones = [i for i in range(r) if all(s[i] == 1 for s in v.shapes)]
            if ones and self.chance(0.7):
                d = self.pick(ones)
                expr = "%s.squeeze(%d)" % (n, d)
                shapes = [s[:d] + s[d + 1:] for s in v.shapes]
            elif all(tuple(x for x in s if x != 1) for s in v.shapes) or True:
                # squeeze() of all size-1 dims: the kept dims must be the same for every call
                keep = [[i for i in range(r) if s[i] != 1] for s in v.shapes]
                if any(k != keep[0] for k in keep):
                    return False
                expr = "%s.squeeze()" % n
                if not self.ok("squeeze_all"):
                    return False
                self.feat("squeeze_all")
                shapes = [tuple(x for x in s if x != 1) for s in v.shapes]
        elif op == "expand":
            ones = [i for i in range(r) if all(s[i] == 1 for s in v.shapes)]
            if ones:
                d = self.pick(ones)
                k = self.pick([0, 2, 3, 5])
                args = ["-1"] * r
                args[d] = str(k)
                shapes = [s[:d] + (k,) + s[d + 1:] for s in v.shapes]
            else:
                args = ["-1"] * r
                k = self.pick([2, 3])
                args = [str(k)] + args
                shapes = [(k,) + s for s in v.shapes]
            expr = "%s.expand(%s)" % (n, ", ".join(args))
        elif op == "contiguous":
            expr = "%s.contiguous()" % n
            shapes = v.shapes
            kind = "fresh_or_view"
        elif op == "flatten":
            if r < 2:
                return False
            a = self.r.randint(0, r - 2)
            b = self.r.randint(a + 1, r - 1)
            expr = "%s.flatten(%d, %d)" % (n, a, b) if self.chance(0.7) else "torch.flatten(%s, %d)" % (n, a)
            if "torch.flatten" in expr:
                b = r - 1
                if not self.ok("torch_flatten"):
                    return False
                self.feat("torch_flatten")
            shapes = []
            for s in v.shapes:
                p = 1
                for x in s[a:b + 1]:
                    p *= x
                shapes.append(s[:a] + (p,) + s[b + 1:])
            kind = "fresh_or_view"
        elif op == "slice":
            if r < 1:
                return False
            d = self.r.randint(0, r - 1)
            start, stop, step = self.pick([(1, None, None), (None, -1, None), (None, None, 2), (1, None, 2),
                                           (-2, None, None), (None, 3, None), (2, 5, None), (-100, 100, 3)])
            def part(x):
                return "" if x is None else str(x)
            sl = part(start) + ":" + part(stop) + ("" if step is None else ":" + str(step))
            idx = ", ".join([":"] * d + [sl])
            if self.chance(0.3) and d == r - 1 and r > 1:
                idx = "..., " + sl
            expr = "%s[%s]" % (n, idx)
            shapes = [s[:d] + (slice_len(s[d], start, stop, step),) + s[d + 1:] for s in v.shapes]
        elif op == "narrow":
            found = self.dim_with_items(v, r)
            if not found:
                return False
            d, m = found
            ln = self.r.randint(0, m)
            st = self.r.randint(0, m - ln)
            expr = "%s.narrow(%d, %d, %d)" % (n, d, st, ln)
            shapes = [s[:d] + (ln,) + s[d + 1:] for s in v.shapes]
        elif op == "select":
            found = self.dim_with_items(v, r)
            if not found:
                return False
            d, m = found
            i = self.pick([0, m - 1, -1, -m])
            idx = ", ".join([":"] * d + [str(i)])
            expr = "%s[%s]" % (n, idx) if self.chance(0.7) else "%s.select(%d, %d)" % (n, d, i)
            shapes = [s[:d] + s[d + 1:] for s in v.shapes]
        elif op in ("split", "chunk"):
            if r < 1:
                return False
            d = self.r.randint(0, r - 1)
            sizes = v.dim_sizes(d)
            if op == "split":
                k = self.pick([1, 2, 3])
                parts = [[min(k, x - j) for j in range(0, x, k)] for x in sizes]
                expr = "torch.split(%s, %d, dim=%d)" % (n, k, d) if self.chance(0.5) else "%s.split(%d, %d)" % (n, k, d)
            else:
                k = self.pick([2, 3])
                parts = []
                for x in sizes:
                    c = -(-x // k) if x else 0
                    parts.append([min(c, x - j) for j in range(0, x, c)] if c else [0])
                expr = "%s.chunk(%d, %d)" % (n, k, d)
            if any(len(p) == 0 for p in parts):
                return False
            which = self.pick([0, -1])
            shapes = [s[:d] + (p[which],) + s[d + 1:] for s, p in zip(v.shapes, parts)]
            expr = "%s[%d]" % (expr, which)
        else:
            return False
        if kind == "fresh_or_view":
            kind = "view" if v.kind in ("input", "view") else "fresh"
        self.add(expr, v.dtype, shapes, v.grad, kind=kind, feats=[op])
        return True

    def op_cat(self):
        v = self.pick_val(lambda v: v.rank >= 1)
        if v is None:
            return False
        op = self.pick(["cat", "stack", "cat"])
        r = v.rank
        d = self.r.randint(-r, r - 1) if op == "cat" else self.r.randint(-r - 1, r)
        # partner: same shape except along d (cat); same shape (stack)
        t = self.template_of(v.shapes)
        if t is None:
            return False
        t2 = list(t)
        if op == "cat":
            t2[d] = self.pick([1, 2, 0, 3])
        others = [w for w in self.pool if w is not v and w.dtype == v.dtype and w.shapes == v.shapes]
        if others and op == "stack" and self.chance(0.5):
            w = self.pick(others)
        else:
            w = self.new_input(t2, v.dtype if self.chance(0.8) else self.rand_dtype())
        if op == "cat":
            dd = d % r
            shapes = [s[:dd] + (s[dd] + ws[dd],) + s[dd + 1:] for s, ws in zip(v.shapes, w.shapes)]
            items = [v.name, w.name] if self.chance(0.5) else [w.name, v.name, v.name]
            if len(items) == 3:
                shapes = [s[:dd] + (2 * s[dd] + ws[dd],) + s[dd + 1:] for s, ws in zip(v.shapes, w.shapes)]
            expr = "torch.cat([%s], dim=%d)" % (", ".join(items), d)
        else:
            dd = d % (r + 1)
            shapes = [s[:dd] + (2,) + s[dd:] for s in v.shapes]
            expr = "torch.stack((%s, %s), %d)" % (v.name, w.name, d)
        dt = promote([(v.dtype, False), (w.dtype, False)])
        self.add(expr, dt, shapes, (v.grad or w.grad) and dt in FLOAT, feats=[op])
        return True

    def op_index(self):
        v = self.pick_val(lambda v: v.rank >= 1)
        if v is None:
            return False
        op = self.pick(["index_select", "gather", "embedding", "index_tensor", "bool_mask_where", "take_along"])
        if not self.ok(op):
            return False
        r = v.rank
        d = self.r.randint(0, r - 1)
        m = v.min_dim(d)
        if op in ("index_select", "index_tensor"):
            if m < 1:
                return False
            idx = [self.r.randint(0, m - 1) for _ in range(self.pick([1, 2, 3, 4]))]
            if op == "index_select":
                expr = "torch.index_select(%s, %d, torch.tensor(%r))" % (v.name, d, idx)
            else:
                if d != 0:
                    d = 0
                    m = v.min_dim(0)
                    if m < 1:
                        return False
                    idx = [self.r.randint(0, m - 1) for _ in range(len(idx))]
                expr = "%s[torch.tensor(%r)]" % (v.name, idx)
            shapes = [s[:d] + (len(idx),) + s[d + 1:] for s in v.shapes]
        elif op == "gather" or op == "take_along":
            if m < 1:
                return False
            # index same rank, sizes <= v's except along d; built in the function from arange
            t = self.template_of(v.shapes)
            if t is None:
                return False
            k = self.pick([1, 2, 3])
            shp = [x for x in t]
            shp[d] = k
            shp_s = "(" + ", ".join(("%s.shape[%d]" % (v.name, i)) if x == "n" else str(x) for i, x in enumerate(shp)) + ",)"
            idx = "(torch.arange(%s).reshape(%s) * 7 %% %d)" % (
                " * ".join(("%s.shape[%d]" % (v.name, i)) if x == "n" else str(x) for i, x in enumerate(shp)) or "1",
                shp_s, m)
            if op == "gather":
                expr = "torch.gather(%s, %d, %s)" % (v.name, d, idx)
            else:
                expr = "torch.take_along_dim(%s, %s, dim=%d)" % (v.name, idx, d)
            shapes = [tuple(c if i == d else x for i, x in enumerate(s)) for s in v.shapes for c in [k]]
        elif op == "embedding":
            if not v.isfloat or r != 2 or m < 1 or d != 0:
                return False
            nidx = self.pick([1, 3, 4])
            idx = self.new_input([nidx], "int64")
            expr = "F.embedding(%s.abs() %% %d, %s)" % (idx.name, m, v.name)
            shapes = [(nidx, s[1]) for s in v.shapes]
        elif op == "bool_mask_where":
            expr = "%s * (%s > 0.1)" % (v.name, v.name) if v.dtype != "bool" else "%s & %s" % (v.name, v.name)
            shapes = v.shapes
            dt = v.dtype if v.dtype != "bool" else "bool"
            self.add(expr, dt, shapes, v.grad, feats=["mask_mul"])
            return True
        else:
            return False
        self.add(expr, v.dtype, shapes, v.grad, feats=[op])
        return True

    def op_scatter(self):
        v = self.pick_val(lambda v: v.rank >= 1 and v.isfloat)
        if v is None:
            return False
        t = self.template_of(v.shapes)
        if t is None:
            return False
        d = self.r.randint(0, v.rank - 1)
        m = v.min_dim(d)
        if m < 1:
            return False
        op = self.pick(["index_add", "scatter_add", "scatter", "index_put", "index_fill", "masked_fill"])
        if not self.ok(op):
            return False
        base = self.var()
        self.emit("%s = %s.clone()" % (base, v.name))
        if op == "index_add":
            idx = [self.r.randint(0, m - 1) for _ in range(self.pick([1, 2, 3]))]
            st = list(t)
            st[d] = len(idx)
            src = self.new_input(st, v.dtype)
            self.emit("%s.index_add_(%d, torch.tensor(%r), %s)" % (base, d, idx, src.name))
        elif op == "index_fill":
            idx = [self.r.randint(0, m - 1) for _ in range(self.pick([1, 2]))]
            self.emit("%s.index_fill_(%d, torch.tensor(%r), -2.5)" % (base, d, idx))
        elif op == "masked_fill":
            self.emit("%s.masked_fill_(%s > 0.5, 0.0)" % (base, base))
        elif op in ("scatter_add", "scatter"):
            st = list(t)
            # scatter_ with two indices along d could write one place twice: order-dependent
            st[d] = self.pick([1, 2]) if op == "scatter_add" else 1
            if any(x == "n" for x in st):
                return self._undo_clone(base)
            src = self.new_input(st, v.dtype)
            numel = 1
            for x in st:
                numel *= x
            idx = "(torch.arange(%d).reshape(%s) * 3 %% %d)" % (numel, tuple(st), m)
            fn = "scatter_add_" if op == "scatter_add" else "scatter_"
            self.emit("%s.%s(%d, %s, %s)" % (base, fn, d, idx, src.name))
        elif op == "index_put":
            i = self.r.randint(0, m - 1)
            idx = ", ".join([":"] * d + [str(i)])
            self.emit("%s[%s] = %s" % (base, idx, self.pick(["0.0", "-1.5", "%s.sum()" % v.name])))
            op = "setitem"
        self.pool.append(Val(base, v.dtype, v.shapes, v.grad or self.grad, "fresh"))
        self.feat(op, "inplace")
        return True

    def _undo_clone(self, base):
        self.lines.pop()
        return False

    def op_inplace(self):
        v = self.pick_val(lambda v: v.kind != "input" or not self.grad)
        if v is None:
            return False
        op = self.pick(["add_", "sub_", "mul_", "div_", "relu_", "fill_", "zero_", "copy_", "clamp_", "setitem",
                        "setitem_add", "addcmul_", "lerp_", "sqrt_", "view_add_", "transpose_mul_", "abs_", "neg_"])
        if not self.ok(op) or (op in ("view_add_", "transpose_mul_") and not self.ok("inplace_view")):
            return False
        # the mutated tensor: a fresh clone (so autograd never sees a saved tensor change)
        # (not in modules: their parameters require grad, and PyTorch's compile rejects mutating an
        # input saved for their backward)
        if v.kind == "input" and not self.grad and not self.is_module and self.chance(0.3) \
                and v.name not in self.mutated_names:
            target = v
            self.feat("input_mutation")
        else:
            name = self.var()
            self.emit("%s = %s.clone()" % (name, v.name) if self.chance(0.7) or v.dtype == "bool" else "%s = %s * 1" % (name, v.name))
            target = Val(name, v.dtype, v.shapes, v.grad, "fresh")
        t = target.name
        dt = target.dtype
        isf = dt in FLOAT
        if dt == "bool" and op not in ("fill_", "zero_", "copy_", "setitem"):
            return self._undo_if_clone(target, v)
        view_target = t
        tshapes = target.shapes
        if op in ("view_add_", "transpose_mul_", "setitem", "setitem_add"):
            if target.rank < 1:
                return self._undo_if_clone(target, v)
            if op == "transpose_mul_":
                if target.rank < 2:
                    return self._undo_if_clone(target, v)
                self.emit("%s.transpose(0, 1).mul_(%s)" % (t, "2" if not isf else "0.5"))
                self.feat("inplace_view")
            else:
                d = self.r.randint(0, target.rank - 1)
                sl = self.pick(["1:", "::2", ":-1", "-1"])
                if sl == "-1" and target.min_dim(d) < 1:
                    return self._undo_if_clone(target, v)
                idx = ", ".join([":"] * d + [sl])
                if op == "view_add_":
                    self.emit("%s[%s].add_(%s)" % (t, idx, "1" if not isf else "0.5"))
                    self.feat("inplace_view")
                elif op == "setitem":
                    val = self.pick(["0", "7", "-2"]) if not isf else self.pick(["0.0", "1.5", "-2.25"])
                    self.emit("%s[%s] = %s" % (t, idx, val))
                else:
                    # t[idx] += something broadcasting into the slice: use a scalar or the slice itself
                    self.emit("%s[%s] += %s[%s]" % (t, idx, t, idx) if self.chance(0.5) else "%s[%s] *= %s" % (t, idx, "2"))
        elif op in ("add_", "sub_", "mul_", "div_"):
            if op == "div_" and not isf:
                return self._undo_if_clone(target, v)
            if self.chance(0.4):
                s = self.scalar(dt)
                if dt == "bool" or (not isf and ("." in s or "e" in s)):
                    return self._undo_if_clone(target, v)
                self.emit("%s.%s(%s)" % (t, op, s))
            else:
                # other must broadcast to target's shape and promote to target's dtype
                cands = [w for w in self.pool if w is not target and broadcast_all(target.shapes, w.shapes) == target.shapes
                         and ORDER[w.dtype] <= ORDER[dt] and CAT[w.dtype] <= CAT[dt] and w.dtype != "bool"
                         and (not self.grad or not w.grad or target.grad or True)]
                if cands and self.chance(0.6):
                    w = self.pick(cands)
                else:
                    w = self.bcast_partner(target, dt)
                    if w is None:
                        return self._undo_if_clone(target, v)
                if op == "div_":
                    self.emit("%s.div_(%s.abs() + 1)" % (t, w.name))
                else:
                    self.emit("%s.%s(%s)" % (t, op, w.name))
                if w.grad:
                    target.grad = True
        elif op in ("relu_", "sqrt_", "abs_", "neg_"):
            if not isf and op in ("relu_", "sqrt_"):
                return self._undo_if_clone(target, v)
            if op == "sqrt_" and not self.ok("abs_"):
                return self._undo_if_clone(target, v)
            if op == "sqrt_":
                self.emit("%s.abs_().sqrt_()" % t if target.kind != "input" else "%s.abs_()" % t)
            else:
                self.emit("%s.%s()" % (t, op))
        elif op == "fill_":
            self.emit("%s.fill_(%s)" % (t, "3" if not isf else "0.75"))
            target.grad = False if target.kind != "input" else target.grad
        elif op == "zero_":
            self.emit("%s.zero_()" % t)
            target.grad = False if target.kind != "input" else target.grad
        elif op == "copy_":
            w = self.pick_val(lambda w: w is not target and broadcast_all(target.shapes, w.shapes) == target.shapes)
            if w is None:
                return self._undo_if_clone(target, v)
            self.emit("%s.copy_(%s)" % (t, w.name))
            target.grad = w.grad if target.kind != "input" else target.grad
        elif op == "clamp_":
            self.emit("%s.clamp_(%s)" % (t, "-1, 1" if not isf else "-0.5, 0.5"))
        elif op in ("addcmul_", "lerp_"):
            if not isf:
                return self._undo_if_clone(target, v)
            w = self.bcast_partner(target, dt)
            if w is None:
                return self._undo_if_clone(target, v)
            if op == "addcmul_":
                self.emit("%s.addcmul_(%s, %s, value=0.5)" % (t, w.name, w.name))
            else:
                self.emit("%s.lerp_(%s, 0.25)" % (t, w.name))
            target.grad = target.grad or w.grad
        if target.kind == "input":
            self.mutated_names.append(target.name)
        else:
            self.pool.append(target)
        self.feat(op if op != "view_add_" else "inplace_view", "inplace")
        return True

    def _undo_if_clone(self, target, v):
        if target is not v:
            self.lines.pop()
        return False

    def op_creation(self):
        v = self.pick_val()
        if v is None:
            return False
        op = self.pick(["zeros_like", "ones_like", "full_like", "arange", "zeros", "full", "empty_like_fill",
                        "linspace", "eye", "new_ones", "tensor_const", "rand_like_no"])
        if not self.ok(op):
            return False
        n = v.name
        if op == "zeros_like":
            self.add("torch.zeros_like(%s)" % n, v.dtype, v.shapes, False, feats=[op])
        elif op == "ones_like":
            self.add("torch.ones_like(%s)" % n, v.dtype, v.shapes, False, feats=[op])
        elif op == "full_like":
            val = "2.5" if v.isfloat else "3" if v.dtype == "int64" else "True"
            self.add("torch.full_like(%s, %s)" % (n, val), v.dtype, v.shapes, False, feats=[op])
        elif op == "new_ones":
            self.add("%s.new_ones(%s.shape)" % (n, n), v.dtype, v.shapes, False, feats=[op])
        elif op == "empty_like_fill":
            self.add("torch.empty_like(%s).fill_(1.5)" % n, v.dtype, v.shapes, False, feats=["empty_like", "fill_"])
        elif op == "arange":
            if v.rank < 1:
                return False
            d = self.r.randint(0, v.rank - 1)
            form = self.pick(["torch.arange(%s.shape[%d])", "torch.arange(%s.shape[%d], dtype=torch.float32)",
                              "torch.arange(1, %s.shape[%d] + 1) * 0.5"])
            dt = "int64" if "dtype" not in form and "0.5" not in form else "float32"
            self.add(form % (n, d), dt, [(s[d],) for s in v.shapes], False, feats=[op])
        elif op == "zeros":
            self.add("torch.zeros(%s.shape, dtype=%s)" % (n, TORCH_DT[v.dtype]), v.dtype, v.shapes, False, feats=[op])
        elif op == "full":
            self.add("torch.full((%s.shape[0], 2), 1.25)" % n if v.rank else "torch.full((), 1.25)", "float32",
                     [(s[0], 2) for s in v.shapes] if v.rank else [()] * self.ncalls, False, feats=[op])
        elif op == "linspace":
            k = self.pick([1, 2, 5])
            self.add("torch.linspace(-1.0, 1.0, %d)" % k, "float32", [(k,)] * self.ncalls, False, feats=[op])
        elif op == "eye":
            k = self.pick([1, 3, 4])
            self.add("torch.eye(%d)" % k, "float32", [(k, k)] * self.ncalls, False, feats=[op])
        elif op == "tensor_const":
            self.add("torch.tensor([1.0, -2.0, 0.5])", "float32", [(3,)] * self.ncalls, False, feats=[op])
        else:
            return False
        return True

    def op_convert(self):
        v = self.pick_val()
        if v is None:
            return False
        op, expr, dt = self.pick([
            ("to_float", "%s.float()", "float32"), ("to_double", "%s.double()", "float64"),
            ("to_long", "%s.long()", "int64"), ("to_bool", "%s.bool()", "bool"),
            ("to_dtype", "%s.to(torch.float64)", "float64"), ("to_dtype", "%s.to(torch.int64)", "int64"),
            ("to_dtype", "%s.to(dtype=torch.float32)", "float32"), ("type_as", None, None),
        ])
        if not self.ok(op):
            return False
        if op == "type_as":
            w = self.pick_val(lambda w: w is not v)
            if w is None:
                return False
            expr = "%%s.type_as(%s)" % w.name
            dt = w.dtype
        if v.isfloat and dt in ("int64", "bool"):
            # float -> int of values near a boundary is fine (both truncate), NaN is not: clamp it away
            expr = expr % ("torch.where(torch.isnan(%s), 0.0, %s).clamp(-1000, 1000)" % (v.name, v.name))
        else:
            expr = expr % v.name
        self.add(expr, dt, v.shapes, v.grad and dt in FLOAT and v.isfloat, feats=[op])
        return True

    def op_loss(self):
        v = self.pick_val(lambda v: v.isfloat)
        if v is None:
            return False
        op = self.pick(["mse_loss", "cross_entropy", "l1_loss", "smooth_l1_loss", "nll_loss"])
        if not self.ok(op):
            return False
        if op in ("mse_loss", "l1_loss", "smooth_l1_loss"):
            w = self.new_input(self.template_of(v.shapes) or [], v.dtype) if self.template_of(v.shapes) is not None else None
            if w is None:
                return False
            red = self.pick(["", ", reduction='sum'", ", reduction='none'"])
            if 0 in sum([list(s) for s in v.shapes], []) and red == "":
                return self._drop_input(w)
            expr = "F.%s(%s, %s%s)" % (op, v.name, w.name, red)
            shapes = v.shapes if "none" in red else [()] * self.ncalls
            self.add(expr, v.dtype, shapes, v.grad or w.grad, feats=[op])
            return True
        if v.rank != 2:
            return False
        t = self.template_of(v.shapes)
        if t is None or t[1] == "n" or t[1] < 1 or 0 in v.dim_sizes(0):
            return False
        C = t[1]
        tgt = "(torch.arange(%s.shape[0]) * 3 %% %d)" % (v.name, C)
        if op == "nll_loss":
            expr = "F.nll_loss(F.log_softmax(%s, dim=1), %s)" % (v.name, tgt)
        else:
            expr = "F.cross_entropy(%s, %s%s)" % (v.name, tgt, self.pick(["", ", reduction='sum'"]))
        self.add(expr, v.dtype, [()] * self.ncalls, v.grad, feats=[op])
        return True

    def _drop_input(self, w):
        self.inputs.pop()
        return False

    def op_control(self):
        v = self.pick_val()
        if v is None:
            return False
        form = self.pick(["loop_k", "if_flag", "if_shape", "if_data", "graph_break", "python_list", "if_dtype", "cond",
                          "no_grad", "item"])
        if not self.ok(form):
            return False
        if form == "loop_k":
            if v.dtype == "bool":
                return False
            out = self.var()
            self.emit("%s = %s" % (out, v.name))
            self.emit("for _i in range(k):")
            self.emit("    %s = %s * %s + _i" % (out, out, "2" if not v.isfloat else "0.5"))
            self.pool.append(Val(out, v.dtype, v.shapes, v.grad))
            self.uses_k = True
            self.feat("loop_python_int")
        elif form == "if_flag":
            if v.dtype == "bool":
                return False
            out = self.var()
            self.emit("if flag:")
            self.emit("    %s = %s + 1" % (out, v.name))
            self.emit("else:")
            self.emit("    %s = %s * 2" % (out, v.name))
            self.pool.append(Val(out, v.dtype, v.shapes, v.grad))
            self.uses_flag = True
            self.feat("if_python_bool")
        elif form == "if_shape":
            if v.rank < 1 or v.dtype == "bool":
                return False
            out = self.var()
            thr = self.pick([3, 5, 6])
            self.emit("if %s.shape[0] > %d:" % (v.name, thr))
            self.emit("    %s = %s - 1" % (out, v.name))
            self.emit("else:")
            self.emit("    %s = %s * 3" % (out, v.name))
            self.pool.append(Val(out, v.dtype, v.shapes, v.grad))
            self.feat("if_shape")
        elif form == "if_dtype":
            out = self.var()
            self.emit("if %s.dtype == torch.float32 or %s.is_floating_point():" % (v.name, v.name))
            self.emit("    %s = %s.sum()" % (out, v.name))
            self.emit("else:")
            self.emit("    %s = %s.sum() * 2" % (out, v.name))
            self.pool.append(Val(out, v.dtype if v.isfloat else "int64", [()] * self.ncalls, v.grad))
            self.feat("if_tensor_attr")
        elif form == "if_data":
            if v.dtype == "bool" or 0 in v.numels():
                return False
            if not self.ok("graph_break"):
                return False
            out = self.var()
            self.emit("if %s.sum() > 0.123:" % v.name)
            self.emit("    %s = %s + 1" % (out, v.name))
            self.emit("else:")
            self.emit("    %s = %s - 1" % (out, v.name))
            self.pool.append(Val(out, v.dtype, v.shapes, v.grad))
            self.feat("if_data_dependent", "graph_break")
        elif form == "cond":
            if not v.isfloat or self.grad or 0 in v.numels():
                return False
            out = self.var()
            self.emit("%s = torch.cond(%s.sum() > 0.123, lambda x: x.sin() + 1, lambda x: x.cos() * 2, (%s,))"
                      % (out, v.name, v.name))
            self.pool.append(Val(out, v.dtype, v.shapes, False))
            self.feat("torch_cond")
        elif form == "no_grad":
            if not self.grad or not v.isfloat:
                return False
            out = self.var()
            self.emit("with torch.no_grad():")
            self.emit("    %s = %s * 2" % (out, v.name))
            self.pool.append(Val(out, v.dtype, v.shapes, False))
            self.feat("no_grad_block")
        elif form == "item":
            if not v.isfloat or not self.ok("graph_break"):
                return False
            w = self.pick_val(lambda w: w.isfloat and w is not v)
            if w is None:
                return False
            out = self.var()
            self.emit("%s_s = %s.sum().item()" % (out, v.name))
            self.emit("%s = %s * %s_s" % (out, w.name, out))
            self.pool.append(Val(out, w.dtype, w.shapes, w.grad))
            self.feat("item", "graph_break")
        elif form == "graph_break":
            self.emit("torch._dynamo.graph_break()")
            self.feat("graph_break")
        elif form == "python_list":
            if v.dtype == "bool":
                return False
            out = self.var()
            self.emit("%s = [%s * 1, %s + 1]" % (out + "_l", v.name, v.name))
            self.emit("%s = %s_l[0] + %s_l[1]" % (out, out, out))
            self.pool.append(Val(out, v.dtype if v.dtype != "bool" else "int64", v.shapes, v.grad))
            self.feat("python_list")
        return True

    # ---- program --------------------------------------------------------------------------------
    def base_shape(self):
        r = self.pick([0, 1, 1, 2, 2, 2, 3, 3, 4])
        if r == 0 and (self.dyn or self.is_module):
            r = self.pick([1, 2, 3])
        dims = [self.pick([1, 2, 3, 3, 4, 5, 7, 0, 1, 6]) for _ in range(r)]
        if r and self.dyn:
            dims[self.r.randint(0, r - 1)] = "n"
        if 0 in dims:
            self.feat("zero_size")
        if 1 in dims:
            self.feat("size_one")
        if r == 0:
            self.feat("zero_dim")
        return dims

    def generate(self):
        r = self.r
        self.is_module = self.chance(0.2)
        self.dyn = self.chance(0.4) and self.ok("dynamic")
        self.dyn_true = self.dyn and self.chance(0.2)
        self.mutated_names = []
        self.uses_k = False
        self.uses_flag = False
        if self.dyn:
            shrink = self.ok("dyn_shrink")
            seqs = [[4, 6, 8, 3], [5, 7, 9, 2], [3, 5, 7, 4], [6, 8, 10, 5], [4, 6, 8, 1], [3, 5, 7, 0, 6]]
            if not shrink:
                seqs = [[4, 6, 8, 10], [3, 5, 7, 9], [2, 3, 4, 5]]
            self.nseq = self.pick(seqs)
            self.ncalls = len(self.nseq)
            self.feat("dynamic")
            if self.dyn_true:
                self.feat("dynamic_true")
            if min(self.nseq[3:] or [99]) < max(self.nseq[:3]):
                self.feat("dyn_shrink")
        else:
            self.nseq = [None, None]
            self.ncalls = 2
        self.grad = self.chance(0.35) and self.ok("backward")
        if self.grad:
            self.feat("backward")
            self.grad_kind = "sum" if self.ok("expanded_grad") and self.chance(0.7) else "dense"
            if self.grad_kind == "sum":
                self.feat("expanded_grad")
        first_dt = self.pick(["float32"] * 5 + ["float64", "int64", "bool"]) if not self.grad else "float32"
        if self.is_module:
            first_dt = "float32"
        base = self.base_shape()
        self.new_input(base, first_dt, self.pick(["c", "c", "c", "t", "s"]))
        self.pool.append(self.inputs[-1][0])
        if self.chance(0.5):
            self.bcast_partner(self.inputs[-1][0], self.rand_dtype() if not self.grad else "float32")
            self.pool.append(self.inputs[-1][0])
        if self.is_module:
            self.feat("nn_module")
            self.module_prologue()
        families = [(self.op_unary_float, 6), (self.op_unary_any, 1), (self.op_binary, 7), (self.op_compare, 2),
                    (self.op_logical, 1), (self.op_where, 2), (self.op_reduce, 4), (self.op_softmax, 1),
                    (self.op_layer_norm, 1), (self.op_matmul, 2), (self.op_view, 5), (self.op_cat, 1),
                    (self.op_index, 1), (self.op_scatter, 1), (self.op_inplace, 3), (self.op_creation, 1),
                    (self.op_convert, 1), (self.op_loss, 1), (self.op_control, 2)]
        if self.is_module:
            families.append((self.op_module, 4))
        fns = [f for f, w in families for _ in range(w)]
        nops = r.randint(2, 9)
        done = 0
        tries = 0
        if self.is_module:
            for _ in range(10):
                if self.op_module():
                    done += 1
                    break
        while done < nops and tries < 200:
            tries += 1
            if self.pick(fns)():
                done += 1
        outs = [self.pool[-1]]
        for v in self.pool[:-1]:
            if v.kind != "input" and self.chance(0.2) and len(outs) < 3:
                outs.append(v)
        self.extra_out = None
        if self.chance(0.1):
            v = self.pick_val(lambda v: v.rank >= 1)
            if v is not None:
                self.extra_out = "%s.shape[0]" % v.name
                self.feat("return_python_int")
        return self.finish(outs)

    # ---- nn.Module programs -----------------------------------------------------------------
    def module_prologue(self):
        x = self.inputs[0][0]
        t = self.template_of(x.shapes)
        self.mod_in = t[-1] if t and t[-1] != "n" and x.isfloat else None
        self.mod_out = self.pick([2, 3, 4])
        self.mod_buffers = []
        self.mod_lines_init = []
        self.mod_attr = self.chance(0.3) and self.ok("attr_mutation")

    def op_module(self):
        v = self.pick_val(lambda v: v.isfloat and v.rank >= 1)
        form = self.pick(["linear", "buffer_add", "buffer_copy", "buffer_read", "layernorm", "param_mul",
                          "attr", "sequential"])
        if not self.ok(form):
            return False
        k = len(self.mod_lines_init)
        if form == "linear" or form == "sequential":
            if v is None:
                return False
            tv = self.template_of(v.shapes)
            if tv is None or tv[-1] == "n":
                return False
            din = tv[-1]
            name = "lin%d" % k
            m = self.mod_out
            if form == "sequential":
                self.mod_lines_init.append(("seq", name, din, m))
                expr = "self.%s(%s)" % (name, v.name)
                self.feat("nn_sequential")
            else:
                self.mod_lines_init.append(("linear", name, din, m))
                expr = "self.%s(%s)" % (name, v.name)
                self.feat("nn_linear")
            self.add(expr, v.dtype, [s[:-1] + (m,) for s in v.shapes], self.grad)
            self.param_dtype_float64 = v.dtype == "float64"
            return True
        if form == "layernorm":
            if v is None or v.min_dim(-1) < 1:
                return False
            tv = self.template_of(v.shapes)
            if tv is None or tv[-1] == "n":
                return False
            name = "ln%d" % k
            self.mod_lines_init.append(("layernorm", name, tv[-1], None))
            self.add("self.%s(%s)" % (name, v.name), v.dtype, v.shapes, self.grad)
            self.feat("nn_layernorm")
            return True
        if form == "param_mul":
            if v is None:
                return False
            tv = self.template_of(v.shapes)
            if tv is None or tv[-1] == "n":
                return False
            name = "p%d" % k
            self.mod_lines_init.append(("param", name, tv[-1], None))
            self.add("%s * self.%s" % (v.name, name), v.dtype, v.shapes, self.grad)
            self.feat("nn_parameter")
            return True
        if form in ("buffer_add", "buffer_copy", "buffer_read"):
            name = "buf%d" % k
            if v is None or form == "buffer_read":
                size = self.pick([1, 3])
                self.mod_lines_init.append(("buffer", name, size, None))
                self.mod_buffers.append(name)
                src = self.pick_val(lambda w: w.isfloat)
                if src is None:
                    return False
                if form == "buffer_read":
                    # With a backward, mutate before the read: PyTorch's own compiled backward
                    # recomputes from the buffer after its mutation (it differs from eager then).
                    before = self.grad or self.chance(0.5)
                    if before:
                        self.emit("self.%s.mul_(0.5).add_(1.0)" % name)
                    self.add("%s + self.%s.sum()" % (src.name, name), src.dtype, src.shapes, src.grad)
                    if not before:
                        self.emit("self.%s.mul_(0.5).add_(1.0)" % name)
                    self.feat("buffer_mutation")
                    return True
                return False
            self.mod_lines_init.append(("buffer", name, 1, None))
            self.mod_buffers.append(name)
            if form == "buffer_add":
                self.emit("self.%s.add_(%s.detach().float().sum())" % (name, v.name))
            else:
                self.emit("self.%s.copy_(%s.detach().mean().reshape(1))" % (name, v.name))
                if 0 in v.numels():
                    self.lines.pop()
                    self.mod_lines_init.pop()
                    self.mod_buffers.pop()
                    return False
            self.add("%s * self.%s" % (v.name, name), v.dtype, v.shapes, v.grad)
            self.feat("buffer_mutation")
            return True
        if form == "attr":
            if not self.mod_attr or v is None:
                return False
            self.emit("self.count += 1")
            self.add("%s * self.count" % v.name, v.dtype, v.shapes, v.grad)
            self.feat("attr_mutation")
            return True
        return False

    # ---- assembly -------------------------------------------------------------------------------
    def finish(self, outs):
        s = self.seed
        args = [v.name for v, _, _, _ in self.inputs]
        extra = []
        if self.uses_k:
            extra.append("k")
        if self.uses_flag:
            extra.append("flag")
        names = [v.name for v in outs] + ([self.extra_out] if self.extra_out else [])
        ret = "(" + ", ".join(names) + ",)" if len(names) > 1 or self.chance(0.3) else names[0]
        body = list(self.lines)
        defs = []
        if self.is_module:
            defs.append("class M_%d(torch.nn.Module):" % s)
            defs.append("    def __init__(self, fp64):")
            defs.append("        super().__init__()")
            defs.append("        dt = torch.float64 if fp64 else torch.float32")
            salt = 500
            for kind, name, a, b in self.mod_lines_init:
                salt += 1
                if kind == "linear":
                    defs.append("        self.%s = torch.nn.Linear(%d, %d)" % (name, a, b))
                    defs.append("        self.%s.weight = torch.nn.Parameter(_mk((%d, %d), 'f', %d, fp64, False) * 0.3)" % (name, b, a, salt))
                    defs.append("        self.%s.bias = torch.nn.Parameter(_mk((%d,), 'f', %d, fp64, False) * 0.1)" % (name, b, salt + 1))
                elif kind == "seq":
                    defs.append("        self.%s = torch.nn.Sequential(torch.nn.Linear(%d, %d), torch.nn.ReLU())" % (name, a, b))
                    defs.append("        self.%s[0].weight = torch.nn.Parameter(_mk((%d, %d), 'f', %d, fp64, False) * 0.3)" % (name, b, a, salt))
                    defs.append("        self.%s[0].bias = torch.nn.Parameter(_mk((%d,), 'f', %d, fp64, False) * 0.1)" % (name, b, salt + 1))
                elif kind == "layernorm":
                    defs.append("        self.%s = torch.nn.LayerNorm(%d)" % (name, a))
                    defs.append("        self.%s.weight = torch.nn.Parameter(_mk((%d,), 'f', %d, fp64, False) * 0.5 + 1)" % (name, a, salt))
                    defs.append("        self.%s.bias = torch.nn.Parameter(_mk((%d,), 'f', %d, fp64, False) * 0.1)" % (name, a, salt + 1))
                elif kind == "param":
                    defs.append("        self.%s = torch.nn.Parameter(_mk((%d,), 'f', %d, fp64, False))" % (name, a, salt))
                elif kind == "buffer":
                    defs.append("        self.register_buffer('%s', torch.zeros(%d, dtype=dt))" % (name, a))
            if self.mod_attr:
                defs.append("        self.count = 0")
            defs.append("")
            defs.append("    def forward(self, %s):" % ", ".join(args + extra))
            defs.extend("    " + l for l in body)
            defs.append("        return %s" % ret)
            defs.append("")
            defs.append("    def state_for_difftest(self):")
            st = ["self.%s" % b for b in self.mod_buffers]
            if self.mod_attr:
                st.append("self.count")
            defs.append("        return [%s]" % ", ".join(st))
            defs.append("")
            defs.append("")
            defs.append("def build_%d(fp64):" % s)
            defs.append("    return M_%d(fp64)" % s)
        else:
            defs.append("def f_%d(%s):" % (s, ", ".join(args + extra)))
            defs.extend(body)
            defs.append("    return %s" % ret)
        defs.append("")
        defs.append("")
        # inputs
        defs.append("def mk_%d(c, fp64, grad):" % s)
        if self.dyn:
            defs.append("    n = %r[c]" % (self.nseq,))
        vals = []
        for i, (v, tmpl, dt, layout) in enumerate(self.inputs):
            dims = ["n" if x == "n" else str(x) for x in tmpl]
            if layout == "t":
                dims[-1], dims[-2] = dims[-2], dims[-1]
            elif layout == "s":
                dims[-1] = "2 * " + dims[-1]
            shp = "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"
            g = "grad" if dt in FLOAT else "False"
            if layout == "c":
                vals.append("_mk(%s, %r, %d, fp64, %s)" % (shp, KIND[dt], i + 1, g))
            else:
                vals.append("_lay(_mk(%s, %r, %d, fp64, %s), %r)" % (shp, KIND[dt], i + 1, g, layout))
                if g == "grad":
                    # a non-leaf view would have no .grad; take the grad of a leaf made from it
                    vals[-1] = "_leaf(%s, grad)" % vals[-1]
        if self.uses_k:
            vals.append("[2, 3, 1, 2, 3][c]")
        if self.uses_flag:
            vals.append("[True, False, True, True, False][c]")
        alias = None
        if not self.grad and self.ok("aliased_args") and self.chance(0.15):
            same = [(i, j) for i in range(len(self.inputs)) for j in range(i + 1, len(self.inputs))
                    if self.inputs[i][1:] == self.inputs[j][1:]]
            if same:
                alias = self.pick(same)
                self.feat("aliased_args")
        if alias:
            defs.append("    r = [%s]" % ", ".join(vals))
            defs.append("    r[%d] = r[%d]  # the same tensor twice" % (alias[1], alias[0]))
            defs.append("    return r")
        else:
            defs.append("    return [%s]" % ", ".join(vals))
        mutated = [i for i, (v, _, _, _) in enumerate(self.inputs) if v.name in self.mutated_names]
        if self.uses_k:
            self.feat("python_int_arg")
        return Program(self.seed, sorted(self.features), "\n".join(defs) + "\n", self.ncalls, mutated,
                       self.grad and self.grad_kind, self.dyn_true, self.is_module)


LEAF_HELPER = r'''

def _leaf(t, grad):
    if grad:
        t = t.detach()
        t.requires_grad_(True)
    return t
'''


def generate_program(seed, avoid=(), all_ops=False):
    return Gen(seed, set(avoid) | (set() if all_ops else set(KILN_UNSUPPORTED))).generate()


def modes(reference, backends=BACKENDS):
    """Runs per program: plain eager and its float64 copy; kiln also the backends."""
    return ["plain", "fp64"] if reference else ["plain", "fp64"] + list(backends)


def program_source(p, ms):
    out = ["# ---- seed %d   features: %s" % (p.seed, " ".join(p.features)), p.defs]
    out += [p.call(m) for m in ms]
    out.append('print("@@%d done", flush=True)' % p.seed)
    return "\n".join(out) + "\n\n"


def batch_source(programs, ms):
    return PRELUDE + LEAF_HELPER + "\n\n" + "".join(program_source(p, ms) for p in programs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--avoid", default="", help="comma-separated features not to generate")
    ap.add_argument("--all-ops", action="store_true", help="also spellings kiln lacks (KILN_UNSUPPORTED)")
    ap.add_argument("--reference", action="store_true", help="only the runs real PyTorch does (plain eager, fp64)")
    a = ap.parse_args()
    p = generate_program(a.seed, [x for x in a.avoid.split(",") if x], a.all_ops)
    sys.stdout.write(batch_source([p], modes(a.reference)))


if __name__ == "__main__":
    main()
