// wmma_test.cc: wmma.load, wmma.mma and wmma.store through memory against a brute-force
// product, for every shape, type and layout nvcc emits, from global, shared and generic
// addresses; and the access events against the SASS's instructions.
//
// The kernel (one warp) loads A, B, C from memory, multiplies and stores D; nothing here
// knows the fragments' layout, so loads, products and stores must agree with each other.
#include <gtest/gtest.h>

#include <map>

#include "emu/emu_test_util.h"
#include "emu/mma_fragments.h"
#include "emu/tensor_test_util.h"

namespace warpscope::emu {
namespace {

using ptx::MatrixLayout;
using testing::encode_value;
using testing::make_buffer;
using testing::Matrix;
using testing::random_matrix;
using testing::read_buffer;
using T = ptx::TensorType;

enum class Space { Global, Shared, Generic, GenericShared };

struct Case {
  int m, n, k;
  T in, acc;
  MatrixLayout la, lb, lc;
  Space space;
};

int registers(const Case& c, MatrixOperand which) {
  if (which != MatrixOperand::C && c.in == T::F16) return 8;  // PTX's f16 a/b fragments
  return wmma_layout(c.m, c.n, c.k, which == MatrixOperand::C ? c.acc : c.in, which)->registers();
}

std::string regs(const std::string& name, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", %" : "%") + name + std::to_string(i);
  return s + "}";
}

std::string lname(MatrixLayout l) { return l == MatrixLayout::Row ? "row" : "col"; }

// Elements between rows (row-major) or columns (col-major), with padding.
int leading(int rows, int cols, MatrixLayout l, int bytes) {
  const int pad = 32 / bytes;  // keeps 16-byte multiples and shifts banks
  return (l == MatrixLayout::Row ? cols : rows) + pad;
}

struct Operand {
  int rows, cols, ld, bytes;
  MatrixLayout layout;
  int size() const { return (layout == MatrixLayout::Row ? rows : cols) * ld * bytes; }
};

std::string kernel(const Case& c, const Operand ops[4]) {
  const bool wide = c.in == T::F64;
  const std::string ty = wide ? "b64" : "b32";
  const std::string shape = shape_name(c.m, c.n, c.k);
  const std::string in = std::string(ptx::tensor_type_name(c.in)), acc = std::string(ptx::tensor_type_name(c.acc));
  const bool shared = c.space == Space::Shared || c.space == Space::GenericShared;
  const std::string space = c.space == Space::Global ? ".global" : c.space == Space::Shared ? ".shared" : "";
  std::string s = ".version 8.5\n.target sm_90\n.address_size 64\n";
  int offsets[4] = {0, 0, 0, 0}, total = 0;
  for (int i = 0; i < 4; ++i) {
    offsets[i] = total;
    total += (ops[i].size() + 127) / 128 * 128;
  }
  if (shared) s += ".shared .align 128 .b8 smem[" + std::to_string(total) + "];\n";
  s += ".visible .entry k(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u64 p3)\n{\n"
       "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<32>;\n";
  const int na = registers(c, MatrixOperand::A), nb = registers(c, MatrixOperand::B), nc = registers(c, MatrixOperand::C);
  s += "\t.reg ." + ty + " %a<" + std::to_string(na) + ">;\n\t.reg ." + ty + " %b<" + std::to_string(nb) + ">;\n";
  s += "\t.reg ." + std::string(wide ? "b64" : "b32") + " %c<" + std::to_string(nc) + ">;\n";
  s += "\t.reg ." + std::string(wide ? "b64" : "b32") + " %d<" + std::to_string(nc) + ">;\n";
  s += "\tmov.u32 %r1, %tid.x;\n";
  for (int i = 0; i < 4; ++i) {
    s += "\tld.param.u64 %rd" + std::to_string(i) + ", [p" + std::to_string(i) + "];\n";
    s += "\tcvta.to.global.u64 %rd" + std::to_string(i) + ", %rd" + std::to_string(i) + ";\n";
  }
  // Addresses the wmma instructions use: %rd10+i (64-bit) or %r10+i (shared offsets).
  if (shared) {
    s += "\tmov.u32 %r9, smem;\n";
    for (int i = 0; i < 3; ++i) {
      // Copy operand i into shared memory, 4 bytes per lane per step.
      const std::string n = std::to_string(i), words = std::to_string(ops[i].size() / 4);
      s += "\tmov.u32 %r2, %r1;\n$Lc" + n + ":\n\tsetp.ge.u32 %p1, %r2, " + words + ";\n\t@%p1 bra $Ld" + n + ";\n";
      s += "\tmul.wide.u32 %rd20, %r2, 4;\n\tadd.s64 %rd21, %rd" + n + ", %rd20;\n\tld.global.b32 %r3, [%rd21];\n";
      s += "\tshl.b32 %r4, %r2, 2;\n\tadd.u32 %r4, %r4, %r9;\n\tst.shared.b32 [%r4+" + std::to_string(offsets[i]) + "], %r3;\n";
      s += "\tadd.u32 %r2, %r2, 32;\n\tbra $Lc" + n + ";\n$Ld" + n + ":\n";
    }
    s += "\tbar.warp.sync -1;\n";
    for (int i = 0; i < 4; ++i) {
      s += "\tadd.u32 %r" + std::to_string(10 + i) + ", %r9, " + std::to_string(offsets[i]) + ";\n";
      s += "\tcvta.shared.u64 %rd" + std::to_string(10 + i) + ", smem;\n";
      s += "\tadd.s64 %rd" + std::to_string(10 + i) + ", %rd" + std::to_string(10 + i) + ", " + std::to_string(offsets[i]) + ";\n";
    }
  } else {
    for (int i = 0; i < 4; ++i) s += "\tmov.u64 %rd" + std::to_string(10 + i) + ", %rd" + std::to_string(i) + ";\n";
  }
  auto addr = [&](int i) { return c.space == Space::Shared ? "%r" + std::to_string(10 + i) : "%rd" + std::to_string(10 + i); };
  s += "\twmma.load.a.sync.aligned." + lname(c.la) + "." + shape + space + "." + in + " " + regs("a", na) + ", [" + addr(0) +
       "], " + std::to_string(ops[0].ld) + ";\n";
  s += "\twmma.load.b.sync.aligned." + lname(c.lb) + "." + shape + space + "." + in + " " + regs("b", nb) + ", [" + addr(1) +
       "], " + std::to_string(ops[1].ld) + ";\n";
  s += "\twmma.load.c.sync.aligned." + lname(c.lc) + "." + shape + space + "." + acc + " " + regs("c", nc) + ", [" + addr(2) +
       "], " + std::to_string(ops[2].ld) + ";\n";
  const std::string types = c.in == T::F16 ? "." + acc + "." + acc : "." + acc + "." + in + "." + in + "." + acc;
  s += "\twmma.mma.sync.aligned." + lname(c.la) + "." + lname(c.lb) + "." + shape + types + (c.in == T::F64 ? ".rn" : "") + " " +
       regs("d", nc) + ", " + regs("a", na) + ", " + regs("b", nb) + ", " + regs("c", nc) + ";\n";
  s += "\twmma.store.d.sync.aligned." + lname(c.lc) + "." + shape + space + "." + acc + " [" + addr(3) + "], " + regs("d", nc) +
       ", " + std::to_string(ops[3].ld) + ";\n";
  if (shared) {  // copy D back out
    const std::string words = std::to_string(ops[3].size() / 4);
    s += "\tbar.warp.sync -1;\n\tmov.u32 %r2, %r1;\n$Lout:\n\tsetp.ge.u32 %p1, %r2, " + words + ";\n\t@%p1 bra $Lend;\n";
    s += "\tshl.b32 %r4, %r2, 2;\n\tadd.u32 %r4, %r4, %r13;\n\tld.shared.b32 %r3, [%r4];\n";
    s += "\tmul.wide.u32 %rd20, %r2, 4;\n\tadd.s64 %rd21, %rd3, %rd20;\n\tst.global.b32 [%rd21], %r3;\n";
    s += "\tadd.u32 %r2, %r2, 32;\n\tbra $Lout;\n$Lend:\n";
  }
  s += "\tret;\n}\n";
  return s;
}

std::vector<std::uint8_t> to_memory(Matrix& m, const Operand& o) {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(o.size()), 0xee);  // padding: not zero
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) {
      const int index = o.layout == MatrixLayout::Row ? r * o.ld + c : c * o.ld + r;
      const std::uint64_t bits = m.at(r, c).bits;
      std::memcpy(bytes.data() + static_cast<std::size_t>(index) * static_cast<std::size_t>(o.bytes), &bits,
                  static_cast<std::size_t>(o.bytes));
    }
  return bytes;
}

