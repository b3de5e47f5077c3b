// core/ops.h: every op of core in one include, as ATen/Functions.h is: the Tensor (tensor.h),
// autograd (autograd.h) and each op family's header under ops/ (tensor.h's top comment maps
// which op lives where).
//
// What it is: for the layers above core, which call many ops (py's op table, lab's hints, the
// tests). Inside core each file includes the family headers it uses instead, so that what an op
// depends on stays visible.
// What it is not: the kernels (core/kernels/: raw buffers, no Tensor) or the random generator
// itself (core/random.h; ops/random.h is what draws tensors from it).
#pragma once

#include "core/autograd.h"
#include "core/tensor.h"

#include "core/ops/activation.h"
#include "core/ops/advanced_index.h"
#include "core/ops/attention.h"
#include "core/ops/binary.h"
#include "core/ops/bitwise.h"
#include "core/ops/cat.h"
#include "core/ops/clamp.h"
#include "core/ops/compare.h"
#include "core/ops/einsum.h"
#include "core/ops/indexing.h"
#include "core/ops/inplace.h"
#include "core/ops/linalg.h"
#include "core/ops/loss.h"
#include "core/ops/norm.h"
#include "core/ops/normalization.h"
#include "core/ops/pow.h"
#include "core/ops/random.h"
#include "core/ops/range.h"
#include "core/ops/repeat_pad.h"
#include "core/ops/reduce.h"
#include "core/ops/scatter.h"
#include "core/ops/softmax.h"
#include "core/ops/sort.h"
#include "core/ops/sum_to.h"
#include "core/ops/triangular.h"
#include "core/ops/unary.h"
#include "core/ops/unique.h"
#include "core/ops/views.h"
