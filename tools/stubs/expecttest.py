# tools/stubs/expecttest.py: the two names torch.testing._internal imports from the unpackaged
# `expecttest` (Debian ships torch without it). Only for making vectors; never used by attn.
import unittest
TestCase = unittest.TestCase
ACCEPT = False
