// profile_command.cc: `warpscope profile`: ncu's figures against warpscope's.
#include "cli/profile_command.h"

#include <CLI/CLI.hpp>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/cost_listener.h"
#include "cli/command.h"
#include "driver/analyze.h"
#include "driver/input.h"
#include "cli/ncu_runner.h"
#include "cli/profile_launches.h"
#include "emu/launch.h"
#include "profile/comparison.h"
#include "profile/ncu_report.h"
#include "report/profile_json.h"
#include "report/profile_text.h"

namespace warpscope::cli {

namespace fs = std::filesystem;

namespace {

struct ProfileOptions {
  std::vector<std::string> program;
  std::string ncu;
  std::vector<std::string> ncu_args;
  std::string import_path;
  std::string import_source;
  std::string launches;
  std::vector<std::string> launch;
  std::string keep;
  bool json = false;
  bool verbose = false;
  LaunchOptions common;  // --blocks, --arch, -j, --no-sass, --sass-listing
};

// One raw-page export and its Source page; `hint` names its launch (NAME.raw.csv).
struct Export {
  std::string raw, source, hint;
};

std::string stem_of_raw(const fs::path& p) {
  const std::string name = p.filename().string();
  const std::string suffix = ".raw.csv";
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    return name.substr(0, name.size() - suffix.size());
  return "";
}

// --import PATH: a folder of NAME.raw.csv (+ NAME.source.csv), or one raw-page CSV.
Expected<std::vector<Export>> imported_exports(const ProfileOptions& o) {
  std::vector<Export> exports;
  std::error_code ec;
  if (fs::is_directory(o.import_path, ec)) {
    for (const auto& entry : fs::directory_iterator(o.import_path, ec)) {
      const std::string stem = stem_of_raw(entry.path());
      if (stem.empty()) continue;
      const fs::path source = entry.path().parent_path() / (stem + ".source.csv");
      exports.push_back({entry.path().string(), fs::exists(source, ec) ? source.string() : "", stem});
    }
    std::sort(exports.begin(), exports.end(), [](const Export& a, const Export& b) { return a.raw < b.raw; });
    if (exports.empty()) return make_error("--import: '" + o.import_path + "' has no NAME.raw.csv exports");
    return exports;
  }
  if (!fs::exists(o.import_path, ec)) return make_error("--import: cannot read '" + o.import_path + "'");
  Export e{o.import_path, o.import_source, stem_of_raw(o.import_path)};
  if (e.source.empty() && !e.hint.empty()) {
    const fs::path source = fs::path(o.import_path).parent_path() / (e.hint + ".source.csv");
    if (fs::exists(source, ec)) e.source = source.string();
  }
  exports.push_back(e);
  return exports;
}

// The folders of the launches' PTX files, and the CUDA sources there, for ncu's Source page.
void source_locations(const std::vector<LaunchSpec>& specs, NcuRun& run) {
  std::vector<std::string> dirs;
  for (const LaunchSpec& s : specs) {
    auto o = launch_options_from_words(s.words);
    if (!o) continue;
    std::error_code ec;
    const fs::path dir = fs::absolute(fs::path(o->request.file), ec).parent_path();
    if (ec || std::find(dirs.begin(), dirs.end(), dir.string()) != dirs.end()) continue;
    dirs.push_back(dir.string());
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.path().extension() == ".cu") run.source_files.push_back(entry.path().string());
  }
  run.source_dirs = dirs;
}

// Emulates the launch and builds the report, as `warpscope kernel` does.
Expected<analysis::KernelReport> predict(LaunchMatch& m) {
  auto analysis = driver::analyze_kernel(*m.prepared);
  if (!analysis) return analysis.error();
  if (analysis->failed) {
    std::string why = "the emulation failed";
    for (const auto& d : analysis->report.diagnostics)
      if (d.severity == emu::Diagnostic::Severity::Error) {
        why += ": " + d.message;
        break;
      }
    return make_error(why);
  }
  return std::move(analysis->report);
}

Expected<std::vector<profile::KernelComparison>> compare_export(const Export& e, LaunchMatcher& matcher,
                                                                CommandContext& ctx, std::vector<std::string>& warnings) {
  auto raw_text = driver::read_text_file(e.raw);
  if (!raw_text) return raw_text.error();
  auto kernels = profile::parse_raw_page(*raw_text, e.raw);
  if (!kernels) return kernels.error();
  std::vector<profile::MeasuredSource> sources;
  if (!e.source.empty()) {
    auto source_text = driver::read_text_file(e.source);
    auto parsed = source_text ? profile::parse_source_page(*source_text, e.source)
                              : Expected<std::vector<profile::MeasuredSource>>(source_text.error());
    if (parsed) sources = std::move(*parsed);
    else warnings.push_back(parsed.error().render() + " (per-line figures not compared)");
  }
  const auto paired = profile::pair_sources(*kernels, sources);
  std::vector<profile::KernelComparison> out;
  for (std::size_t i = 0; i < kernels->size(); ++i) {
    const profile::MeasuredKernel& k = (*kernels)[i];
    LaunchMatch m = matcher.match(k, e.hint, ctx.in);
    if (m.spec == nullptr) {
      out.push_back(profile::measured_only(k, m.why_not));
      continue;
    }
    auto report = predict(m);
    if (!report) {
      out.push_back(profile::measured_only(k, "warpscope could not predict it: " + report.error().message));
      out.back().launch = m.spec->text();
      continue;
    }
    const auto sites = profile::inlined_call_sites(m.prepared->module, m.prepared->kernel);
    out.push_back(profile::compare_kernel(k, paired[i], *report, sites));
    out.back().launch = m.spec->text();
  }
  return out;
}

int run_profile(const ProfileOptions& o, CommandContext& ctx) {
  auto usage = [&ctx](const std::string& message) {
    ctx.err << "warpscope: profile: " << message << "\n";
    return kExitBadInput;
  };
  if (o.program.empty() == o.import_path.empty())
    return usage(o.program.empty() ? "give the program to profile after '--' (warpscope profile [options] -- PROGRAM "
                                     "[ARGS...]), or --import EXPORTS"
                                   : "give either a program or --import, not both");
  std::vector<LaunchSpec> specs;
  if (auto s = launch_from_program(o.program)) specs.push_back(std::move(*s));
  for (const std::string& text : o.launch) specs.push_back(launch_from_text(text));
  if (!o.launches.empty()) {
    auto file = read_launches_file(o.launches);
    if (!file) return usage(file.error().render());
    specs.insert(specs.end(), file->begin(), file->end());
  }
  for (const LaunchSpec& s : specs)
    if (auto parsed = launch_options_from_words(s.words); !parsed) return usage(s.origin + ": " + parsed.error().message);

  NcuRun run;
  run.extra = o.ncu_args;
  if (o.verbose) run.log = [&ctx](const std::string& line) { ctx.err << "warpscope: " << line << (line.empty() || line.back() != '\n' ? "\n" : ""); };
  std::vector<Export> exports;
  std::string made_work;  // a temporary folder to remove at the end
  const bool needs_ncu = !o.program.empty() || fs::path(o.import_path).extension() == ".ncu-rep";
  if (needs_ncu) {
    auto ncu = find_ncu(o.ncu);
    if (!ncu) {
      ctx.err << "warpscope: profile: " << ncu.error().message << "\n";
      return kExitBadInput;
    }
    run.ncu = *ncu;
    if (!o.keep.empty()) {
      std::error_code ec;
      fs::create_directories(o.keep, ec);
      if (ec || !fs::is_directory(o.keep)) {
        ctx.err << "warpscope: profile: --keep: cannot make the folder '" << o.keep << "': " << ec.message() << "\n";
        return kExitError;
      }
      run.work = o.keep;
    } else {
      std::string tmpl = (fs::temp_directory_path() / "warpscope-profile-XXXXXX").string();
      if (::mkdtemp(tmpl.data()) == nullptr) {
        ctx.err << "warpscope: profile: cannot make a temporary folder in " << fs::temp_directory_path().string() << "\n";
        return kExitError;
      }
      run.work = made_work = tmpl;
    }
    source_locations(specs, run);
    auto exported = o.program.empty() ? export_ncu_report(run, o.import_path) : profile_with_ncu(run, o.program);
    if (!exported) {
      ctx.err << "warpscope: profile: " << exported.error().message << "\n"
              << "warpscope: profile: ncu's log and anything it wrote are in " << run.work << "\n";
      return kExitError;
    }
    if (!exported->note.empty()) ctx.err << "warpscope: profile: " << exported->note << "\n";
    exports.push_back({exported->raw_csv, exported->source_csv, ""});
  } else {
    auto imported = imported_exports(o);
    if (!imported) {
      ctx.err << "warpscope: profile: " << imported.error().render() << "\n";
      return kExitError;
    }
    exports = std::move(*imported);
  }

  LaunchMatcher matcher(std::move(specs), o.common);
  std::vector<profile::KernelComparison> all;
  std::vector<std::string> warnings;
  int status = kExitOk;
  for (const Export& e : exports) {
    auto compared = compare_export(e, matcher, ctx, warnings);
    if (!compared) {
      ctx.err << "warpscope: profile: " << compared.error().render() << "\n";
      status = kExitError;
      continue;
    }
    all.insert(all.end(), compared->begin(), compared->end());
  }
  for (const auto& w : warnings) ctx.err << "warpscope: profile: warning: " << w << "\n";
  if (o.json)
    ctx.out << report::profile_json(all).dump(2) << "\n";
  else
    ctx.out << report::profile_text(all);
  if (!made_work.empty()) {
    std::error_code ec;
    fs::remove_all(made_work, ec);
  }
  if (status != kExitOk) return status;
  for (const auto& k : all)
    if (k.unexplained > 0) return kExitDisagreement;
  return kExitOk;
}

}  // namespace

