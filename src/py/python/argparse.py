# src/py/python/argparse.py: the argparse module for lesson code, in attn's Python.
#
# What it is: what training scripts do with it: ArgumentParser(description=...), add_argument
# with option strings or a positional name, type, default (a string default goes through type, as
# CPython does), help, dest, metavar, choices, required, nargs (None, '?', '*', '+', N), const, and
# the actions store, store_const, store_true, store_false, append, append_const, count, help and
# version; parse_args(args=None) and parse_known_args (a lesson has no command line: sys.argv[1:]
# is empty, so the defaults are the answer; notebooks pass a list, parse_args([]) or
# parse_args(['--lr', '0.1'])), `--opt=value`, `-xVALUE`, clustered short flags (-vv), add_argument_group and
# add_mutually_exclusive_group (as plain groups), set_defaults/get_default, Namespace (repr, ==,
# `in`, attributes) and ArgumentParser.error / exit with CPython's "usage: ... error: ..." on
# stderr and SystemExit(2).
# What it is not: CPython's HelpFormatter: print_help/format_help write the usage line and the
# arguments one per line, not CPython's wrapped columns; subparsers, abbreviations of long
# options, prefix_chars other than '-', fromfile_prefix_chars and
# FileType are not implemented (a one-line NotImplementedError names them). attn's strings have no
# identity, so SUPPRESS and a string default are recognised by value (CPython: by `is`).
import sys

__all__ = ['ArgumentParser', 'ArgumentError', 'ArgumentTypeError', 'Namespace', 'SUPPRESS',
           'OPTIONAL', 'ZERO_OR_MORE', 'ONE_OR_MORE', 'REMAINDER', 'HelpFormatter',
           'RawDescriptionHelpFormatter', 'RawTextHelpFormatter', 'ArgumentDefaultsHelpFormatter']

SUPPRESS = '==SUPPRESS=='
OPTIONAL = '?'
ZERO_OR_MORE = '*'
ONE_OR_MORE = '+'
REMAINDER = '...'


class HelpFormatter:
    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        self._prog = prog


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    pass


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = None if argument is None else '/'.join(argument.option_strings) or argument.metavar or argument.dest
        self.message = message

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return 'argument %s: %s' % (self.argument_name, self.message)


class ArgumentTypeError(Exception):
    pass


class Namespace:
    def __init__(self, **kwargs):
        for name in kwargs:
            setattr(self, name, kwargs[name])

    def __repr__(self):
        parts = []
        for name, value in self.__dict__.items():
            if name.isidentifier():
                parts.append('%s=%r' % (name, value))
            else:
                parts.append('**{%r: %r}' % (name, value))
        return 'Namespace(%s)' % ', '.join(parts)

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        return vars(self) == vars(other)

    def __contains__(self, key):
        return key in self.__dict__


class Action:
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None,
                 choices=None, required=False, help=None, metavar=None, version=None):
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
        self.version = version

    def __repr__(self):
        names = ['option_strings', 'dest', 'nargs', 'const', 'default', 'type', 'choices', 'required', 'help', 'metavar']
        return '%s(%s)' % (type(self).__name__, ', '.join('%s=%r' % (n, getattr(self, n)) for n in names))


_NO_ARGS = ('store_const', 'store_true', 'store_false', 'append_const', 'count', 'help', 'version')


class _Group:
    def __init__(self, parser, title=None, description=None):
        self._parser = parser
        self.title = title
        self.description = description

    def add_argument(self, *args, **kwargs):
        return self._parser.add_argument(*args, **kwargs)

    def add_argument_group(self, *args, **kwargs):
        return _Group(self._parser, *args, **kwargs)

    def add_mutually_exclusive_group(self, required=False):
        return _Group(self._parser)


def _is_optional_string(s):
    if not s or s[0] != '-' or s == '-':
        return False
    try:
        float(s)
        return False   # a negative number is a value (the parser has no options that look like one)
    except ValueError:
        return True


