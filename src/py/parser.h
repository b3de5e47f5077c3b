// py/parser.h: parses a lesson code cell (Python subset, see ast.h) into statements.
// Errors are ScriptError with the 1-based line within the cell and a Python-like message.
#pragma once

#include <string>

#include "py/ast.h"

namespace attn::py {

// Lines are numbered from `first_line` (1: within the cell).
Block parse_program(const std::string& source, int first_line = 1);

}  // namespace attn::py