// The access events of a run's wmma instructions, with the module they point into.
struct Events {
  std::unique_ptr<ptx::Module> module;
  std::vector<AccessEvent> accesses;
};

// Runs the case; returns the access events of the kernel's wmma lines.
Events check(const Case& c, unsigned seed) {
  std::mt19937 rng(seed);
  const int in_bytes = ptx::tensor_type_bits(c.in) / 8, acc_bytes = ptx::tensor_type_bits(c.acc) / 8;
  const Operand ops[4] = {{c.m, c.k, leading(c.m, c.k, c.la, in_bytes), in_bytes, c.la},
                          {c.k, c.n, leading(c.k, c.n, c.lb, in_bytes), in_bytes, c.lb},
                          {c.m, c.n, leading(c.m, c.n, c.lc, acc_bytes), acc_bytes, c.lc},
                          {c.m, c.n, leading(c.m, c.n, c.lc, acc_bytes), acc_bytes, c.lc}};
  Matrix A = random_matrix(c.m, c.k, c.in, rng), B = random_matrix(c.k, c.n, c.in, rng);
  Matrix C = random_matrix(c.m, c.n, c.acc, rng);
  const std::string src = kernel(c, ops);
  auto parsed = ptx::parse(src, "wmma.ptx");
  EXPECT_TRUE(parsed) << parsed.error().render() << "\n" << src;
  if (!parsed) return {};
  Events events;
  events.module = std::make_unique<ptx::Module>(std::move(*parsed));
  const ptx::Module* module = events.module.get();
  GlobalMemory memory;
  std::vector<KernelArg> args;
  args.push_back(KernelArg::of(make_buffer(memory, to_memory(A, ops[0]), "a")));
  args.push_back(KernelArg::of(make_buffer(memory, to_memory(B, ops[1]), "b")));
  args.push_back(KernelArg::of(make_buffer(memory, to_memory(C, ops[2]), "c")));
  const std::uint64_t d = make_buffer(memory, std::vector<std::uint8_t>(static_cast<std::size_t>(ops[3].size()), 0xee), "d");
  args.push_back(KernelArg::of(d));
  RunOptions opt;
  opt.workers = 1;
  auto r = run(*module, "k", {{1, 1, 1}, {32, 1, 1}}, args, memory, opt, testing::recorder_factory());
  EXPECT_TRUE(r) << r.error().render();
  if (!r) return {};
  // (The copy out of shared memory reads D's padding, never written: that warning is ours.)
  for (const auto& diag : r->diagnostics)
    if (diag.severity == Diagnostic::Severity::Error ||
        (diag.instruction != nullptr && ptx::family_of(diag.instruction->opcode) == ptx::Family::Tensor))
      ADD_FAILURE() << diag.message << "\n" << src;
  const auto out = read_buffer<std::uint8_t>(memory, d);
  int failures = 0;
  for (int row = 0; row < c.m && failures < 4; ++row)
    for (int col = 0; col < c.n && failures < 4; ++col) {
      double expect = C.at(row, col).value;
      for (int kk = 0; kk < c.k; ++kk) expect += A.at(row, kk).value * B.at(kk, col).value;
      const int index = c.lc == MatrixLayout::Row ? row * ops[3].ld + col : col * ops[3].ld + row;
      std::uint64_t got = 0;
      std::memcpy(&got, out.data() + static_cast<std::size_t>(index * acc_bytes), static_cast<std::size_t>(acc_bytes));
      if (got != encode_value(c.acc, expect)) {
        ADD_FAILURE() << "D(" << row << ", " << col << ") = " << got << ", expected " << expect;
        ++failures;
      }
    }
  for (const AccessEvent& e : testing::merged(*r).accesses)
    if (e.instruction != nullptr && e.instruction->opcode != ptx::Opcode::Ld && e.instruction->opcode != ptx::Opcode::St)
      events.accesses.push_back(e);
  return events;
}

