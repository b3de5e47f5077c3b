# tests/python/mypkg/util.py: a module of the test package, imported by its siblings.
def double(x):
    return 2 * x


def fail(x):
    return x + missing_in_util
