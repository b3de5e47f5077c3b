# src/py/python/posixpath.py: os.path for lesson code, in attn's Python: the functions that only
# compute with path strings (join, split, splitext, basename, dirname, normpath, isabs, ...), as
# CPython 3.11's Lib/posixpath.py computes them, for str paths.
# What it is not: a way to the file system. Lesson code runs without file access (docs/instructors.md: what a
# lesson can do), so the functions that would look at files (exists, isfile, getsize, abspath,
# expanduser, realpath, ...) raise PermissionError naming themselves, never a made-up answer.
from _attn_stdlib import refusal as _refusal

sep = '/'
curdir = '.'
pardir = '..'
extsep = '.'
pathsep = ':'
altsep = None
defpath = '/bin:/usr/bin'
devnull = '/dev/null'


def _no_files(name):
    return _refusal("os.path." + name, "attn runs lesson code without file access: os.path." + name + " is not available")


exists = _no_files('exists')
lexists = _no_files('lexists')
isfile = _no_files('isfile')
isdir = _no_files('isdir')
islink = _no_files('islink')
ismount = _no_files('ismount')
getsize = _no_files('getsize')
getmtime = _no_files('getmtime')
getatime = _no_files('getatime')
getctime = _no_files('getctime')
abspath = _no_files('abspath')
realpath = _no_files('realpath')
expanduser = _no_files('expanduser')
expandvars = _no_files('expandvars')
samefile = _no_files('samefile')
relpath = _no_files('relpath')


def isabs(s):
    return s.startswith('/')


def join(a, *p):
    path = a
    for b in p:
        if b.startswith('/'):
            path = b
        elif not path or path.endswith('/'):
            path += b
        else:
            path += '/' + b
    return path


def split(p):
    i = p.rfind('/') + 1
    head, tail = p[:i], p[i:]
    if head and head != '/' * len(head):
        head = head.rstrip('/')
    return head, tail


def splitext(p):
    sep_index = p.rfind('/')
    dot_index = p.rfind('.')
    if dot_index > sep_index:
        filename_index = sep_index + 1
        while filename_index < dot_index:
            if p[filename_index] != '.':
                return p[:dot_index], p[dot_index:]
            filename_index += 1
    return p, p[:0]


def splitdrive(p):
    return p[:0], p


def basename(p):
    return p[p.rfind('/') + 1:]


def dirname(p):
    i = p.rfind('/') + 1
    head = p[:i]
    if head and head != '/' * len(head):
        head = head.rstrip('/')
    return head


def normpath(path):
    if path == '':
        return '.'
    initial_slashes = 1 if path.startswith('/') else 0
    if initial_slashes and path.startswith('//') and not path.startswith('///'):
        initial_slashes = 2
    new_comps = []
    for comp in path.split('/'):
        if comp in ('', '.'):
            continue
        if comp != '..' or (not initial_slashes and not new_comps) or (new_comps and new_comps[-1] == '..'):
            new_comps.append(comp)
        elif new_comps:
            new_comps.pop()
    path = '/'.join(new_comps)
    if initial_slashes:
        path = '/' * initial_slashes + path
    return path or '.'


def commonprefix(m):
    if not m:
        return ''
    s1 = min(m)
    s2 = max(m)
    for i, c in enumerate(s1):
        if c != s2[i]:
            return s1[:i]
    return s1
