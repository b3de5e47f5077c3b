// py/parser.h: parses a lesson code cell (Python subset, see ast.h) into statements.
// Errors are ScriptError with the 1-based line within the cell and a Python-like message.
#pragma once

#include <string>

#include "py/ast.h"

namespace attn::py {

Block parse_program(const std::string& source);

}  // namespace attn::py
