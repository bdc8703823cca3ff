// reconvergence.h: where the lanes of a divergent branch meet again.
//
// For each conditional bra, the first instruction of its block's immediate
// post-dominator in the function's control-flow graph, as the hardware's convergence
// barriers (BSSY/BSYNC) place it. Lanes that get there first wait for the others, so
// the lanes that execute a memory instruction together are the ones the GPU groups,
// whatever order nvcc laid the blocks out in.
//
//   0: @%p1 bra 3      block A -> B, C        ipdom(A) = C: Op[0].reconverge = 3
//   1: add ...         block B -> C
//   2: ...
//   3: st.shared ...   block C
#pragma once

#include <cstdint>

#include "emu/program.h"

namespace warpscope::emu {

// Sets Op::reconverge for the branches in code[begin, end) (one function's body);
// kNoRow where the paths only meet at the function's exit or at a ret/exit (threads that
// leave do not wait for each other: an early return before a barrier must not deadlock).
void set_reconvergence_points(Program& program, std::uint32_t begin, std::uint32_t end);

}  // namespace warpscope::emu
