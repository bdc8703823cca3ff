// kernel_command.h: `warpscope kernel FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]
//   [--dyn-smem BYTES] [--arg SPEC]... [--json] [--blocks SELECTION]`
//
// FILE is a .ptx, a .cu (compiled to PTX with `nvcc -lineinfo` when nvcc is on PATH), or
// '-' for PTX on standard input. The kernel runs warp by warp in the emulator; every memory
// instruction is priced by the cost model and reported per source line.
#pragma once

namespace CLI {
class App;
}

namespace warpscope::cli {

struct CommandContext;

void add_kernel_command(CLI::App& app, CommandContext& ctx);

}  // namespace warpscope::cli
