// access_command.h: `warpscope access [--jsonl] [--arch sm_90]`: price warp accesses read
// as JSON lines on standard input.
//
//   $ echo '{"op":"lds","width":4,"offsets":[0,128,...]}' | warpscope access --jsonl
//   {"line":1,"op":"lds","width":4,"metrics":{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld":32,...},...}
//
// Without --jsonl, each access is described in words. A malformed line gives an error
// object (or message) naming its line; the exit status is then 2.
#pragma once

namespace CLI {
class App;
}

namespace warpscope::cli {

struct CommandContext;

void add_access_command(CLI::App& app, CommandContext& ctx);

}  // namespace warpscope::cli
