// profile_command.h: `warpscope profile [options] -- PROGRAM [ARGS...]`, or
// `warpscope profile --import EXPORTS [options]`.
//
// Runs ncu on the program with the counters warpscope predicts and the Source page's, then
// predicts every profiled kernel whose launch it knows (the program's own arguments when it
// is tools/ptxlaunch, --launch, --launches) and prints measured against predicted per
// kernel and per source line, with the known causes of differences. --import reads exports
// made elsewhere (a raw-page CSV, a folder of NAME.raw.csv + NAME.source.csv, or a
// .ncu-rep), so no GPU is needed. Exit status 4 when a difference has no known cause.
#pragma once

namespace CLI {
class App;
}

namespace warpscope::cli {

struct CommandContext;

void add_profile_command(CLI::App& app, CommandContext& ctx);

}  // namespace warpscope::cli
