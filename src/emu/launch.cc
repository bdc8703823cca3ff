// launch.cc: argument checks, the parameter buffer, and blocks spread over workers.
#include "emu/launch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <map>
#include <mutex>
#include <thread>

#include "emu/block.h"
#include "emu/program.h"
#include "emu/special_registers.h"
#include "support/kernel_name.h"

namespace warpscope::emu {
namespace {

Status check_config(const LaunchConfig& c) {
  if (c.grid.count() == 0 || c.block.count() == 0) return make_error("grid and block dimensions must be positive");
  if (c.block.count() > 1024)
    return make_error("a block has at most 1024 threads; " + std::to_string(c.block.count()) + " requested");
  if (c.block.z > 64) return make_error("block z dimension is at most 64");
  if (c.grid.y > 65535 || c.grid.z > 65535) return make_error("grid y and z dimensions are at most 65535");
  return Ok{};
}

// The cluster shape: --cluster, else .reqnctapercluster, else one block per cluster.
Expected<Dim3> cluster_shape(const LaunchConfig& c, const ptx::Function& fn) {
  Dim3 shape = c.cluster;
  const bool given = shape.count() > 1;
  if (fn.reqnctapercluster[0] > 0) {
    Dim3 req{static_cast<std::uint32_t>(fn.reqnctapercluster[0]), static_cast<std::uint32_t>(std::max(1, fn.reqnctapercluster[1])),
             static_cast<std::uint32_t>(std::max(1, fn.reqnctapercluster[2]))};
    if (given && !(req == shape))
      return make_error("kernel '" + fn.name + "' requires clusters of " + to_string(req) + " blocks (.reqnctapercluster); --cluster gives " +
                        to_string(shape));
    shape = req;
  }
  if (shape.x == 0 || shape.y == 0 || shape.z == 0) return make_error("cluster dimensions must be positive");
  if (shape.count() > 16) return make_error("a cluster has at most 16 blocks; " + std::to_string(shape.count()) + " requested");
  if (c.grid.x % shape.x != 0 || c.grid.y % shape.y != 0 || c.grid.z % shape.z != 0)
    return make_error("the grid " + to_string(c.grid) + " is not a whole number of clusters of " + to_string(shape) + " blocks");
  return shape;
}

// The work units: one block each, or the blocks of each cluster that holds a block to
// run (every block of it, in %cluster_ctarank order: x fastest).
std::vector<std::vector<std::uint64_t>> work_units(const std::vector<std::uint64_t>& blocks, const Dim3& grid, const Dim3& shape) {
  std::vector<std::vector<std::uint64_t>> units;
  if (shape.count() == 1) {
    units.reserve(blocks.size());
    for (std::uint64_t b : blocks) units.push_back({b});
    return units;
  }
  std::vector<bool> taken;
  const Dim3 clusters{grid.x / shape.x, grid.y / shape.y, grid.z / shape.z};
  taken.assign(clusters.count(), false);
  for (std::uint64_t b : blocks) {
    const std::uint64_t x = b % grid.x, y = (b / grid.x) % grid.y, z = b / (std::uint64_t(grid.x) * grid.y);
    const std::uint64_t cx = x / shape.x, cy = y / shape.y, cz = z / shape.z;
    const std::uint64_t id = cx + clusters.x * (cy + std::uint64_t(clusters.y) * cz);
    if (taken[id]) continue;
    taken[id] = true;
    std::vector<std::uint64_t> unit;
    for (std::uint32_t rz = 0; rz < shape.z; ++rz)
      for (std::uint32_t ry = 0; ry < shape.y; ++ry)
        for (std::uint32_t rx = 0; rx < shape.x; ++rx)
          unit.push_back((cx * shape.x + rx) + grid.x * ((cy * shape.y + ry) + std::uint64_t(grid.y) * (cz * shape.z + rz)));
    units.push_back(std::move(unit));
  }
  return units;
}

// A kernel that reads %envreg1/2 takes the driver's grid workspace (cooperative_groups::
// this_grid()): it runs only under a cooperative launch.
bool reads_grid_workspace(const Program& p) {
  return std::any_of(p.sregs.begin(), p.sregs.end(), [](const SregRow& s) {
    return s.sreg == ptx::Sreg::Envreg && (s.component == 1 || s.component == 2);
  });
}

// How many blocks of this shape the H200 holds at once (a cooperative launch's limit, as
// cudaOccupancyMaxActiveBlocksPerMultiprocessor counts it, registers left out: the PTX does
// not say how many ptxas gives a thread): per SM at most 32 blocks, 64 warps and 228 KiB of
// shared memory, 1 KiB of it reserved per block.
std::uint64_t co_resident_blocks(const Dim3& block, std::uint64_t shared_bytes) {
  constexpr std::uint64_t kSharedPerSm = 233472, kMaxBlocksPerSm = 32;
  const std::uint64_t warps = (block.count() + 31) / 32;
  const std::uint64_t shared = (shared_bytes + kSharedAllocationUnit - 1) / kSharedAllocationUnit * kSharedAllocationUnit +
                               kReservedSharedBytes;
  const std::uint64_t per_sm = std::min({kMaxBlocksPerSm, kWarpSlotsPerSm / warps, kSharedPerSm / shared});
  return per_sm * kSmCount;
}

}  // namespace

bool RunReport::failed() const {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Diagnostic::Severity::Error; });
}

