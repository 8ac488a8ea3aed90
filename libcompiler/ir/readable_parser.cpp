#include "libcompiler/ir/readable_parser.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <map>

#include "libcompiler/ir/python_operators.h"
#include "libcompiler/ir/readable_printer.h"

namespace kiln::ir {

namespace {

// A forward() input before its placeholder node exists: renames ("l_x_ = L_x_") and pytree
// annotation lines come after the signature but before the first computing statement.
struct PendingInput {
  std::string target;
  std::string name;
  FakeValue value;
  std::optional<std::string> descriptor;
  std::optional<std::string> typeAnnotation;  // "L_x_ : torch.Tensor" in non-verbose code
};

// What the right-hand side of an assignment computes.
struct Computation {
  OpCode op;
  std::string target;
  std::vector<Argument> args;
  std::vector<KeywordArgument> kwargs;
};

using Comments = std::vector<std::optional<std::string>>;

constexpr std::string_view kGraphIdPrefix = "graph id: ";

class ReadableParser {
 public:
  explicit ReadableParser(std::string_view text) : tokens_(tokenizePython(text)) {}

  std::unique_ptr<GraphModule> parse() {
    auto module = parseModule(0);
    if (peek().kind == TokenKind::Comment && peek().text.rfind(kGraphIdPrefix, 0) == 0) {
      module->graphId = next().text.substr(kGraphIdPrefix.size());
      expectNewline();
    }
    if (peek().kind != TokenKind::End) fail("unexpected text after the module");
    return module;
  }

 private:
  // ---- token helpers ----
  const Token& peek(size_t ahead = 0) const { return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (t.kind != TokenKind::End) ++pos_;
    return t;
  }
  bool isOp(const Token& t, std::string_view op) const { return t.kind == TokenKind::Operator && t.text == op; }
  bool isName(const Token& t, std::string_view name) const { return t.kind == TokenKind::Name && t.text == name; }
  bool acceptOp(std::string_view op) {
    if (!isOp(peek(), op)) return false;
    next();
    return true;
  }
  void expectOp(std::string_view op) {
    if (!acceptOp(op)) fail("expected '" + std::string(op) + "'");
  }
  const Token& expectName(std::string_view name = {}) {
    if (peek().kind != TokenKind::Name || (!name.empty() && peek().text != name))
      fail(name.empty() ? "expected a name" : "expected '" + std::string(name) + "'");
    return next();
  }
  void expectNewline() {
    if (peek().kind != TokenKind::Newline) fail("expected the end of the line");
    next();
  }
  std::optional<std::string> acceptComment() {
    if (peek().kind != TokenKind::Comment) return std::nullopt;
    return next().text;
  }
  std::string dottedName() {
    std::string path = expectName().text;
    while (isOp(peek(), ".") && peek(1).kind == TokenKind::Name) {
      next();
      path += "." + next().text;
    }
    return path;
  }
  [[noreturn]] void fail(const std::string& what) const { fail(what, peek()); }
  [[noreturn]] void fail(const std::string& what, const Token& t) const {
    std::string near = t.kind == TokenKind::Newline ? "end of line" : t.kind == TokenKind::End ? "end of input" : "'" + t.text + "'";
    throw SyntaxError(what + " (at " + near + ")", t.line, t.column);
  }
  bool atLineStart(int column) const {
    const Token& t = peek();
    return t.kind != TokenKind::End && t.startsLine && t.column == column;
  }

  // ---- module structure ----
  std::unique_ptr<GraphModule> parseModule(int indent) {
    if (!atLineStart(indent) || !isName(peek(), "class")) fail("expected 'class' at column " + std::to_string(indent + 1));
    next();
    std::string className;
    if (acceptOp("<")) {
      className = "<" + expectName().text + ">";
      expectOp(">");
    } else {
      className = expectName().text;
    }
    expectOp("(");
    const Token& base = peek();
    if (dottedName() != "torch.nn.Module") fail("expected torch.nn.Module as the base class", base);
    expectOp(")");
    expectOp(":");
    expectNewline();
    auto module = std::make_unique<GraphModule>(className);
    ModuleState state{*module, {}, {}, {}, std::nullopt};
    parseForward(state, indent + 4);
    while (atLineStart(indent + 4) && isName(peek(), "class")) {
      auto submodule = parseModule(indent + 4);
      std::string name = submodule->className;
      module->addSubmodule(name, std::move(submodule));
    }
    return module;
  }

