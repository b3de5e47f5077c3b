// torch/coverage.h: the coverage page (docs/coverage.md, printed by `attn coverage`): which torch
// functions, Tensor methods and attributes, nn modules, F functions, Python builtins, methods and
// modules lesson code may use, read from attn itself (the op table, the torch modules, probes of a
// fresh session), so the page cannot disagree with the binary.
//
// What it is not: the prose of docs/lesson-authors.md's "What lesson code may use", or a promise about every
// argument of a function listed (unsupported arguments raise PyTorch's TypeError or say so).
#pragma once

#include <string>
#include <vector>

namespace attn::torch {

std::string coverage_page();

// The nn module classes of python/nn/*.py, by name (torch_module.cpp).
std::vector<std::string> nn_module_names();

}  // namespace attn::torch
