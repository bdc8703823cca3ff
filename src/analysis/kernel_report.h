// kernel_report.h: the report model of `warpscope kernel`: what a launch's memory
// instructions cost, in total (keyed by ncu metric) and per source line, worst first.
//
//   totals  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld = 262144 ...
//   line    transpose_tiled.cu:27  shared loads: wavefronts 262144, ideal 8192, excess 253952,
//           32-way; worst warp block (0,0,0) warp 0: lane -> address -> bank
//
// Every writer (text, JSON, ...) formats this one struct; it holds no text layout.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/cost_listener.h"
#include "emu/launch.h"

namespace warpscope::analysis {

// The ncu metric names the kernel report predicts (without ".sum"), in report order.
const std::vector<std::string>& kernel_metric_names();

// The Source page's column names ncu shows per line, and how we fill them.
inline constexpr const char* kSourceWavefronts = "L1 Wavefronts Shared";
inline constexpr const char* kSourceWavefrontsIdeal = "L1 Wavefronts Shared Ideal";
inline constexpr const char* kSourceSectors = "L2 Theoretical Sectors Global";
inline constexpr const char* kSourceSectorsIdeal = "L2 Theoretical Sectors Global Ideal";

using Metrics = std::map<std::string, long long>;

// TMA and LDGSTS counters (ncu names without ".sum"), as the H200 counts them (measured:
// Triton's TMA matmul, SGEMM_CUDA's cuda::memcpy_async kernel). TMA and cp.async.bulk
// copies do not use the LSU. smsp__sass_inst_executed_op_tma_* count the copies issued
// (one per issuing lane); smsp__inst_executed_op_tma_* the warp executions of the
// instruction, predicated off too (a warp whose lanes all skip it counts 1, one whose
// lanes issue counts each). A load's global reads are xbar2l1tex sectors (each box row's
// 32-byte sectors) and bytes (sectors x 32); a store's or reduction's writes l1tex2xbar
// sectors and bytes (in the tensor). cp.async (LDGSTS) reads count under op_ld requests
// and sectors; its shared writes are wavefronts of their own.
inline constexpr const char* kTmaLoads = "smsp__inst_executed_op_tma_ld";
inline constexpr const char* kTmaStores = "smsp__inst_executed_op_tma_st";
inline constexpr const char* kTmaLoadsIssued = "smsp__sass_inst_executed_op_tma_ld";
inline constexpr const char* kTmaStoresIssued = "smsp__sass_inst_executed_op_tma_st";
inline constexpr const char* kTmaReductionsIssued = "smsp__sass_inst_executed_op_tma_red";
inline constexpr const char* kTmaLoadSectors = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld";
inline constexpr const char* kTmaLoadBytes = "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld";
inline constexpr const char* kTmaStoreSectors = "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st";
inline constexpr const char* kTmaStoreBytes = "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st";
inline constexpr const char* kTmaReductionSectors = "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red";
inline constexpr const char* kTmaReductionBytes = "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red";
inline constexpr const char* kLdgstsWavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts";
inline constexpr const char* kLdgstsConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts";

// One instruction's share of a line, for the listing.
struct LineInstruction {
  std::string text;  // "ld.shared.f32"
  int ptx_line = 0;
  InstructionCost cost;
};

// One bulk-copy instruction's share of a line.
struct LineBulkCopy {
  std::string text;  // "cp.async.bulk.tensor.2d.shared::cluster.global..."
  int ptx_line = 0;
  BulkCost cost;
};

struct LineReport {
  std::string file;  // as in the .file directive, base name kept
  int line = 0;
  int column = 0;      // the leftmost .loc column of the line's instructions (0: unknown)
  std::string source;  // the line's text when the file was readable
  Metrics metrics;     // ncu metric names and Source-page column names
  std::uint64_t excess_wavefronts = 0;
  std::uint64_t excess_sectors = 0;
  int conflict_degree = 0;  // worst warp's worst bank, over the line's shared instructions
  // Some instruction of the line is a CAS retry loop (ptxas's, for a shared float add, or a
  // 16-bit atomic): its figures count the retries the lanes of one warp force on each other,
  // the fewest any run takes; on the GPU other warps add retries that depend on timing.
  bool timing_dependent = false;
  std::vector<LineInstruction> instructions;
  std::vector<LineBulkCopy> bulk_copies;  // TMA and cp.async.bulk instructions of the line
  // The line's worst instruction (most excess), for the lane -> address -> bank listing.
  std::optional<LineInstruction> worst;
  // A line of a toolkit header (ptx/source_position.h) whose code was inlined into the user's:
  // the call sites its instructions are also counted at ("histogram.cu:35"), where findings
  // and advice point. Empty for the user's own lines.
  std::vector<std::string> also_counted_at;
};

// A whole source file the report's lines point into, for listings that show every line
// (the HTML page): the .cu named by .file when readable, else the PTX itself.
struct SourceFile {
  std::string file;  // as LineReport::file names it
  std::vector<std::string> lines;
};

// One array's figures over the whole kernel (every instruction counted once, scaled like the
// totals): a shared array by its accesses' wavefronts, a global buffer by its sectors.
struct ArrayTotals {
  int region = -1;  // KernelReport::regions
  long long wavefronts = 0, ideal_wavefronts = 0;
  long long sectors = 0, ideal_sectors = 0;
};

struct KernelReport {
  std::string kernel;         // demangled, as every writer prints it (support/kernel_name.h)
  std::string kernel_symbol;  // the PTX entry's own (mangled) name
  std::string ptx_file;
  emu::LaunchConfig launch;
  std::string priced_from = "ptx";  // "ptx", or "sass" when ptxas/nvdisasm gave the machine code
  int merged_groups = 0;            // PTX access groups ptxas merged into vector instructions
  std::string sass_note;            // why the SASS was not used, when it was not
  std::uint64_t blocks_total = 0;
  std::uint64_t blocks_run = 0;
  double scale = 1.0;  // blocks_total / blocks_run: sampled totals are multiplied by it
  Metrics metrics;     // the kernel's totals, ncu metric names
  std::vector<LineReport> lines;  // worst first
  bool timing_dependent = false;  // some line is
  // The metrics (kernel totals, ncu names) a timing-dependent instruction adds to: the
  // prediction is the fewest a run takes (every other metric is exact).
  std::set<std::string> timing_dependent_metrics;
  std::vector<SourceFile> sources;  // the readable files the lines name, in order of first use
  std::vector<emu::Diagnostic> diagnostics;
  std::vector<emu::Region> regions;  // InstructionCost::region indexes this (names the arrays)
  // The kernel's parameter names for messages, by position: a buffer "arg1" is shown by its
  // parameter's name when the entry is not empty (driver::PreparedLaunch::parameter_names).
  std::vector<std::string> parameter_names;
  std::vector<ArrayTotals> arrays;  // by region, in region order; only regions accessed
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  double seconds = 0;
  int workers = 0;

  // An error diagnostic stopped the emulation: the figures are partial, not results.
  bool failed() const;
  // The name a region is shown by: a shared array as the source spells it ("tile" for
  // _ZZ19transpose_tiled_f32E4tile), a buffer "arg1" by its parameter's name when known
  // ("arg2.0", a struct's pointer field, as "params.0"), others as they are.
  std::string region_display_name(int region) const;
  std::string buffer_display_name(const std::string& buffer) const;
};

// Reads a source file's lines for the listing; may fail (the report then has no text).
using SourceLines = std::function<std::vector<std::string>(const std::string& path)>;

// Builds the report from a finished run whose listeners are CostListeners. With `plan` (made
// from a listing), each access is reported at the Source-page lines of the SASS it became
// (SassPlan::source_lines); without one, or for an access the SASS did not explain, at its
// .loc line and, inlined, at its outermost call site too.
KernelReport build_kernel_report(const ptx::Module& module, std::string kernel, const emu::LaunchConfig& launch,
                                 emu::RunReport& run, std::uint64_t blocks_total, const SourceLines& source_lines,
                                 const SassPlan* plan = nullptr);

}  // namespace warpscope::analysis