std::string describe(const Case& c) {
  const char* spaces[] = {"global", "shared", "generic", "generic->shared"};
  return shape_name(c.m, c.n, c.k) + " ." + std::string(ptx::tensor_type_name(c.in)) + "->" +
         std::string(ptx::tensor_type_name(c.acc)) + " a " + lname(c.la) + " b " + lname(c.lb) + " c " + lname(c.lc) + " " +
         spaces[static_cast<int>(c.space)];
}

TEST(Wmma, EveryShapeTypeLayoutAndSpaceAgainstABruteForceProduct) {
  struct Shape {
    int m, n, k;
    T in, acc;
  };
  const std::vector<Shape> shapes = {
      {16, 16, 16, T::F16, T::F32}, {16, 16, 16, T::F16, T::F16}, {32, 8, 16, T::F16, T::F32}, {8, 32, 16, T::F16, T::F32},
      {32, 8, 16, T::F16, T::F16},  {8, 32, 16, T::F16, T::F16},  {16, 16, 16, T::BF16, T::F32}, {32, 8, 16, T::BF16, T::F32},
      {8, 32, 16, T::BF16, T::F32}, {16, 16, 8, T::TF32, T::F32}, {16, 16, 16, T::U8, T::S32},  {16, 16, 16, T::S8, T::S32},
      {32, 8, 16, T::S8, T::S32},   {8, 32, 16, T::U8, T::S32},   {8, 8, 4, T::F64, T::F64},
  };
  unsigned seed = 7;
  for (const Shape& sh : shapes)
    for (MatrixLayout la : {MatrixLayout::Row, MatrixLayout::Col})
      for (MatrixLayout lb : {MatrixLayout::Row, MatrixLayout::Col})
        for (MatrixLayout lc : {MatrixLayout::Row, MatrixLayout::Col})
          for (Space sp : {Space::Global, Space::Shared, Space::Generic, Space::GenericShared}) {
            const Case c{sh.m, sh.n, sh.k, sh.in, sh.acc, la, lb, lc, sp};
            SCOPED_TRACE(describe(c));
            check(c, seed++);
            if (::testing::Test::HasFailure()) return;
          }
}

