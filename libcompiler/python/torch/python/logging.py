# logging: loggers in a dotted-name hierarchy under the root logger, handlers writing to streams
# and files, %-style (and {}-style) formatters, and the module-level shortcuts that configure the
# root logger on first use, with CPython 3.11's output.  Approximations, because kiln has no frame
# or traceback introspection and no local-time conversion: %(pathname)s, %(filename)s and
# %(module)s name the main script, %(lineno)d is 0, %(funcName)s is "<module>"; %(asctime)s is
# UTC; an exception logged with exc_info prints only its final "Type: message" line under the
# traceback header.

import os
import sys
import time

CRITICAL = 50
FATAL = CRITICAL
ERROR = 40
WARNING = 30
WARN = WARNING
INFO = 20
DEBUG = 10
NOTSET = 0

_levelToName = {CRITICAL: "CRITICAL", ERROR: "ERROR", WARNING: "WARNING", INFO: "INFO", DEBUG: "DEBUG",
                NOTSET: "NOTSET"}
_nameToLevel = {"CRITICAL": CRITICAL, "FATAL": FATAL, "ERROR": ERROR, "WARN": WARNING, "WARNING": WARNING,
                "INFO": INFO, "DEBUG": DEBUG, "NOTSET": NOTSET}

BASIC_FORMAT = "%(levelname)s:%(name)s:%(message)s"
raiseExceptions = True
_start_time = time.time()


def getLevelName(level):
    # Level number to name, name to number, else "Level N".
    if level in _levelToName:
        return _levelToName[level]
    if level in _nameToLevel:
        return _nameToLevel[level]
    return "Level %s" % level


def addLevelName(level, levelName):
    _levelToName[level] = levelName
    _nameToLevel[levelName] = level


def getLevelNamesMapping():
    return dict(_nameToLevel)


def _checkLevel(level):
    if isinstance(level, int):
        return level
    if isinstance(level, str):
        if level not in _nameToLevel:
            raise ValueError("Unknown level: %r" % level)
        return _nameToLevel[level]
    raise TypeError("Level not an integer or a valid string: %r" % (level,))


def _main_script():
    return sys.argv[0] if sys.argv and sys.argv[0] else "<stdin>"


class LogRecord:
    def __init__(self, name, level, pathname, lineno, msg, args, exc_info, func=None, sinfo=None, **kwargs):
        now = time.time()
        self.name = name
        self.msg = msg
        # log("%(key)s", {"key": 1}): a lone mapping argument fills named fields.
        if args and len(args) == 1 and isinstance(args[0], dict) and args[0]:
            args = args[0]
        self.args = args
        self.levelname = getLevelName(level)
        self.levelno = level
        self.pathname = pathname
        self.filename = os.path.basename(pathname)
        self.module = os.path.splitext(self.filename)[0]
        self.exc_info = exc_info
        self.exc_text = None
        self.stack_info = sinfo
        self.lineno = lineno
        self.funcName = func
        self.created = now
        self.msecs = int((now - int(now)) * 1000) + 0.0
        self.relativeCreated = (now - _start_time) * 1000
        self.thread = 0
        self.threadName = "MainThread"
        self.processName = "MainProcess"
        self.process = os.getpid()

    def __repr__(self):
        return '<LogRecord: %s, %s, %s, %s, "%s">' % (self.name, self.levelno, self.pathname, self.lineno, self.msg)

    def getMessage(self):
        message = str(self.msg)
        if self.args:
            message = message % self.args
        return message


def makeLogRecord(attributes):
    record = LogRecord(None, None, "", 0, "", (), None, None)
    for name, value in attributes.items():
        setattr(record, name, value)
    return record


def _record_fields(record):
    # The record's attributes as a plain dict, which % and format(**...) accept.
    return dict(vars(record).items())


# ----------------------------------------------------------------------------- time formatting

_DAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December"]