  struct ModuleState {
    GraphModule& module;
    std::vector<PendingInput> pending;      // inputs whose placeholder nodes are not made yet
    std::map<std::string, PendingInput> pytreeAnnotations;
    std::map<std::string, Node*> nodes;     // by name
    std::optional<std::string> summary;     // the source comment in force
  };

  void parseForward(ModuleState& state, int indent) {
    if (!atLineStart(indent) || !isName(peek(), "def")) fail("expected 'def forward' at column " + std::to_string(indent + 1));
    int defLine = next().line;
    expectName("forward");
    expectOp("(");
    const Token& self = expectName("self");
    state.module.graph.codegen.expandedSignature = self.line != defLine;
    while (acceptOp(",")) {
      if (!state.pending.empty()) state.pending.back().descriptor = acceptComment();
      if (isOp(peek(), ")")) break;
      PendingInput input;
      input.target = input.name = expectName().text;
      if (acceptOp(":")) {
        if (peek().kind == TokenKind::Name)
          input.typeAnnotation = dottedName();
        else if (peek().kind == TokenKind::String)
          input.value = parseAnnotation(next().text);
        else
          fail("expected a quoted annotation or a type");
      }
      state.pending.push_back(std::move(input));
    }
    expectOp(")");
    expectOp(":");
    expectNewline();
    int bodyIndent = indent + 4;
    while (atLineStart(bodyIndent)) {
      if (isName(peek(), "return")) {
        parseReturn(state);
        return;
      }
      parseStatement(state);
    }
    fail("expected a return statement at column " + std::to_string(bodyIndent + 1));
  }

  void parseStatement(ModuleState& state) {
    if (auto comment = acceptComment()) {
      state.summary = *comment == kNoStacktraceComment ? std::nullopt : std::optional<std::string>(*comment);
      expectNewline();
      return;
    }
    if (peek().kind != TokenKind::Name) fail("expected a statement");
    const Token& second = peek(1);
    if (isOp(second, ",")) return parsePytreeFlatten(state);
    if (isOp(second, ":") && peek(2).kind == TokenKind::String && !isOp(peek(3), "=")) return parsePytreeAnnotation(state);
    if (isOp(second, "=") && peek(2).kind == TokenKind::Name && peek(3).kind == TokenKind::Newline &&
        renamePending(state, peek().text, peek(2).text)) {
      next(), next(), next(), next();
      return;
    }
    if (second.kind == TokenKind::Operator && operatorForSymbol(second.text, OperatorForm::InPlace))
      return parseInPlace(state);
    parseAssignment(state);
  }

  // "l_x_ = L_x_": the placeholder for input L_x_ is called l_x_.
  bool renamePending(ModuleState& state, const std::string& name, const std::string& target) {
    for (auto& input : state.pending)
      if (input.target == target && input.name == target) {
        input.name = name;
        return true;
      }
    return false;
  }

  // "primals_1: "f32[...]"  # PlainAOTInput(idx=0)" before the pytree flatten line.
  void parsePytreeAnnotation(ModuleState& state) {
    PendingInput input;
    input.target = input.name = expectName().text;
    expectOp(":");
    input.value = parseAnnotation(next().text);
    input.descriptor = acceptComment();
    expectNewline();
    state.pytreeAnnotations[input.target] = std::move(input);
  }

  // "a, b, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)"
  void parsePytreeFlatten(ModuleState& state) {
    std::vector<std::string> flat;
    while (peek().kind == TokenKind::Name) {
      flat.push_back(next().text);
      expectOp(",");
    }
    expectOp("=");
    if (dottedName() != "fx_pytree.tree_flatten_spec") fail("expected fx_pytree.tree_flatten_spec");
    expectOp("(");
    expectOp("[");
    PytreeSignature signature;
    for (const auto& input : state.pending) {
      if (!std::holds_alternative<std::monostate>(input.value)) fail("pytree inputs cannot carry annotations");
      signature.inputNames.push_back(input.target);
    }
    for (size_t i = 0; i < signature.inputNames.size(); ++i) {
      if (i) expectOp(",");
      if (expectName().text != signature.inputNames[i]) fail("the flattened inputs differ from forward's");
    }
    expectOp("]");
    expectOp(",");
    if (dottedName() != "self._in_spec") fail("expected self._in_spec");
    expectOp(")");
    expectNewline();
    state.module.graph.codegen.pytree = std::move(signature);
    state.pending.clear();
    for (const auto& name : flat) {
      auto it = state.pytreeAnnotations.find(name);
      state.pending.push_back(it != state.pytreeAnnotations.end() ? it->second : PendingInput{name, name, {}, {}, {}});
    }
  }