// The events of each wmma instruction: what ncu counts is what the SASS runs.
TEST(Wmma, AccessEventsAreTheSassInstructions) {
  const Case c{16, 16, 16, T::F16, T::F32, MatrixLayout::Row, MatrixLayout::Col, MatrixLayout::Row, Space::Shared};
  auto events = check(c, 3);
  std::map<ptx::Opcode, std::vector<const AccessEvent*>> by;
  for (const AccessEvent& e : events.accesses) by[e.instruction->opcode].push_back(&e);
  ASSERT_EQ(by[ptx::Opcode::WmmaLoad].size(), 1u + 1u + 4u);  // A: LDSM.4, B: LDSM.4, C: 4 x LDS.64
  ASSERT_EQ(by[ptx::Opcode::WmmaStore].size(), 4u);            // 4 x STS.64
  const AccessEvent& a = *by[ptx::Opcode::WmmaLoad][0];
  EXPECT_EQ(a.access.op, model::MemOp::LdMatrix);
  EXPECT_EQ(a.access.width, 4);
  // Matrix j's row r at (8 * (j % 2) + r) * ldm + 8 * (j / 2) halves: the 16x16 A tile,
  // ldm = 16 + 16 halves.
  const std::uint64_t base = a.access.address[0];
  for (int lane = 0; lane < 32; ++lane) {
    const int j = lane / 8, r = lane % 8;
    const std::uint64_t expect = base + static_cast<std::uint64_t>(((8 * (j % 2) + r) * 32 + 8 * (j / 2)) * 2);
    EXPECT_EQ(a.access.address[static_cast<std::size_t>(lane)], expect) << "lane " << lane;
  }
  const AccessEvent& s = *by[ptx::Opcode::WmmaStore][0];
  EXPECT_EQ(s.access.op, model::MemOp::SharedStore);
  EXPECT_EQ(s.access.width, 8);
  // STS.64 [row g * ldm + 2q]: ldm = 16 + 8 floats.
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(s.access.address[static_cast<std::size_t>(lane)] - s.access.address[0],
              static_cast<std::uint64_t>(((lane / 4) * 24 + 2 * (lane % 4)) * 4));
}

TEST(Wmma, GenericAddressesToSharedAreSharedAccesses) {
  const Case c{16, 16, 8, T::TF32, T::F32, MatrixLayout::Row, MatrixLayout::Col, MatrixLayout::Row, Space::GenericShared};
  auto events = check(c, 5);
  int loads = 0;
  for (const AccessEvent& e : events.accesses)
    if (e.instruction->opcode == ptx::Opcode::WmmaLoad && e.instruction->tensor.fragment == ptx::Fragment::A) {
      EXPECT_EQ(e.access.op, model::MemOp::SharedLoad);  // LD.E of a shared address
      EXPECT_EQ(e.access.width, 4);
      ++loads;
    }
  EXPECT_EQ(loads, 4);
}

}  // namespace
}  // namespace warpscope::emu
