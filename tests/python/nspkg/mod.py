# tests/python/nspkg/mod.py: a module of a folder without __init__.py (a namespace package).
NAME = "nspkg.mod"
