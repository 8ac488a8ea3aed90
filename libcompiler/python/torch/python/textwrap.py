# textwrap: wrap, fill, shorten, dedent and indent, breaking lines where CPython's TextWrapper
# does (between words, after the hyphen of a hyphenated word, around em-dashes), so help texts
# and log banners come out line for line the same.

_WHITESPACE = "\t\n\x0b\x0c\r "


def _is_word_char(ch):
    return ch.isalnum() or ch == "_"


def _is_letter(ch):
    return _is_word_char(ch) and not ch.isdigit()


def _is_word_punct(ch):
    return _is_word_char(ch) or ch in "!\"'&.,?"


def _char(text, i):
    # The character at i, or "" past either end, so the look-around tests below need no bounds checks.
    return text[i] if 0 <= i < len(text) else ""


def _em_dash_at(text, i):
    # A run of two or more dashes at i that a word character follows.
    j = i
    while _char(text, j) == "-":
        j += 1
    if j - i >= 2 and _is_word_char(_char(text, j)):
        return j
    return -1


def _hyphen_breaks_after(text, j):
    # May a line break after the '-' at j?  Only inside a real hyphenated word: letters (or a
    # letter-hyphen-letter run) before it, and a letter, maybe a hyphen, and a letter after it.
    c = lambda k: _char(text, k)
    before = (_is_letter(c(j - 1)) and _is_letter(c(j - 2))) or \
             (_is_letter(c(j - 1)) and c(j - 2) == "-" and _is_letter(c(j - 3)))
    after = _is_letter(c(j + 1)) and (_is_letter(c(j + 2)) or (c(j + 2) == "-" and _is_letter(c(j + 3))))
    return before and after


def _split_hyphenated(text, start):
    # The end of the chunk that starts at `start` inside a run of non-whitespace: the earliest place
    # a hyphen break, an em-dash or the end of the word allows.
    j = start + 1
    while True:
        ch = _char(text, j)
        if ch == "" or ch in _WHITESPACE:
            return j
        if ch == "-" and _hyphen_breaks_after(text, j):
            return j + 1
        if _is_word_punct(_char(text, j - 1)) and _em_dash_at(text, j) >= 0:
            return j
        j += 1


def _chunks(text, break_on_hyphens):
    chunks = []
    i = 0
    while i < len(text):
        if text[i] in _WHITESPACE:
            j = i
            while j < len(text) and text[j] in _WHITESPACE:
                j += 1
        elif not break_on_hyphens:
            j = i
            while j < len(text) and text[j] not in _WHITESPACE:
                j += 1
        elif _is_word_punct(_char(text, i - 1)) and _em_dash_at(text, i) >= 0:
            j = _em_dash_at(text, i)
        else:
            j = _split_hyphenated(text, i)
        chunks.append(text[i:j])
        i = j
    return chunks


def _ends_sentence(chunk):
    # A lowercase letter, then . ! or ?, then maybe a closing quote, at the end of the chunk.
    if chunk and chunk[-1] in "\"'":
        chunk = chunk[:-1]
    return len(chunk) >= 2 and chunk[-1] in ".!?" and "a" <= chunk[-2] <= "z"


