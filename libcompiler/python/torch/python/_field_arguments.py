# Binds the arguments of a generated constructor (namedtuple's __new__, a dataclass's __init__)
# to its field names, failing with the TypeError messages CPython gives for a real signature.


def _plural(count, word):
    return str(count) + " " + word + ("" if count == 1 else "s")


def bind_field_arguments(where, names, defaults, args, kwargs):
    # `where` names the function in messages ("Point.__init__()"); `defaults` maps the optional
    # field names to their default values. Returns the values in field order.
    if len(args) > len(names):
        required = len(names) - len(defaults) + 1
        if defaults:
            takes = "from " + str(required) + " to " + str(len(names) + 1) + " positional arguments"
        else:
            takes = _plural(required, "positional argument")
        given = str(len(args) + 1) + (" was" if len(args) == 0 else " were")
        raise TypeError(where + " takes " + takes + " but " + given + " given")
    for name in kwargs:
        if name not in names:
            raise TypeError(where + " got an unexpected keyword argument " + repr(name))
        if names.index(name) < len(args):
            raise TypeError(where + " got multiple values for argument " + repr(name))
    values = list(args)
    missing = []
    for name in names[len(args):]:
        if name in kwargs:
            values.append(kwargs[name])
        elif name in defaults:
            values.append(defaults[name])
        else:
            missing.append(repr(name))
    if missing:
        listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " and " + missing[-1]
        raise TypeError(where + " missing " + _plural(len(missing), "required positional argument") + ": " + listed)
    return values