def _utc_fields(seconds):
    # (year, month, day, hour, minute, second, weekday 0=Monday, day of year) of a POSIX time.
    seconds = int(seconds)
    days, rest = divmod(seconds, 86400)
    hour, rest = divmod(rest, 3600)
    minute, second = divmod(rest, 60)
    weekday = (days + 3) % 7  # 1970-01-01 was a Thursday
    # Civil date from a day count (proleptic Gregorian calendar, eras of 400 years).
    shifted = days + 719468
    era = shifted // 146097
    day_of_era = shifted - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year_march = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year_march + 2) // 153
    day = day_of_year_march - (153 * month_index + 2) // 5 + 1
    month = month_index + 3 if month_index < 10 else month_index - 9
    year = year_of_era + era * 400 + (1 if month <= 2 else 0)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    first_days = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
    yday = first_days[month - 1] + day + (1 if leap and month > 2 else 0)
    return year, month, day, hour, minute, second, weekday, yday


def _strftime(fmt, seconds):
    year, month, day, hour, minute, second, weekday, yday = _utc_fields(seconds)
    fields = {
        "Y": "%d" % year, "y": "%02d" % (year % 100), "m": "%02d" % month, "d": "%02d" % day,
        "H": "%02d" % hour, "I": "%02d" % ((hour - 1) % 12 + 1), "M": "%02d" % minute, "S": "%02d" % second,
        "p": "AM" if hour < 12 else "PM", "j": "%03d" % yday, "a": _DAY_NAMES[weekday][:3],
        "A": _DAY_NAMES[weekday], "b": _MONTH_NAMES[month - 1][:3], "B": _MONTH_NAMES[month - 1],
        "z": "+0000", "Z": "UTC", "%": "%",
    }
    out = []
    i = 0
    while i < len(fmt):
        if fmt[i] == "%" and i + 1 < len(fmt) and fmt[i + 1] in fields:
            out.append(fields[fmt[i + 1]])
            i += 2
        else:
            out.append(fmt[i])
            i += 1
    return "".join(out)


# ----------------------------------------------------------------------------- formatters

class Formatter:
    default_time_format = "%Y-%m-%d %H:%M:%S"
    default_msec_format = "%s,%03d"

    def __init__(self, fmt=None, datefmt=None, style="%", validate=True, *, defaults=None):
        if style not in ("%", "{"):
            raise ValueError("Style must be one of: %, {")
        if fmt is None:
            fmt = "%(message)s" if style == "%" else "{message}"
        self._fmt = fmt
        self._style = style
        self._defaults = defaults
        self.datefmt = datefmt

    def usesTime(self):
        return ("%(asctime)" if self._style == "%" else "{asctime") in self._fmt

    def formatTime(self, record, datefmt=None):
        if datefmt:
            return _strftime(datefmt, record.created)
        text = _strftime(self.default_time_format, record.created)
        return self.default_msec_format % (text, record.msecs) if self.default_msec_format else text

    def formatException(self, exc_info):
        error = exc_info[1]
        name = type(error).__name__
        detail = str(error)
        return "Traceback (most recent call last):\n" + (name + ": " + detail if detail else name)

    def formatStack(self, stack_info):
        return stack_info

    def formatMessage(self, record):
        fields = dict(self._defaults) if self._defaults else {}
        fields.update(_record_fields(record))
        if self._style == "{":
            return self._fmt.format(**fields)
        return self._fmt % fields

    def format(self, record):
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        text = self.formatMessage(record)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            if text[-1:] != "\n":
                text += "\n"
            text += record.exc_text
        if record.stack_info:
            if text[-1:] != "\n":
                text += "\n"
            text += self.formatStack(record.stack_info)
        return text


_defaultFormatter = Formatter()


class Filter:
    def __init__(self, name=""):
        self.name = name

    def filter(self, record):
        # Passes records of the named logger and of loggers below it.
        if not self.name or self.name == record.name:
            return True
        return record.name.startswith(self.name + ".")


