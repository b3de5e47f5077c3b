# src/py/python/string.py: Python's string module for lesson code, in attn's Python: the character
# constants, capwords and Template (substitute, safe_substitute with $name, ${name} and $$).
# Written after CPython 3.11's Lib/string.py.
# What it is not: Formatter, or Template's pattern customisation (delimiter, idpattern).

whitespace = ' \t\n\r\x0b\x0c'
ascii_lowercase = 'abcdefghijklmnopqrstuvwxyz'
ascii_uppercase = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
ascii_letters = ascii_lowercase + ascii_uppercase
digits = '0123456789'
hexdigits = digits + 'abcdef' + 'ABCDEF'
octdigits = '01234567'
punctuation = r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~"""
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or ' ').join([x[:1].upper() + x[1:].lower() for x in s.split(sep)])


def _is_name_start(ch):
    return ch == '_' or ('a' <= ch.lower() <= 'z')


def _is_name_char(ch):
    return _is_name_start(ch) or '0' <= ch <= '9'


class Template:
    delimiter = '$'

    def __init__(self, template):
        self.template = template

    def _render(self, mapping, safe):
        t = self.template
        out = []
        k = 0
        n = len(t)
        while k < n:
            ch = t[k]
            if ch != '$':
                out.append(ch)
                k += 1
                continue
            if k + 1 < n and t[k + 1] == '$':
                out.append('$')
                k += 2
                continue
            braced = k + 1 < n and t[k + 1] == '{'
            start = k + 2 if braced else k + 1
            end = start
            if end < n and _is_name_start(t[end]):
                end += 1
                while end < n and _is_name_char(t[end]):
                    end += 1
            name = t[start:end]
            if not name or (braced and (end >= n or t[end] != '}')):
                if safe:
                    out.append('$')
                    k += 1
                    continue
                lines = t[:k].split('\n')
                line = len(lines)
                col = len(lines[-1]) + 1
                raise ValueError(f'Invalid placeholder in string: line {line}, col {col}')
            after = end + 1 if braced else end
            if name in mapping:
                out.append(str(mapping[name]))
            elif safe:
                out.append(t[k:after])
            else:
                raise KeyError(name)
            k = after
        return ''.join(out)

    def substitute(self, mapping=None, **kws):
        values = {} if mapping is None else dict(mapping)
        values.update(kws)
        return self._render(values, False)

    def safe_substitute(self, mapping=None, **kws):
        values = {} if mapping is None else dict(mapping)
        values.update(kws)
        return self._render(values, True)
