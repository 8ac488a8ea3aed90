# re on the patterns training scripts write: parsing logs, renaming state-dict keys, splitting
# names; Match/Pattern objects, templates, empty-match iteration rules and error positions.
import re
print(re.sub(r'\d+', 'N', 'a12b3'), re.match(r'(\w+)\.(\d+)', 'layer.3').groups())
m = re.search(r'(?P<key>[a-z_]+)=(?P<val>[-+]?\d*\.?\d+(?:e[-+]?\d+)?)', 'step 10: lr=3e-4 loss=2.5')
print(m, m.group('key'), m['val'], m.groupdict(), m.span(2), m.lastindex, m.lastgroup)
print(re.findall(r'loss=([\d.]+)', 'loss=1.5 x loss=0.25'))
print(re.findall(r'(\w)=(\d)', 'a=1 b=2'))
print(re.split(r'[,;]\s*', 'a, b;c,d'), re.split(r'(,)', 'a,b', maxsplit=1))
print(re.sub(r'(\w+)\.weight', r'\1.w', 'layer1.weight layer2.weight'))
print(re.sub(r'(?P<n>\d+)', r'<\g<n>>', 'x1y22'), re.subn('a', 'b', 'aaa', count=2))
print(re.sub(r'\d', lambda m: str(int(m.group()) * 2), 'a1b2c3'))
print(re.sub('x*', '-', 'abxd'), re.findall(r'\b\w', 'hello big world'))
print(re.split(r'\b', 'a b'), re.findall('', 'ab'))
p = re.compile(r'^module\.(.*)$', re.IGNORECASE | re.MULTILINE)
print(p, p.pattern, p.groups, p.flags, p.match('MODULE.fc.weight').group(1))
print(re.compile('abc'), re.compile('a', re.S | re.X))
print(re.fullmatch(r'\d+', '123'), re.fullmatch(r'\d+', '123a'))
print([m.span() for m in re.finditer(r'a+', 'caaab aa')])
print(re.escape('model.layers[0]*2+x'))
print(re.match(r'(a)|(b)', 'b').groups(), re.match(r'(a)|(b)', 'b').groups('-'))
try:
    re.compile('(abc')
except re.error as e:
    print('error', type(e).__name__, e.pos)
print(re.search(r'end\Z', 'the end'), re.search('é+', 'caféé!').span())
print(re.I, re.M | re.I, int(re.X))
print(re.sub(r'\s+', ' ', '  many   spaces\n here ').strip())
name = 'transformer.h.0.attn.c_attn.weight'
print(bool(re.match(r'.*\.(c_attn|c_proj)\.weight$', name)))
print(re.match('a', 'ba'), re.search('a', 'ba', 0).start())
print(re.compile(r'(\d+)').sub(r'[\1]', 'v1.22'), re.sub('a', r'\n', 'bab') == 'b\nb')
for bad in ['(abc', 'a)b', '[a-z', '*a', 'x(?P<n>a']:
    try:
        re.compile(bad)
    except re.error as e:
        print(repr(bad), e.msg, e.pos, e)
for line in ['step 1 loss 2.50', 'eval: acc=0.91', 'step 20 loss 1.25']:
    m = re.match(r'step (\d+) loss ([\d.]+)', line)
    if m:
        step, loss = int(m.group(1)), float(m.group(2))
        print(step, loss)
keys = ['encoder.layers.0.weight', 'encoder.layers.11.bias', 'head.weight']
print([re.sub(r'\.(\d+)\.', lambda m: '[' + m.group(1) + '].', k) for k in keys])
print(re.findall(r'[A-Z][a-z]+', 'TransformerEncoderLayer'), re.sub(r'(?<!^)(?=[A-Z])', '_', 'MultiHeadAttention').lower())
print(re.compile(r'x', re.I) == re.compile(r'x', re.I), re.search(r'(?i)BERT', 'my bert model').group())