class Filterer:
    def __init__(self):
        self.filters = []

    def addFilter(self, filter):
        if filter not in self.filters:
            self.filters.append(filter)

    def removeFilter(self, filter):
        if filter in self.filters:
            self.filters.remove(filter)

    def filter(self, record):
        for f in self.filters:
            passed = f.filter(record) if hasattr(f, "filter") else f(record)
            if not passed:
                return False
        return True


# ----------------------------------------------------------------------------- handlers

class Handler(Filterer):
    def __init__(self, level=NOTSET):
        super().__init__()
        self.name = None
        self.level = _checkLevel(level)
        self.formatter = None

    def get_name(self):
        return self.name

    def set_name(self, name):
        self.name = name

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def format(self, record):
        return (self.formatter or _defaultFormatter).format(record)

    def emit(self, record):
        raise NotImplementedError("emit must be implemented by Handler subclasses")

    def handle(self, record):
        passed = self.filter(record)
        if passed:
            self.emit(record)
        return passed

    def acquire(self):
        pass

    def release(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass

    def handleError(self, record):
        # CPython prints the whole traceback here; kiln can only give the error itself.
        if raiseExceptions:
            sys.stderr.write("--- Logging error ---\n")
            sys.stderr.write("Message: %r\nArguments: %s\n" % (record.msg, record.args))

    def __repr__(self):
        return "<%s (%s)>" % (type(self).__name__, getLevelName(self.level))


class StreamHandler(Handler):
    terminator = "\n"

    def __init__(self, stream=None):
        super().__init__()
        self.stream = sys.stderr if stream is None else stream

    def flush(self):
        if self.stream and hasattr(self.stream, "flush"):
            self.stream.flush()

    def emit(self, record):
        try:
            text = self.format(record)
            self.stream.write(text + self.terminator)
            self.flush()
        except RecursionError:
            raise
        except Exception:
            self.handleError(record)

    def setStream(self, stream):
        if stream is self.stream:
            return None
        old = self.stream
        self.flush()
        self.stream = stream
        return old

    def __repr__(self):
        name = getattr(self.stream, "name", None)
        if name is None:
            name = "<stderr>" if self.stream is sys.stderr else "<stdout>" if self.stream is sys.stdout else ""
        name = str(name)
        return "<%s %s(%s)>" % (type(self).__name__, name + " " if name else "", getLevelName(self.level))


class FileHandler(StreamHandler):
    def __init__(self, filename, mode="a", encoding=None, delay=False, errors=None):
        if hasattr(filename, "__fspath__"):
            filename = filename.__fspath__()
        self.baseFilename = os.path.abspath(filename)
        self.mode = mode
        self.encoding = encoding
        self.delay = delay
        Handler.__init__(self)
        self.stream = None if delay else self._open()

    def _open(self):
        return open(self.baseFilename, self.mode)

    def emit(self, record):
        if self.stream is None:
            self.stream = self._open()
        StreamHandler.emit(self, record)

    def close(self):
        if self.stream is not None:
            self.stream.flush()
            self.stream.close()
            self.stream = None

    def __repr__(self):
        return "<%s %s (%s)>" % (type(self).__name__, self.baseFilename, getLevelName(self.level))


class NullHandler(Handler):
    def handle(self, record):
        pass

    def emit(self, record):
        pass


class _StderrHandler(StreamHandler):
    # The handler of last resort: whatever sys.stderr is at the time of the call.
    def __init__(self, level=NOTSET):
        Handler.__init__(self, level)

    @property
    def stream(self):
        return sys.stderr


lastResort = _StderrHandler(WARNING)


# ----------------------------------------------------------------------------- loggers

class Logger(Filterer):
    def __init__(self, name, level=NOTSET):
        super().__init__()
        self.name = name
        self.level = _checkLevel(level)
        self.parent = None
        self.propagate = True
        self.handlers = []
        self.disabled = False
        self.manager = _manager

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def getEffectiveLevel(self):
        logger = self
        while logger:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        if self.disabled or self.manager.disable >= level:
            return False
        return level >= self.getEffectiveLevel()

    def debug(self, msg, *args, **kwargs):
        if self.isEnabledFor(DEBUG):
            self._log(DEBUG, msg, args, **kwargs)

    def info(self, msg, *args, **kwargs):
        if self.isEnabledFor(INFO):
            self._log(INFO, msg, args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        if self.isEnabledFor(WARNING):
            self._log(WARNING, msg, args, **kwargs)

    def warn(self, msg, *args, **kwargs):
        self.warning(msg, *args, **kwargs)

    def error(self, msg, *args, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        self.error(msg, *args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        if self.isEnabledFor(CRITICAL):
            self._log(CRITICAL, msg, args, **kwargs)

    fatal = critical

    def log(self, level, msg, *args, **kwargs):
        if not isinstance(level, int):
            if raiseExceptions:
                raise TypeError("level must be an integer")
            return
        if self.isEnabledFor(level):
            self._log(level, msg, args, **kwargs)

    def makeRecord(self, name, level, fn, lno, msg, args, exc_info, func=None, extra=None, sinfo=None):
        record = LogRecord(name, level, fn, lno, msg, args, exc_info, func, sinfo)
        if extra is not None:
            for key, value in extra.items():
                if key in ("message", "asctime") or hasattr(record, key):
                    raise KeyError("Attempt to overwrite %r in LogRecord" % key)
                setattr(record, key, value)
        return record

    def _log(self, level, msg, args, exc_info=None, extra=None, stack_info=False, stacklevel=1):
        if isinstance(exc_info, BaseException):
            exc_info = (type(exc_info), exc_info, None)
        elif exc_info and not isinstance(exc_info, tuple):
            exc_info = sys.exc_info()
            if exc_info[0] is None:
                exc_info = None
        record = self.makeRecord(self.name, level, _main_script(), 0, msg, args, exc_info, "<module>", extra, None)
        self.handle(record)

    def handle(self, record):
        if not self.disabled and self.filter(record):
            self.callHandlers(record)

    def addHandler(self, hdlr):
        if hdlr not in self.handlers:
            self.handlers.append(hdlr)

    def removeHandler(self, hdlr):
        if hdlr in self.handlers:
            self.handlers.remove(hdlr)

    def hasHandlers(self):
        logger = self
        while logger:
            if logger.handlers:
                return True
            logger = logger.parent if logger.propagate else None
        return False

    def callHandlers(self, record):
        found = 0
        logger = self
        while logger:
            for handler in logger.handlers:
                found += 1
                if record.levelno >= handler.level:
                    handler.handle(record)
            logger = logger.parent if logger.propagate else None
        if found == 0 and lastResort is not None and record.levelno >= lastResort.level:
            lastResort.handle(record)

    def getChild(self, suffix):
        name = suffix if self.parent is None and self.name == "root" else self.name + "." + suffix
        return self.manager.getLogger(name)

    def __repr__(self):
        return "<%s %s (%s)>" % (type(self).__name__, self.name, getLevelName(self.getEffectiveLevel()))


class RootLogger(Logger):
    def __init__(self, level):
        super().__init__("root", level)


class _Manager:
    def __init__(self):
        self.disable = 0
        self.loggerDict = {}
        self.loggerClass = None

    def getLogger(self, name):
        if not isinstance(name, str):
            raise TypeError("A logger name must be a string")
        if name in self.loggerDict:
            return self.loggerDict[name]
        logger = (self.loggerClass or Logger)(name)
        logger.manager = self
        self.loggerDict[name] = logger
        # The parent is the nearest existing ancestor; existing descendants whose parent lies
        # above the new logger now hang below it.
        logger.parent = root
        parts = name.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            ancestor = ".".join(parts[:cut])
            if ancestor in self.loggerDict:
                logger.parent = self.loggerDict[ancestor]
                break
        for other in self.loggerDict.values():
            if other.name.startswith(name + ".") and not other.parent.name.startswith(name):
                other.parent = logger
        return logger


_manager = _Manager()
root = RootLogger(WARNING)
root.manager = _manager
Logger.root = root
Logger.manager = _manager


def getLogger(name=None):
    if not name or name == root.name:
        return root
    return _manager.getLogger(name)


def getLoggerClass():
    return _manager.loggerClass or Logger


def setLoggerClass(klass):
    if klass is not Logger and not issubclass(klass, Logger):
        raise TypeError("logger not derived from logging.Logger: " + klass.__name__)
    _manager.loggerClass = klass


class LoggerAdapter:
    def __init__(self, logger, extra=None):
        self.logger = logger
        self.extra = extra

    def process(self, msg, kwargs):
        kwargs["extra"] = self.extra
        return msg, kwargs

    def log(self, level, msg, *args, **kwargs):
        if self.isEnabledFor(level):
            msg, kwargs = self.process(msg, kwargs)
            self.logger.log(level, msg, *args, **kwargs)

    def debug(self, msg, *args, **kwargs):
        self.log(DEBUG, msg, *args, **kwargs)

    def info(self, msg, *args, **kwargs):
        self.log(INFO, msg, *args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        self.log(WARNING, msg, *args, **kwargs)

    def error(self, msg, *args, **kwargs):
        self.log(ERROR, msg, *args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        self.log(ERROR, msg, *args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        self.log(CRITICAL, msg, *args, **kwargs)

    def isEnabledFor(self, level):
        return self.logger.isEnabledFor(level)

    def setLevel(self, level):
        self.logger.setLevel(level)

    def getEffectiveLevel(self):
        return self.logger.getEffectiveLevel()


# ----------------------------------------------------------------------------- configuration

def basicConfig(**kwargs):
    if kwargs.pop("force", False):
        for handler in root.handlers[:]:
            root.removeHandler(handler)
            handler.close()
    if root.handlers:
        return
    handlers = kwargs.pop("handlers", None)
    if handlers is None:
        if "stream" in kwargs and "filename" in kwargs:
            raise ValueError("'stream' and 'filename' should not be specified together")
    elif "stream" in kwargs or "filename" in kwargs:
        raise ValueError("'stream' or 'filename' should not be specified together with 'handlers'")
    if handlers is None:
        filename = kwargs.pop("filename", None)
        mode = kwargs.pop("filemode", "a")
        if filename:
            handlers = [FileHandler(filename, mode, encoding=kwargs.pop("encoding", None))]
        else:
            handlers = [StreamHandler(kwargs.pop("stream", None))]
    style = kwargs.pop("style", "%")
    if style not in ("%", "{"):
        raise ValueError("Style must be one of: %, {")
    fmt = kwargs.pop("format", BASIC_FORMAT if style == "%" else "{levelname}:{name}:{message}")
    formatter = Formatter(fmt, kwargs.pop("datefmt", None), style)
    for handler in handlers:
        if handler.formatter is None:
            handler.setFormatter(formatter)
        root.addHandler(handler)
    level = kwargs.pop("level", None)
    if level is not None:
        root.setLevel(level)
    if kwargs:
        raise ValueError("Unrecognised argument(s): %s" % ", ".join(kwargs))


def _configured_root():
    if not root.handlers:
        basicConfig()
    return root


def critical(msg, *args, **kwargs):
    _configured_root().critical(msg, *args, **kwargs)


fatal = critical


def error(msg, *args, **kwargs):
    _configured_root().error(msg, *args, **kwargs)


def exception(msg, *args, exc_info=True, **kwargs):
    _configured_root().error(msg, *args, exc_info=exc_info, **kwargs)


def warning(msg, *args, **kwargs):
    _configured_root().warning(msg, *args, **kwargs)


def warn(msg, *args, **kwargs):
    warning(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _configured_root().info(msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    _configured_root().debug(msg, *args, **kwargs)


def log(level, msg, *args, **kwargs):
    _configured_root().log(level, msg, *args, **kwargs)


def disable(level=CRITICAL):
    _manager.disable = level


def shutdown():
    for logger in [root] + list(_manager.loggerDict.values()):
        for handler in logger.handlers:
            handler.flush()
            handler.close()


def captureWarnings(capture):
    pass