class TextWrapper:
    def __init__(self, width=70, initial_indent="", subsequent_indent="", expand_tabs=True,
                 replace_whitespace=True, fix_sentence_endings=False, break_long_words=True,
                 drop_whitespace=True, break_on_hyphens=True, tabsize=8, *, max_lines=None,
                 placeholder=" [...]"):
        self.width = width
        self.initial_indent = initial_indent
        self.subsequent_indent = subsequent_indent
        self.expand_tabs = expand_tabs
        self.replace_whitespace = replace_whitespace
        self.fix_sentence_endings = fix_sentence_endings
        self.break_long_words = break_long_words
        self.drop_whitespace = drop_whitespace
        self.break_on_hyphens = break_on_hyphens
        self.tabsize = tabsize
        self.max_lines = max_lines
        self.placeholder = placeholder

    def _munge_whitespace(self, text):
        if self.expand_tabs:
            text = text.expandtabs(self.tabsize)
        if self.replace_whitespace:
            text = "".join(" " if ch in _WHITESPACE else ch for ch in text)
        return text

    def _split_chunks(self, text):
        chunks = _chunks(self._munge_whitespace(text), self.break_on_hyphens)
        if self.fix_sentence_endings:
            i = 0
            while i < len(chunks) - 1:
                if chunks[i + 1] == " " and _ends_sentence(chunks[i]):
                    chunks[i + 1] = "  "
                    i += 2
                else:
                    i += 1
        return chunks

    def _handle_long_word(self, pending, line, line_len, width):
        # `pending` holds the chunks still to place, next one last.  A word longer than a whole
        # line is cut to fill this line (at a hyphen if one fits), or placed whole if not breaking.
        space_left = 1 if width < 1 else width - line_len
        if self.break_long_words:
            word = pending[-1]
            end = space_left
            if self.break_on_hyphens and len(word) > space_left:
                hyphen = word.rfind("-", 0, space_left)
                if hyphen > 0 and any(ch != "-" for ch in word[:hyphen]):
                    end = hyphen + 1
            line.append(word[:end])
            pending[-1] = word[end:]
        elif not line:
            line.append(pending.pop())

    def _wrap_chunks(self, chunks):
        if self.width <= 0:
            raise ValueError("invalid width %r (must be > 0)" % self.width)
        if self.max_lines is not None:
            indent = self.subsequent_indent if self.max_lines > 1 else self.initial_indent
            if len(indent) + len(self.placeholder.lstrip()) > self.width:
                raise ValueError("placeholder too large for max width")
        lines = []
        pending = list(reversed(chunks))
        while pending:
            indent = self.subsequent_indent if lines else self.initial_indent
            width = self.width - len(indent)
            # Whitespace that would start a continuation line is dropped.
            if self.drop_whitespace and lines and pending[-1].strip() == "":
                pending.pop()
            line = []
            line_len = 0
            while pending and line_len + len(pending[-1]) <= width:
                line_len += len(pending[-1])
                line.append(pending.pop())
            if pending and len(pending[-1]) > width:
                self._handle_long_word(pending, line, line_len, width)
                line_len = sum(len(chunk) for chunk in line)
            if self.drop_whitespace and line and line[-1].strip() == "":
                line_len -= len(line[-1])
                line.pop()
            if not line:
                continue
            only_blank_left = not pending or (self.drop_whitespace and len(pending) == 1 and not pending[0].strip())
            if self.max_lines is None or len(lines) + 1 < self.max_lines or (only_blank_left and line_len <= width):
                lines.append(indent + "".join(line))
                continue
            # This is the last line allowed: end it with the placeholder where it fits.
            while line:
                if line[-1].strip() and line_len + len(self.placeholder) <= width:
                    lines.append(indent + "".join(line) + self.placeholder)
                    return lines
                line_len -= len(line[-1])
                line.pop()
            if lines:
                previous = lines[-1].rstrip()
                if len(previous) + len(self.placeholder) <= self.width:
                    lines[-1] = previous + self.placeholder
                    return lines
            lines.append(indent + self.placeholder.lstrip())
            return lines
        return lines

    def wrap(self, text):
        return self._wrap_chunks(self._split_chunks(text))

    def fill(self, text):
        return "\n".join(self.wrap(text))


def wrap(text, width=70, **kwargs):
    return TextWrapper(width=width, **kwargs).wrap(text)


def fill(text, width=70, **kwargs):
    return TextWrapper(width=width, **kwargs).fill(text)


def shorten(text, width, **kwargs):
    wrapper = TextWrapper(width=width, max_lines=1, **kwargs)
    return wrapper.fill(" ".join(text.strip().split()))


def _leading_blanks(line):
    n = 0
    while n < len(line) and line[n] in " \t":
        n += 1
    return line[:n]


def dedent(text):
    lines = text.split("\n")
    # Lines of only spaces and tabs become empty and do not count toward the common margin.
    lines = ["" if line and not line.strip(" \t") else line for line in lines]
    margin = None
    for line in lines:
        if not line:
            continue
        indent = _leading_blanks(line)
        if margin is None:
            margin = indent
            continue
        n = 0
        while n < len(margin) and n < len(indent) and margin[n] == indent[n]:
            n += 1
        margin = margin[:n]
    if margin:
        lines = [line[len(margin):] if line else line for line in lines]
    return "\n".join(lines)


_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _lines_keeping_ends(text):
    # str.splitlines(keepends=True), spelled out because kiln's splitlines drops the line ends.
    lines = []
    start = i = 0
    while i < len(text):
        if text[i] in _LINE_BREAKS:
            i += 2 if text[i:i + 2] == "\r\n" else 1
            lines.append(text[start:i])
            start = i
        else:
            i += 1
    if start < len(text):
        lines.append(text[start:])
    return lines


def indent(text, prefix, predicate=None):
    if predicate is None:
        predicate = lambda line: line.strip()
    return "".join(prefix + line if predicate(line) else line for line in _lines_keeping_ends(text))
