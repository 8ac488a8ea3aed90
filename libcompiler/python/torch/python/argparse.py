# argparse: command-line parsing for training scripts, with CPython 3.11's observable behaviour:
# the same parse results, the same usage and help layout (HelpFormatter and its variants), and the
# same error messages, printed as "usage: ..." plus "prog: error: ..." on stderr before
# SystemExit(2).  Not provided: sub-commands (add_subparsers), reading arguments from files
# (fromfile_prefix_chars) and parse_intermixed_args.

import os
import sys
import textwrap

SUPPRESS = "==SUPPRESS=="
OPTIONAL = "?"
ZERO_OR_MORE = "*"
ONE_OR_MORE = "+"
PARSER = "A..."
REMAINDER = "..."

_ASCII_WHITESPACE = " \t\n\r\x0b\x0c"


def _squash_whitespace(text):
    # Runs of ASCII whitespace become one space, as help and description texts are reflowed.
    words = []
    word = ""
    for ch in text:
        if ch in _ASCII_WHITESPACE:
            if word:
                words.append(word)
            word = ""
        else:
            word += ch
    if word:
        words.append(word)
    return " ".join(words)


def _terminal_width():
    # CPython asks the terminal; kiln cannot, so like CPython with output redirected it uses
    # $COLUMNS when set and 80 columns otherwise.
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    return columns if columns > 0 else 80


class _AttributeHolder:
    # repr() as "Name(field=value, ...)" over the fields _get_kwargs lists.
    def __repr__(self):
        shown = [repr(value) for value in self._get_args()]
        unusual = {}
        for name, value in self._get_kwargs():
            if name.isidentifier():
                shown.append("%s=%r" % (name, value))
            else:
                unusual[name] = value
        if unusual:
            shown.append("**%s" % repr(unusual))
        return "%s(%s)" % (type(self).__name__, ", ".join(shown))

    def _get_kwargs(self):
        return list(self.__dict__.items())

    def _get_args(self):
        return []


class Namespace(_AttributeHolder):
    def __init__(self, **kwargs):
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        # Compared as plain dicts: kiln's instance dicts compare by identity with each other.
        return dict(vars(self).items()) == dict(vars(other).items())

    def __contains__(self, key):
        return key in self.__dict__


def _action_name(action):
    # How error messages name an argument: its option strings, else its metavar, else its dest.
    if action is None:
        return None
    if action.option_strings:
        return "/".join(action.option_strings)
    if action.metavar not in (None, SUPPRESS):
        return action.metavar
    if action.dest not in (None, SUPPRESS):
        return action.dest
    if action.choices:
        return "{" + ",".join(action.choices) + "}"
    return None


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = _action_name(argument)
        self.message = message

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return "argument %s: %s" % (self.argument_name, self.message)


class ArgumentTypeError(Exception):
    pass


# ----------------------------------------------------------------------------- actions

class Action(_AttributeHolder):
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None,
                 choices=None, required=False, help=None, metavar=None):
        self.option_strings = option_strings
        self.dest = dest
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar

    def _get_kwargs(self):
        names = ["option_strings", "dest", "nargs", "const", "default", "type", "choices", "required", "help",
                 "metavar"]
        return [(name, getattr(self, name)) for name in names]

    def format_usage(self):
        return self.option_strings[0]

    def __call__(self, parser, namespace, values, option_string=None):
        raise NotImplementedError(".__call__() not defined")


class _StoreAction(Action):
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None, choices=None,
                 required=False, help=None, metavar=None):
        if nargs == 0:
            raise ValueError("nargs for store actions must be != 0; if you have nothing to store, actions such "
                             "as store true or store const may be more appropriate")
        if const is not None and nargs != OPTIONAL:
            raise ValueError("nargs must be %r to supply const" % OPTIONAL)
        super().__init__(option_strings, dest, nargs, const, default, type, choices, required, help, metavar)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, values)


class _StoreConstAction(Action):
    def __init__(self, option_strings, dest, const=None, default=None, required=False, help=None, metavar=None):
        super().__init__(option_strings, dest, 0, const, default, None, None, required, help, metavar)

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, self.const)


class _StoreTrueAction(_StoreConstAction):
    def __init__(self, option_strings, dest, default=False, required=False, help=None):
        super().__init__(option_strings, dest, True, default, required, help)


class _StoreFalseAction(_StoreConstAction):
    def __init__(self, option_strings, dest, default=True, required=False, help=None):
        super().__init__(option_strings, dest, False, default, required, help)


def _copied_list(items):
    # Appending actions never mutate the default list in place.
    if items is None:
        return []
    return list(items)


class _AppendAction(Action):
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None, choices=None,
                 required=False, help=None, metavar=None):
        if nargs == 0:
            raise ValueError("nargs for append actions must be != 0; if arg strings are not supplying the value "
                             "to append, the append const action may be more appropriate")
        if const is not None and nargs != OPTIONAL:
            raise ValueError("nargs must be %r to supply const" % OPTIONAL)
        super().__init__(option_strings, dest, nargs, const, default, type, choices, required, help, metavar)

    def __call__(self, parser, namespace, values, option_string=None):
        items = _copied_list(getattr(namespace, self.dest, None))
        items.append(values)
        setattr(namespace, self.dest, items)


