// tests/test_main.cpp: doctest's main for the one test binary (every tests/test_*.cpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