class ArgumentParser(_Group):
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=[],
                 formatter_class=HelpFormatter, prefix_chars='-', fromfile_prefix_chars=None,
                 argument_default=None, conflict_handler='error', add_help=True, allow_abbrev=True,
                 exit_on_error=True):
        if prefix_chars != '-' or fromfile_prefix_chars is not None:
            raise NotImplementedError("attn's argparse takes options beginning with '-' only (no prefix_chars or fromfile_prefix_chars)")
        if prog is None:
            prog = sys.argv[0].split('/')[-1] if sys.argv and sys.argv[0] else 'lesson'
        self.prog = prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.formatter_class = formatter_class
        self.argument_default = argument_default
        self.add_help = add_help
        self.exit_on_error = exit_on_error
        self._parser = self
        self._actions = []
        self._defaults = {}
        if add_help:
            self.add_argument('-h', '--help', action='help', default=SUPPRESS, help='show this help message and exit')
        for parent in parents:
            for action in parent._actions:
                if action.option_strings != ['-h', '--help']:
                    self._actions.append(action)
            self._defaults.update(parent._defaults)

    def add_argument(self, *args, **kwargs):
        action = kwargs.pop('action', 'store')
        if not args or (len(args) == 1 and not args[0].startswith('-')):
            if 'dest' in kwargs and args:
                raise ValueError('dest supplied twice for positional argument')
            dest = args[0] if args else kwargs.pop('dest')
            option_strings = []
            if kwargs.get('nargs') in ('?', '*') or kwargs.get('nargs') is None and 'required' in kwargs:
                if 'required' in kwargs:
                    raise TypeError("'required' is an invalid argument for positionals")
            required = kwargs.get('nargs') not in ('?', '*', REMAINDER)
        else:
            for s in args:
                if not s.startswith('-'):
                    raise ValueError("invalid option string %r: must start with a character '-'" % s)
            option_strings = list(args)
            dest = kwargs.pop('dest', None)
            if dest is None:
                longs = [s for s in args if s.startswith('--')]
                dest = (longs[0] if longs else args[0]).lstrip('-').replace('-', '_')
            required = kwargs.pop('required', False)
        kwargs.pop('required', None)
        if callable(action) and not isinstance(action, str):
            raise NotImplementedError("attn's argparse takes the built-in actions by name, not Action classes")
        if action not in ('store', 'append', 'extend') + _NO_ARGS:
            raise ValueError('unknown action "%s"' % (action,))
        default = kwargs.pop('default', self.argument_default)
        if action == 'store_true':
            default = False if default is None else default
            kwargs['const'] = True
        elif action == 'store_false':
            default = True if default is None else default
            kwargs['const'] = False
        elif action in ('help', 'version') and default is None:
            default = SUPPRESS
        if action in _NO_ARGS:
            kwargs['nargs'] = 0
        elif kwargs.get('nargs') == 0:
            raise ValueError('nargs for store actions must be != 0; if you have nothing to store, actions such as store true or store const may be more appropriate')
        if dest in self._defaults:
            default = self._defaults[dest]
        a = Action(option_strings, dest, default=default, required=required, **kwargs)
        a.action = action
        if a.type is not None and not callable(a.type):
            raise ValueError('%r is not callable' % (a.type,))
        self._actions.append(a)
        return a

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

    def add_subparsers(self, **kwargs):
        raise NotImplementedError("attn's argparse has no subparsers (sub-commands)")

    # ---- parsing --------------------------------------------------------------------------------

    def parse_args(self, args=None, namespace=None):
        args, argv = self.parse_known_args(args, namespace)
        if argv:
            self.error('unrecognized arguments: %s' % ' '.join(argv))
        return args

    def parse_known_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        if namespace is None:
            namespace = Namespace()
        for action in self._actions:
            if action.dest != SUPPRESS and not hasattr(namespace, action.dest) and action.default != SUPPRESS:
                setattr(namespace, action.dest, action.default)
        for dest in self._defaults:
            if not hasattr(namespace, dest):
                setattr(namespace, dest, self._defaults[dest])
        try:
            extras = self._parse(args, namespace)
        except ArgumentError as err:
            self.error(str(err))
        return namespace, extras

    def _option(self, string):
        for action in self._actions:
            if string in action.option_strings:
                return action
        return None

    def _parse(self, args, namespace):
        seen, extras, positionals = [], [], []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == '--':
                positionals.extend(args[i + 1:])
                break
            if not _is_optional_string(arg):
                positionals.append(arg)
                i += 1
                continue
            explicit = None
            action = self._option(arg)
            if action is None and '=' in arg:
                arg, explicit = arg.split('=', 1)
                action = self._option(arg)
            if action is None and not arg.startswith('--') and len(arg) > 2:
                action, explicit = self._option(arg[:2]), arg[2:]
                arg = arg[:2]
            if action is None:
                extras.append(args[i])
                i += 1
                continue
            i += 1
            while explicit is not None and action.nargs == 0 and not arg.startswith('--'):   # -vv: -v -v
                following = self._option('-' + explicit[0])
                if following is None:
                    raise ArgumentError(action, 'ignored explicit argument %r' % explicit)
                seen.append(action)
                self._take(action, [], namespace, arg)
                action, arg, explicit = following, '-' + explicit[0], explicit[1:] or None
            if explicit is not None:
                if action.nargs == 0:
                    raise ArgumentError(action, 'ignored explicit argument %r' % explicit)
                values = [explicit]
            else:
                values = []
                while i < len(args) and not _is_optional_string(args[i]) and args[i] != '--' and self._wants_more(action, values):
                    values.append(args[i])
                    i += 1
            self._check_count(action, values)
            seen.append(action)
            self._take(action, values, namespace, arg)
        self._take_positionals(positionals, namespace, seen, extras)
        self._check_required(seen, namespace)
        return extras

    def _wants_more(self, action, values):
        n = action.nargs
        if n is None or n == '?':
            return len(values) < 1
        if n in ('*', '+', REMAINDER):
            return True
        return len(values) < n

    def _check_count(self, action, values):
        n, k = action.nargs, len(values)
        if n is None and k != 1:
            raise ArgumentError(action, 'expected one argument')
        if n == '+' and k < 1:
            raise ArgumentError(action, 'expected at least one argument')
        if isinstance(n, int) and k != n:
            raise ArgumentError(action, 'expected %s argument%s' % (n, '' if n == 1 else 's'))

    def _take_positionals(self, strings, namespace, seen, extras):
        actions = [a for a in self._actions if not a.option_strings]
        for idx, action in enumerate(actions):
            n = action.nargs
            needed_after = sum(1 if a.nargs is None else a.nargs if isinstance(a.nargs, int) else 1 if a.nargs == '+' else 0
                               for a in actions[idx + 1:])
            if n is None:
                count = 1
            elif n == '?':
                count = min(1, max(0, len(strings) - needed_after))
            elif n in ('*', REMAINDER):
                count = max(0, len(strings) - needed_after)
            elif n == '+':
                count = max(1, len(strings) - needed_after)
            else:
                count = n
            if count > len(strings):
                break   # _check_required names what is missing
            values, strings = strings[:count], strings[count:]
            seen.append(action)
            self._take(action, values, namespace, None)
        extras.extend(strings)

    def _check_required(self, seen, namespace):
        missing = [a for a in self._actions if a.required and a not in seen]
        if missing:
            names = ['/'.join(a.option_strings) if a.option_strings else (a.metavar or a.dest) for a in missing]
            self.error('the following arguments are required: %s' % ', '.join(names))
        for action in self._actions:   # a string default goes through type, as CPython does
            if action not in seen and isinstance(action.default, str) and action.dest != SUPPRESS \
                    and getattr(namespace, action.dest, None) == action.default:
                setattr(namespace, action.dest, self._convert(action, action.default))

    def _convert(self, action, string):
        if action.type is None:
            return string
        try:
            return action.type(string)
        except ArgumentTypeError as err:
            raise ArgumentError(action, str(err))
        except (TypeError, ValueError):
            name = getattr(action.type, '__name__', repr(action.type))
            raise ArgumentError(action, 'invalid %s value: %r' % (name, string))

    def _value(self, action, values):
        n = action.nargs
        if n == '?' and not values:
            value = action.const if action.option_strings else action.default
            return self._convert(action, value) if isinstance(value, str) else value
        converted = [self._convert(action, v) for v in values]
        if action.choices is not None:
            for v in converted:
                if v not in action.choices:
                    choices = ', '.join(map(repr, action.choices))
                    raise ArgumentError(action, 'invalid choice: %r (choose from %s)' % (v, choices))
        if n is None or n == '?':
            return converted[0]
        if n == '*' and not values and not action.option_strings:
            return action.default if action.default is not None else []
        return converted

    def _take(self, action, values, namespace, option_string):
        kind = action.action
        if kind == 'help':
            self.print_help()
            self.exit()
        if kind == 'version':
            print(action.version.replace('%(prog)s', self.prog))
            self.exit()
        if kind in ('store_const', 'store_true', 'store_false'):
            setattr(namespace, action.dest, action.const)
        elif kind == 'append_const':
            setattr(namespace, action.dest, list(getattr(namespace, action.dest, None) or []) + [action.const])
        elif kind == 'count':
            count = getattr(namespace, action.dest, None)
            setattr(namespace, action.dest, (0 if count is None else count) + 1)
        elif kind == 'append':
            setattr(namespace, action.dest, list(getattr(namespace, action.dest, None) or []) + [self._value(action, values)])
        elif kind == 'extend':
            setattr(namespace, action.dest, list(getattr(namespace, action.dest, None) or []) + list(self._value(action, values)))
        else:
            setattr(namespace, action.dest, self._value(action, values))

    # ---- output ---------------------------------------------------------------------------------

    def _metavar(self, action):
        if action.metavar is not None:
            return action.metavar
        if action.choices is not None:
            return '{%s}' % ','.join(map(str, action.choices))
        return action.dest.upper() if action.option_strings else action.dest

    def _usage_part(self, action):
        if action.nargs == 0:
            part = action.option_strings[0]
        else:
            m = self._metavar(action)
            n = action.nargs
            arg = {None: m, '?': '[%s]' % m, '*': '[%s ...]' % m, '+': '%s [%s ...]' % (m, m)}.get(n, ' '.join([m] * n) if isinstance(n, int) else m)
            part = (action.option_strings[0] + ' ' + arg) if action.option_strings else arg
        return part if action.required or not action.option_strings else '[%s]' % part

    def format_usage(self):
        if self.usage is not None:
            return 'usage: %s\n' % self.usage.replace('%(prog)s', self.prog)
        parts = [self._usage_part(a) for a in self._actions if a.option_strings] + \
                [self._usage_part(a) for a in self._actions if not a.option_strings]
        return 'usage: %s\n' % ' '.join([self.prog] + parts)

    def format_help(self):
        out = [self.format_usage()]
        if self.description:
            out.append('\n%s\n' % self.description)
        positionals = [a for a in self._actions if not a.option_strings]
        if positionals:
            out.append('\npositional arguments:\n')
            out.extend('  %s  %s\n' % (self._metavar(a), a.help or '') for a in positionals)
        optionals = [a for a in self._actions if a.option_strings]
        if optionals:
            out.append('\noptions:\n')
            for a in optionals:
                names = ', '.join(s if a.nargs == 0 else '%s %s' % (s, self._metavar(a)) for s in a.option_strings)
                out.append('  %s  %s\n' % (names, a.help or ''))
        if self.epilog:
            out.append('\n%s\n' % self.epilog)
        return ''.join(out)

    def print_usage(self, file=None):
        (file or sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or sys.stdout).write(self.format_help())

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        sys.exit(status)

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, '%s: error: %s\n' % (self.prog, message))
