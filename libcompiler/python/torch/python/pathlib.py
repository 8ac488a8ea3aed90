# pathlib: POSIX paths as objects.  PurePath/PurePosixPath do the string work (joining with "/",
# name, suffix, parent, ...); Path/PosixPath add the file-system calls kiln's os module offers.
# Not provided, because kiln's os lacks what they need: stat(), symlinks,
# chmod, owner/group; resolve() makes the path absolute and normalises "." and ".." but does not
# follow symlinks.  Windows paths are not modelled.

import fnmatch
import os


def _as_text(part):
    if isinstance(part, str):
        return part
    if isinstance(part, PurePath):
        return str(part)
    if hasattr(part, "__fspath__"):
        text = part.__fspath__()
        if isinstance(text, str):
            return text
    raise TypeError("expected str, bytes or os.PathLike object, not %s" % type(part).__name__)


def _parse(texts):
    # (root, parts) of the joined path: root is "", "/" or "//" (POSIX keeps exactly two leading
    # slashes); parts has empty and "." components removed, ".." kept.
    root = ""
    parts = []
    for text in texts:
        if text.startswith("/"):
            root = "//" if text.startswith("//") and not text.startswith("///") else "/"
            parts = []
        parts.extend(piece for piece in text.split("/") if piece and piece != ".")
    return root, parts


class _PathParents:
    # The sequence path.parents: the parent, its parent, ... up to the anchor or ".".
    def __init__(self, path):
        self._path = path
        self._count = len(path._parts)

    def __len__(self):
        return self._count

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self[i] for i in range(self._count)[index])
        if index >= self._count or index < -self._count:
            raise IndexError(index)
        if index < 0:
            index += self._count
        return self._path._from_parsed(self._path._root, self._path._parts[:self._count - 1 - index])

    def __iter__(self):
        for i in range(self._count):
            yield self[i]

    def __repr__(self):
        return "<%s.parents>" % type(self._path).__name__


class PurePath:
    def __new__(cls, *args):
        if cls is PurePath:
            cls = PurePosixPath
        self = object.__new__(cls)
        self._root, self._parts = _parse([_as_text(arg) for arg in args])
        return self

    def _from_parsed(self, root, parts):
        path = object.__new__(type(self))
        path._root = root
        path._parts = list(parts)
        return path

    # Text forms.
    def __str__(self):
        return self._root + "/".join(self._parts) if self._root or self._parts else "."

    def __fspath__(self):
        return str(self)

    def as_posix(self):
        return str(self)

    def as_uri(self):
        if not self.is_absolute():
            raise ValueError("relative path can't be expressed as a file URI")
        return "file://" + str(self)

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self.as_posix())

    # Comparison: by components, and only between paths of the same flavour.
    def _key(self):
        return list(self.parts)

    def __eq__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(str(self))

    def __lt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() >= other._key()

    # Joining.
    def joinpath(self, *args):
        return type(self)(self, *args)

    def __truediv__(self, key):
        try:
            return type(self)(self, _as_text(key))
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, key):
        try:
            return type(self)(_as_text(key), self)
        except TypeError:
            return NotImplemented

    # Pieces.
    @property
    def drive(self):
        return ""

    @property
    def root(self):
        return self._root

    @property
    def anchor(self):
        return self._root

    @property
    def parts(self):
        return tuple(([self._root] if self._root else []) + self._parts)

    @property
    def name(self):
        return self._parts[-1] if self._parts else ""

    @property
    def suffix(self):
        name = self.name
        dot = name.rfind(".")
        return name[dot:] if 0 < dot < len(name) - 1 else ""

    @property
    def suffixes(self):
        name = self.name
        if name.endswith("."):
            return []
        return ["." + piece for piece in name.lstrip(".").split(".")[1:]]

    @property
    def stem(self):
        name = self.name
        dot = name.rfind(".")
        return name[:dot] if 0 < dot < len(name) - 1 else name

    @property
    def parent(self):
        if not self._parts:
            return self
        return self._from_parsed(self._root, self._parts[:-1])

    @property
    def parents(self):
        return _PathParents(self)

    def with_name(self, name):
        if not self.name:
            raise ValueError("%r has an empty name" % (self,))
        root, parts = _parse([name])
        if not name or name.endswith("/") or root or len(parts) != 1:
            raise ValueError("Invalid name %r" % (name,))
        return self._from_parsed(self._root, self._parts[:-1] + [name])

    def with_stem(self, stem):
        return self.with_name(stem + self.suffix)

    def with_suffix(self, suffix):
        if "/" in suffix or suffix and not suffix.startswith(".") or suffix == ".":
            raise ValueError("Invalid suffix %r" % (suffix,))
        name = self.name
        if not name:
            raise ValueError("%r has an empty name" % (self,))
        old = self.suffix
        return self._from_parsed(self._root, self._parts[:-1] + [(name[:-len(old)] if old else name) + suffix])

    def relative_to(self, *other):
        if not other:
            raise TypeError("need at least one argument")
        base = type(self)(*other)
        mine, theirs = self._key(), base._key()
        if mine[:len(theirs)] != theirs or not theirs and self._root:
            raise ValueError("{!r} is not in the subpath of {!r} OR one path is relative and the other is "
                             "absolute.".format(str(self), str(base)))
        return self._from_parsed("", self._parts[len(base._parts):])

    def is_relative_to(self, *other):
        try:
            self.relative_to(*other)
            return True
        except ValueError:
            return False

    def is_absolute(self):
        return bool(self._root)

    def is_reserved(self):
        return False

    def match(self, path_pattern):
        # Glob-style, component by component from the right; an absolute pattern must match the
        # whole path.
        pattern = PurePosixPath(path_pattern)
        pattern_parts = pattern.parts
        if not pattern_parts:
            raise ValueError("empty pattern")
        parts = self.parts
        if pattern._root:
            if pattern._root != self._root or len(pattern_parts) != len(parts):
                return False
            pattern_parts = pattern_parts[1:]
        elif len(pattern_parts) > len(parts):
            return False
        pairs = zip(reversed(parts), reversed(pattern_parts))
        return all(fnmatch.fnmatchcase(part, pat) for part, pat in pairs)