std::string param_name(const ptx::Module& module, int kernel, std::size_t i) {
  const ptx::Variable& v =
      module.variables[static_cast<std::size_t>(module.functions[static_cast<std::size_t>(kernel)].params[i])];
  return v.source_name.empty() ? v.name : v.source_name;
}

std::string describe_params(const ptx::Module& module, int kernel) {
  std::string out;
  for (int id : module.functions[static_cast<std::size_t>(kernel)].params) {
    const ptx::Variable& v = module.variables[static_cast<std::size_t>(id)];
    if (!out.empty()) out += ", ";
    out += std::string(ptx::type_name(v.type));
    if (v.size != static_cast<std::uint64_t>(ptx::type_bits(v.type) / 8)) out += "[" + std::to_string(v.size) + " bytes]";
    out += " " + (v.source_name.empty() ? v.name : v.source_name);
  }
  return out.empty() ? "no parameters" : out;
}

Expected<RunReport> run(const ptx::Module& module, std::string_view kernel_name, const LaunchConfig& config,
                        const std::vector<KernelArg>& args, GlobalMemory& memory, const RunOptions& options,
                        const ListenerFactory& listeners) {
  auto kernel = find_kernel(module, kernel_name);
  if (!kernel) return kernel.error();
  if (auto s = check_config(config); !s) return s.error();
  auto program = link(module, *kernel, memory);
  if (!program) return program.error();
  const Program& p = *program;
  const std::string shown = kernel_short_name(p.name);  // how messages name the kernel
  const ptx::Function& fn = module.functions[static_cast<std::size_t>(*kernel)];
  if (fn.reqntid[0] > 0 && (static_cast<int>(config.block.x) != fn.reqntid[0] ||
                            static_cast<int>(config.block.y) != std::max(1, fn.reqntid[1]) ||
                            static_cast<int>(config.block.z) != std::max(1, fn.reqntid[2])))
    return make_error("kernel '" + shown + "' requires blocks of " + std::to_string(fn.reqntid[0]) + "x" +
                      std::to_string(std::max(1, fn.reqntid[1])) + "x" + std::to_string(std::max(1, fn.reqntid[2])) +
                      " threads (.reqntid)");
  if (fn.maxntid[0] > 0 &&
      config.block.count() > std::uint64_t(fn.maxntid[0]) * std::max(1, fn.maxntid[1]) * std::max(1, fn.maxntid[2]))
    return make_error("kernel '" + shown + "' allows at most " +
                      std::to_string(std::uint64_t(fn.maxntid[0]) * std::max(1, fn.maxntid[1]) * std::max(1, fn.maxntid[2])) +
                      " threads per block (.maxntid); " + std::to_string(config.block.count()) + " requested");
  // The largest shared memory a block can have (sm_90: 227 KiB).
  constexpr std::uint64_t kMaxSharedPerBlock = 232448;
  std::uint64_t shared = p.uses_dynamic_shared || config.dynamic_shared_bytes > 0
                             ? std::uint64_t(p.dynamic_shared_offset) + config.dynamic_shared_bytes
                             : p.static_shared_bytes;
  if (std::max<std::uint64_t>(shared, p.static_shared_bytes) > kMaxSharedPerBlock)
    return make_error("kernel '" + shown + "' needs " + std::to_string(shared) +
                      " bytes of shared memory per block; the limit is " + std::to_string(kMaxSharedPerBlock));
  if (args.size() != p.params.size())
    return make_error("kernel '" + shown + "' takes " + std::to_string(p.params.size()) + " parameters (" +
                      describe_params(module, *kernel) + "); " + std::to_string(args.size()) + " given");
  auto shape = cluster_shape(config, fn);
  if (!shape) return shape.error();
  // A cluster launch (%is_explicit_cluster): a shape given, .reqnctapercluster or .explicitcluster.
  const bool explicit_cluster = shape->count() > 1 || fn.reqnctapercluster[0] > 0 || fn.explicit_cluster;
  const bool cooperative = config.cooperative || reads_grid_workspace(p);
  const std::uint64_t total = config.grid.count();
  if (cooperative) {
    if (shape->count() > 1) return make_error("kernel '" + shown + "': a cooperative launch with clusters is not supported");
    if (!options.blocks.empty() && options.blocks.size() != total)
      return make_error("kernel '" + shown + "' is launched cooperatively (" +
                        std::string(config.cooperative ? "--cooperative" : "it reads the grid workspace: cooperative_groups::this_grid()") +
                        "): its blocks run together, so every block runs (no --blocks selection)");
    const std::uint64_t resident = co_resident_blocks(config.block, std::max<std::uint64_t>(shared, p.static_shared_bytes));
    if (total > resident)
      return make_error("kernel '" + shown + "': a cooperative launch of " + std::to_string(total) +
                        " blocks cannot be resident at once on the H200 (at most " + std::to_string(resident) + " of " +
                        std::to_string(config.block.count()) + " threads and " + std::to_string(shared) +
                        " bytes of shared memory; fewer if registers limit it): cudaLaunchCooperativeKernel refuses it");
  }
  LaunchState launch;
  launch.program = &p;
  launch.memory = &memory;
  launch.grid = config.grid;
  launch.block = config.block;
  launch.explicit_cluster = explicit_cluster;
  launch.dynamic_shared_bytes = config.dynamic_shared_bytes;
  launch.step_budget = options.step_budget;
  launch.check_uninitialized_shared = options.check_uninitialized_shared;
  launch.order = options.order;
  launch.order_seed = options.order_seed;
  launch.quantum = options.quantum;
  launch.cluster = *shape;
  launch.params.assign(p.param_bytes, 0);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const KernelParam& kp = p.params[i];
    if (args[i].bytes.size() != kp.size)
      return make_error("argument " + std::to_string(i + 1) + " of kernel '" + shown + "' has " +
                        std::to_string(args[i].bytes.size()) + " bytes but parameter '" + param_name(module, *kernel, i) + "' (" +
                        std::string(ptx::type_name(kp.type)) + ") takes " + std::to_string(kp.size) +
                        "; parameters: " + describe_params(module, *kernel));
    std::memcpy(launch.params.data() + kp.offset, args[i].bytes.data(), kp.size);
  }
  launch.cooperative = cooperative;
  if (cooperative) {  // the driver's grid workspace: {u32 size; u32 barrier}, the barrier zero
    const std::uint8_t workspace[8] = {8, 0, 0, 0, 0, 0, 0, 0};
    launch.grid_workspace = memory.allocate(std::span<const std::uint8_t>(workspace), "grid workspace (cooperative launch)");
  }
  // Regions: the shared variables, then every global buffer.
  launch.regions = p.regions;
  for (Region& r : launch.regions)
    if (r.size == 0 && r.space == model::Space::Shared) r.size = config.dynamic_shared_bytes;
  // The driver's reserved shared memory (special_registers.h), after the kernel's own.
  launch.regions.push_back(Region{"reserved shared memory", model::Space::Shared, kReservedSharedOffset,
                                  kReservedSharedBytes, true});
  launch.first_buffer_region = launch.regions.size();
  for (const auto& b : memory.buffers()) launch.regions.push_back(Region{b->name, model::Space::Global, b->base, b->size});

  std::vector<std::uint64_t> blocks = options.blocks;
  if (blocks.empty()) {
    blocks.resize(total);
    for (std::uint64_t i = 0; i < total; ++i) blocks[i] = i;
  }
  for (std::uint64_t b : blocks)
    if (b >= total) return make_error("block " + std::to_string(b) + " is outside the grid of " + std::to_string(total));

  struct WorkerResult {
    std::vector<std::pair<std::uint64_t, Diagnostic>> diagnostics;  // with the block index
    std::uint64_t warp_instructions = 0, thread_instructions = 0, blocks = 0;
    std::vector<std::uint64_t> executed;
  };
  RunReport report;
  std::vector<WorkerResult> results;
  // Runs the blocks: one after another (by cluster), or `together`, every block in one unit
  // (resident at once, their warps interleaved): they may wait on each other.
  auto execute = [&](bool together) {
    // Together (a cooperative launch, or a reschedule): one unit of every block; else by cluster.
    const std::vector<std::vector<std::uint64_t>> units =
        together ? std::vector<std::vector<std::uint64_t>>{blocks} : work_units(blocks, config.grid, *shape);
    std::uint64_t unit_blocks = 0;
    for (const auto& u : units) unit_blocks += u.size();
    int workers = options.workers > 0 ? options.workers : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Blocks that wait on each other (a global lock) run in order on one worker: parallel
    // workers would make the spins, and the figures, depend on the threads' timing.
    if (p.waits_on_other_blocks) workers = 1;
    workers = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(workers), units.size()));
    std::atomic<std::uint64_t> stop{std::numeric_limits<std::uint64_t>::max()};
    launch.stop = &stop;
    std::atomic<std::size_t> next{0};

    report = RunReport{};
    report.workers = workers;
    report.listeners.resize(static_cast<std::size_t>(workers));
    for (auto& l : report.listeners)
      if (listeners) l = listeners();
    results.assign(static_cast<std::size_t>(workers), WorkerResult{});
    std::atomic<std::uint64_t> blocks_done{0};
    std::mutex progress_mutex;
    std::uint64_t progress_reported = 0;  // guarded by progress_mutex
    auto report_progress = [&](bool last) {
      if (!options.progress) return;
      std::unique_lock<std::mutex> lock(progress_mutex, std::defer_lock);
      if (last)
        lock.lock();
      else if (!lock.try_lock())
        return;
      const std::uint64_t done = blocks_done.load(std::memory_order_relaxed);
      if (done <= progress_reported) return;
      progress_reported = done;
      options.progress(done, unit_blocks);
    };
    auto start = std::chrono::steady_clock::now();
    auto work = [&](int index) {
      // One runner per block of a cluster (one without clusters), reused unit after unit.
      const std::size_t ranks = together ? units.front().size() : shape->count();
      std::vector<std::unique_ptr<BlockRunner>> runners;
      for (std::size_t k = 0; k < ranks; ++k)
        runners.push_back(std::make_unique<BlockRunner>(launch, report.listeners[static_cast<std::size_t>(index)].get()));
      ClusterContext cluster;
      WorkerResult& r = results[static_cast<std::size_t>(index)];
      std::vector<std::size_t> seen(ranks, 0);
      std::vector<std::pair<std::size_t, std::size_t>> origin;  // per diagnostic: runner, index there
      for (;;) {
        std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
        if (i >= units.size()) break;
        const std::vector<std::uint64_t>& unit = units[i];
        if (*std::min_element(unit.begin(), unit.end()) > stop.load(std::memory_order_relaxed)) continue;
        bool ok = ranks == 1 ? runners[0]->run(unit[0]) : run_cluster(runners, together ? nullptr : &cluster, unit);
        r.blocks += unit.size();
        blocks_done.fetch_add(unit.size(), std::memory_order_relaxed);
        report_progress(false);
        for (std::size_t k = 0; k < unit.size(); ++k) {
          auto& diags = runners[k]->diagnostics();
          for (std::size_t d = seen[k]; d < diags.size(); ++d) {
            r.diagnostics.emplace_back(unit[k], diags[d]);
            origin.emplace_back(k, d);
          }
          seen[k] = diags.size();
        }
        if (!ok) {  // the lowest failing block wins
          const std::uint64_t b = *std::min_element(unit.begin(), unit.end());
          std::uint64_t now = stop.load(std::memory_order_relaxed);
          while (b < now && !stop.compare_exchange_weak(now, b, std::memory_order_relaxed)) {
          }
        }
      }
      // Counts of repeated diagnostics grew after they were copied: take the final ones.
      for (std::size_t k = 0; k < r.diagnostics.size(); ++k)
        r.diagnostics[k].second.count = runners[origin[k].first]->diagnostics()[origin[k].second].count;
      r.executed.assign(p.code.size(), 0);
      for (auto& runner : runners) {
        r.warp_instructions += runner->warp_instructions;
        r.thread_instructions += runner->thread_instructions;
        for (std::size_t pc = 0; pc < runner->executed.size(); ++pc) r.executed[pc] += runner->executed[pc];
      }
    };
    if (workers == 1) {
      work(0);
    } else {
      std::vector<std::thread> threads;
      for (int i = 0; i < workers; ++i) threads.emplace_back(work, i);
      for (auto& t : threads) t.join();
    }
    report_progress(true);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    launch.stop = nullptr;  // `stop` ends with this call
  };
  // Blocks that spin on what later blocks write (stream-K tiles, a decoupled look-back) never
  // finish one after another; on the H200 they are resident at once when the grid fits. Then
  // the launch runs again from the same memory with every block together.
  const std::uint64_t resident = co_resident_blocks(config.block, std::max<std::uint64_t>(shared, p.static_shared_bytes));
  const bool may_reschedule =
      !cooperative && p.waits_on_other_blocks && shape->count() == 1 && options.blocks.empty() && total > 1 && total <= resident;
  std::vector<std::vector<std::uint8_t>> before;
  if (may_reschedule)
    for (const auto& b : memory.buffers()) {
      auto bytes = memory.bytes(b->base);
      before.emplace_back(bytes.begin(), bytes.end());
    }
  execute(cooperative);
  const auto spun = [&] {
    for (const WorkerResult& r : results)
      for (const auto& d : r.diagnostics)
        if (d.second.kind == Diagnostic::Kind::StepBudget) return true;
    return false;
  };
  bool rescheduled = false;
  if (may_reschedule && spun()) {
    for (std::size_t i = 0; i < before.size(); ++i) {
      auto bytes = memory.bytes(memory.buffers()[i]->base);
      std::copy(before[i].begin(), before[i].end(), bytes.begin());
    }
    before.clear();
    execute(true);
    rescheduled = true;
  }

  // Merge: one diagnostic per (kind and severity, instruction), the one from the lowest block.
  std::map<std::pair<int, const void*>, std::pair<std::uint64_t, Diagnostic>> merged;
  report.executed.assign(p.code.size(), 0);
  for (WorkerResult& r : results) {
    report.blocks_run += r.blocks;
    report.warp_instructions += r.warp_instructions;
    report.thread_instructions += r.thread_instructions;
    for (std::size_t pc = 0; pc < r.executed.size(); ++pc) report.executed[pc] += r.executed[pc];
    for (auto& [block, d] : r.diagnostics) {
      auto key = std::make_pair(static_cast<int>(d.kind) * 2 + (d.severity == Diagnostic::Severity::Error ? 1 : 0),
                                static_cast<const void*>(d.instruction));
      auto it = merged.find(key);
      if (it == merged.end()) {
        merged.emplace(key, std::make_pair(block, d));
      } else {
        std::uint64_t count = it->second.second.count + d.count;
        if (block < it->second.first) it->second = {block, d};
        it->second.second.count = count;
      }
    }
  }
  std::vector<std::pair<std::uint64_t, Diagnostic>> sorted;
  for (auto& [key, v] : merged) sorted.push_back(std::move(v));
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    if (a.second.severity != b.second.severity) return a.second.severity > b.second.severity;  // errors first
    return a.first < b.first;
  });
  for (auto& [block, d] : sorted) report.diagnostics.push_back(std::move(d));
  if (rescheduled) {
    Diagnostic d;
    d.severity = Diagnostic::Severity::Warning;
    d.kind = Diagnostic::Kind::Rescheduled;
    d.message = "blocks of kernel '" + shown + "' wait on each other (a block spun on memory other blocks write " +
                "until its step budget ran out when blocks ran one after another): every one of the " +
                std::to_string(total) + " blocks ran at once, as the H200 holds them all (at most " +
                std::to_string(resident) + " resident); the spin loops' figures depend on that order";
    report.diagnostics.push_back(std::move(d));
  }
  report.regions = launch.regions;
  report.static_shared_bytes = p.static_shared_bytes;
  report.shared_bytes = static_cast<std::uint32_t>(std::max<std::uint64_t>(shared, p.static_shared_bytes));
  report.local_bytes = p.local_bytes;
  for (const Op& op : p.code) report.instructions.push_back(op.origin);
  return report;
}

}  // namespace warpscope::emu
