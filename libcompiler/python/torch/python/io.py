# io: StringIO, the in-memory text file scripts use to capture output or build CSV/JSON text,
# and UnsupportedOperation.  open is the builtin.  There is no BytesIO: kiln has no bytes type.

SEEK_SET = 0
SEEK_CUR = 1
SEEK_END = 2

DEFAULT_BUFFER_SIZE = 8192

open = open


class UnsupportedOperation(OSError, ValueError):
    pass


class StringIO:
    def __init__(self, initial_value="", newline="\n"):
        if initial_value is not None and not isinstance(initial_value, str):
            raise TypeError("initial_value must be str or None, not %s" % type(initial_value).__name__)
        self._text = initial_value or ""
        self._pos = 0
        self._closed = False
        self.newline = newline

    def _check_open(self):
        if self._closed:
            raise ValueError("I/O operation on closed file")

    @property
    def closed(self):
        return self._closed

    def close(self):
        self._closed = True

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, *exc):
        self.close()

    def getvalue(self):
        self._check_open()
        return self._text

    def write(self, s):
        self._check_open()
        if not isinstance(s, str):
            raise TypeError("string argument expected, got '%s'" % type(s).__name__)
        if self._pos > len(self._text):
            # Writing past the end fills the gap with NULs, as a real file would.
            self._text += "\0" * (self._pos - len(self._text))
        self._text = self._text[:self._pos] + s + self._text[self._pos + len(s):]
        self._pos += len(s)
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def read(self, size=-1):
        self._check_open()
        if size is None or size < 0:
            end = len(self._text)
        else:
            end = min(self._pos + size, len(self._text))
        start = min(self._pos, len(self._text))
        self._pos = max(self._pos, end)
        return self._text[start:end]

    def readline(self, size=-1):
        self._check_open()
        start = min(self._pos, len(self._text))
        end = self._text.find("\n", start)
        end = len(self._text) if end < 0 else end + 1
        if size is not None and size >= 0:
            end = min(end, start + size)
        self._pos = max(self._pos, end)
        return self._text[start:end]

    def readlines(self, hint=-1):
        lines = []
        total = 0
        for line in self:
            lines.append(line)
            total += len(line)
            if hint is not None and 0 < hint <= total:
                break
        return lines

    def __iter__(self):
        self._check_open()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def seek(self, pos, whence=0):
        self._check_open()
        if whence == SEEK_SET:
            if pos < 0:
                raise ValueError("Negative seek position %d" % pos)
            self._pos = pos
        elif whence == SEEK_CUR:
            if pos != 0:
                raise OSError("Can't do nonzero cur-relative seeks")
        elif whence == SEEK_END:
            if pos != 0:
                raise OSError("Can't do nonzero cur-relative seeks")
            self._pos = len(self._text)
        else:
            raise ValueError("Invalid whence (%d, should be 0, 1 or 2)" % whence)
        return self._pos

    def tell(self):
        self._check_open()
        return self._pos

    def truncate(self, size=None):
        self._check_open()
        if size is None:
            size = self._pos
        if size < 0:
            raise ValueError("Negative size value %d" % size)
        self._text = self._text[:size]
        return size

    def flush(self):
        self._check_open()

    def readable(self):
        self._check_open()
        return True

    def writable(self):
        self._check_open()
        return True

    def seekable(self):
        self._check_open()
        return True

    def isatty(self):
        self._check_open()
        return False

    def fileno(self):
        raise UnsupportedOperation("fileno")

    def detach(self):
        raise UnsupportedOperation("detach")
