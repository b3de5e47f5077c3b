# tests/python/warn_helper.py: a module beside the cases whose functions warn, for
# stdlib_warnings.cases: a warning names this file and line, and DeprecationWarning is hidden
# outside __main__. Not a test by itself.
import warnings


def old():
    warnings.warn("old() is deprecated", DeprecationWarning)


def loud():
    warnings.warn("loud from a helper")


def caller_line():
    warnings.warn("names the caller's line", stacklevel=2)
