// ncu_runner.h: running Nsight Compute on a program, and exporting its report as CSV.
//
//   ncu --clock-control none -f -o WORK/profile --metrics <what warpscope predicts>,...
//       --section SourceCounters --import-source yes PROGRAM ARGS...
//   ncu --import WORK/profile.ncu-rep --page raw --csv --print-units base    > WORK/raw.csv
//   ncu --import WORK/profile.ncu-rep --page source --csv --print-source cuda,sass > WORK/source.csv
//
// When a collection fails for a reason other than access to the counters, poorer option
// sets are tried (without the global atomic and reduction metrics this ncu may not know,
// then without the sources inside the report, then without the Source page), as
// bench/gpu/measure_examples.sh does.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "support/expected.h"

namespace warpscope::cli {

struct NcuRun {
  std::string ncu;                       // the executable
  std::vector<std::string> extra;        // --ncu-arg values, before the program
  std::vector<std::string> source_dirs;  // where the PTX's .file sources are (--source-folders)
  std::vector<std::string> source_files; // --resolve-source-file for the Source page
  std::string work;                      // folder for the report and the exports
  std::function<void(const std::string&)> log;  // each command line and what ncu said (--verbose)
};

struct NcuExports {
  std::string raw_csv;     // path
  std::string source_csv;  // path; empty when the Source page could not be exported
  std::string note;        // what was left out, if anything
};

// ncu from --ncu, PATH or /usr/local/cuda/bin; an error saying how to get it.
Expected<std::string> find_ncu(const std::string& given);

// The metrics asked for: every one the kernel report predicts, and the launch's dynamic
// shared memory; `safe` leaves out the global reduction and atomic counters.
std::string ncu_metrics(bool safe);

// Profiles `program` (argv) and exports the report.
Expected<NcuExports> profile_with_ncu(const NcuRun& run, const std::vector<std::string>& program);

// Exports an existing .ncu-rep.
Expected<NcuExports> export_ncu_report(const NcuRun& run, const std::string& report);


}  // namespace warpscope::cli
