// sass_match.h: the pieces of plan_from_sass (sass_plan.h), each testable on its own.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/sass_plan.h"

namespace warpscope::analysis::detail {

// A source position as both sides name it: the file's base name and the line, and for inlined
// code the nearest call site (one helper inlined at several places is several positions).
struct LineKey {
  std::string file;
  int line = 0;
  std::string at_file;
  int at_line = 0;
  LineKey loose() const { return {file, line, {}, 0}; }  // without the call site
  friend bool operator==(const LineKey&, const LineKey&) = default;
  friend auto operator<=>(const LineKey&, const LineKey&) = default;
};

// Loads and stores: matches the PTX accesses of `functions` (the SASS function's PTX function
// and the functions it calls that ptxas inlined) to `sass`'s loads and stores; fills `plan`.
// SASS instructions in `taken` (the loads of atomics' CAS loops) are left alone; those the
// PTX accesses were placed in are added to it.
// `placed`, when given, receives the SASS instructions (indexes) each PTX access was placed in.
using Placements = std::map<const ptx::Instruction*, std::vector<int>>;
void match_accesses(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                    const sass::SassFunction& sass, std::vector<bool>& taken, SassPlan& plan,
                    Placements* placed = nullptr);

// Loads ptxas hoisted out of loops (sass_forwarding.cc): an as-is shared or constant load that
// sits in fewer SASS loops than PTX loops runs only when the warp does not already hold its
// addresses for its lanes (load_reuse.h, InstructionPlan::reuse_subset).
void mark_hoisted_loads(const std::vector<const ptx::Function*>& functions, const sass::SassFunction& sass,
                        const Placements& placed, SassPlan& plan);

// Store-to-load forwarding (sass_forwarding.cc): a shared load no SASS instruction explains,
// after a store of the same bytes through the same address in the same basic block, reads the
// stored value from a register (dropped); of two stores of the same bytes in one basic block
// that ptxas kept as one STS, the earlier is dropped.
void drop_forwarded_accesses(const std::vector<const ptx::Function*>& functions, const Placements& placed,
                             SassPlan& plan);

// Tensor maps built on the device. Before the other matchers: each tensormap.cp_fenceproxy
// gets its SASS (the LDS of the map's words and the ATOMG.EXCH that writes them to global
// memory, then UTMACCTL.IV), marked in `taken`. After match_accesses: the loads and stores
// no PTX access explains, at the lines of tensormap.replace instructions, are those
// instructions' read-modify-writes of the map's words (InstructionPlan::Action::Words).
// Every SASS instruction either claims is marked in `claimed` (by instruction index) for
// attribute_lines to leave alone.
void match_tensormap_copies(const std::vector<const ptx::Function*>& functions, const sass::SassFunction& sass,
                            std::vector<bool>& taken, std::vector<bool>& claimed, SassPlan& plan);
void match_tensormap_fields(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                            const sass::SassFunction& sass, std::vector<bool>& taken, std::vector<bool>& claimed,
                            SassPlan& plan);

// A wgmma's or an HGMMA's N and where its A operand comes from ("64d": N 64, A by descriptor
// from shared memory; "64r": A in registers); empty for other instructions. attribute_lines
// pairs only wgmma and HGMMA of one form.
std::string gmma_form(const ptx::Instruction& inst);
std::string gmma_form(const sass::SassInstruction& inst);

// The Source-page line shares of SASS instructions `instructions` of `sass` (equal parts).
std::vector<LineShare> line_shares(const sass::SassFunction& sass, const std::vector<int>& instructions);

// How ncu's Source page sees an LDGSTS's source-valid predicate (SassPlan::copy_predicates):
// for the .cg form (.BYPASS.128), AllZero for `P0`, AllRead for `!P0`, Lanes for any other
// predicate and for the .ca and .ZFILL forms; nullopt for an instruction that is not an LDGSTS.
std::optional<model::SeenPredicate> ldgsts_seen_predicate(const sass::SassInstruction& inst);

// Atomics: gives each PTX atom/red of `functions` the lowering its SASS shows; marks in `taken`
// (by memory_ops index) the SASS loads that belong to those lowerings.
void match_atomics(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                   const sass::SassFunction& sass, std::vector<bool>& taken, SassPlan& plan);

// Source lines: gives each PTX memory access of `functions` the lines ncu shows the SASS
// instructions it became at (plan.source_lines; see sass_lines.cc for the pairing), and the
// how the Source page sees each cp.async's source predicate (plan.copy_predicates). SASS instructions marked in `claimed` (by instruction index) are left alone.
// `placed` (match_accesses's) decides which SASS loop is which PTX loop's when both have as many.
void attribute_lines(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                     const sass::SassFunction& sass, const std::vector<bool>& claimed, SassPlan& plan,
                     const Placements* placed = nullptr);

// Loops ptxas unrolled into regions (sass_plan.h: UnrolledLoop): after match_accesses, each
// innermost PTX loop whose loads and stores are all priced as is, and whose SASS copies (same
// line, kind and width) form a loop of U >= 2 copies, blocks of fewer, then a loop of one, gets
// that schedule (InstructionPlan::unrolled).
void match_unrolled_loops(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                          const sass::SassFunction& sass, SassPlan& plan);

// The registers `inst` reads: its guard, its sources, an address's base.
std::vector<std::uint32_t> registers_read(const ptx::Instruction& inst);

// Loads ptxas moved past an early exit (sunk_loads.h): a load whose value only a predicated
// store reads, with nothing after it that touches memory, whose SASS follows a predicated EXIT.
void match_sunk_loads(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                      const sass::SassFunction& sass, SassPlan& plan);

// The lowering ptxas gives a PTX atomic on sm_90 when no listing says otherwise.
AtomicRole predicted_atomic(const ptx::Instruction& inst);

// Per SASS instruction: true when only the lane a warp elected runs it (the instruction is
// guarded by, or skipped unless, `lane == FLO(vote.any)`: ptxas's warp-aggregated atomics).
std::vector<bool> leader_only(const sass::SassFunction& f);

// The source position of a PTX instruction and of a SASS instruction, as LineKeys.
LineKey line_of(const ptx::Module& module, const ptx::Instruction& inst);
LineKey line_of(const sass::SassInstruction& inst);

}  // namespace warpscope::analysis::detail
