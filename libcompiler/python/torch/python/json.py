# json: dumps/dump and loads/load for the values scripts write to config and metrics files (dicts,
# lists, tuples, str, int, float, bool, None), with CPython's formatting (separators, indent,
# sort_keys, ensure_ascii) and its error for what it cannot serialize.


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count("\n", 0, pos) + 1
        colno = pos - doc.rfind("\n", 0, pos)
        super().__init__(f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg, self.doc, self.pos, self.lineno, self.colno = msg, doc, pos, lineno, colno


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _encode_string(text, ensure_ascii):
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or (ensure_ascii and ord(ch) > 0x7E):
            code = ord(ch)
            if code > 0xFFFF:
                code -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 | (code >> 10), 0xDC00 | (code & 0x3FF)))
            else:
                out.append("\\u%04x" % code)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _encode_float(value):
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return repr(value)


def _encode(value, indent, separators, sort_keys, ensure_ascii, default, level):
    item_separator, key_separator = separators
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _encode_string(value, ensure_ascii)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _encode_float(value)
    newline = indent is not None
    pad = "\n" + indent * (level + 1) if newline else ""
    close_pad = "\n" + indent * level if newline else ""
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        parts = [_encode(v, indent, separators, sort_keys, ensure_ascii, default, level + 1) for v in value]
        return "[" + pad + (item_separator + pad if newline else item_separator).join(parts) + close_pad + "]"
    if isinstance(value, dict) or hasattr(value, "items") and hasattr(value, "keys"):
        if not value:
            return "{}"
        items = list(value.items())
        if sort_keys:
            items = sorted(items, key=lambda kv: kv[0])
        parts = []
        for k, v in items:
            if isinstance(k, str):
                key = k
            elif k is True or k is False or k is None:
                key = {True: "true", False: "false", None: "null"}[k]
            elif isinstance(k, (int, float)):
                key = _encode_float(k) if isinstance(k, float) else str(k)
            else:
                raise TypeError(f"keys must be str, int, float, bool or None, not {type(k).__name__}")
            parts.append(_encode_string(key, ensure_ascii) + key_separator +
                         _encode(v, indent, separators, sort_keys, ensure_ascii, default, level + 1))
        return "{" + pad + (item_separator + pad if newline else item_separator).join(parts) + close_pad + "}"
    if default is not None:
        return _encode(default(value), indent, separators, sort_keys, ensure_ascii, default, level)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None, indent=None,
          separators=None, default=None, sort_keys=False, **kw):
    if isinstance(indent, int):
        indent = " " * indent
    if separators is None:
        separators = (",", ": ") if indent is not None else (", ", ": ")
    return _encode(obj, indent, separators, sort_keys, ensure_ascii, default, 0)


def dump(obj, fp, **kwargs):
    fp.write(dumps(obj, **kwargs))


class _Decoder:
    def __init__(self, text):
        self.text, self.pos = text, 0

    def fail(self, msg, pos=None):
        raise JSONDecodeError(msg, self.text, self.pos if pos is None else pos)

    def at(self, prefix):
        return self.text[self.pos:self.pos + len(prefix)] == prefix

    def skip(self):
        while self.pos < len(self.text) and self.text[self.pos] in " \t\n\r":
            self.pos += 1

    def value(self):
        self.skip()
        if self.pos >= len(self.text):
            self.fail("Expecting value")
        ch = self.text[self.pos]
        if ch == "{":
            return self.object()
        if ch == "[":
            return self.array()
        if ch == '"':
            return self.string()
        for word, result in (("null", None), ("true", True), ("false", False), ("NaN", float("nan")),
                             ("Infinity", float("inf")), ("-Infinity", -float("inf"))):
            if self.at(word):
                self.pos += len(word)
                return result
        return self.number()

    def number(self):
        start = self.pos
        text = self.text
        if self.pos < len(text) and text[self.pos] == "-":
            self.pos += 1
        digits = self.pos
        while self.pos < len(text) and text[self.pos].isdigit():
            self.pos += 1
        if self.pos == digits:
            self.fail("Expecting value", start)
        is_float = False
        if self.pos < len(text) and text[self.pos] == ".":
            is_float = True
            self.pos += 1
            while self.pos < len(text) and text[self.pos].isdigit():
                self.pos += 1
        if self.pos < len(text) and text[self.pos] in "eE":
            is_float = True
            self.pos += 1
            if self.pos < len(text) and text[self.pos] in "+-":
                self.pos += 1
            while self.pos < len(text) and text[self.pos].isdigit():
                self.pos += 1
        literal = text[start:self.pos]
        return float(literal) if is_float else int(literal)

    def string(self):
        self.pos += 1
        out = []
        text = self.text
        while True:
            if self.pos >= len(text):
                self.fail("Unterminated string starting at", self.pos)
            ch = text[self.pos]
            if ch == '"':
                self.pos += 1
                return "".join(out)
            if ch == "\\":
                escape = text[self.pos + 1:self.pos + 2]
                simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
                if escape in simple:
                    out.append(simple[escape])
                    self.pos += 2
                elif escape == "u":
                    code = int(text[self.pos + 2:self.pos + 6], 16)
                    self.pos += 6
                    if 0xD800 <= code < 0xDC00 and self.at("\\u"):
                        low = int(text[self.pos + 2:self.pos + 6], 16)
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        self.pos += 6
                    out.append(chr(code))
                else:
                    self.fail("Invalid \\escape")
            else:
                out.append(ch)
                self.pos += 1

    def array(self):
        self.pos += 1
        items = []
        self.skip()
        if self.at("]"):
            self.pos += 1
            return items
        while True:
            items.append(self.value())
            self.skip()
            if self.at(","):
                self.pos += 1
            elif self.at("]"):
                self.pos += 1
                return items
            else:
                self.fail("Expecting ',' delimiter")

    def object(self):
        self.pos += 1
        result = {}
        self.skip()
        if self.at("}"):
            self.pos += 1
            return result
        while True:
            self.skip()
            if not self.at('"'):
                self.fail("Expecting property name enclosed in double quotes")
            key = self.string()
            self.skip()
            if not self.at(":"):
                self.fail("Expecting ':' delimiter")
            self.pos += 1
            result[key] = self.value()
            self.skip()
            if self.at(","):
                self.pos += 1
            elif self.at("}"):
                self.pos += 1
                return result
            else:
                self.fail("Expecting ',' delimiter")


def loads(s, **kwargs):
    decoder = _Decoder(s)
    result = decoder.value()
    decoder.skip()
    if decoder.pos != len(s):
        decoder.fail("Extra data")
    return result


def load(fp, **kwargs):
    return loads(fp.read(), **kwargs)
