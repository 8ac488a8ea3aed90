# fnmatch: shell-style wildcard matching ("*", "?", "[seq]", "[!seq]") of file names, as
# CPython's fnmatch does it on POSIX (case-sensitive).  The pattern is compiled into a small token
# list and matched directly, since kiln has no regular expressions; so translate() is not offered.


def _parse_set(pattern, i):
    # The "[...]" that starts at pattern[i] (just after the "["): returns (token, next index),
    # or None when there is no closing "]", in which case "[" is an ordinary character.
    j = i
    if j < len(pattern) and pattern[j] == "!":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 1
    if j >= len(pattern):
        return None
    body = pattern[i:j]
    negate = body[:1] == "!"
    if negate:
        body = body[1:]
    # Split on the hyphens that make ranges ("a-z0-9": "a" to "z", "0" to "9"); a hyphen first,
    # last, or just after a range is an ordinary character.  A range whose ends are backwards is
    # dropped.
    chunks = []
    start = 0
    k = 1
    while True:
        k = body.find("-", k)
        if k < 0 or k >= len(body) - 1:
            break
        chunks.append(body[start:k])
        start = k + 1
        k = start + 2
    chunks.append(body[start:])
    k = len(chunks) - 1
    while k > 0:
        if chunks[k - 1] and chunks[k] and chunks[k - 1][-1] > chunks[k][0]:
            chunks[k - 1] = chunks[k - 1][:-1] + chunks[k][1:]
            del chunks[k]
        k -= 1
    singles = ""
    ranges = []
    for n, chunk in enumerate(chunks):
        if n > 0 and chunks[n - 1] and chunk:
            ranges.append((chunks[n - 1][-1], chunk[0]))
            chunk = chunk[1:]
        if n < len(chunks) - 1 and chunk:
            chunk = chunk[:-1]
        singles += chunk
    return ("set", negate, singles, ranges), j + 1


def _compile(pattern):
    tokens = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        i += 1
        if ch == "*":
            if not tokens or tokens[-1] != ("star",):
                tokens.append(("star",))
        elif ch == "?":
            tokens.append(("any",))
        elif ch == "[":
            parsed = _parse_set(pattern, i)
            if parsed is None:
                tokens.append(("char", "["))
            else:
                token, i = parsed
                tokens.append(token)
        else:
            tokens.append(("char", ch))
    return tokens


def _in_set(token, ch):
    _, negate, singles, ranges = token
    found = ch in singles or any(lo <= ch <= hi for lo, hi in ranges)
    return found != negate


def _match(tokens, name):
    # Backtracks only to the most recent "*", which is enough for wildcard patterns.
    t = n = 0
    star_t = star_n = -1
    while n < len(name):
        if t < len(tokens):
            token = tokens[t]
            kind = token[0]
            if kind == "star":
                star_t, star_n = t, n
                t += 1
                continue
            if kind == "any" or kind == "char" and token[1] == name[n] or kind == "set" and _in_set(token, name[n]):
                t += 1
                n += 1
                continue
        if star_t < 0:
            return False
        star_n += 1
        t, n = star_t + 1, star_n
    while t < len(tokens) and tokens[t][0] == "star":
        t += 1
    return t == len(tokens)


_cache = {}


def fnmatchcase(name, pat):
    tokens = _cache.get(pat)
    if tokens is None:
        tokens = _cache[pat] = _compile(pat)
    return _match(tokens, name)


def fnmatch(name, pat):
    # POSIX file names are case-sensitive, so this is fnmatchcase.
    return fnmatchcase(name, pat)


def filter(names, pat):
    return [name for name in names if fnmatchcase(name, pat)]
