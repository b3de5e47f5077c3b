# tests/python/broken_helper.py: a helper file whose top level fails when imported (line 4).
VALUE = 1

VALUE = VALUE + missing_name
