// ncu_runner.cc: spawning ncu.
#include "cli/ncu_runner.h"
#include "driver/input.h"
#include "driver/process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/kernel_report.h"
#include "profile/ncu_report.h"

namespace warpscope::cli {

namespace fs = std::filesystem;

namespace {

// A file's text for a message ("" when unreadable: the message says what failed anyway).
std::string slurp(const std::string& path) {
  auto text = driver::read_text_file(path);
  return text ? *text : std::string();
}

std::string join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? sep : "") + words[i];
  return out;
}

std::string command_line(const std::vector<std::string>& argv) {
  std::vector<std::string> quoted;
  for (const auto& w : argv) quoted.push_back(driver::shell_quote(w));
  return join(quoted, " ");
}

// Runs argv with stdin from /dev/null, stdout to `out`, stderr to `err` (or with stdout);
// returns the exit status (-1 when it could not run or was killed).
int run_to_files(const std::vector<std::string>& argv, const std::string& out, const std::string& err,
                 const NcuRun& run) {
  std::string cmd = command_line(argv) + " < /dev/null > " + driver::shell_quote(out) + " 2>" +
                    (err.empty() ? "&1" : " " + driver::shell_quote(err));
  if (run.log) run.log("running: " + command_line(argv));
  const int status = std::system(cmd.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

Expected<NcuExports> export_report(const NcuRun& run, const std::string& report) {
  NcuExports e;
  e.raw_csv = (fs::path(run.work) / "raw.csv").string();
  const std::string err = (fs::path(run.work) / "export.err").string();
  int rc = run_to_files({run.ncu, "--import", report, "--page", "raw", "--csv", "--print-units", "base"}, e.raw_csv, err, run);
  if (rc != 0) rc = run_to_files({run.ncu, "--import", report, "--page", "raw", "--csv"}, e.raw_csv, err, run);
  if (rc != 0) return make_error("ncu could not export the raw page of " + report + ":\n" + slurp(err));
  e.source_csv = (fs::path(run.work) / "source.csv").string();
  std::vector<std::string> source{run.ncu, "--import", report, "--page", "source", "--csv", "--print-source", "cuda,sass"};
  std::vector<std::string> resolved = source;
  if (!run.source_files.empty()) {
    resolved.push_back("--resolve-source-file");
    resolved.push_back(join(run.source_files, ","));
  }
  std::error_code ec;
  rc = run_to_files(resolved, e.source_csv, err, run);
  if ((rc != 0 || fs::file_size(e.source_csv, ec) == 0) && !run.source_files.empty())
    rc = run_to_files(source, e.source_csv, err, run);
  if (rc != 0 || fs::file_size(e.source_csv, ec) == 0) {
    e.note = "ncu could not export the Source page: " + slurp(err).substr(0, 300);
    e.source_csv.clear();
  }
  return e;
}

}  // namespace

Expected<std::string> find_ncu(const std::string& given) {
  if (!given.empty()) {
    if (driver::is_executable(given)) return given;
    if (given.find('/') == std::string::npos)
      if (auto found = driver::find_on_path(given); !found.empty()) return found;
    return make_error("ncu was not found at '" + given + "' (--ncu): give the path of Nsight Compute's ncu");
  }
  if (auto found = driver::find_on_path("ncu"); !found.empty()) return found;
  for (const char* p : {"/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"})
    if (driver::is_executable(p)) return std::string(p);
  return make_error("ncu (Nsight Compute) is not on PATH nor in /usr/local/cuda/bin: install Nsight Compute, give "
                    "--ncu PATH, or profile elsewhere and read the exports here with --import");
}

std::string ncu_metrics(bool safe) {
  std::vector<std::string> metrics;
  for (const std::string& name : analysis::kernel_metric_names()) {
    const bool risky = name.find("global_op_red") != std::string::npos || name.find("global_op_atom") != std::string::npos ||
                       name.find("gmma") != std::string::npos || name.find("_tma") != std::string::npos ||
                       name.find("op_ldgsts") != std::string::npos;
    if (!safe || !risky) metrics.push_back(name + ".sum");
  }
  metrics.push_back("launch__shared_mem_per_block_dynamic");
  return join(metrics, ",");
}

Expected<NcuExports> profile_with_ncu(const NcuRun& run, const std::vector<std::string>& program) {
  const std::string report = (fs::path(run.work) / "profile").string();
  const std::string log = (fs::path(run.work) / "ncu.log").string();
  std::string last;
  // Richest first: every metric, the Source page, the sources inside the report.
  struct Attempt {
    bool safe_metrics, source_page, import_source;
  };
  constexpr Attempt kAttempts[] = {{false, true, true}, {true, true, true}, {true, true, false}, {true, false, false}};
  int attempt = 0;
  for (const Attempt& a : kAttempts) {
    ++attempt;
    std::vector<std::string> argv{run.ncu, "--clock-control", "none", "-f", "-o", report, "--metrics", ncu_metrics(a.safe_metrics)};
    if (a.source_page) argv.insert(argv.end(), {"--section", "SourceCounters"});
    if (a.import_source) {
      argv.insert(argv.end(), {"--import-source", "yes"});
      if (!run.source_dirs.empty()) argv.insert(argv.end(), {"--source-folders", join(run.source_dirs, ",")});
    }
    argv.insert(argv.end(), run.extra.begin(), run.extra.end());
    argv.insert(argv.end(), program.begin(), program.end());
    std::error_code ec;
    fs::remove(report + ".ncu-rep", ec);
    const int rc = run_to_files(argv, log, "", run);
    last = slurp(log);
    if (run.log) run.log(last);
    const auto problem = profile::diagnose_ncu_output(last);
    // The program's own exit status passes through ncu: a report with kernels in it is enough.
    if (fs::exists(report + ".ncu-rep") && !(problem && problem->find("profiled no kernel") != std::string::npos)) {
      if (rc != 0 && run.log) run.log("ncu exited with status " + std::to_string(rc) + " (the program's?); using its report");
      return export_report(run, report + ".ncu-rep");
    }
    // Retrying cannot help when the counters are out of reach or nothing ran.
    if (problem && (problem->find("ERR_NVGPUCTRPERM") != std::string::npos || problem->find("driver") != std::string::npos ||
                    problem->find("not supported") != std::string::npos))
      return make_error("ncu cannot read the GPU's counters here: " + *problem + "\n(ncu's output is in " + log + ")");
    if (problem && problem->find("profiled no kernel") != std::string::npos)
      return make_error(*problem + "\n(ncu's output, with the program's, is in " + log + ")");
    if (rc == 127 || rc == -1) return make_error("could not run " + run.ncu + " (exit status " + std::to_string(rc) + ")");
    if (run.log) run.log("ncu collection attempt " + std::to_string(attempt) + " failed (exit status " + std::to_string(rc) + ")");
  }
  const auto problem = profile::diagnose_ncu_output(last);
  std::string tail = last.size() > 1200 ? last.substr(last.size() - 1200) : last;
  return make_error("ncu failed on the program" + (problem ? ": " + *problem : std::string()) + "; its last output:\n" + tail);
}

Expected<NcuExports> export_ncu_report(const NcuRun& run, const std::string& report) { return export_report(run, report); }

}  // namespace warpscope::cli