  void makePlaceholders(ModuleState& state) {
    for (auto& input : state.pending) {
      Node* node = state.module.graph.createNode(OpCode::Placeholder, input.target, {}, {}, input.name);
      if (node->name() != input.name) fail("'" + input.name + "' cannot be a node name");
      node->meta.value = std::move(input.value);
      node->meta.descriptor = std::move(input.descriptor);
      node->meta.typeAnnotation = std::move(input.typeAnnotation);
      state.nodes[node->name()] = node;
    }
    state.pending.clear();
  }

  // name[: "annotation"] = computation[;  a = b = None]
  void parseAssignment(ModuleState& state) {
    makePlaceholders(state);
    std::string name = expectName().text;
    FakeValue value;
    if (acceptOp(":")) {
      if (peek().kind != TokenKind::String) fail("expected a quoted annotation");
      value = parseAnnotation(next().text);
    }
    expectOp("=");
    Computation c = parseComputation(state);
    addNode(state, std::move(c), name, std::move(value));
    parseFrees(state);
  }

  // "step_t += 1;  step_t_1: "f32[][]cpu" = step_t": operator.iadd, whose value is step_t's.
  void parseInPlace(ModuleState& state) {
    makePlaceholders(state);
    Argument target = parseValue(state);
    auto op = operatorForSymbol(next().text, OperatorForm::InPlace);
    Argument operand = parseValue(state);
    expectOp(";");
    std::string name = expectName().text;
    FakeValue value;
    if (acceptOp(":")) value = parseAnnotation(next().text);
    expectOp("=");
    if (!(parseValue(state) == target)) fail("an in-place statement must assign its target");
    addNode(state, {OpCode::CallFunction, operatorTarget(*op), {target, operand}, {}}, name, std::move(value));
    parseFrees(state);
  }

  Node* addNode(ModuleState& state, Computation c, const std::string& name, FakeValue value) {
    if (state.nodes.count(name)) fail("'" + name + "' is assigned twice");
    Node* node = state.module.graph.createNode(c.op, std::move(c.target), std::move(c.args), std::move(c.kwargs), name);
    if (node->name() != name) fail("'" + name + "' cannot be a node name");
    if (node->op() == OpCode::GetAttr)
      if (const auto* tensor = std::get_if<TensorMeta>(&value))
        state.module.attributes[node->target()] = ModuleAttribute{*tensor, false, std::nullopt};
    node->meta.value = std::move(value);
    node->meta.sourceSummary = state.summary;
    state.nodes[name] = node;
    return node;
  }

  // ";  a = b = None": the values FX frees after this statement; the printer recomputes them.
  void parseFrees(ModuleState& state) {
    if (acceptOp(";")) {
      do {
        const Token& freed = expectName();
        if (freed.text == "None") fail("expected a value name before None");
        if (!state.nodes.count(freed.text)) fail("freeing unknown value '" + freed.text + "'");
        expectOp("=");
      } while (!isName(peek(), "None"));
      next();
    }
    expectNewline();
  }

