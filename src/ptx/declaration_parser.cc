// declaration_parser.cc: variable and register declarations, with initializers.
//
//   .shared .align 16 .b8 tile[4224];          .reg .b32 %r<13>;
//   .global .align 4 .u32 table[4] = {1, 2, -3, 0x10};
//   .global .align 8 .u64 ptrs[1] = {generic(table)};   (addresses resolved at the end)
#include <cstring>

#include "ptx/parser_impl.h"

namespace warpscope::ptx::detail {

// [.align N] [.ptr ...] [.v2|.v4] .type name[<N>|[N]...] [= init] {, name ...} ;
std::vector<int> Parser::variable_decl(Space space, bool is_extern, int function_index, bool single) {
  Variable proto;
  proto.space = space;
  proto.is_extern = is_extern;
  proto.function = function_index;
  int vec = 1;
  bool pointee = false;  // after .ptr, the state space and .align describe what it points to
  while (peek().kind == TokenKind::Dot) {
    const Token& m = next();
    if (m.text == ".align") {
      std::int64_t a = expect_integer("an alignment");
      // `.param .u64 .ptr .global .align 1 p`: the pointee's alignment; the parameter itself
      // is naturally aligned in the parameter buffer (the ABI).
      if (!pointee) proto.align = static_cast<int>(a);
    } else if (m.text == ".ptr") {
      pointee = true;
    } else if (m.text == ".global" || m.text == ".shared" || m.text == ".const" || m.text == ".local") {
      // .param .u64 .ptr .global .align 16 p: attributes of the pointee.
    } else if (m.text == ".texref" || m.text == ".samplerref" || m.text == ".surfref") {
      proto.type = Type::B64;  // an opaque handle; tex/suld instructions are unsupported when run
    } else if (m.text == ".v2" || m.text == ".v4" || m.text == ".v8") {
      vec = m.text[2] - '0';
    } else {
      Instruction scratch;
      if (!apply_modifier(scratch, m.text.substr(1)) || scratch.type == Type::None)
        unknown(m, "unknown declaration attribute '" + std::string(m.text) + "'");
      proto.type = scratch.type;
    }
  }
  if (proto.type == Type::None) fail(peek(), "expected a type in the declaration");
  std::uint64_t elem = static_cast<std::uint64_t>(type_bits(proto.type) == 1 ? 1 : type_bits(proto.type) / 8) *
                       static_cast<std::uint64_t>(vec);
  std::vector<int> ids;
  for (;;) {
    const Token& name = peek();
    if (name.kind != TokenKind::Ident) fail(name, "expected a name in the declaration");
    next();
    if (space == Space::Reg) {
      auto& scope = register_scopes_.back();
      Function& f = module_.functions[static_cast<std::size_t>(function_index)];
      auto add = [&](const std::string& n) {
        scope[n] = static_cast<std::uint32_t>(f.registers.size());
        f.registers.push_back(Register{n, proto.type});
      };
      if (accept('<')) {
        std::int64_t count = expect_integer("a register count");
        expect('>', "after the register count");
        if (count < 0 || count > (1 << 22)) fail(name, "bad register count");
        for (std::int64_t i = 0; i < count; ++i) add(std::string(name.text) + std::to_string(i));
      } else {
        add(std::string(name.text));
      }
    } else {
      Variable v = proto;
      v.name = std::string(name.text);
      v.ptx_line = name.line;
      std::uint64_t count = 1;
      bool dynamic = false;
      while (accept('[')) {
        if (accept(']')) {
          dynamic = true;
          continue;
        }
        count *= static_cast<std::uint64_t>(expect_integer("an array size"));
        expect(']', "after the array size");
      }
      v.size = dynamic ? 0 : count * elem;
      v.is_dynamic = dynamic;
      if (accept('=')) initializer(v);
      if (dynamic && !v.init.empty()) v.size = v.init.size();
      int id = static_cast<int>(module_.variables.size());
      module_.variables.push_back(std::move(v));
      if (function_index < 0) {
        module_symbols_[module_.variables.back().name] = id;
      } else {
        symbol_scopes_.back()[module_.variables.back().name] = id;
      }
      ids.push_back(id);
    }
    if (single || !accept(',')) break;
  }
  if (!single) expect(';', "after the declaration");
  return ids;
}

void Parser::initializer(Variable& v) {
  int bytes = type_bits(v.type) / 8;
  if (bytes <= 0) bytes = 1;
  auto element = [&] {
    bool negative = accept('-');
    const Token& t = peek();
    std::uint64_t bits = 0;
    if (t.kind == TokenKind::Integer) {
      bits = negative ? static_cast<std::uint64_t>(-static_cast<std::int64_t>(t.bits)) : t.bits;
      if (v.type == Type::F32) {
        float f = static_cast<float>(static_cast<std::int64_t>(bits));
        std::uint32_t b;
        std::memcpy(&b, &f, 4);
        bits = b;
      } else if (v.type == Type::F64) {
        double d = static_cast<double>(static_cast<std::int64_t>(bits));
        std::memcpy(&bits, &d, 8);
      }
    } else if (t.kind == TokenKind::Float) {
      bits = t.bits;
      if (v.type == Type::F32 && !t.is_f32) {
        double d;
        std::memcpy(&d, &bits, 8);
        float f = static_cast<float>(negative ? -d : d);
        std::uint32_t b;
        std::memcpy(&b, &f, 4);
        bits = b;
      } else if (v.type == Type::F64 && t.is_f32) {
        float f;
        auto b32 = static_cast<std::uint32_t>(bits);
        std::memcpy(&f, &b32, 4);
        double d = negative ? -static_cast<double>(f) : f;
        std::memcpy(&bits, &d, 8);
      } else if (negative) {
        bits ^= (bytes == 4 ? 0x80000000ull : 0x8000000000000000ull);
      }
    } else if (t.kind == TokenKind::Ident && !negative) {
      // An address: "generic(sym)" or "sym", resolved when the module is complete.
      bool wrapped = t.text == "generic" && peek(1).is('(');
      if (wrapped) {
        next();
        next();
      }
      const Token& sym = peek();
      if (sym.kind != TokenKind::Ident) fail(sym, "expected a symbol in the initializer");
      pending_addresses_.push_back({static_cast<int>(module_.variables.size()), v.init.size(), sym});
      next();
      if (wrapped) expect(')', "after generic(symbol");
      for (int i = 0; i < bytes; ++i) v.init.push_back(0);
      return;
    } else {
      fail(t, "unsupported initializer '" + std::string(t.text) + "'");
    }
    next();
    for (int i = 0; i < bytes; ++i) v.init.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  };
  // Nested braces flatten in order.
  int depth = 0;
  do {
    while (accept('{')) ++depth;
    element();
    while (depth > 0 && accept('}')) --depth;
  } while (depth > 0 && accept(','));
  if (depth != 0) fail(peek(), "unbalanced braces in the initializer");
}

}  // namespace warpscope::ptx::detail
