// parser_impl.h: the parser's state, shared by parser.cc (directives, declarations,
// functions) and instruction_parser.cc (opcodes, modifiers, operands). Internal.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ptx/ir.h"
#include "ptx/lexer.h"
#include "support/expected.h"

namespace warpscope::ptx::detail {

// Thrown inside the parser only; parse() turns it into an Error value.
struct ParseFailure {
  Error error;
};

// Thrown for a well-formed statement the parser does not know (an unknown register or
// symbol, an operand form the IR has no room for). Inside a function body the statement
// becomes an Unsupported instruction (an error only if a warp reaches it); anywhere else
// parse() reports it like a ParseFailure.
struct UnknownConstruct {
  Error error;
};

class Parser {
 public:
  Parser(std::string_view source, std::string path);
  Module run();

 private:
  // Tokens.
  const Token& peek(int k = 0) const;
  const Token& next();
  bool accept(char punct);
  void expect(char punct, std::string_view context);
  std::string_view expect_ident(std::string_view what);
  std::int64_t expect_integer(std::string_view what);
  [[noreturn]] void fail(const Token& at, const std::string& message) const;
  [[noreturn]] void unknown(const Token& at, const std::string& message) const;
  Error error_at(const Token& at, const std::string& message) const;
  void skip_line(int line);
  void skip_to_semicolon();
  void skip_braced_block();

  // Module level (parser.cc).
  void top_level();
  void line_directive(const Token& dot);
  void function(bool is_entry, int decl_line);
  void param_list(Function& f, int function_index, bool returns);
  void function_body(Function& f, int function_index);
  std::vector<int> variable_decl(Space space, bool is_extern, int function_index, bool single);
  void initializer(Variable& v);
  void loc_directive();
  void statement(Function& f, int function_index);

  // Instructions (instruction_parser.cc).
  void instruction(Function& f, int function_index);
  void decode_instruction(Function& f, int function_index);
  // The statement from the token at `start` to its ';' as an Unsupported instruction.
  void unsupported_statement(Function& f, std::size_t start, std::string reason);
  // Past this statement's ';'; an unbalanced brace or the end of file first is a syntax error.
  void skip_statement();
  bool apply_modifier(Instruction& inst, std::string_view mod);
  Operand operand(Function& f, Instruction& inst);
  Operand address_operand();  // [ ... up to the ']' or the ',' of a tensor address
  // The {c0, c1, ...} of [tensorMap, {...}] as vector operands of at most 4 (async_parser.cc).
  std::vector<Operand> coordinate_vectors(Function& f, Instruction& inst);
  void call_operands(Function& f, Instruction& inst);
  std::uint32_t register_index(const Token& t) const;  // kNoReg if not a register
  int symbol_index(std::string_view name) const;       // -1 if unknown
  void finish_function(Function& f);

  std::string_view source_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  Module module_;

  // Scopes: module symbols, then nested function blocks ({ ... } callseq blocks).
  std::unordered_map<std::string, int> module_symbols_;
  std::vector<std::unordered_map<std::string, int>> symbol_scopes_;
  std::vector<std::unordered_map<std::string, std::uint32_t>> register_scopes_;
  std::unordered_map<std::string, int> function_index_;

  // Per function: labels and the operands waiting for them. A label is visible in the
  // { } block that defines it and the blocks inside it (PTX scoping: inline asm repeats
  // "WAIT: ... @!p bra WAIT;" in a block of its own at every call site), so each label is
  // kept with its block, and each block with the block around it (block 0: the body).
  std::unordered_map<std::string, std::vector<std::pair<int, int>>> labels_;  // name -> (block, instruction)
  std::vector<int> block_parent_;  // block -> enclosing block (-1 for the body)
  int block_ = 0;
  struct LabelRef {
    int instruction;
    int operand;
    Token token;
    int block;
  };
  std::vector<LabelRef> label_refs_;
  struct FuncRef {
    int call;
    Token token;
  };
  std::vector<FuncRef> func_refs_;
  struct PendingAddress {
    int variable;
    std::uint64_t offset;
    Token symbol;
  };
  std::vector<PendingAddress> pending_addresses_;
  DebugLoc loc_;
  std::vector<Operand> tensor_coordinates_;  // the last tensor address's, until appended
  std::map<std::tuple<int, int, int>, SourceLoc> outer_of_;  // .loc -> its outermost call site
};

}  // namespace warpscope::ptx::detail
