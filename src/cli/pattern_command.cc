// pattern_command.cc: reads a pattern program (FILE or '-' for stdin), runs it, prints a report.
#include "cli/pattern_command.h"

#include <CLI/CLI.hpp>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/command.h"
#include "model/arch.h"
#include "pattern/json_writer.h"
#include "pattern/runner.h"
#include "pattern/text_writer.h"

namespace warpscope::cli {

namespace {

struct PatternOptions {
  std::string file;
  std::string arch = "sm_90";
  bool json = false;
};

Expected<pattern::Source> read_source(const std::string& file, std::istream& in) {
  std::ostringstream text;
  if (file == "-") {
    text << in.rdbuf();
    return pattern::Source("<stdin>", text.str());
  }
  std::ifstream stream(file, std::ios::binary);
  if (!stream) return make_error("cannot read '" + file + "'");
  text << stream.rdbuf();
  return pattern::Source(file, text.str());
}

int run_pattern(const PatternOptions& options, CommandContext& ctx) {
  auto arch = model::find_arch(options.arch);
  if (!arch) {
    ctx.err << "warpscope: " << arch.error().render() << "\n";
    return kExitBadInput;
  }
  auto source = read_source(options.file, ctx.in);
  if (!source) {
    ctx.err << "warpscope: " << source.error().render() << "\n";
    return kExitError;
  }
  // A program's own errors print as `file:line:col: error: ...` with a caret, like a compiler's.
  auto report = pattern::analyze(*source, **arch);
  if (!report) {
    ctx.err << report.error().render() << "\n";
    return kExitError;
  }
  if (options.json)
    ctx.out << pattern::json_report(*report).dump(2) << "\n";
  else
    ctx.out << pattern::text_report(*report);
  return kExitOk;
}

}  // namespace

void add_pattern_command(CLI::App& app, CommandContext& ctx) {
  auto options = std::make_shared<PatternOptions>();
  CLI::App* sub = app.add_subcommand(
      "pattern", "Price the shared/global accesses of a small pattern program, warp by warp (see patterns/)");
  sub->add_option("file", options->file, "pattern program ('-' reads standard input)")->required();
  sub->add_flag("--json", options->json, "print the report as JSON");
  sub->add_option("--arch", options->arch, "target architecture")->capture_default_str();
  sub->callback([options, &ctx] { ctx.exit_code = run_pattern(*options, ctx); });
}

}  // namespace warpscope::cli
