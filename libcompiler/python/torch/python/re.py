# re: Python's regular expressions over kiln's PCRE2 engine (_kiln_regex). The engine finds one
# match at a time; iteration (findall, finditer, sub, split), replacement templates and the Match
# and Pattern objects follow CPython 3.11's rules here.
import _kiln_regex
import enum


class RegexFlag(enum.IntFlag):
    ASCII = A = 256
    IGNORECASE = I = 2
    LOCALE = L = 4
    MULTILINE = M = 8
    DOTALL = S = 16
    VERBOSE = X = 64
    UNICODE = U = 32
    NOFLAG = 0

    # re's flags print as the module's names: re.IGNORECASE|re.MULTILINE.
    def __repr__(self):
        return "|".join("re." + name for name in self._name_.split("|"))

    __str__ = __repr__


ASCII = A = RegexFlag.ASCII
IGNORECASE = I = RegexFlag.IGNORECASE
LOCALE = L = RegexFlag.LOCALE
MULTILINE = M = RegexFlag.MULTILINE
DOTALL = S = RegexFlag.DOTALL
VERBOSE = X = RegexFlag.VERBOSE
UNICODE = U = RegexFlag.UNICODE
NOFLAG = RegexFlag.NOFLAG

_SEARCH, _MATCH, _FULLMATCH = 0, 1, 2


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        self.msg = msg
        self.pattern = pattern
        self.pos = pos
        if pos is not None:
            msg = "%s at position %d" % (msg, pos)
        super().__init__(msg)


PatternError = error


class Match:
    def __init__(self, pattern, string, pos, endpos, found):
        self.re = pattern
        self.string = string
        self._pos = pos
        self._endpos = endpos
        self._spans, self._texts = found
        spans = self._spans
        # lastindex: the matched group that closed last: the one ending furthest right, the
        # enclosing one of two ending together.
        last = None
        for g in range(1, pattern.groups + 1):
            if spans[2 * g] >= 0 and (last is None or (spans[2 * g + 1], -spans[2 * g]) > (spans[2 * last + 1], -spans[2 * last])):
                last = g
        self.lastindex = last
        self.lastgroup = None
        if last is not None:
            for name, index in pattern.groupindex.items():
                if index == last:
                    self.lastgroup = name

    # pos and endpos as the search used them (clamped to the string), computed when asked: a
    # string's length costs a pass over it.
    @property
    def pos(self):
        return min(max(self._pos, 0), len(self.string))

    @property
    def endpos(self):
        n = len(self.string)
        return n if self._endpos is None else min(max(self._endpos, 0), n)

    def _index(self, group):
        if isinstance(group, int) and not isinstance(group, bool):
            if 0 <= group <= self.re.groups:
                return group
        elif isinstance(group, str) and group in self.re.groupindex:
            return self.re.groupindex[group]
        raise IndexError("no such group")

    def span(self, group=0):
        i = self._index(group)
        return (self._spans[2 * i], self._spans[2 * i + 1])

    def start(self, group=0):
        return self.span(group)[0]

    def end(self, group=0):
        return self.span(group)[1]

    def _group(self, group, default=None):
        text = self._texts[self._index(group)]
        return default if text is None else text

    def group(self, *groups):
        if not groups:
            return self._group(0)
        if len(groups) == 1:
            return self._group(groups[0])
        return tuple(self._group(g) for g in groups)

    def __getitem__(self, group):
        return self._group(group)

    def groups(self, default=None):
        return tuple(self._group(g, default) for g in range(1, self.re.groups + 1))

    def groupdict(self, default=None):
        return {name: self._group(index, default) for name, index in self.re.groupindex.items()}

    def expand(self, template):
        return "".join(part if isinstance(part, str) else (self._texts[part] or "") for part in _parse_template(self.re, template))

    def __bool__(self):
        return True

    def __repr__(self):
        return "<re.Match object; span=%r, match=%r>" % (self.span(), self.group())


