# cmake/check_layers.cmake: the layer rule, checked on the sources' #include lines.
#
# What it is: src/ has one folder per layer, and dependencies point one way:
#   cli -> lab -> lesson -> torch -> py -> print -> core
# A file in src/<layer>/ may include "<layer>/..." and the layers below it, never one above.
# Only src/cli/ may include <CLI/...> (CLI11) and only tests/ may include <doctest/...>.
# The Python layer knows nothing of tensors: src/py/ may not include core/ (nor print/tensor_str.h),
# and no line of it may name a tensor (the word Tensor/tensor/tensors, tensor_..., ..._tensor, core::):
# torch's types reach it only as native classes (src/torch/values.h).
# Tests follow the same layers (tests/CMakeLists.txt builds one binary per layer): a file in
# tests/<layer>/ may include what a file in src/<layer>/ may (py's no-core rule included, not its
# no-tensor-word rule), plus "support/..." as long as what that header includes is allowed too
# (tests/support/ itself may include anything; it is checked where it is used). Test sources live
# in tests/<layer>/ or tests/support/, nowhere else in tests/.
# Every break is reported as "FILE:LINE: the include: why", and the check fails.
# It runs twice: at configure time (CMakeLists.txt calls attn_check_layers(), so a bad include
# stops `cmake -S . -B build`), and as the CTest test `layers`, which re-reads the files at test
# time (an include added after configuring is caught by ctest):
#   cmake -DATTN_SOURCE_DIR=<repository> -P cmake/check_layers.cmake
# What it is not: a compiler. It reads lines that start with #include, so an include made
# through a macro, or one inside a block comment, is not seen (or is seen anyway).

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.20)   # the project's policies also in `cmake -P` (functions keep them)
endif()

# Bottom to top: a layer may include its own folder and every folder before it in this list.
set(ATTN_LAYERS core print py torch lesson lab cli)

# Line number of the first line of `file` equal to `line`, for the message.
function(_attn_line_of file line out)
  file(READ "${file}" content)
  string(FIND "${content}" "${line}" pos)
  set(number 0)
  if(pos GREATER_EQUAL 0)
    string(SUBSTRING "${content}" 0 ${pos} before)
    string(REGEX MATCHALL "\n" newlines "${before}")
    list(LENGTH newlines number)
    math(EXPR number "${number} + 1")
  endif()
  set(${out} ${number} PARENT_SCOPE)
endfunction()

