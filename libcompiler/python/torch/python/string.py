# string: the character-class constants, capwords, and Template ("$name" / "${name}"
# substitution with "$$" for a literal dollar), with CPython's errors for missing keys and bad
# placeholders.

whitespace = " \t\n\r\x0b\x0c"
ascii_lowercase = "abcdefghijklmnopqrstuvwxyz"
ascii_uppercase = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ascii_letters = ascii_lowercase + ascii_uppercase
digits = "0123456789"
hexdigits = digits + "abcdef" + "ABCDEF"
octdigits = "01234567"
punctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or " ").join(word.capitalize() for word in s.split(sep))


def _identifier_length(text, start):
    # Length of the ASCII identifier ([_a-zA-Z][_a-zA-Z0-9]*) at text[start:], 0 if none.
    end = start
    while end < len(text):
        ch = text[end]
        if ch == "_" or ch in ascii_letters or (end > start and ch in digits):
            end += 1
        else:
            break
    return end - start


class Template:
    delimiter = "$"

    def __init__(self, template):
        self.template = template

    def _pieces(self):
        # Splits the template into ("text", s), ("escaped", "$"), ("named", name, source) and
        # ("invalid", index just after the delimiter) pieces.
        text = self.template
        delim = self.delimiter
        pieces = []
        literal_start = i = 0
        while True:
            i = text.find(delim, i)
            if i < 0:
                break
            pieces.append(("text", text[literal_start:i]))
            after = i + len(delim)
            if text.startswith(delim, after):
                pieces.append(("escaped", delim))
                i = after + len(delim)
            elif _identifier_length(text, after):
                end = after + _identifier_length(text, after)
                pieces.append(("named", text[after:end], text[i:end]))
                i = end
            elif text[after:after + 1] == "{" and _identifier_length(text, after + 1) and \
                    text[after + 1 + _identifier_length(text, after + 1):][:1] == "}":
                end = after + 1 + _identifier_length(text, after + 1)
                pieces.append(("named", text[after + 1:end], text[i:end + 1]))
                i = end + 1
            else:
                pieces.append(("invalid", after))
                i = after
            literal_start = i
        pieces.append(("text", text[literal_start:]))
        return pieces

    def _invalid(self, index):
        before = self.template[:index]
        line = before.count("\n") + 1
        column = index - (before.rfind("\n") + 1)
        raise ValueError("Invalid placeholder in string: line %d, col %d" % (line, column))

    def substitute(self, mapping=None, /, **kws):
        values = _merged(mapping, kws)
        out = []
        for piece in self._pieces():
            kind = piece[0]
            if kind == "named":
                out.append("%s" % (values[piece[1]],))
            elif kind == "invalid":
                self._invalid(piece[1])
            else:
                out.append(piece[1])
        return "".join(out)

    def safe_substitute(self, mapping=None, /, **kws):
        values = _merged(mapping, kws)
        out = []
        for piece in self._pieces():
            kind = piece[0]
            if kind == "named":
                out.append("%s" % (values[piece[1]],) if piece[1] in values else piece[2])
            elif kind == "invalid":
                out.append(self.delimiter)
            else:
                out.append(piece[1])
        return "".join(out)

    def get_identifiers(self):
        names = []
        for piece in self._pieces():
            if piece[0] == "named" and piece[1] not in names:
                names.append(piece[1])
            elif piece[0] == "invalid":
                self._invalid(piece[1])
        return names

    def is_valid(self):
        return all(piece[0] != "invalid" for piece in self._pieces())


def _merged(mapping, kws):
    if mapping is None:
        return kws
    if kws:
        merged = dict(mapping)
        merged.update(kws)
        return merged
    return mapping
