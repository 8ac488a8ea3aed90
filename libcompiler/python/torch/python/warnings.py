# warnings: warn with filters (simplefilter, filterwarnings, catch_warnings with record=True) as
# CPython 3.11 has them. A shown warning goes to stderr as "Category: message": kiln's frames do
# not expose the caller's file and line that CPython prints before it.
import sys


class WarningMessage:
    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source

    def __str__(self):
        return (f"{{message : {self.message!r}, category : {self.category.__name__!r}, "
                f"filename : {self.filename!r}, lineno : {self.lineno}, line : {self.line!r}}}")


filters = []
_once_registry = set()
_showwarning_records = None


def _add_filter(action, message, category, module, lineno, append):
    item = (action, message, category, module, lineno)
    if item in filters:
        filters.remove(item)
    if append:
        filters.append(item)
    else:
        filters.insert(0, item)


def simplefilter(action, category=Warning, lineno=0, append=False):
    if action not in ("error", "ignore", "always", "default", "module", "once"):
        raise ValueError(f"invalid action: {action!r}")
    _add_filter(action, None, category, None, lineno, append)


def filterwarnings(action, message="", category=Warning, module="", lineno=0, append=False):
    if action not in ("error", "ignore", "always", "default", "module", "once"):
        raise ValueError(f"invalid action: {action!r}")
    _add_filter(action, message or None, category, module or None, lineno, append)


def resetwarnings():
    filters.clear()


def _action_for(text, category):
    for action, message, filter_category, module, lineno in filters:
        if message is not None and not text.startswith(message):
            continue
        if issubclass(category, filter_category):
            return action
    return "default"


def formatwarning(message, category, filename, lineno, line=None):
    return f"{category.__name__}: {message}\n"


def showwarning(message, category, filename, lineno, file=None, line=None):
    (file or sys.stderr).write(formatwarning(message, category, filename, lineno, line))


def warn(message, category=None, stacklevel=1, source=None, skip_file_prefixes=()):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError(f"category must be a Warning subclass, not '{type(category).__name__}'")
    text = str(message)
    action = _action_for(text, category)
    if action == "error":
        raise message if isinstance(message, Warning) else category(text)
    if action == "ignore":
        return
    if action != "always":
        key = (text, category)
        if key in _once_registry:
            return
        _once_registry.add(key)
    if _showwarning_records is not None:
        _showwarning_records.append(WarningMessage(message if isinstance(message, Warning) else category(text),
                                                   category, "<unknown>", 0))
        return
    showwarning(text, category, "<unknown>", 0)


class catch_warnings:
    def __init__(self, *, record=False, module=None, action=None, category=Warning, lineno=0, append=False):
        self._record = record
        self._action = (action, category, lineno, append)

    def __enter__(self):
        global _showwarning_records
        self._saved = (list(filters), set(_once_registry), _showwarning_records)
        action, category, lineno, append = self._action
        if action is not None:
            simplefilter(action, category, lineno, append)
        if self._record:
            _showwarning_records = []
            return _showwarning_records
        return None

    def __exit__(self, *exc_info):
        global _showwarning_records
        saved_filters, saved_registry, _showwarning_records = self._saved
        filters[:] = saved_filters
        _once_registry.clear()
        _once_registry.update(saved_registry)
        return False
