# shutil: rmtree, copyfile, copy, copy2, copytree, move, which and get_terminal_size, on the few
# os functions kiln has.  Files are copied through text-mode open() (kiln has no bytes), so file
# permissions and timestamps are not copied and copy2 is copy; move renames.  rmtree unlinks each entry before treating it as a directory, so a
# symlink to a directory is removed, never followed.

import os


class Error(OSError):
    pass


class SameFileError(Error):
    pass


def _text(path):
    return path.__fspath__() if hasattr(path, "__fspath__") else path


def rmtree(path, ignore_errors=False, onerror=None):
    path = _text(path)

    def failed(function, target, error):
        if ignore_errors:
            return
        if onerror is None:
            raise error
        onerror(function, target, (type(error), error, None))

    try:
        names = os.listdir(path)
    except OSError as error:
        failed(os.listdir, path, error)
        return
    for name in names:
        full = os.path.join(path, name)
        try:
            # unlink removes files and symlinks; only real directories refuse.
            os.remove(full)
        except OSError as error:
            if os.path.isdir(full):
                rmtree(full, ignore_errors, onerror)
            else:
                failed(os.remove, full, error)
    try:
        os.rmdir(path)
    except OSError as error:
        failed(os.rmdir, path, error)


def copyfile(src, dst, *, follow_symlinks=True):
    src, dst = _text(src), _text(dst)
    if os.path.exists(dst) and os.path.abspath(src) == os.path.abspath(dst):
        raise SameFileError("{!r} and {!r} are the same file".format(src, dst))
    with open(src) as source:
        content = source.read()
    with open(dst, "w") as target:
        target.write(content)
    return dst


def copy(src, dst, *, follow_symlinks=True):
    src, dst = _text(src), _text(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src))
    copyfile(src, dst)
    return dst


copy2 = copy


def copytree(src, dst, symlinks=False, ignore=None, copy_function=copy2, ignore_dangling_symlinks=False,
             dirs_exist_ok=False):
    src, dst = _text(src), _text(dst)
    names = os.listdir(src)
    ignored = ignore(src, names) if ignore is not None else ()
    os.makedirs(dst, exist_ok=dirs_exist_ok)
    for name in names:
        if name in ignored:
            continue
        source, target = os.path.join(src, name), os.path.join(dst, name)
        if os.path.isdir(source):
            copytree(source, target, symlinks, ignore, copy_function, ignore_dangling_symlinks, dirs_exist_ok)
        else:
            copy_function(source, target)
    return dst


def move(src, dst, copy_function=copy2):
    src, dst = _text(src), _text(dst)
    if os.path.isdir(dst):
        dst = os.path.join(dst, os.path.basename(src.rstrip("/")))
        if os.path.exists(dst):
            raise Error("Destination path '%s' already exists" % (dst,))
    os.rename(src, dst)
    return dst


def which(cmd, mode=None, path=None):
    # The first PATH entry holding a file of that name (kiln cannot check the execute bit).
    if "/" in cmd:
        return cmd if os.path.isfile(cmd) else None
    if path is None:
        path = os.environ.get("PATH", "")
    for directory in path.split(":"):
        candidate = os.path.join(directory or ".", cmd)
        if os.path.isfile(candidate):
            return candidate
    return None


class terminal_size:
    # os.terminal_size: a (columns, lines) pair with names.  A plain class, as kiln cannot
    # subclass tuple.
    def __init__(self, sizes):
        self.columns, self.lines = sizes

    def __iter__(self):
        return iter((self.columns, self.lines))

    def __getitem__(self, index):
        return (self.columns, self.lines)[index]

    def __len__(self):
        return 2

    def __eq__(self, other):
        return tuple(self) == tuple(other)

    def __repr__(self):
        return "os.terminal_size(columns=%d, lines=%d)" % (self.columns, self.lines)


def get_terminal_size(fallback=(80, 24)):
    # $COLUMNS and $LINES, else the fallback: kiln cannot ask the terminal itself.
    sizes = []
    for name, default in (("COLUMNS", fallback[0]), ("LINES", fallback[1])):
        try:
            value = int(os.environ.get(name, ""))
        except ValueError:
            value = 0
        sizes.append(value if value > 0 else default)
    return terminal_size(sizes)
