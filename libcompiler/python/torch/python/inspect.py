# inspect: signatures of Python functions, classes and methods, and the type predicates, as
# CPython 3.11 gives them. Parameters come from the function's __code__, __defaults__ and
# __kwdefaults__; callables written in C++ (builtins, torch ops) have no signature here, as
# CPython has none for many builtins.
import enum


class _empty:
    pass


class _ParameterKind(enum.IntEnum):
    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    VAR_POSITIONAL = 2
    KEYWORD_ONLY = 3
    VAR_KEYWORD = 4

    @property
    def description(self):
        return _KIND_DESCRIPTIONS[self]


_KIND_DESCRIPTIONS = {
    _ParameterKind.POSITIONAL_ONLY: "positional-only",
    _ParameterKind.POSITIONAL_OR_KEYWORD: "positional or keyword",
    _ParameterKind.VAR_POSITIONAL: "variadic positional",
    _ParameterKind.KEYWORD_ONLY: "keyword-only",
    _ParameterKind.VAR_KEYWORD: "variadic keyword",
}

_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08
_CO_GENERATOR = 0x20


class Parameter:
    POSITIONAL_ONLY = _ParameterKind.POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = _ParameterKind.POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = _ParameterKind.VAR_POSITIONAL
    KEYWORD_ONLY = _ParameterKind.KEYWORD_ONLY
    VAR_KEYWORD = _ParameterKind.VAR_KEYWORD
    empty = _empty

    def __init__(self, name, kind, *, default=_empty, annotation=_empty):
        self._name = name
        self._kind = _ParameterKind(kind)
        self._default = default
        self._annotation = annotation

    @property
    def name(self):
        return self._name

    @property
    def kind(self):
        return self._kind

    @property
    def default(self):
        return self._default

    @property
    def annotation(self):
        return self._annotation

    def replace(self, *, name=None, kind=None, default=_empty, annotation=_empty):
        return Parameter(self._name if name is None else name, self._kind if kind is None else kind,
                         default=self._default if default is _empty else default,
                         annotation=self._annotation if annotation is _empty else annotation)

    def __str__(self):
        text = self._name
        if self._default is not _empty:
            text = f"{text}={self._default!r}"
        if self._kind == _ParameterKind.VAR_POSITIONAL:
            text = "*" + text
        elif self._kind == _ParameterKind.VAR_KEYWORD:
            text = "**" + text
        return text

    def __repr__(self):
        return f'<Parameter "{self}">'

    def __eq__(self, other):
        return (isinstance(other, Parameter) and self._name == other._name and self._kind == other._kind
                and self._default == other._default and self._annotation == other._annotation)

    def __hash__(self):
        return hash((self._name, self._kind))


class BoundArguments:
    def __init__(self, signature, arguments):
        self.signature = signature
        self.arguments = arguments

    @property
    def args(self):
        out = []
        for name, param in self.signature.parameters.items():
            if param.kind in (Parameter.KEYWORD_ONLY, Parameter.VAR_KEYWORD) or name not in self.arguments:
                break
            if param.kind == Parameter.VAR_POSITIONAL:
                out.extend(self.arguments[name])
            else:
                out.append(self.arguments[name])
        return tuple(out)

    @property
    def kwargs(self):
        out = {}
        for name, param in self.signature.parameters.items():
            if name not in self.arguments:
                continue
            if param.kind == Parameter.VAR_KEYWORD:
                out.update(self.arguments[name])
            elif param.kind == Parameter.KEYWORD_ONLY:
                out[name] = self.arguments[name]
        return out

    def apply_defaults(self):
        filled = {}
        for name, param in self.signature.parameters.items():
            if name in self.arguments:
                filled[name] = self.arguments[name]
            elif param.default is not _empty:
                filled[name] = param.default
            elif param.kind == Parameter.VAR_POSITIONAL:
                filled[name] = ()
            elif param.kind == Parameter.VAR_KEYWORD:
                filled[name] = {}
        self.arguments = filled