  // ---- right-hand sides ----
  Computation parseComputation(ModuleState& state) {
    const Token& t = peek();
    if (t.kind == TokenKind::Operator && (t.text == "-" || t.text == "+" || t.text == "~") &&
        peek(1).kind == TokenKind::Name && state.nodes.count(peek(1).text)) {
      auto op = operatorForSymbol(next().text, OperatorForm::Unary);
      return {OpCode::CallFunction, operatorTarget(*op), {parseValue(state)}, {}};
    }
    if ((isName(t, "self") && isOp(peek(1), ".")) ||
        (isName(t, "getattr") && isOp(peek(1), "(") && (isName(peek(2), "self") || isName(peek(2), "getattr")))) {
      std::string path = parseSelfPath();
      if (!isOp(peek(), "(")) return {OpCode::GetAttr, path, {}, {}};
      Computation c{OpCode::CallModule, path, {}, {}};
      parseCallArguments(state, c.args, c.kwargs);
      return c;
    }
    if (t.kind == TokenKind::Name && state.nodes.count(t.text) && isOp(peek(1), ".")) {
      Argument receiver = Argument::node(state.nodes[next().text]);
      next();
      std::string member = expectName().text;
      if (!isOp(peek(), "(")) return {OpCode::CallFunction, "getattr", {receiver, Argument::string(member)}, {}};
      Computation c{OpCode::CallMethod, member, {receiver}, {}};
      parseCallArguments(state, c.args, c.kwargs);
      return c;
    }
    if (t.kind == TokenKind::Name && !state.nodes.count(t.text) && !isValueConstructor(t.text)) {
      std::string target = dottedName();
      if (!isOp(peek(), "(")) fail("'" + target + "' is not a value of this graph");
      Computation c{OpCode::CallFunction, target, {}, {}};
      parseCallArguments(state, c.args, c.kwargs);
      return c;
    }
    Argument lhs = parseValue(state);
    if (acceptOp("[")) {
      Argument index = parseValue(state);
      expectOp("]");
      return {OpCode::CallFunction, std::string(builtinTargetSpelling(BuiltinTarget::Getitem)), {lhs, index}, {}};
    }
    if (peek().kind == TokenKind::Operator)
      if (auto op = operatorForSymbol(peek().text, OperatorForm::Binary)) {
        next();
        return {OpCode::CallFunction, operatorTarget(*op), {lhs, parseValue(state)}, {}};
      }
    fail("expected an operation");
  }

  // self.a.b, or getattr(self.a, "0") around path parts that are not identifiers (FX's _format_target).
  std::string parseSelfPath() {
    std::string path;
    if (isName(peek(), "getattr")) {
      next();
      expectOp("(");
      path = parseSelfPath();
      expectOp(",");
      if (peek().kind != TokenKind::String) fail("expected an attribute name");
      path += "." + next().text;
      expectOp(")");
    } else {
      expectName("self");
    }
    while (isOp(peek(), ".") && peek(1).kind == TokenKind::Name) {
      next();
      path += (path.empty() ? "" : ".") + next().text;
    }
    if (path.empty()) fail("expected an attribute of self");
    return path;
  }

  static bool isValueConstructor(std::string_view name) {
    return name == "device" || name == "slice" || name == "None" || name == "True" || name == "False" ||
           name == "inf" || name == "nan" || name == "Ellipsis";
  }

  void parseCallArguments(ModuleState& state, std::vector<Argument>& args, std::vector<KeywordArgument>& kwargs) {
    expectOp("(");
    while (!isOp(peek(), ")")) {
      if (peek().kind == TokenKind::Name && isOp(peek(1), "=")) {
        std::string key = next().text;
        next();
        kwargs.push_back({key, parseValue(state)});
      } else {
        if (!kwargs.empty()) fail("positional argument after keyword argument");
        args.push_back(parseValue(state));
      }
      if (!acceptOp(",")) break;
    }
    expectOp(")");
  }

  // ---- values ----
  Argument parseValue(ModuleState& state, Comments* comments = nullptr) {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::Integer: return Argument::integer(parseInteger(next().text, false));
      case TokenKind::Float: return Argument::floating(std::strtod(next().text.c_str(), nullptr));
      case TokenKind::String: return Argument::string(next().text);
      case TokenKind::Operator:
        if (t.text == "-" && (peek(1).kind == TokenKind::Integer || peek(1).kind == TokenKind::Float || isName(peek(1), "inf"))) {
          next();
          const Token& number = next();
          if (number.kind == TokenKind::Integer) return Argument::integer(parseInteger(number.text, true));
          return Argument::floating(number.kind == TokenKind::Float ? -std::strtod(number.text.c_str(), nullptr)
                                                                     : -std::numeric_limits<double>::infinity());
        }
        if (t.text == "[") {
          next();
          return Argument::list(parseItems(state, "]", comments, nullptr));
        }
        if (t.text == "(") {
          next();
          bool trailingComma = false;
          auto items = parseItems(state, ")", comments, &trailingComma);
          if (items.size() == 1 && !trailingComma) return items[0];
          return Argument::tuple(std::move(items));
        }
        break;
      case TokenKind::Name: return parseNamedValue(state);
      default: break;
    }
    fail("expected a value");
  }

  int64_t parseInteger(const std::string& digits, bool negative) {
    errno = 0;
    // Parse with the sign so that the most negative int64 is representable.
    long long v = std::strtoll(((negative ? "-" : "") + digits).c_str(), nullptr, 10);
    if (errno == ERANGE) fail("integer out of range");
    return v;
  }