# The #include lines of `file`, each cut to its directive (#include <x/y.h> or "x/y.h").
function(_attn_includes file out)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  set(result "")
  foreach(l IN LISTS lines)
    string(REGEX MATCH "^[ \t]*#[ \t]*include[ \t]*[<\"][^>\"]*[>\"]" directive "${l}")
    string(STRIP "${directive}" directive)
    list(APPEND result "${directive}")
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The includes a test gets through "support/NAME" (tests/support/NAME's own, and those of the
# support headers it includes), each as "DIRECTIVE|support/NAME" (the header that has it).
function(_attn_support_includes source_dir name seen out)
  set(result "")
  set(path "${source_dir}/tests/support/${name}")
  if(EXISTS "${path}" AND NOT name IN_LIST seen)
    list(APPEND seen "${name}")
    _attn_includes("${path}" includes)
    foreach(inc IN LISTS includes)
      if(inc MATCHES "^#[ \t]*include[ \t]*\"support/([^\"]+)\"")
        _attn_support_includes("${source_dir}" "${CMAKE_MATCH_1}" "${seen}" more)
        list(APPEND result ${more})
      else()
        list(APPEND result "${inc}|support/${name}")
      endif()
    endforeach()
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# Why the include directive `inc` breaks the rule in file `rel` of layer `layer` (rank `rank`,
# -1: no layer), or "" if it does not.
function(_attn_include_why rel layer rank inc out)
  set(why "")
  list(JOIN ATTN_LAYERS ", " layer_names)
  string(REGEX MATCH "^#[ \t]*include[ \t]*([<\"])([^/>\"]+)/" found "${inc}")
  if(found)   # <vector>, "config.h": no folder, no layer
    set(bracket "${CMAKE_MATCH_1}")
    set(folder "${CMAKE_MATCH_2}")
    set(where "")   # how the file's folder is named in a message: py/ in src/, tests/py/ in tests/
    if(rel MATCHES "^tests/")
      set(where "tests/")
    endif()
    if(folder STREQUAL "CLI" AND NOT rel MATCHES "^src/cli/")
      set(why "only src/cli/ may include CLI11")
    elseif(folder STREQUAL "doctest" AND NOT rel MATCHES "^tests/")
      set(why "only tests/ may include doctest")
    elseif(layer STREQUAL "py" AND (folder STREQUAL "core" OR inc MATCHES "print/tensor_str\\.h"))
      set(why "${where}py/ knows nothing of tensors: it may not include core/ or print/tensor_str.h (torch/ is the layer that does)")
    elseif(NOT layer STREQUAL "")
      list(FIND ATTN_LAYERS "${folder}" to)
      if(to GREATER rank)
        math(EXPR count "${rank} + 1")
        list(SUBLIST ATTN_LAYERS 0 ${count} allowed)
        list(REVERSE allowed)
        list(JOIN allowed "/, " allowed)
        set(why "${where}${layer}/ may include only ${allowed}/ (layers point one way: cli -> lab -> lesson -> torch -> py -> print -> core)")
      elseif(to EQUAL -1 AND bracket STREQUAL "\"" AND NOT (where STREQUAL "tests/" AND folder STREQUAL "support"))
        if(where STREQUAL "tests/")
          set(why "\"${folder}/\" is neither a layer under src/ (the layers: ${layer_names}) nor tests/support/")
        else()
          set(why "\"${folder}/\" is not a layer under src/ (the layers: ${layer_names})")
        endif()
      endif()
    endif()
  endif()
  set(${out} "${why}" PARENT_SCOPE)
endfunction()

function(attn_check_layers source_dir)
  set(errors "")
  list(JOIN ATTN_LAYERS ", " layer_names)
  file(GLOB_RECURSE files RELATIVE "${source_dir}"
       "${source_dir}/src/*.h" "${source_dir}/src/*.hpp" "${source_dir}/src/*.cpp" "${source_dir}/src/*.cc"
       "${source_dir}/tests/*.h" "${source_dir}/tests/*.hpp" "${source_dir}/tests/*.cpp" "${source_dir}/tests/*.cc")
  list(SORT files)
  foreach(rel IN LISTS files)
    set(path "${source_dir}/${rel}")
    # The file's layer: src/<layer>/... or tests/<layer>/...; tests/support/ is outside the layers
    # (it may include any; the tests that include it are checked for what it includes).
    set(layer "")
    set(rank -1)
    if(rel MATCHES "^tests/support/")
    elseif(rel MATCHES "^(src|tests)/([^/]+)/")
      set(top "${CMAKE_MATCH_1}")
      set(layer "${CMAKE_MATCH_2}")
      list(FIND ATTN_LAYERS "${layer}" rank)
      if(rank EQUAL -1)
        if(top STREQUAL "src")
          list(APPEND errors "${rel}: src/${layer}/ is not a layer (the layers: ${layer_names}): add it to ATTN_LAYERS in cmake/check_layers.cmake")
        else()
          list(APPEND errors "${rel}: tests/${layer}/ is not a layer (the layers: ${layer_names}): a test goes in the tests/<layer>/ of what it tests, a shared helper in tests/support/")
        endif()
        continue()
      endif()
    elseif(rel MATCHES "^tests/")
      list(APPEND errors "${rel}: a test goes in the tests/<layer>/ of what it tests (the layers: ${layer_names}), a shared helper in tests/support/")
      continue()
    endif()
    if(rel MATCHES "^src/py/")
      file(STRINGS "${path}" tensor_lines REGEX "(^|[^A-Za-z0-9_])([Tt]ensors?([^A-Za-z0-9_]|$)|[Tt]ensor_|[A-Za-z0-9]_tensor)|core::")
      foreach(l IN LISTS tensor_lines)
        string(STRIP "${l}" shown)
        _attn_line_of("${path}" "${l}" line)
        list(APPEND errors "${rel}:${line}: ${shown}: py/ names no tensor (its values come from src/torch as native classes)")
      endforeach()
    endif()
    file(STRINGS "${path}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(inc IN LISTS includes)
      string(STRIP "${inc}" shown)
      string(REGEX MATCH "^#[ \t]*include[ \t]*[<\"][^>\"]*[>\"]" directive "${shown}")
      _attn_include_why("${rel}" "${layer}" "${rank}" "${directive}" why)
      # A test's "support/NAME": what NAME includes must be allowed here too.
      if(why STREQUAL "" AND rel MATCHES "^tests/" AND NOT layer STREQUAL "" AND directive MATCHES "^#[ \t]*include[ \t]*\"support/([^\"]+)\"")
        _attn_support_includes("${source_dir}" "${CMAKE_MATCH_1}" "" through)
        foreach(entry IN LISTS through)
          string(REPLACE "|" ";" parts "${entry}")
          list(GET parts 0 inner)
          list(GET parts 1 header)
          _attn_include_why("${rel}" "${layer}" "${rank}" "${inner}" inner_why)
          if(NOT inner_why STREQUAL "")
            set(why "${header} has ${inner}: ${inner_why}")
            break()
          endif()
        endforeach()
      endif()
      if(NOT why STREQUAL "")
        _attn_line_of("${path}" "${shown}" line)
        list(APPEND errors "${rel}:${line}: ${shown}: ${why}")
      endif()
    endforeach()
  endforeach()
  if(NOT errors STREQUAL "")
    list(JOIN errors "\n  " text)
    message(FATAL_ERROR "layer check failed (cmake/check_layers.cmake):\n  ${text}")
  endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  if(NOT ATTN_SOURCE_DIR)
    get_filename_component(ATTN_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
  endif()
  attn_check_layers("${ATTN_SOURCE_DIR}")
  message(STATUS "layer check passed: cli -> lab -> lesson -> torch -> py -> print -> core (src/ and tests/)")
endif()
