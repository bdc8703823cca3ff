// test_report.h: a hand-built kernel report for the writers' tests: one 32-way shared load
// (transpose_tiled.cu:27:5, 'tile'), one stride-3 global load (aos_soa.cu:17:5), one clean line.
#pragma once

#include "analysis/kernel_report.h"

namespace warpscope::report::testing {

inline analysis::LineInstruction shared_load(std::uint64_t wavefronts, std::uint64_t ideal, int degree, int region) {
  analysis::LineInstruction i;
  i.text = "ld.shared.f32";
  i.cost.op = model::MemOp::SharedLoad;
  i.cost.region = region;
  i.cost.executions = ideal;
  i.cost.wavefronts = wavefronts;
  i.cost.ideal_wavefronts = ideal;
  i.cost.worst_excess = degree - 1;
  model::SharedCost sc;
  sc.wavefronts = degree;
  sc.ideal_wavefronts = 1;
  sc.worst_degree = degree;
  i.cost.worst_cost.op = model::MemOp::SharedLoad;
  i.cost.worst_cost.shared = sc;
  return i;
}

inline analysis::LineInstruction global_access(model::MemOp op, std::uint64_t sectors, std::uint64_t ideal,
                                               model::Coalescing cause, int region) {
  analysis::LineInstruction i;
  i.text = op == model::MemOp::GlobalLoad ? "ld.global.f32" : "st.global.f32";
  i.cost.op = op;
  i.cost.region = region;
  i.cost.executions = ideal / 4;
  i.cost.sectors = sectors;
  i.cost.ideal_sectors = ideal;
  i.cost.worst_excess = sectors > ideal ? 8 : 0;
  model::GlobalCost g;
  g.sectors = sectors > ideal ? 12 : 4;
  g.ideal_sectors = 4;
  g.cause = cause;
  i.cost.worst_cost.op = op;
  i.cost.worst_cost.global = g;
  return i;
}

inline analysis::KernelReport sample_report() {
  analysis::KernelReport r;
  r.kernel = "transpose_tiled_f32";
  r.ptx_file = "transpose_tiled.ptx";
  r.launch = {{16, 16, 1}, {32, 8, 1}, 0};
  r.blocks_total = r.blocks_run = 256;
  r.regions = {{"_ZZ19transpose_tiled_f32E4tile", model::Space::Shared, 0, 4224},
               {"in", model::Space::Global, 0x10000, 1 << 20},
               {"out", model::Space::Global, 0x200000, 1 << 20}};

  analysis::LineReport conflict;
  conflict.file = "transpose_tiled.cu";
  conflict.line = 27;
  conflict.column = 5;
  conflict.source = "    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];";
  conflict.instructions = {shared_load(262144, 8192, 32, 0),
                           global_access(model::MemOp::GlobalStore, 32768, 32768, model::Coalescing::Coalesced, 2)};
  conflict.excess_wavefronts = 262144 - 8192;
  conflict.conflict_degree = 32;

  analysis::LineReport strided;
  strided.file = "aos_soa.cu";
  strided.line = 17;
  strided.column = 5;
  strided.instructions = {global_access(model::MemOp::GlobalLoad, 49152, 16384, model::Coalescing::Stride, 1)};
  strided.excess_sectors = 49152 - 16384;

  analysis::LineReport clean;
  clean.file = "transpose_tiled.cu";
  clean.line = 22;
  clean.column = 5;
  clean.instructions = {global_access(model::MemOp::GlobalLoad, 32768, 32768, model::Coalescing::Coalesced, 1)};

  r.lines = {conflict, strided, clean};
  r.metrics[analysis::kSourceWavefronts] = 262144;
  r.metrics[analysis::kSourceWavefrontsIdeal] = 8192;
  r.metrics[analysis::kSourceSectors] = 32768 + 49152 + 32768;
  r.metrics[analysis::kSourceSectorsIdeal] = 32768 + 16384 + 32768;
  return r;
}

}  // namespace warpscope::report::testing