class Signature:
    empty = _empty

    def __init__(self, parameters=None, *, return_annotation=_empty):
        self._parameters = {}
        for p in parameters or ():
            if p.name in self._parameters:
                raise ValueError(f"duplicate parameter name: {p.name!r}")
            self._parameters[p.name] = p
        self._return_annotation = return_annotation

    @property
    def parameters(self):
        return dict(self._parameters)

    @property
    def return_annotation(self):
        return self._return_annotation

    def replace(self, *, parameters=None, return_annotation=_empty):
        return Signature(list(self._parameters.values()) if parameters is None else parameters,
                         return_annotation=self._return_annotation if return_annotation is _empty
                         else return_annotation)

    def _bind(self, args, kwargs, partial):
        arguments = {}
        params = list(self._parameters.values())
        kwargs = dict(kwargs)
        i = 0
        for param in params:
            if param.kind in (Parameter.POSITIONAL_ONLY, Parameter.POSITIONAL_OR_KEYWORD):
                if i < len(args):
                    arguments[param.name] = args[i]
                    i += 1
            elif param.kind == Parameter.VAR_POSITIONAL:
                arguments[param.name] = tuple(args[i:])
                i = len(args)
        if i < len(args):
            raise TypeError("too many positional arguments")
        for param in params:
            if param.kind == Parameter.VAR_KEYWORD:
                arguments[param.name] = kwargs
                kwargs = {}
                continue
            if param.kind in (Parameter.POSITIONAL_OR_KEYWORD, Parameter.KEYWORD_ONLY) and param.name in kwargs:
                if param.name in arguments:
                    raise TypeError(f"multiple values for argument {param.name!r}")
                arguments[param.name] = kwargs.pop(param.name)
            if (param.name not in arguments and not partial and param.default is _empty
                    and param.kind not in (Parameter.VAR_POSITIONAL, Parameter.VAR_KEYWORD)):
                raise TypeError(f"missing a required argument: {param.name!r}")
        if kwargs:
            raise TypeError(f"got an unexpected keyword argument {next(iter(kwargs))!r}")
        ordered = {p.name: arguments[p.name] for p in params if p.name in arguments}
        return BoundArguments(self, ordered)

    def bind(self, *args, **kwargs):
        return self._bind(args, kwargs, False)

    def bind_partial(self, *args, **kwargs):
        return self._bind(args, kwargs, True)

    def __str__(self):
        parts = []
        slash_needed = False
        star_written = False
        for p in self._parameters.values():
            if slash_needed and p.kind != Parameter.POSITIONAL_ONLY:
                parts.append("/")
                slash_needed = False
            if p.kind == Parameter.POSITIONAL_ONLY:
                slash_needed = True
            if p.kind == Parameter.VAR_POSITIONAL:
                star_written = True
            if p.kind == Parameter.KEYWORD_ONLY and not star_written:
                parts.append("*")
                star_written = True
            parts.append(str(p))
        if slash_needed:
            parts.append("/")
        return "(" + ", ".join(parts) + ")"

    def __repr__(self):
        return f"<Signature {self}>"

    def __eq__(self, other):
        return isinstance(other, Signature) and list(self._parameters.values()) == list(other._parameters.values())


