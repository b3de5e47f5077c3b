# src/py/python/os.py: the os module for lesson code, in attn's Python: its constants, os.path
# (posixpath.py), an empty environment (environ, getenv), and cpu_count().
# What it is not: access to the machine. Lesson code runs without files, processes or the
# environment attn was started with (docs/instructors.md, "Untrusted lesson and answer files"), so the functions that would
# touch them (makedirs, listdir, remove, getcwd, system, ...) raise PermissionError naming
# themselves: a tutorial that only imports os, or calls os.path.join, runs unchanged.
import posixpath as path
from _attn_stdlib import cpu_count, refusal as _refusal

name = 'posix'
sep = path.sep
curdir = path.curdir
pardir = path.pardir
extsep = path.extsep
pathsep = path.pathsep
altsep = path.altsep
defpath = path.defpath
devnull = path.devnull
linesep = '\n'
environ = {}


def getenv(key, default=None):
    return environ.get(key, default)


def _no_access(name):
    return _refusal("os." + name, "attn runs lesson code without access to files or processes: os." + name + " is not available")


makedirs = _no_access('makedirs')
mkdir = _no_access('mkdir')
listdir = _no_access('listdir')
scandir = _no_access('scandir')
walk = _no_access('walk')
remove = _no_access('remove')
unlink = _no_access('unlink')
rmdir = _no_access('rmdir')
removedirs = _no_access('removedirs')
rename = _no_access('rename')
replace = _no_access('replace')
stat = _no_access('stat')
lstat = _no_access('lstat')
chdir = _no_access('chdir')
getcwd = _no_access('getcwd')
system = _no_access('system')
popen = _no_access('popen')
open = _no_access('open')
read = _no_access('read')
write = _no_access('write')
close = _no_access('close')
chmod = _no_access('chmod')
symlink = _no_access('symlink')
link = _no_access('link')
readlink = _no_access('readlink')
access = _no_access('access')
kill = _no_access('kill')
getpid = _no_access('getpid')
getppid = _no_access('getppid')
putenv = _no_access('putenv')
unsetenv = _no_access('unsetenv')
fspath = _no_access('fspath')
urandom = _no_access('urandom')
execv = _no_access('execv')
execve = _no_access('execve')
fork = _no_access('fork')
spawnv = _no_access('spawnv')
truncate = _no_access('truncate')
utime = _no_access('utime')
