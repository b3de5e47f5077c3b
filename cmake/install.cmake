# cmake/install.cmake: what `cmake --install` puts where, and the .deb `cpack -G DEB` makes of it.
#
# What it is:
# - the man page and the bash/zsh completions, made at build time by the attn just built
#   (`attn man`, `attn completion bash|zsh`), so they say what its --help says and list the
#   lessons it ships with; they are remade when attn or a lesson changes;
# - the install rules, Debian's layout under the prefix:
#     bin/attn
#     share/attn/lessons/*.lesson              (found by the binary relative to itself)
#     share/bash-completion/completions/attn
#     share/zsh/vendor-completions/_attn
#     share/man/man1/attn.1
#     share/doc/attn/{README.md, LICENSE, THIRD-PARTY.md, lessons/README.md, docs/*.md, examples/}
#     share/doc/attn/copyright                 (packaging/copyright: Debian's machine-readable form)
# - CPack's Debian package (prefix /usr, dependencies from dpkg-shlibdeps).
# What it is not: the build of attn itself (CMakeLists.txt) or the test of the installed tree
# (tests/install/install_test.sh).

set(ATTN_GENERATED_DIR "${CMAKE_BINARY_DIR}/generated")
file(MAKE_DIRECTORY "${ATTN_GENERATED_DIR}")
file(GLOB ATTN_LESSON_FILES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/lessons/*.lesson")

# attn_generate(OUTPUT ARGS...): OUTPUT is `attn ARGS` printed, remade when attn or a lesson changes.
function(attn_generate output)
  list(JOIN ARGN " " args)
  add_custom_command(
    OUTPUT "${ATTN_GENERATED_DIR}/${output}"
    COMMAND "${CMAKE_COMMAND}" "-DPROGRAM=$<TARGET_FILE:attn>" "-DARGS=${args}"
            "-DOUTPUT=${ATTN_GENERATED_DIR}/${output}" -P "${CMAKE_SOURCE_DIR}/cmake/run_to_file.cmake"
    DEPENDS attn ${ATTN_LESSON_FILES} "${CMAKE_SOURCE_DIR}/cmake/run_to_file.cmake"
    COMMENT "Generating ${output} (attn ${args})"
    VERBATIM)
endfunction()
attn_generate(attn.1 man)
attn_generate(attn.bash completion bash)
attn_generate(_attn completion zsh)
add_custom_target(attn_generated ALL
  DEPENDS "${ATTN_GENERATED_DIR}/attn.1" "${ATTN_GENERATED_DIR}/attn.bash" "${ATTN_GENERATED_DIR}/_attn")

install(TARGETS attn RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/lessons/" DESTINATION "${ATTN_LESSON_INSTALL_DIR}"
        PATTERN "README.md" EXCLUDE)   # the format's description goes with the documentation
install(FILES "${ATTN_GENERATED_DIR}/attn.bash" DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions"
        RENAME attn)
install(FILES "${ATTN_GENERATED_DIR}/_attn" DESTINATION "${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions")
install(FILES "${ATTN_GENERATED_DIR}/attn.1" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
# The documentation keeps the repository's relative layout, so README.md's links still resolve.
install(FILES "${CMAKE_SOURCE_DIR}/README.md" "${CMAKE_SOURCE_DIR}/LICENSE" "${CMAKE_SOURCE_DIR}/THIRD-PARTY.md"
              "${CMAKE_SOURCE_DIR}/packaging/copyright" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(FILES "${CMAKE_SOURCE_DIR}/lessons/README.md" DESTINATION "${CMAKE_INSTALL_DOCDIR}/lessons")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/docs/" DESTINATION "${CMAKE_INSTALL_DOCDIR}/docs")
install(DIRECTORY "${CMAKE_SOURCE_DIR}/examples/" DESTINATION "${CMAKE_INSTALL_DOCDIR}/examples")

# ---- the Debian package: `cpack -G DEB` in the build folder writes attn_<version>_<arch>.deb ----
set(ATTN_PACKAGE_MAINTAINER "attn maintainers <attn-maintainers@invalid>" CACHE STRING
    "The Maintainer: field of the .deb (set it to a real name and address before publishing one)")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attn)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "attention in LLMs, step by step, on real numbers")
string(CONCAT CPACK_PACKAGE_DESCRIPTION   # the .deb's long description, lines under 80 characters
  "attn replays the code of attention tutorials (self-attention, causal masking,\n"
  "dropout, multi-head attention) and prints every tensor exactly as PyTorch 1.13\n"
  "printed it, with the prose and the code that produced it. Lesson cells are\n"
  "Python, run by attn's own interpreter on a float32 engine that reproduces\n"
  "PyTorch's CPU arithmetic bit for bit. For teaching labs: JSON output, NumPy and\n"
  "notebook export, and grading of students' answers with hints.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)                 # attn_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${ATTN_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)                  # Depends: from the libraries attn links (libfmt9, libc6, ...)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-numpy")      # the instructors' lab of docs/instructors.md
set(CPACK_SOURCE_GENERATOR "")
include(CPack)