class _AppendConstAction(Action):
    def __init__(self, option_strings, dest, const=None, default=None, required=False, help=None, metavar=None):
        super().__init__(option_strings, dest, 0, const, default, None, None, required, help, metavar)

    def __call__(self, parser, namespace, values, option_string=None):
        items = _copied_list(getattr(namespace, self.dest, None))
        items.append(self.const)
        setattr(namespace, self.dest, items)


class _ExtendAction(_AppendAction):
    def __call__(self, parser, namespace, values, option_string=None):
        items = _copied_list(getattr(namespace, self.dest, None))
        items.extend(values)
        setattr(namespace, self.dest, items)


class _CountAction(Action):
    def __init__(self, option_strings, dest, default=None, required=False, help=None):
        super().__init__(option_strings, dest, 0, None, default, None, None, required, help)

    def __call__(self, parser, namespace, values, option_string=None):
        count = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, 1 if count is None else count + 1)


class _HelpAction(Action):
    def __init__(self, option_strings, dest=SUPPRESS, default=SUPPRESS, help=None):
        super().__init__(option_strings, dest, 0, None, default, None, None, False, help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.print_help()
        parser.exit()


class _VersionAction(Action):
    def __init__(self, option_strings, version=None, dest=SUPPRESS, default=SUPPRESS,
                 help="show program's version number and exit"):
        super().__init__(option_strings, dest, 0, None, default, None, None, False, help)
        self.version = version

    def __call__(self, parser, namespace, values, option_string=None):
        version = self.version if self.version is not None else parser.version
        formatter = parser._get_formatter()
        formatter.add_text(version)
        parser._print_message(formatter.format_help(), sys.stdout)
        parser.exit()


class BooleanOptionalAction(Action):
    # --flag / --no-flag pairs.
    def __init__(self, option_strings, dest, default=None, type=None, choices=None, required=False, help=None,
                 metavar=None):
        both = []
        for option in option_strings:
            both.append(option)
            if option.startswith("--"):
                both.append("--no-" + option[2:])
        if help is not None and default is not None and default is not SUPPRESS:
            help += " (default: %(default)s)"
        super().__init__(both, dest, 0, None, default, type, choices, required, help, metavar)

    def __call__(self, parser, namespace, values, option_string=None):
        if option_string in self.option_strings:
            setattr(namespace, self.dest, not option_string.startswith("--no-"))

    def format_usage(self):
        return " | ".join(self.option_strings)


_ACTIONS = {
    None: _StoreAction, "store": _StoreAction, "store_const": _StoreConstAction, "store_true": _StoreTrueAction,
    "store_false": _StoreFalseAction, "append": _AppendAction, "append_const": _AppendConstAction,
    "count": _CountAction, "help": _HelpAction, "version": _VersionAction, "extend": _ExtendAction,
}


# ----------------------------------------------------------------------------- help formatting

def _usage_parts(text):
    # Splits a usage line into the pieces that line wrapping keeps whole: a bracketed or
    # parenthesised group runs to the first closing bracket that a space or the end follows.
    parts = []
    i = 0
    while i < len(text):
        if text[i] == " ":
            i += 1
            continue
        end = -1
        closer = {"(": ")", "[": "]"}.get(text[i])
        if closer:
            j = i + 1
            while j < len(text):
                if text[j] == closer:
                    k = j
                    while k < len(text) and text[k] == closer:
                        k += 1
                    if k == len(text) or text[k] in _ASCII_WHITESPACE:
                        end = k
                        break
                j += 1
        if end < 0:
            end = i
            while end < len(text) and text[end] not in _ASCII_WHITESPACE:
                end += 1
        parts.append(text[i:end])
        i = end
    return parts


def _tidy_brackets(text):
    # Drops the spaces just inside brackets and brackets left empty by suppressed arguments.
    for opener in "[(":
        text = text.replace(opener + " ", opener)
    for closer in "])":
        text = text.replace(" " + closer, closer)
    for pair in ("[]", "()", "[)", "(]"):
        text = text.replace(pair, "")
    return text.strip()


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            width = _terminal_width() - 2
        self._prog = prog
        self._indent_increment = indent_increment
        self._max_help_position = min(max_help_position, max(width - 20, indent_increment * 2))
        self._width = width
        self._action_max_length = 0
        # Items are rendered at format_help time, when the widest invocation is known: each is
        # (indent, render) where render(indent) returns text.
        self._items = []
        self._section = None

    # The building calls ArgumentParser makes.
    def start_section(self, heading):
        self._section = (heading, [])

    def end_section(self):
        heading, items = self._section
        self._section = None
        self._items.append(lambda: self._render_section(heading, items))

    def _add_item(self, render):
        if self._section is not None:
            self._section[1].append(render)
        else:
            self._items.append(lambda: render(0))

    def add_text(self, text):
        if text is not SUPPRESS and text is not None:
            self._add_item(lambda indent: self._format_text(text, indent))

    def add_usage(self, usage, actions, groups, prefix=None):
        if usage is not SUPPRESS:
            self._add_item(lambda indent: self._format_usage(usage, actions, groups, prefix))

    def add_argument(self, action):
        if action.help is SUPPRESS:
            return
        indent = self._indent_increment if self._section is not None else 0
        self._action_max_length = max(self._action_max_length, len(self._format_action_invocation(action)) + indent)
        self._add_item(lambda indent: self._format_action(action, indent))

    def add_arguments(self, actions):
        for action in actions:
            self.add_argument(action)

    def format_help(self):
        text = "".join(render() for render in self._items)
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        text = text.strip("\n")
        return text + "\n" if text else ""

    def _render_section(self, heading, items):
        body = "".join(render(self._indent_increment) for render in items)
        if not body:
            return ""
        title = "%s:\n" % heading if heading is not SUPPRESS and heading is not None else ""
        return title + body + "\n"

    # Text blocks.
    def _format_text(self, text, indent):
        if "%(prog)" in text:
            text = text % {"prog": self._prog}
        width = max(self._width - indent, 11)
        return self._fill_text(text, width, " " * indent) + "\n\n"

    def _fill_text(self, text, width, indent):
        return textwrap.fill(_squash_whitespace(text), width, initial_indent=indent, subsequent_indent=indent)

    def _split_lines(self, text, width):
        return textwrap.wrap(_squash_whitespace(text), width)

    # Usage.
    def _format_usage(self, usage, actions, groups, prefix):
        if prefix is None:
            prefix = "usage: "
        prog = self._prog
        if usage is not None:
            usage = usage % {"prog": prog}
        elif not actions:
            usage = prog
        else:
            optionals = [a for a in actions if a.option_strings]
            positionals = [a for a in actions if not a.option_strings]
            usage = " ".join(s for s in [prog, self._format_actions_usage(optionals + positionals, groups)] if s)
            if len(prefix) + len(usage) > self._width:
                usage = "\n".join(self._wrapped_usage(prefix, prog, optionals, positionals, groups))
        return "%s%s\n\n" % (prefix, usage)

    def _wrapped_usage(self, prefix, prog, optionals, positionals, groups):
        width = self._width
        opt_parts = _usage_parts(self._format_actions_usage(optionals, groups))
        pos_parts = _usage_parts(self._format_actions_usage(positionals, groups))

        def fill(parts, indent, first_line_prefix=None):
            lines = []
            line = []
            length = len(first_line_prefix if first_line_prefix is not None else indent) - 1
            for part in parts:
                if line and length + 1 + len(part) > width:
                    lines.append(indent + " ".join(line))
                    line = []
                    length = len(indent) - 1
                line.append(part)
                length += len(part) + 1
            if line:
                lines.append(indent + " ".join(line))
            if first_line_prefix is not None:
                lines[0] = lines[0][len(indent):]
            return lines

        if len(prefix) + len(prog) <= 0.75 * width:
            # A short prog: arguments continue in a column just right of it.
            indent = " " * (len(prefix) + len(prog) + 1)
            if opt_parts:
                return fill([prog] + opt_parts, indent, prefix) + fill(pos_parts, indent)
            if pos_parts:
                return fill([prog] + pos_parts, indent, prefix)
            return [prog]
        indent = " " * len(prefix)
        lines = fill(opt_parts + pos_parts, indent)
        if len(lines) > 1:
            lines = fill(opt_parts, indent) + fill(pos_parts, indent)
        return [prog] + lines

    def _format_actions_usage(self, actions, groups):
        # Mutually exclusive groups whose actions sit together are bracketed and joined with "|".
        grouped = []
        inserts = {}
        for group in groups:
            if not group._group_actions or group._group_actions[0] not in actions:
                continue
            start = actions.index(group._group_actions[0])
            end = start + len(group._group_actions)
            if actions[start:end] != group._group_actions:
                continue
            grouped.extend(group._group_actions)
            shown = len([a for a in group._group_actions if a.help is not SUPPRESS])
            if not group.required or shown > 1:
                opener, closer = ("(", ")") if group.required else ("[", "]")
                inserts[start] = inserts[start] + " " + opener if start in inserts else opener
                inserts[end] = inserts[end] + closer if end in inserts else closer
            for i in range(start + 1, end):
                inserts[i] = "|"

        parts = []
        for i, action in enumerate(actions):
            if action.help is SUPPRESS:
                parts.append(None)
                if inserts.get(i) == "|":
                    del inserts[i]
                elif inserts.get(i + 1) == "|":
                    del inserts[i + 1]
            elif not action.option_strings:
                part = self._format_args(action, self._get_default_metavar_for_positional(action))
                if action in grouped and part[:1] == "[" and part[-1:] == "]":
                    part = part[1:-1]
                parts.append(part)
            else:
                if action.nargs == 0:
                    part = action.format_usage()
                else:
                    metavar = self._get_default_metavar_for_optional(action)
                    part = "%s %s" % (action.option_strings[0], self._format_args(action, metavar))
                if not action.required and action not in grouped:
                    part = "[%s]" % part
                parts.append(part)
        for i in sorted(inserts, reverse=True):
            parts[i:i] = [inserts[i]]
        return _tidy_brackets(" ".join(part for part in parts if part is not None))

    # Arguments.
    def _format_action(self, action, indent):
        help_position = min(self._action_max_length + 2, self._max_help_position)
        help_width = max(self._width - help_position, 11)
        action_width = help_position - indent - 2
        header = self._format_action_invocation(action)
        if not action.help:
            return " " * indent + header + "\n"
        if len(header) <= action_width:
            text = " " * indent + header.ljust(action_width) + "  "
            first_indent = 0
        else:
            text = " " * indent + header + "\n"
            first_indent = help_position
        help_text = self._expand_help(action)
        if help_text:
            lines = self._split_lines(help_text, help_width)
            if lines:
                text += " " * first_indent + lines[0] + "\n"
                for line in lines[1:]:
                    text += " " * help_position + line + "\n"
                return text
        if not text.endswith("\n"):
            text += "\n"
        return text

    def _format_action_invocation(self, action):
        if not action.option_strings:
            metavar, = self._metavar_formatter(action, self._get_default_metavar_for_positional(action))(1)
            return metavar
        if action.nargs == 0:
            return ", ".join(action.option_strings)
        args = self._format_args(action, self._get_default_metavar_for_optional(action))
        return ", ".join("%s %s" % (option, args) for option in action.option_strings)

    def _metavar_formatter(self, action, default_metavar):
        if action.metavar is not None:
            result = action.metavar
        elif action.choices is not None:
            result = "{%s}" % ",".join(str(choice) for choice in action.choices)
        else:
            result = default_metavar

        def format(tuple_size):
            if isinstance(result, tuple):
                return result
            return (result,) * tuple_size
        return format

    def _format_args(self, action, default_metavar):
        metavar = self._metavar_formatter(action, default_metavar)
        nargs = action.nargs
        if nargs is None:
            return "%s" % metavar(1)
        if nargs == OPTIONAL:
            return "[%s]" % metavar(1)
        if nargs == ZERO_OR_MORE:
            names = metavar(1)
            if len(names) == 2:
                return "[%s [%s ...]]" % names
            return "[%s ...]" % names
        if nargs == ONE_OR_MORE:
            return "%s [%s ...]" % metavar(2)
        if nargs == REMAINDER:
            return "..."
        if nargs == PARSER:
            return "%s ..." % metavar(1)
        if nargs == SUPPRESS:
            return ""
        if not isinstance(nargs, int):
            raise ValueError("invalid nargs value")
        return " ".join(["%s"] * nargs) % metavar(nargs)

    def _expand_help(self, action):
        params = dict(vars(action).items())
        params["prog"] = self._prog
        for name in list(params):
            if params[name] is SUPPRESS:
                del params[name]
            elif hasattr(params[name], "__name__"):
                params[name] = params[name].__name__
        if params.get("choices") is not None:
            params["choices"] = ", ".join(str(choice) for choice in params["choices"])
        return self._get_help_string(action) % params

    def _get_help_string(self, action):
        return action.help

    def _get_default_metavar_for_optional(self, action):
        return action.dest.upper()

    def _get_default_metavar_for_positional(self, action):
        return action.dest


class RawDescriptionHelpFormatter(HelpFormatter):
    # Description and epilog keep their own line breaks.
    def _fill_text(self, text, width, indent):
        return "".join(indent + line for line in textwrap._lines_keeping_ends(text))


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    # Help texts keep their own line breaks too.
    def _split_lines(self, text, width):
        return [line.rstrip("\r\n") for line in textwrap._lines_keeping_ends(text)]


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    def _get_help_string(self, action):
        help = action.help
        if "%(default)" not in help and action.default is not SUPPRESS:
            if action.option_strings or action.nargs in (OPTIONAL, ZERO_OR_MORE):
                help += " (default: %(default)s)"
        return help


class MetavarTypeHelpFormatter(HelpFormatter):
    def _get_default_metavar_for_optional(self, action):
        return action.type.__name__

    def _get_default_metavar_for_positional(self, action):
        return action.type.__name__


# ----------------------------------------------------------------------------- containers

class _ActionsContainer:
    def __init__(self, description, prefix_chars, argument_default, conflict_handler):
        self.description = description
        self.argument_default = argument_default
        self.prefix_chars = prefix_chars
        self.conflict_handler = conflict_handler
        self._registries = {"action": dict(_ACTIONS), "type": {None: lambda text: text}}
        self._actions = []
        self._option_string_actions = {}
        self._action_groups = []
        self._mutually_exclusive_groups = []
        self._defaults = {}
        self._has_negative_number_optionals = []

    def register(self, registry_name, value, object):
        self._registries.setdefault(registry_name, {})[value] = object

    def _registry_get(self, registry_name, value, default=None):
        return self._registries[registry_name].get(value, default)

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)
        for action in self._actions:
            if action.dest in kwargs:
                action.default = kwargs[action.dest]

    def get_default(self, dest):
        for action in self._actions:
            if action.dest == dest and action.default is not None:
                return action.default
        return self._defaults.get(dest, None)

    def add_argument(self, *args, **kwargs):
        if not args or len(args) == 1 and args[0][:1] not in self.prefix_chars:
            if args and "dest" in kwargs:
                raise ValueError("dest supplied twice for positional argument")
            kwargs = self._positional_kwargs(*args, **kwargs)
        else:
            kwargs = self._optional_kwargs(*args, **kwargs)
        if "default" not in kwargs:
            if kwargs["dest"] in self._defaults:
                kwargs["default"] = self._defaults[kwargs["dest"]]
            elif self.argument_default is not None:
                kwargs["default"] = self.argument_default
        action_kind = kwargs.pop("action", None)
        action_class = self._registry_get("action", action_kind, action_kind)
        if not callable(action_class):
            raise ValueError('unknown action "%s"' % (action_class,))
        action = action_class(**kwargs)
        type_func = self._registry_get("type", action.type, action.type)
        if not callable(type_func):
            raise ValueError("%r is not callable" % (type_func,))
        # A metavar tuple must fit nargs; formatting the arguments once finds out.
        try:
            self._get_formatter()._format_args(action, None)
        except TypeError:
            raise ValueError("length of metavar tuple does not match nargs")
        return self._add_action(action)

    def add_argument_group(self, *args, **kwargs):
        group = _ArgumentGroup(self, *args, **kwargs)
        self._action_groups.append(group)
        return group

    def add_mutually_exclusive_group(self, **kwargs):
        group = _MutuallyExclusiveGroup(self, **kwargs)
        self._mutually_exclusive_groups.append(group)
        return group

    def _add_action(self, action):
        self._check_conflict(action)
        self._actions.append(action)
        action.container = self
        for option in action.option_strings:
            self._option_string_actions[option] = action
            if _looks_negative(option) and not self._has_negative_number_optionals:
                self._has_negative_number_optionals.append(True)
        return action

    def _remove_action(self, action):
        self._actions.remove(action)

    def _add_container_actions(self, container):
        # Copies a parent parser's arguments, keeping its titled groups and exclusive groups.
        groups_by_title = {group.title: group for group in self._action_groups}
        group_for = {}
        for group in container._action_groups:
            if group.title not in groups_by_title:
                groups_by_title[group.title] = self.add_argument_group(group.title, group.description,
                                                                       conflict_handler=group.conflict_handler)
            for action in group._group_actions:
                group_for[action] = groups_by_title[group.title]
        for group in container._mutually_exclusive_groups:
            mutex = self.add_mutually_exclusive_group(required=group.required)
            for action in group._group_actions:
                group_for[action] = mutex
        for action in container._actions:
            group_for.get(action, self)._add_action(action)

    def _positional_kwargs(self, dest, **kwargs):
        if "required" in kwargs:
            raise TypeError("'required' is an invalid argument for positionals")
        nargs = kwargs.get("nargs")
        if nargs not in (OPTIONAL, ZERO_OR_MORE) or nargs == ZERO_OR_MORE and "default" not in kwargs:
            kwargs["required"] = True
        return dict(kwargs, dest=dest, option_strings=[])

    def _optional_kwargs(self, *args, **kwargs):
        option_strings = []
        long_options = []
        for option in args:
            if option[:1] not in self.prefix_chars:
                raise ValueError("invalid option string %r: must start with a character %r"
                                 % (option, self.prefix_chars))
            option_strings.append(option)
            if len(option) > 1 and option[1] in self.prefix_chars:
                long_options.append(option)
        dest = kwargs.pop("dest", None)
        if dest is None:
            source = long_options[0] if long_options else option_strings[0]
            dest = source.lstrip(self.prefix_chars)
            if not dest:
                raise ValueError("dest= is required for options like %r" % source)
            dest = dest.replace("-", "_")
        return dict(kwargs, dest=dest, option_strings=option_strings)

    def _check_conflict(self, action):
        conflicts = [(option, self._option_string_actions[option]) for option in action.option_strings
                     if option in self._option_string_actions]
        if not conflicts:
            return
        if self.conflict_handler == "resolve":
            for option, other in conflicts:
                other.option_strings.remove(option)
                del self._option_string_actions[option]
                if not other.option_strings:
                    other.container._remove_action(other)
            return
        names = ", ".join(option for option, other in conflicts)
        raise ArgumentError(action, "conflicting option string%s: %s" % ("s" if len(conflicts) > 1 else "", names))