  std::vector<Argument> parseItems(ModuleState& state, std::string_view closer, Comments* comments, bool* trailingComma) {
    std::vector<Argument> items;
    while (true) {
      if (auto comment = acceptComment()) {
        if (!comments || items.empty()) fail("unexpected comment");
        (*comments)[items.size() - 1] = *comment;
        continue;
      }
      if (isOp(peek(), closer)) break;
      items.push_back(parseValue(state));
      if (comments) comments->emplace_back();
      bool comma = acceptOp(",");
      if (trailingComma) *trailingComma = comma;
      if (!comma) {
        if (auto comment = acceptComment()) {
          if (!comments) fail("unexpected comment");
          comments->back() = *comment;
        }
        break;
      }
    }
    expectOp(closer);
    return items;
  }

  Argument parseNamedValue(ModuleState& state) {
    const std::string& name = peek().text;
    static const std::map<std::string, Argument, std::less<>> kConstants = {
        {"None", Argument::none()},
        {"True", Argument::boolean(true)},
        {"False", Argument::boolean(false)},
        {"inf", Argument::floating(std::numeric_limits<double>::infinity())},
        {"nan", Argument::floating(std::numeric_limits<double>::quiet_NaN())},
        {"Ellipsis", Argument::ellipsis()}};
    if (auto it = kConstants.find(name); it != kConstants.end()) {
      next();
      return it->second;
    }
    if (auto it = state.nodes.find(name); it != state.nodes.end()) {
      next();
      return Argument::node(it->second);
    }
    if (name == "device" && isOp(peek(1), "(")) return parseDevice(state);
    if (name == "slice" && isOp(peek(1), "(")) {
      next();
      std::vector<Argument> parts;
      std::vector<KeywordArgument> kwargs;
      parseCallArguments(state, parts, kwargs);
      if (parts.size() != 3 || !kwargs.empty()) fail("slice() takes start, stop and step");
      return Argument::slice(parts[0], parts[1], parts[2]);
    }
    const Token& start = peek();
    std::string path = dottedName();
    if (path.find('.') == std::string::npos) fail("name '" + path + "' is not defined", start);
    if (path.rfind("torch.", 0) == 0)
      if (auto dtype = dtypeFromTorchName(path.substr(6))) return Argument::dtype(*dtype);
    return Argument::global(path);
  }

  // device(type='cuda', index=0)
  Argument parseDevice(ModuleState& state) {
    next();
    std::vector<Argument> args;
    std::vector<KeywordArgument> kwargs;
    parseCallArguments(state, args, kwargs);
    Device device;
    bool haveType = false;
    for (const auto& k : kwargs) {
      if (k.name == "type" && std::holds_alternative<std::string>(k.value.value)) {
        const std::optional<Device> type = Device::try_parse(std::get<std::string>(k.value.value));
        if (!type || type->index >= 0) fail("unknown device type '" + std::get<std::string>(k.value.value) + "'");
        device.type = type->type;
        haveType = true;
      } else if (k.name == "index" && std::holds_alternative<int64_t>(k.value.value)) {
        device.index = static_cast<int>(std::get<int64_t>(k.value.value));
      } else {
        fail("unexpected device() argument '" + k.name + "'");
      }
    }
    if (!haveType || !args.empty()) fail("expected device(type=..., index=...)");
    return Argument::device(std::move(device));
  }

  // ---- return ----
  void parseReturn(ModuleState& state) {
    makePlaceholders(state);
    next();
    Comments comments;
    Argument result;
    if (state.module.graph.codegen.pytree) {
      if (dottedName() != "pytree.tree_unflatten") fail("expected pytree.tree_unflatten");
      expectOp("(");
      result = parseValue(state, &comments);
      expectOp(",");
      if (dottedName() != "self._out_spec") fail("expected self._out_spec");
      expectOp(")");
    } else {
      result = parseValue(state, &comments);
    }
    expectNewline();
    Node* output = state.module.graph.output(std::move(result));
    bool anyComment = false;
    for (const auto& c : comments) anyComment |= c.has_value();
    if (anyComment) output->meta.outputDescriptors = std::move(comments);
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<GraphModule> parseReadable(std::string_view text) { return ReadableParser(text).parse(); }

}  // namespace kiln::ir