def _function_signature(fn, skip_first):
    code = fn.__code__
    names = code.co_varnames
    positional = code.co_argcount
    posonly = code.co_posonlyargcount
    kwonly = code.co_kwonlyargcount
    defaults = fn.__defaults__ or ()
    kwdefaults = fn.__kwdefaults__ or {}
    annotations = getattr(fn, "__annotations__", None) or {}
    params = []
    first_default = positional - len(defaults)
    for i in range(positional):
        kind = Parameter.POSITIONAL_ONLY if i < posonly else Parameter.POSITIONAL_OR_KEYWORD
        default = defaults[i - first_default] if i >= first_default else _empty
        params.append(Parameter(names[i], kind, default=default, annotation=annotations.get(names[i], _empty)))
    index = positional + kwonly
    if code.co_flags & _CO_VARARGS:
        name = names[index]
        params.append(Parameter(name, Parameter.VAR_POSITIONAL, annotation=annotations.get(name, _empty)))
        index += 1
    for i in range(positional, positional + kwonly):
        params.append(Parameter(names[i], Parameter.KEYWORD_ONLY, default=kwdefaults.get(names[i], _empty),
                                annotation=annotations.get(names[i], _empty)))
    if code.co_flags & _CO_VARKEYWORDS:
        name = names[index]
        params.append(Parameter(name, Parameter.VAR_KEYWORD, annotation=annotations.get(name, _empty)))
    if skip_first:
        if not params or params[0].kind in (Parameter.KEYWORD_ONLY, Parameter.VAR_KEYWORD):
            raise ValueError("invalid method signature")
        if params[0].kind != Parameter.VAR_POSITIONAL:
            params = params[1:]
    return Signature(params, return_annotation=annotations.get("return", _empty))


def signature(obj, *, follow_wrapped=True, globals=None, locals=None, eval_str=False):
    if not callable(obj):
        raise TypeError(f"{obj!r} is not a callable object")
    if follow_wrapped:
        while hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__
    explicit = getattr(obj, "__signature__", None)
    if explicit is not None:
        return explicit
    if isfunction(obj):
        return _function_signature(obj, False)
    if ismethod(obj):
        return _function_signature(obj.__func__, True) if isfunction(obj.__func__) else signature(obj.__func__)
    if isclass(obj):
        for base in obj.__mro__:
            init = base.__dict__.get("__init__")
            if init is not None and isfunction(init):
                return _function_signature(init, True)
            new = base.__dict__.get("__new__")
            if new is not None and isfunction(new):
                return _function_signature(new, True)
        return Signature()
    call = getattr(type(obj), "__call__", None)
    if call is not None and isfunction(call):
        return _function_signature(call, True)
    raise ValueError(f"no signature found for {obj!r}")


def isclass(obj):
    return isinstance(obj, type)


def isfunction(obj):
    return type(obj).__name__ == "function"


def ismethod(obj):
    return type(obj).__name__ == "method"


def isbuiltin(obj):
    return type(obj).__name__ == "builtin_function_or_method"


def isroutine(obj):
    return isfunction(obj) or ismethod(obj) or isbuiltin(obj)


def ismodule(obj):
    return type(obj).__name__ == "module"


def isgeneratorfunction(obj):
    while ismethod(obj):
        obj = obj.__func__
    return isfunction(obj) and bool(obj.__code__.co_flags & _CO_GENERATOR)


def isgenerator(obj):
    return type(obj).__name__ == "generator"


def iscoroutinefunction(obj):
    return False


def isabstract(obj):
    return isclass(obj) and bool(getattr(obj, "__abstractmethods__", None))


def getmro(cls):
    return cls.__mro__


def getmembers(obj, predicate=None):
    results = []
    for name in dir(obj):
        try:
            value = getattr(obj, name)
        except AttributeError:
            continue
        if predicate is None or predicate(value):
            results.append((name, value))
    results.sort(key=lambda pair: pair[0])
    return results


def unwrap(func, *, stop=None):
    while hasattr(func, "__wrapped__") and not (stop is not None and stop(func)):
        func = func.__wrapped__
    return func


def getfile(obj):
    if ismodule(obj):
        return obj.__file__
    if ismethod(obj):
        obj = obj.__func__
    if isfunction(obj):
        return obj.__code__.co_filename
    raise TypeError(f"module, class, method, function, traceback, frame, or code object was expected, "
                    f"got {type(obj).__name__}")


def getsourcefile(obj):
    return getfile(obj)


def currentframe():
    return None