class Pattern:
    def __init__(self, pattern, flags):
        info = _kiln_regex.compile(pattern, int(flags))
        if info[0] is None:
            raise error(info[1], pattern, info[2])
        self.pattern = pattern
        self.flags = int(flags) | (0 if int(flags) & int(ASCII) else int(UNICODE))
        self.groups = info[0]
        self.groupindex = {name: index for name, index in info[1]}

    def _check(self, string):
        if not isinstance(string, str):
            raise TypeError("expected string or bytes-like object, got '%s'" % type(string).__name__)

    def _match(self, string, pos, endpos, how):
        self._check(string)
        found = _kiln_regex.match(self.pattern, self.flags, string, pos, endpos, how)
        return None if found is None else Match(self, string, pos, endpos, found)

    def finditer(self, string, pos=0, endpos=None):
        return iter([Match(self, string, pos, endpos, found) for found in self._found(string, pos, endpos)])

    def match(self, string, pos=0, endpos=None):
        return self._match(string, pos, endpos, _MATCH)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._match(string, pos, endpos, _FULLMATCH)

    def search(self, string, pos=0, endpos=None):
        return self._match(string, pos, endpos, _SEARCH)

    def _found(self, string, pos=0, endpos=None, limit=0):
        # The engine's (spans, texts) of each match, without Match objects (findall, sub, split).
        self._check(string)
        return _kiln_regex.match_all(self.pattern, self.flags, string, pos, endpos, limit)

    def findall(self, string, pos=0, endpos=None):
        found = self._found(string, pos, endpos)
        if self.groups == 0:
            return [texts[0] for _, texts in found]
        if self.groups == 1:
            return [texts[1] or "" for _, texts in found]
        return [tuple(text or "" for text in texts[1:]) for _, texts in found]

    def subn(self, repl, string, count=0):
        found = self._found(string, limit=count)
        between = _kiln_regex.segments(string, found)
        if callable(repl):
            replacements = [repl(Match(self, string, 0, None, f)) for f in found]
        else:
            template = _parse_template(self, repl)
            if len(template) == 1 and isinstance(template[0], str):
                return template[0].join(between), len(found)
            replacements = ["".join(p if isinstance(p, str) else (texts[p] or "") for p in template) for _, texts in found]
        pieces = [between[0]]
        for replacement, text in zip(replacements, between[1:]):
            pieces.append(replacement)
            pieces.append(text)
        return "".join(pieces), len(found)

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        found = self._found(string, limit=maxsplit)
        between = _kiln_regex.segments(string, found)
        pieces = [between[0]]
        for (_, texts), text in zip(found, between[1:]):
            pieces.extend(texts[1:])
            pieces.append(text)
        return pieces

    def __eq__(self, other):
        return isinstance(other, Pattern) and self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def __repr__(self):
        shown = repr(self.pattern)
        flags = self.flags & ~int(UNICODE)
        if not flags:
            return "re.compile(%s)" % shown
        names = [name for name in ("IGNORECASE", "MULTILINE", "DOTALL", "VERBOSE", "ASCII", "LOCALE") if flags & int(RegexFlag[name])]
        return "re.compile(%s, re.%s)" % (shown, "|re.".join(names))


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b", "\\": "\\"}


# A replacement template as a list of literal strings and group indices.
def _parse_template(pattern, template):
    parts = []
    literal = ""
    i = 0
    while i < len(template):
        ch = template[i]
        if ch != "\\":
            literal += ch
            i += 1
            continue
        if i + 1 == len(template):
            raise error("bad escape (end of pattern)", template, i)
        nxt = template[i + 1]
        group = None
        if nxt == "g":
            close = template.find(">", i + 3)
            if i + 2 >= len(template) or template[i + 2] != "<" or close < 0:
                raise error("missing <" if i + 2 >= len(template) or template[i + 2] != "<" else "missing >, unterminated name", template, i + 2)
            name = template[i + 3:close]
            if name.isdigit():
                group = int(name)
            elif name in pattern.groupindex:
                group = pattern.groupindex[name]
            elif name.isidentifier():
                raise IndexError("unknown group name '%s'" % name)
            else:
                raise error("bad character in group name '%s'" % name, template, i + 3)
            i = close + 1
        elif nxt.isdigit() and nxt != "0":
            j = i + 2
            if j < len(template) and template[j].isdigit():
                j += 1
            group = int(template[i + 1:j])
            i = j
        elif nxt == "0":
            j = i + 2
            while j < len(template) and j < i + 4 and template[j] in "01234567":
                j += 1
            literal += chr(int(template[i + 1:j], 8))
            i = j
            continue
        elif nxt in _ESCAPES:
            literal += _ESCAPES[nxt]
            i += 2
            continue
        elif nxt.isalpha():
            raise error("bad escape \\%s" % nxt, template, i)
        else:
            literal += "\\" + nxt
            i += 2
            continue
        if group > pattern.groups:
            raise error("invalid group reference %d" % group, template, i)
        if literal:
            parts.append(literal)
            literal = ""
        parts.append(group)
    if literal:
        parts.append(literal)
    return parts


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    if not isinstance(pattern, str):
        raise TypeError("first argument must be string or compiled pattern")
    return Pattern(pattern, flags)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


def purge():
    pass


_SPECIAL = set("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")


def escape(pattern):
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in pattern)
