# tempfile: gettempdir, mkdtemp, TemporaryDirectory and text-mode NamedTemporaryFile /
# TemporaryFile.  Names are "tmp" plus eight random characters, as in CPython.  Binary modes are
# refused (kiln has no bytes), and mkstemp, which needs os-level file descriptors, is missing.

import os
import random
import shutil

TMP_MAX = 10000
template = "tmp"
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"
tempdir = None


def gettempdir():
    global tempdir
    if tempdir is None:
        tempdir = _find_tempdir()
    return tempdir


def _find_tempdir():
    candidates = [os.environ.get(name) for name in ("TMPDIR", "TEMP", "TMP")]
    candidates += ["/tmp", "/var/tmp", "/usr/tmp", os.getcwd()]
    for directory in candidates:
        if directory and os.path.isdir(directory):
            return os.path.abspath(directory)
    raise FileNotFoundError("[Errno 2] No usable temporary directory found in %s" % (candidates,))


def gettempprefix():
    return template


def _random_name():
    return "".join(random.choice(_NAME_CHARS) for _ in range(8))


def _candidates(suffix, prefix, dir):
    if dir is None:
        dir = gettempdir()
    dir = dir.__fspath__() if hasattr(dir, "__fspath__") else dir
    for _ in range(TMP_MAX):
        yield os.path.join(dir, (template if prefix is None else prefix) + _random_name() + (suffix or ""))
    raise FileExistsError("No usable temporary file name found")


def mkdtemp(suffix=None, prefix=None, dir=None):
    for path in _candidates(suffix, prefix, dir):
        if not os.path.exists(path):
            os.makedirs(path)
            return os.path.abspath(path)


class TemporaryDirectory:
    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False):
        self.name = mkdtemp(suffix, prefix, dir)
        self._ignore_cleanup_errors = ignore_cleanup_errors

    def __repr__(self):
        return "<%s %r>" % (type(self).__name__, self.name)

    def __enter__(self):
        return self.name

    def __exit__(self, *exc):
        self.cleanup()

    def cleanup(self):
        if os.path.exists(self.name):
            shutil.rmtree(self.name, ignore_errors=self._ignore_cleanup_errors)


class _TemporaryFileWrapper:
    # The open file plus its name; closing it deletes the file when delete is true.
    def __init__(self, file, name, delete):
        self.file = file
        self.name = name
        self.delete = delete

    def __getattr__(self, name):
        return getattr(self.file, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        return iter(self.file)

    def close(self):
        if not self.file.closed:
            self.file.close()
        if self.delete and os.path.exists(self.name):
            os.remove(self.name)

    def __repr__(self):
        return "<tempfile._TemporaryFileWrapper object at 0x%x>" % id(self)


def NamedTemporaryFile(mode="w+b", buffering=-1, encoding=None, newline=None, suffix=None, prefix=None, dir=None,
                       delete=True, *, errors=None):
    if "b" in mode:
        raise NotImplementedError("kiln's tempfile opens text files only; mode %r needs bytes" % (mode,))
    for path in _candidates(suffix, prefix, dir):
        if not os.path.exists(path):
            # "x" first so a name taken meanwhile is not reused, then the asked mode.
            open(path, "x").close()
            return _TemporaryFileWrapper(open(path, mode.replace("x", "w")), path, delete)


TemporaryFile = NamedTemporaryFile
