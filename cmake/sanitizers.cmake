# cmake/sanitizers.cmake: the checked build: AddressSanitizer + UndefinedBehaviorSanitizer, and
# the libFuzzer harnesses of fuzz/.
#
#   -DATTN_SANITIZE=ON        every target built with -fsanitize=address,undefined; any report
#                             stops the program (-fno-sanitize-recover=all). For running the tests:
#                             .ci/run (ATTN_CI_SANITIZERS=1) runs the whole ctest suite in such a build.
#   -DATTN_BUILD_FUZZERS=ON   (clang only; implies ATTN_SANITIZE) also builds fuzz/; the libraries
#                             the harnesses read with (lesson, py, lab) get libFuzzer's coverage
#                             instrumentation there (fuzz/CMakeLists.txt). One build serves both:
#                             the instrumentation does not change results, and core/ (the kernels
#                             the test suite spends its time in) is left without it.
#
# Both use -O2 (the suite's kernels at T = 8192 are too slow at -O1 under ASan) and line tables
# for readable stack traces, whatever the build type. The numbers stay bit-exact:
# -ffp-contract=off (CMakeLists.txt) holds for both compilers, and nothing here allows
# reassociation.
# What it is not: the fuzz targets (fuzz/CMakeLists.txt) or the run options (ASAN_OPTIONS and
# UBSAN_OPTIONS, set by .ci/run).
option(ATTN_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(ATTN_BUILD_FUZZERS "Build the libFuzzer harnesses in fuzz/ (clang; implies ATTN_SANITIZE)" OFF)

if(ATTN_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "attn: ATTN_BUILD_FUZZERS needs clang (libFuzzer); configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ (apt-get install clang libclang-rt-dev)")
  endif()
  set(ATTN_SANITIZE ON)
endif()

if(ATTN_SANITIZE)
  set(attn_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${attn_sanitize_flags} -O2)
  add_link_options(${attn_sanitize_flags})
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options(-gline-tables-only)
  else()
    add_compile_options(-g1)
  endif()
endif()