class _ArgumentGroup(_ActionsContainer):
    # Shares its parser's tables, so its arguments parse as the parser's own; it only adds a
    # section to the help.
    def __init__(self, container, title=None, description=None, **kwargs):
        kwargs.setdefault("conflict_handler", container.conflict_handler)
        kwargs.setdefault("prefix_chars", container.prefix_chars)
        kwargs.setdefault("argument_default", container.argument_default)
        super().__init__(description=description, **kwargs)
        self.title = title
        self._group_actions = []
        self._registries = container._registries
        self._actions = container._actions
        self._option_string_actions = container._option_string_actions
        self._defaults = container._defaults
        self._has_negative_number_optionals = container._has_negative_number_optionals
        self._mutually_exclusive_groups = container._mutually_exclusive_groups
        self._get_formatter = container._get_formatter

    def _add_action(self, action):
        action = super()._add_action(action)
        self._group_actions.append(action)
        return action

    def _remove_action(self, action):
        super()._remove_action(action)
        self._group_actions.remove(action)


class _MutuallyExclusiveGroup(_ArgumentGroup):
    def __init__(self, container, required=False):
        super().__init__(container)
        self.required = required
        self._container = container

    def _add_action(self, action):
        if action.required:
            raise ValueError("mutually exclusive arguments must be optional")
        action = self._container._add_action(action)
        self._group_actions.append(action)
        return action

    def _remove_action(self, action):
        self._container._remove_action(action)
        self._group_actions.remove(action)


