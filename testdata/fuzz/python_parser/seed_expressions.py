# Every expression form of Kiln's Python subset (DESIGN.md section 4), for the front-end tests.
n = None, True, False, ...
ints = 0, 7, 1_000_000, 0x_FF, 0XAb, 0o17, 0O7, 0b1010, 0B1_1, 00, 0_0, 9223372036854775807
floats = 1.0, 1., .5, 1e3, 1E-3, 1.5e+10, 1_0.2_5, 0.1, 1e400, 3.14159265358979, 1e16, 1e15, 1e-5, 0e0
strings = 'a', "b", '''c''', """d""", r'\d', R"\n", u'u', 'it\'s', "say \"hi\"", 'tab\tnew\nline'
escapes = '\x41\u00e9\U0001F600\101\0\a\b\f\v\\', '\q', 'line\
continued', 'é', '日本'
byte_strings = b'abc', B"\x00\xff", rb'\d', BR'x', b'\777'
concatenated = 'a' 'b' "c", b'x' b'y', 'p' r'\q'
fstrings = f'', f'plain', f'{x}', f'{x!r}', f'{x!s:>10}', f'{x!a}', f"{x:.{p}f}", f'{{literal}}', F'{a}{b}'
fstrings2 = f'{x=}', f'{x = }', f'{x=:>4}', f'{x=!s}', rf'\d{x}', fr'{x}\n', f'{x:{w}}', f'{ {1: 2}[1] }'
fstrings3 = 'pre' f'{x}' 'post', f'{a["k"]}', f"{'nested'}", f'''{x
+ 1}''', f'{x:%Y-%m-%d}', f'{3.14:{w}.{p}f}', f'{x!r:^{w}}', f'{x if y else z}', f'{(lambda: 1)()}'
fstrings4 = f'{a < b}', f'{a != b}', f'{a == b}', f'{a >= b}', f'{a[1:2]}', f'{d}}}', f'{{{d}', f'\{x}'

unary = -x, +x, ~x, not x, - -x, not not x, -x ** 2, (-x) ** 2, 2 ** -1, -2 ** -1
arith = a + b - c * d / e // f % g @ h, a ** b ** c, (a + b) * c, a - (b - c), a / (b * c)
bits = a | b ^ c & d << e >> f, (a | b) & c, a << (b + c), ~a & b
compare = a < b <= c > d >= e == f != g, a is b, a is not b, a in b, a not in b, not a in b
boolean = a and b or c and not d, (a or b) and c, a or b or c, a and (b or c), not (a and b)
conditional = a if b else c, a if b else c if d else e, (a if b else c) if d else e, lambda: a if b else c
lambdas = lambda: 0, lambda x: x, lambda x, y=1, *a, z, w=2, **k: (x, y), lambda *, k: k, lambda a, /, b: a
calls = f(), f(a), f(a, b=1), f(*args), f(**kwargs), f(a, *b, c=1, *d, e=2, **f), f(x for x in y), f(a)(b)(c)
attrs = a.b, a.b.c.d, a().b, (1).real, 1 .imag, 1.5.hex(), 'str'.join, a[0].b
subscripts = a[0], a[-1], a[1:2], a[:], a[::], a[1:], a[:2], a[::2], a[1:2:3], a[i, j], a[1:2, ::3, ...], a[()]
subscripts2 = a[i,], a[*b], a[1:2, *b], a[b][c], a[f(x)], a[x if y else z], a[lambda: 0], a[:, None]
displays = [], [1], [1, 2,], (), (1,), (1, 2), {}, {1: 2}, {1: 2, 3: 4,}, {1}, {1, 2}, [*a, *b], (*a, b), {*a, 1}
dicts = {**a}, {**a, 'b': 1, **c}, {'k': lambda: 1, 'j': x if y else z}
comprehensions = [x for x in y], [x for x in y if x if not x], [x * y for x in a for y in b if x < y]
comprehensions2 = {k: v for k, v in d.items()}, {x for x in y}, (x for x in y), [(a, b) for a, b in zip(c, d)]
comprehensions3 = [x for x in (a if b else c)], [[y for y in x] for x in z], sum(x for x in y)
starred = print(*a, sep=''), [*range(3)], {**{}}
walrus_free = (x), ((x)), (yield_value), ((a, b))
tensor_ops = torch.randn(3, 4) @ w.T + b, x.sum(dim=-1, keepdim=True), torch.cat([a, b], dim=0)[..., :2]
big = 0xFFFFFFFF_FFFFFFF, 0o777, 0b11111111_11111111
long_expression = (a +
    b
    + c)
implicit = [
    1,  # comment inside brackets
    2,
]
backslash = 1 + \
    2
def gen():
    x = yield
    y = yield x
    z = (yield x), (yield)
    w = yield from g
    await_name = 1
    yield a, b
