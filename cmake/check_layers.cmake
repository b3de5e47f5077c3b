# cmake/check_layers.cmake: the layer rule, checked on the sources' #include lines.
#
# What it is: src/ has one folder per layer, and dependencies point one way:
#   cli -> lab -> lesson -> torch -> py -> print -> core
# A file in src/<layer>/ may include "<layer>/..." and the layers below it, never one above.
# Only src/cli/ may include <CLI/...> (CLI11) and only tests/ may include <doctest/...>.
# The Python layer knows nothing of tensors: src/py/ may not include core/ (nor print/tensor_str.h),
# and no line of it may name a tensor (the word Tensor/tensor/tensors, tensor_..., ..._tensor, core::):
# torch's types reach it only as native classes (src/torch/values.h).
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

function(attn_check_layers source_dir)
  set(errors "")
  list(JOIN ATTN_LAYERS ", " layer_names)
  file(GLOB_RECURSE files RELATIVE "${source_dir}"
       "${source_dir}/src/*.h" "${source_dir}/src/*.hpp" "${source_dir}/src/*.cpp" "${source_dir}/src/*.cc"
       "${source_dir}/tests/*.h" "${source_dir}/tests/*.hpp" "${source_dir}/tests/*.cpp" "${source_dir}/tests/*.cc")
  list(SORT files)
  foreach(rel IN LISTS files)
    set(path "${source_dir}/${rel}")
    # The file's layer: src/<layer>/...; tests/ is outside the layers (it may include any).
    set(layer "")
    set(rank -1)
    if(rel MATCHES "^src/([^/]+)/")
      set(layer "${CMAKE_MATCH_1}")
      list(FIND ATTN_LAYERS "${layer}" rank)
      if(rank EQUAL -1)
        list(APPEND errors "${rel}: src/${layer}/ is not a layer (the layers: ${layer_names}): add it to ATTN_LAYERS in cmake/check_layers.cmake")
        continue()
      endif()
    endif()
    if(layer STREQUAL "py")
      file(STRINGS "${path}" tensor_lines REGEX "(^|[^A-Za-z0-9_])([Tt]ensors?([^A-Za-z0-9_]|$)|[Tt]ensor_|[A-Za-z0-9]_tensor)|core::")
      foreach(l IN LISTS tensor_lines)
        string(STRIP "${l}" shown)
        _attn_line_of("${path}" "${l}" line)
        list(APPEND errors "${rel}:${line}: ${shown}: py/ names no tensor (its values come from src/torch as native classes)")
      endforeach()
    endif()
    file(STRINGS "${path}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(inc IN LISTS includes)
      string(REGEX MATCH "^[ \t]*#[ \t]*include[ \t]*([<\"])([^/>\"]+)/" found "${inc}")
      if(NOT found)
        continue()   # <vector>, "run_attn.h": no folder, no layer
      endif()
      set(bracket "${CMAKE_MATCH_1}")
      set(folder "${CMAKE_MATCH_2}")
      string(STRIP "${inc}" shown)
      set(why "")
      if(folder STREQUAL "CLI" AND NOT rel MATCHES "^src/cli/")
        set(why "only src/cli/ may include CLI11")
      elseif(folder STREQUAL "doctest" AND NOT rel MATCHES "^tests/")
        set(why "only tests/ may include doctest")
      elseif(layer STREQUAL "py" AND (folder STREQUAL "core" OR inc MATCHES "print/tensor_str\\.h"))
        set(why "py/ knows nothing of tensors: it may not include core/ or print/tensor_str.h (torch/ is the layer that does)")
      elseif(NOT layer STREQUAL "")
        list(FIND ATTN_LAYERS "${folder}" to)
        if(to GREATER rank)
          math(EXPR count "${rank} + 1")
          list(SUBLIST ATTN_LAYERS 0 ${count} allowed)
          list(REVERSE allowed)
          list(JOIN allowed "/, " allowed)
          set(why "${layer}/ may include only ${allowed}/ (layers point one way: cli -> lab -> lesson -> torch -> py -> print -> core)")
        elseif(to EQUAL -1 AND bracket STREQUAL "\"")
          set(why "\"${folder}/\" is not a layer under src/ (the layers: ${layer_names})")
        endif()
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
  message(STATUS "layer check passed: cli -> lab -> lesson -> torch -> py -> print -> core")
endif()