def _looks_negative(text):
    # "-5", "-.5", "-2.5": negative numbers, which are values unless the parser has options
    # that look like them.
    if text[:1] != "-":
        return False
    body = text[1:]
    whole, dot, fraction = body.partition(".")
    return body.isdigit() or dot == "." and (whole == "" or whole.isdigit()) and fraction.isdigit()


# ----------------------------------------------------------------------------- argument matching
#
# Each argument string is classified as "O" (an option), "A" (a value) or "-" (the "--" marker),
# and an action's nargs becomes a sequence of steps (characters allowed, fewest, most), matched
# greedily against that pattern the way CPython's regular expressions match it.

_MANY = 1 << 30


def _nargs_steps(nargs, is_optional):
    if nargs is None:
        steps = [("-", 0, _MANY), ("A", 1, 1), ("-", 0, _MANY)]
    elif nargs == OPTIONAL:
        steps = [("-", 0, _MANY), ("A", 0, 1), ("-", 0, _MANY)]
    elif nargs == ZERO_OR_MORE:
        steps = [("-", 0, _MANY), ("A-", 0, _MANY)]
    elif nargs == ONE_OR_MORE:
        steps = [("-", 0, _MANY), ("A", 1, 1), ("A-", 0, _MANY)]
    elif nargs == REMAINDER:
        steps = [("-AO", 0, _MANY)]
    elif nargs == PARSER:
        steps = [("-", 0, _MANY), ("A", 1, 1), ("-AO", 0, _MANY)]
    elif nargs == SUPPRESS:
        steps = [("-", 0, _MANY), ("-", 0, _MANY)]
    else:
        steps = [("-", 0, _MANY)]
        for _ in range(nargs):
            steps += [("A", 1, 1), ("-", 0, _MANY)]
    if is_optional:
        # Options never take the "--" marker.
        steps = [(chars.replace("-", ""), low, high) for chars, low, high in steps]
        steps = [step for step in steps if step[0]]
    return steps


