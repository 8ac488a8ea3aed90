# glob: file names matching shell wildcards, found with os.listdir and fnmatch, as CPython's glob
# finds them: names starting with "." match only patterns that start with "." (unless
# include_hidden), "**" spans directories when recursive=True, and results come in directory
# listing order.

import fnmatch
import os

_MAGIC = "*?["


def has_magic(s):
    return any(ch in s for ch in _MAGIC)


def escape(pathname):
    # Wildcard characters become one-character sets, so they match only themselves.
    return "".join("[" + ch + "]" if ch in _MAGIC else ch for ch in pathname)


def glob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False):
    return list(iglob(pathname, root_dir=root_dir, recursive=recursive, include_hidden=include_hidden))


def iglob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False):
    results = _glob(pathname, root_dir, recursive, include_hidden, False)
    if recursive and pathname[:2] == "**" and (len(pathname) == 2 or pathname[2] == "/"):
        # A leading "**" also matches "", which is not a result.
        results = (path for path in results if path)
    return results


def _exists(root_dir, path, want_dir):
    full = os.path.join(root_dir, path) if root_dir is not None else path
    return os.path.isdir(full) if want_dir else os.path.exists(full)


def _listdir(root_dir, dirname):
    full = dirname or "."
    if root_dir is not None:
        full = os.path.join(root_dir, dirname) if dirname else root_dir
    try:
        return os.listdir(full)
    except OSError:
        return []


def _glob(pathname, root_dir, recursive, include_hidden, dironly):
    dirname, basename = os.path.split(pathname)
    if not has_magic(pathname):
        if basename and _exists(root_dir, pathname, False) or not basename and _exists(root_dir, dirname, True):
            yield pathname
        return
    if not dirname:
        if recursive and basename == "**":
            yield from _glob_recursive(root_dir, "", include_hidden, dironly)
        else:
            yield from _glob_in(root_dir, "", basename, include_hidden, dironly)
        return
    if dirname != pathname and has_magic(dirname):
        parents = _glob(dirname, root_dir, recursive, include_hidden, True)
    else:
        parents = [dirname]
    for parent in parents:
        if not has_magic(basename):
            if basename and _exists(root_dir, os.path.join(parent, basename), False) or \
                    not basename and _exists(root_dir, parent, True):
                yield os.path.join(parent, basename)
        elif recursive and basename == "**":
            for name in _glob_recursive(root_dir, parent, include_hidden, dironly):
                yield os.path.join(parent, name)
        else:
            for name in _glob_in(root_dir, parent, basename, include_hidden, dironly):
                yield os.path.join(parent, name)


def _visible(name, pattern, include_hidden):
    return include_hidden or not name.startswith(".") or pattern.startswith(".")


def _glob_in(root_dir, dirname, pattern, include_hidden, dironly):
    for name in _listdir(root_dir, dirname):
        if not _visible(name, pattern, include_hidden) or not fnmatch.fnmatchcase(name, pattern):
            continue
        if not dironly or _exists(root_dir, os.path.join(dirname, name), True):
            yield name


def _glob_recursive(root_dir, dirname, include_hidden, dironly):
    # "**": the directory itself (as ""), then everything below it, depth first.
    yield ""
    yield from _walk(root_dir, dirname, "", include_hidden, dironly)


def _walk(root_dir, dirname, prefix, include_hidden, dironly):
    for name in _listdir(root_dir, dirname):
        if not include_hidden and name.startswith("."):
            continue
        is_dir = _exists(root_dir, os.path.join(dirname, name), True)
        if not dironly or is_dir:
            yield prefix + name
        if is_dir:
            yield from _walk(root_dir, os.path.join(dirname, name), prefix + name + "/", include_hidden, dironly)
