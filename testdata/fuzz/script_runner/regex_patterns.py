import re
for p in [r'(a|b)*c', r'\d+(?:\.\d*)?', r'(?P<k>\w+)=(?P<v>[^,]*)', r'[^\]x-z]+\Z', r'(?i)é\u00e9', r'x*', r'(a)(?:(b)|c)\2?']:
    try:
        c = re.compile(p, re.M | re.S)
        print(c.findall('ab c a=1,b=2 éÉ 3.5 xx'), c.split('a,b c'), c.sub(r'<\g<0>>', 'aabc'))
        m = c.search('zz a=1', 1, 5)
        print(m and (m.span(), m.groups(), m.lastindex))
    except re.error as e:
        print(e.msg, e.pos)