def _match_groups(step_groups, pattern):
    # The length each group consumes from the start of `pattern`, trying longer runs first; None
    # if the groups cannot all match.
    flat = [(g, step) for g, steps in enumerate(step_groups) for step in steps]
    lengths = [0] * len(step_groups)

    def match(index, pos):
        if index == len(flat):
            return True
        group, (chars, low, high) = flat[index]
        most = 0
        while most < high and pos + most < len(pattern) and pattern[pos + most] in chars:
            most += 1
        for count in range(most, low - 1, -1):
            lengths[group] += count
            if match(index + 1, pos + count):
                return True
            lengths[group] -= count
        return False

    return lengths if match(0, 0) else None


# ----------------------------------------------------------------------------- the parser

class ArgumentParser(_AttributeHolder, _ActionsContainer):
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=[],
                 formatter_class=HelpFormatter, prefix_chars="-", fromfile_prefix_chars=None,
                 argument_default=None, conflict_handler="error", add_help=True, allow_abbrev=True,
                 exit_on_error=True):
        super().__init__(description=description, prefix_chars=prefix_chars, argument_default=argument_default,
                         conflict_handler=conflict_handler)
        if prog is None:
            prog = os.path.basename(sys.argv[0])
        self.prog = prog
        self.usage = usage
        self.epilog = epilog
        self.formatter_class = formatter_class
        self.fromfile_prefix_chars = fromfile_prefix_chars
        self.add_help = add_help
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self._positionals = self.add_argument_group("positional arguments")
        self._optionals = self.add_argument_group("options")
        self._subparsers = None
        if add_help:
            prefix = "-" if "-" in prefix_chars else prefix_chars[0]
            self.add_argument(prefix + "h", prefix * 2 + "help", action="help", default=SUPPRESS,
                              help="show this help message and exit")
        for parent in parents:
            self._add_container_actions(parent)
            self._defaults.update(parent._defaults)

    def _get_kwargs(self):
        names = ["prog", "usage", "description", "formatter_class", "conflict_handler", "add_help"]
        return [(name, getattr(self, name)) for name in names]

    def _add_action(self, action):
        group = self._optionals if action.option_strings else self._positionals
        return group._add_action(action)

    def _get_formatter(self):
        return self.formatter_class(prog=self.prog)

    # Parsing.
    def parse_args(self, args=None, namespace=None):
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error("unrecognized arguments: %s" % " ".join(extras))
        return namespace

    def parse_known_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        if namespace is None:
            namespace = Namespace()
        for action in self._actions:
            if action.dest is not SUPPRESS and not hasattr(namespace, action.dest) and action.default is not SUPPRESS:
                setattr(namespace, action.dest, action.default)
        for dest, value in self._defaults.items():
            if not hasattr(namespace, dest):
                setattr(namespace, dest, value)
        if not self.exit_on_error:
            return self._parse_known_args(args, namespace)
        try:
            return self._parse_known_args(args, namespace)
        except ArgumentError as err:
            self.error(str(err))

    def _parse_known_args(self, arg_strings, namespace):
        # Which actions may not be combined, from the mutually exclusive groups.
        conflicts = {}
        for group in self._mutually_exclusive_groups:
            for i, action in enumerate(group._group_actions):
                conflicts.setdefault(action, []).extend(group._group_actions[:i] + group._group_actions[i + 1:])

        options_at = {}
        pattern = ""
        after_marker = False
        for i, text in enumerate(arg_strings):
            if after_marker:
                pattern += "A"
            elif text == "--":
                pattern += "-"
                after_marker = True
            else:
                option = self._parse_optional(text)
                if option is None:
                    pattern += "A"
                else:
                    options_at[i] = option
                    pattern += "O"

        seen = set()
        seen_non_default = set()
        extras = []
        positionals = [action for action in self._actions if not action.option_strings]

        def take_action(action, strings, option_string=None):
            seen.add(action)
            values = self._get_values(action, strings)
            if values is not action.default:
                seen_non_default.add(action)
                for other in conflicts.get(action, []):
                    if other in seen_non_default:
                        raise ArgumentError(action, "not allowed with argument %s" % _action_name(other))
            if values is not SUPPRESS:
                action(self, namespace, values, option_string)

        def consume_optional(start):
            action, option_string, explicit = options_at[start]
            calls = []
            while True:
                if action is None:
                    extras.append(arg_strings[start])
                    return start + 1
                if explicit is None:
                    count = self._match_argument(action, pattern[start + 1:])
                    stop = start + 1 + count
                    calls.append((action, arg_strings[start + 1:stop], option_string))
                    break
                count = self._match_argument(action, "A")
                if count == 0 and option_string[1] not in self.prefix_chars and explicit != "":
                    # "-vx": a flag followed by more single-character flags.
                    calls.append((action, [], option_string))
                    option_string = option_string[0] + explicit[0]
                    if option_string not in self._option_string_actions:
                        raise ArgumentError(action, "ignored explicit argument %r" % explicit)
                    action = self._option_string_actions[option_string]
                    explicit = explicit[1:] or None
                elif count == 1:
                    stop = start + 1
                    calls.append((action, [explicit], option_string))
                    break
                else:
                    raise ArgumentError(action, "ignored explicit argument %r" % explicit)
            for action, strings, option_string in calls:
                take_action(action, strings, option_string)
            return stop

        def consume_positionals(start):
            counts = self._match_arguments_partial(positionals, pattern[start:])
            for action, count in zip(positionals, counts):
                strings = arg_strings[start:start + count]
                start += count
                take_action(action, strings)
            del positionals[:len(counts)]
            return start

        index = 0
        last_option = max(options_at) if options_at else -1
        while index <= last_option:
            next_option = min(i for i in options_at if i >= index)
            if index != next_option:
                end = consume_positionals(index)
                if end > index:
                    index = end
                    continue
                index = end
            if index not in options_at:
                extras.extend(arg_strings[index:next_option])
                index = next_option
            index = consume_optional(index)
        index = consume_positionals(index)
        extras.extend(arg_strings[index:])

        missing = []
        for action in self._actions:
            if action in seen:
                continue
            if action.required:
                missing.append(_action_name(action))
            elif (isinstance(action.default, str) and hasattr(namespace, action.dest)
                  and action.default is getattr(namespace, action.dest)):
                # String defaults go through type= like command-line values.
                setattr(namespace, action.dest, self._get_value(action, action.default))
        if missing:
            self.error("the following arguments are required: %s" % ", ".join(missing))
        for group in self._mutually_exclusive_groups:
            if group.required and not any(action in seen_non_default for action in group._group_actions):
                names = [_action_name(action) for action in group._group_actions if action.help is not SUPPRESS]
                self.error("one of the arguments %s is required" % " ".join(names))
        return namespace, extras

    def _match_argument(self, action, pattern):
        lengths = _match_groups([_nargs_steps(action.nargs, bool(action.option_strings))], pattern)
        if lengths is not None:
            return lengths[0]
        if action.nargs is None:
            message = "expected one argument"
        elif action.nargs == OPTIONAL:
            message = "expected at most one argument"
        elif action.nargs == ONE_OR_MORE:
            message = "expected at least one argument"
        else:
            message = "expected %s argument%s" % (action.nargs, "" if action.nargs == 1 else "s")
        raise ArgumentError(action, message)

    def _match_arguments_partial(self, actions, pattern):
        # As many leading positionals as the pattern can feed, most first.
        for n in range(len(actions), 0, -1):
            steps = [_nargs_steps(action.nargs, bool(action.option_strings)) for action in actions[:n]]
            lengths = _match_groups(steps, pattern)
            if lengths is not None:
                return lengths
        return []

    def _parse_optional(self, text):
        # (action, option string, explicit value) for an option, or None for a value.
        if not text or text[0] not in self.prefix_chars:
            return None
        if text in self._option_string_actions:
            return self._option_string_actions[text], text, None
        if len(text) == 1:
            return None
        if "=" in text:
            option, value = text.split("=", 1)
            if option in self._option_string_actions:
                return self._option_string_actions[option], option, value
        matches = self._option_prefix_matches(text)
        if len(matches) > 1:
            names = ", ".join(option for action, option, value in matches)
            self.error("ambiguous option: %s could match %s" % (text, names))
        if len(matches) == 1:
            return matches[0]
        if _looks_negative(text) and not self._has_negative_number_optionals:
            return None
        if " " in text:
            return None
        return None, text, None

    def _option_prefix_matches(self, text):
        # Abbreviated long options ("--lr" for "--lr-decay") and a short option glued to its
        # value or to further flags ("-j4", "-vv").
        matches = []
        chars = self.prefix_chars
        if text[0] in chars and text[1] in chars:
            if self.allow_abbrev:
                prefix, sep, value = text.partition("=")
                for option, action in self._option_string_actions.items():
                    if option.startswith(prefix):
                        matches.append((action, option, value if sep else None))
        elif text[0] in chars and text[1] not in chars:
            short, rest = text[:2], text[2:]
            for option, action in self._option_string_actions.items():
                if option == short:
                    matches.append((action, option, rest))
                elif option.startswith(text):
                    matches.append((action, option, None))
        return matches

    def _get_values(self, action, strings):
        if action.nargs not in (PARSER, REMAINDER) and "--" in strings:
            strings = list(strings)
            strings.remove("--")
        if not strings and action.nargs == OPTIONAL:
            value = action.const if action.option_strings else action.default
            if isinstance(value, str):
                value = self._get_value(action, value)
                self._check_value(action, value)
        elif not strings and action.nargs == ZERO_OR_MORE and not action.option_strings:
            value = action.default if action.default is not None else strings
            self._check_value(action, value)
        elif len(strings) == 1 and action.nargs in (None, OPTIONAL):
            value = self._get_value(action, strings[0])
            self._check_value(action, value)
        elif action.nargs == REMAINDER:
            value = [self._get_value(action, text) for text in strings]
        elif action.nargs == PARSER:
            value = [self._get_value(action, text) for text in strings]
            self._check_value(action, value[0])
        elif action.nargs == SUPPRESS:
            value = SUPPRESS
        else:
            value = [self._get_value(action, text) for text in strings]
            for item in value:
                self._check_value(action, item)
        return value

    def _get_value(self, action, text):
        convert = self._registry_get("type", action.type, action.type)
        if not callable(convert):
            raise ArgumentError(action, "%r is not callable" % (convert,))
        try:
            return convert(text)
        except ArgumentTypeError as err:
            raise ArgumentError(action, str(err))
        except (TypeError, ValueError):
            name = getattr(action.type, "__name__", repr(action.type))
            raise ArgumentError(action, "invalid %s value: %r" % (name, text))

    def _check_value(self, action, value):
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(repr(choice) for choice in action.choices)
            raise ArgumentError(action, "invalid choice: %r (choose from %s)" % (value, choices))

    # Help and errors.
    def format_usage(self):
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        return formatter.format_help()

    def format_help(self):
        formatter = self._get_formatter()
        formatter.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        formatter.add_text(self.description)
        for group in self._action_groups:
            formatter.start_section(group.title)
            formatter.add_text(group.description)
            formatter.add_arguments(group._group_actions)
            formatter.end_section()
        formatter.add_text(self.epilog)
        return formatter.format_help()

    def print_usage(self, file=None):
        self._print_message(self.format_usage(), file if file is not None else sys.stdout)

    def print_help(self, file=None):
        self._print_message(self.format_help(), file if file is not None else sys.stdout)

    def _print_message(self, message, file=None):
        if message:
            (file or sys.stderr).write(message)

    def exit(self, status=0, message=None):
        if message:
            self._print_message(message, sys.stderr)
        sys.exit(status)

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, "%s: error: %s\n" % (self.prog, message))
