# cmake/install_dirs.cmake: where `cmake --install` puts attn, and where the binary looks for the
# lessons it was installed with.
#
# What it is: GNUInstallDirs' folders (bin/, share/, share/man/, share/doc/attn/ under the
# prefix, as Debian lays them out) and ATTN_INSTALLED_LESSON_DIR, the lessons' folder relative to
# the binary's ("../share/attn/lessons"). The binary resolves it from /proc/self/exe at run time,
# so a prefix can be chosen at install time (`cmake --install build --prefix P`) or moved later.
# What it is not: the install rules themselves (cmake/install.cmake).
include(GNUInstallDirs)

set(ATTN_LESSON_INSTALL_DIR "${CMAKE_INSTALL_DATADIR}/attn/lessons")
if(IS_ABSOLUTE "${CMAKE_INSTALL_BINDIR}" OR IS_ABSOLUTE "${ATTN_LESSON_INSTALL_DIR}")
  message(FATAL_ERROR "attn: CMAKE_INSTALL_BINDIR and CMAKE_INSTALL_DATADIR must be relative to the prefix "
                      "(the binary finds its lessons relative to itself); got '${CMAKE_INSTALL_BINDIR}' and "
                      "'${CMAKE_INSTALL_DATADIR}'")
endif()
file(RELATIVE_PATH ATTN_INSTALLED_LESSON_DIR "/prefix/${CMAKE_INSTALL_BINDIR}" "/prefix/${ATTN_LESSON_INSTALL_DIR}")
