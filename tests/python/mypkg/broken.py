# tests/python/mypkg/broken.py: fails while it is imported (line 4).
VALUE = 1

VALUE = VALUE + missing_in_broken