class PurePosixPath(PurePath):
    pass


class Path(PurePath):
    def __new__(cls, *args, **kwargs):
        if cls is Path:
            cls = PosixPath
        return PurePath.__new__(cls, *args)

    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    @classmethod
    def home(cls):
        return cls(os.path.expanduser("~"))

    def absolute(self):
        if self._root:
            return self
        return type(self)(os.getcwd(), self)

    def resolve(self, strict=False):
        path = os.path.abspath(str(self))
        if strict and not os.path.exists(path):
            raise FileNotFoundError("[Errno 2] No such file or directory: '%s'" % path)
        return type(self)(path)

    def expanduser(self):
        return type(self)(os.path.expanduser(str(self)))

    # Questions.
    def exists(self):
        return os.path.exists(str(self))

    def is_file(self):
        return os.path.isfile(str(self))

    def is_dir(self):
        return os.path.isdir(str(self))

    # Directories.
    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        text = str(self)
        if os.path.exists(text):
            if exist_ok and os.path.isdir(text):
                return
            raise FileExistsError("[Errno 17] File exists: '%s'" % text)
        if not parents and not os.path.isdir(str(self.parent)):
            raise FileNotFoundError("[Errno 2] No such file or directory: '%s'" % text)
        os.makedirs(text)

    def rmdir(self):
        os.rmdir(str(self))

    def iterdir(self):
        for name in os.listdir(str(self)):
            yield self / name

    def glob(self, pattern):
        if not pattern:
            raise ValueError("Unacceptable pattern: {!r}".format(pattern))
        root, parts = _parse([pattern])
        if root:
            raise NotImplementedError("Non-relative patterns are unsupported")
        yield from self._glob_parts(parts)

    def rglob(self, pattern):
        yield from self.glob("**/" + pattern)

    def _glob_parts(self, parts):
        # Each pattern component selects among the entries of the directories reached so far;
        # "**" reaches this directory and every directory below it.
        if not parts:
            yield self
            return
        first, rest = parts[0], parts[1:]
        if first == "**":
            seen = set()
            for directory in self._walk_dirs():
                for found in directory._glob_parts(rest):
                    if found not in seen:
                        seen.add(found)
                        yield found
        elif not any(ch in first for ch in "*?["):
            child = self / first
            if rest and child.is_dir() or not rest and child.exists():
                yield from child._glob_parts(rest)
        else:
            if not self.is_dir():
                return
            for name in os.listdir(str(self)):
                if fnmatch.fnmatchcase(name, first):
                    child = self / name
                    if not rest or child.is_dir():
                        yield from child._glob_parts(rest)

    def _walk_dirs(self):
        yield self
        for name in os.listdir(str(self)):
            child = self / name
            if child.is_dir():
                yield from child._walk_dirs()

    # Files.
    def open(self, mode="r", buffering=-1, encoding=None, errors=None, newline=None):
        return open(str(self), mode, buffering, encoding, errors, newline)

    def read_text(self, encoding=None, errors=None):
        with self.open("r", encoding=encoding, errors=errors) as f:
            return f.read()

    def write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise TypeError("data must be str, not %s" % type(data).__name__)
        with self.open("w", encoding=encoding, errors=errors, newline=newline) as f:
            return f.write(data)

    def touch(self, mode=0o666, exist_ok=True):
        if self.exists():
            if not exist_ok:
                raise FileExistsError("[Errno 17] File exists: '%s'" % (self,))
            return
        self.open("a").close()

    def unlink(self, missing_ok=False):
        try:
            os.remove(str(self))
        except FileNotFoundError:
            if not missing_ok:
                raise

    def rename(self, target):
        os.rename(str(self), os.fspath(target))
        return type(self)(target)

    def replace(self, target):
        os.replace(str(self), os.fspath(target))
        return type(self)(target)


class PosixPath(Path, PurePosixPath):
    pass