void add_profile_command(CLI::App& app, CommandContext& ctx) {
  auto o = std::make_shared<ProfileOptions>();
  CLI::App* sub = app.add_subcommand(
      "profile", "Run ncu on a program and print its counters against warpscope's predictions, per kernel and source line");
  sub->add_option("program", o->program, "the program and its arguments, after '--'");
  sub->add_option("--ncu", o->ncu, "the ncu executable (default: ncu on PATH, or /usr/local/cuda/bin/ncu)");
  sub->add_option("--ncu-arg", o->ncu_args, "an extra ncu option, before the program (repeatable), e.g. --ncu-arg=-k --ncu-arg=regex:transpose")
      ->allow_extra_args(false);
  sub->add_option("--import", o->import_path,
                  "read ncu exports instead of running ncu: a raw-page CSV (NAME.raw.csv finds NAME.source.csv beside it), a "
                  "folder of them, or a .ncu-rep (needs ncu)");
  sub->add_option("--import-source", o->import_source, "the Source-page CSV that goes with an --import raw-page CSV");
  sub->add_option("--launches", o->launches, "launch lines (examples/launches.txt format) for the profiled kernels");
  sub->add_option("--launch", o->launch, "a launch line 'FILE.ptx --kernel K --grid X --block X --arg SPEC...' (repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--keep", o->keep, "keep ncu's report and CSV exports in this folder");
  sub->add_flag("--json", o->json, "print the comparison as JSON");
  sub->add_flag("--verbose", o->verbose, "print each ncu command line and ncu's output on standard error");
  sub->add_option("--blocks", o->common.request.blocks, "predict from these blocks only (e.g. 10%); totals are scaled");
  sub->add_option("--arch", o->common.request.arch, "target architecture")->capture_default_str();
  sub->add_option("-j,--jobs", o->common.request.jobs, "emulator worker threads (default: one per core)");
  sub->add_flag("--no-sass", o->common.request.no_sass, "price the PTX as written, without ptxas/nvdisasm");
  sub->add_option("--sass-listing", o->common.request.sass_listing, "an `nvdisasm -c -gi` listing to use instead of running ptxas");
  sub->callback([o, &ctx] { ctx.exit_code = run_profile(*o, ctx); });
}

}  // namespace warpscope::cli
