#include "libcompiler/python/interp/evaluator.h"

#include "libcompiler/python/interp/exceptions.h"
#include "libcompiler/python/interp/format_spec.h"
#include "libcompiler/python/interp/bytes_object.h"
#include "libcompiler/python/interp/class_builder.h"
#include "libcompiler/python/interp/generator.h"
#include "libcompiler/python/interp/object_operators.h"
#include "libcompiler/python/interp/protocols.h"

namespace kiln::python {
namespace {

const std::string& function_name_of(const Frame& frame) { return frame.code->name; }

Ref constant_object(const ConstantValue& value) {
  return std::visit(
      [](const auto& v) -> Ref {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, NoneValue>) return none();
        else if constexpr (std::is_same_v<T, bool>) return py_bool(v);
        else if constexpr (std::is_same_v<T, int64_t>) return py_int(v);
        else if constexpr (std::is_same_v<T, double>) return py_float(v);
        else if constexpr (std::is_same_v<T, std::string>) return py_str(v);
        else if constexpr (std::is_same_v<T, EllipsisValue>) return ellipsis();
        else return py_bytes(v.bytes);
      },
      value);
}

}  // namespace

void Evaluator::run_frame(Interpreter& interp, Frame& frame, const std::function<void(Evaluator&)>& body,
                          ExpressionObserver* observer) {
  interp.push_frame(frame);
  try {
    Evaluator evaluator(interp, frame, observer);
    body(evaluator);
  } catch (PyException& error) {
    interp.pop_frame(frame);
    if (frame.where) error.traceback.push_back(traceback_entry(*frame.where, function_name_of(frame)));
    throw;
  } catch (...) {
    interp.pop_frame(frame);
    throw;
  }
  interp.pop_frame(frame);
}

Ref Evaluator::observed_eval(const Expression& expr) {
  if (Ref replayed = observer_->replay(expr)) return replayed;
  observer_->enter(expr);
  Ref value = ExpressionVisitor::visit(expr);
  observer_->leave(expr, value);
  return value;
}

Flow Evaluator::exec_block(const StmtList& body) {
  for (const auto& stmt : body) {
    Flow flow;
    try {
      flow = exec(*stmt);
    } catch (const std::bad_alloc&) {
      // An allocation the machine cannot give ([0] * 10**12): CPython's MemoryError, not an abort.
      raise_bare(ExcType::MemoryError);
    } catch (const std::length_error&) {
      raise_bare(ExcType::MemoryError);
    }
    if (flow != Flow::Normal) return flow;
  }
  return Flow::Normal;
}

// ---- names ----

Ref Evaluator::load_name(const std::string& id) {
  NameResolution r = frame_.code->resolve(id);
  switch (r.kind) {
    case NameKind::Local: {
      const Ref& value = frame_.scope->slots[r.slot];
      if (!value)
        raise_error(ExcType::UnboundLocalError,
                    "cannot access local variable '" + id + "' where it is not associated with a value");
      return value;
    }
    case NameKind::Free: {
      Scope* scope = frame_.scope.get();
      for (int i = 0; i < r.depth; ++i) scope = scope->parent.get();
      const Ref& value = scope->slots[r.slot];
      if (!value)
        raise_error(ExcType::NameError, "cannot access free variable '" + id +
                                            "' where it is not associated with a value in enclosing scope");
      return value;
    }
    case NameKind::ClassBody:
      if (Ref value = frame_.class_dict->get(id)) return value;
      [[fallthrough]];
    case NameKind::Global:
      if (Ref value = frame_.globals->get(id)) {
        if (interp_.call_hook)
          if (Ref stand_in = interp_.call_hook->read_global(interp_, *frame_.globals, id, value)) return stand_in;
        return value;
      }
      if (Ref value = interp_.builtins().get(id)) {
        if (interp_.call_hook) interp_.call_hook->read_global(interp_, interp_.builtins(), id, value);
        return value;
      }
      raise_error(ExcType::NameError, "name '" + id + "' is not defined");
  }
  std::abort();
}

void Evaluator::store_name(const std::string& id, Ref value) {
  if (interp_.call_hook) interp_.call_hook->stored(id, value);
  NameResolution r = frame_.code->resolve(id);
  switch (r.kind) {
    case NameKind::Local: frame_.scope->slots[r.slot] = std::move(value); return;
    case NameKind::Free: {
      Scope* scope = frame_.scope.get();
      for (int i = 0; i < r.depth; ++i) scope = scope->parent.get();
      scope->slots[r.slot] = std::move(value);
      return;
    }
    case NameKind::ClassBody: frame_.class_dict->set(id, std::move(value)); return;
    case NameKind::Global: frame_.globals->set(id, std::move(value)); return;
  }
}

void Evaluator::delete_name(const std::string& id) {
  NameResolution r = frame_.code->resolve(id);
  auto missing = [&] { raise_error(ExcType::NameError, "name '" + id + "' is not defined"); };
  switch (r.kind) {
    case NameKind::Local:
      if (!frame_.scope->slots[r.slot])
        raise_error(ExcType::UnboundLocalError,
                    "cannot access local variable '" + id + "' where it is not associated with a value");
      frame_.scope->slots[r.slot] = nullptr;
      return;
    case NameKind::Free: {
      Scope* scope = frame_.scope.get();
      for (int i = 0; i < r.depth; ++i) scope = scope->parent.get();
      scope->slots[r.slot] = nullptr;
      return;
    }
    case NameKind::ClassBody:
      if (!frame_.class_dict->erase(interp_, py_str(id))) missing();
      return;
    case NameKind::Global:
      if (!frame_.globals->erase(interp_, py_str(id))) missing();
      return;
  }
}

void Evaluator::assign(const Expression& target, const Ref& value) {
  switch (target.kind) {
    case NodeKind::Name: store_name(cast<Name>(target).id, value); return;
    case NodeKind::Attribute: {
      const auto& node = cast<Attribute>(target);
      Ref obj = eval(*node.value);
      frame_.where = &target;
      setattr(interp_, obj, node.attr, value);
      return;
    }
    case NodeKind::Subscript: {
      const auto& node = cast<Subscript>(target);
      Ref obj = eval(*node.value);
      Ref key = eval(*node.slice);
      frame_.where = &target;
      setitem(interp_, obj, key, value);
      return;
    }
    case NodeKind::Tuple:
    case NodeKind::List: {
      const ExprList& elts = target.kind == NodeKind::Tuple ? cast<Tuple>(target).elts : cast<List>(target).elts;
      if (!is_callable(value) && value->kind != ObjectKind::List && value->kind != ObjectKind::Tuple &&
          !try_getattr(interp_, value, "__iter__") && value->kind != ObjectKind::Str &&
          value->kind != ObjectKind::Dict && value->kind != ObjectKind::Range && value->kind != ObjectKind::Set &&
          value->kind != ObjectKind::Iterator && value->kind != ObjectKind::Generator)
        raise_error(ExcType::TypeError, "cannot unpack non-iterable " + type_name(value) + " object");
      std::vector<Ref> items = to_vector(interp_, value);
      size_t star = elts.size();
      for (size_t i = 0; i < elts.size(); ++i)
        if (elts[i]->kind == NodeKind::Starred) star = i;
      if (star == elts.size()) {
        if (items.size() < elts.size())
          raise_error(ExcType::ValueError, "not enough values to unpack (expected " + std::to_string(elts.size()) +
                                               ", got " + std::to_string(items.size()) + ")");
        if (items.size() > elts.size())
          raise_error(ExcType::ValueError, "too many values to unpack (expected " + std::to_string(elts.size()) + ")");
        for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], items[i]);
        return;
      }
      size_t after = elts.size() - star - 1;
      if (items.size() < elts.size() - 1)
        raise_error(ExcType::ValueError, "not enough values to unpack (expected at least " +
                                             std::to_string(elts.size() - 1) + ", got " +
                                             std::to_string(items.size()) + ")");
      for (size_t i = 0; i < star; ++i) assign(*elts[i], items[i]);
      std::vector<Ref> middle(items.begin() + static_cast<long>(star), items.end() - static_cast<long>(after));
      assign(*cast<Starred>(*elts[star]).value, py_list(std::move(middle)));
      for (size_t i = 0; i < after; ++i) assign(*elts[star + 1 + i], items[items.size() - after + i]);
      return;
    }
    case NodeKind::Starred: assign(*cast<Starred>(target).value, value); return;
    default: raise_error(ExcType::SyntaxError, "cannot assign to expression");
  }
}

void Evaluator::delete_target(const Expression& target) {
  switch (target.kind) {
    case NodeKind::Name: delete_name(cast<Name>(target).id); return;
    case NodeKind::Attribute: {
      const auto& node = cast<Attribute>(target);
      delattr(interp_, eval(*node.value), node.attr);
      return;
    }
    case NodeKind::Subscript: {
      const auto& node = cast<Subscript>(target);
      Ref obj = eval(*node.value);
      delitem(interp_, obj, eval(*node.slice));
      return;
    }
    case NodeKind::Tuple:
      for (const auto& e : cast<Tuple>(target).elts) delete_target(*e);
      return;
    case NodeKind::List:
      for (const auto& e : cast<List>(target).elts) delete_target(*e);
      return;
    default: raise_error(ExcType::SyntaxError, "cannot delete expression");
  }
}

// ---- statements ----

Ref Evaluator::make_function(const Node& node, const Arguments& params, std::string name) {
  auto function = std::make_shared<FunctionObject>();
  const CodeInfo& code = frame_.loaded->scopes->of(node);
  function->name = std::move(name);
  function->qualname = code.qualname;
  function->params = &params;
  function->code = &code;
  function->is_generator = code.is_generator;
  function->first_line = static_cast<int>(node.loc.line);
  for (const auto& d : params.defaults) function->defaults.push_back(eval(*d));
  for (const auto& d : params.kw_defaults) function->kw_defaults.push_back(d ? eval(*d) : nullptr);
  function->closure = frame_.scope;
  function->globals = frame_.globals;
  function->loaded = frame_.loaded;
  if (Ref module = frame_.globals->get("__name__")) function->attrs["__module__"] = module;
  return function;
}

Flow Evaluator::visit_FunctionDef(const FunctionDef& node) {
  std::vector<Ref> decorators;
  for (const auto& d : node.decorator_list) decorators.push_back(eval(*d));
  Ref function = make_function(node, *node.args, node.name);
  as<FunctionObject>(function).body = &node.body;
  if (!node.decorator_list.empty()) as<FunctionObject>(function).first_line = static_cast<int>(node.decorator_list.front()->loc.line);
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) {
    frame_.where = &node;
    function = call(interp_, *it, std::vector<Ref>{function});
  }
  store_name(node.name, std::move(function));
  return Flow::Normal;
}

Flow Evaluator::visit_ClassDef(const ClassDef& node) {
  std::vector<Ref> decorators;
  for (const auto& d : node.decorator_list) decorators.push_back(eval(*d));
  std::vector<TypeRef> bases;
  std::vector<Ref> base_refs;
  for (const auto& b : node.bases) {
    Ref base = eval(*b);
    if (base->kind != ObjectKind::Type) raise_error(ExcType::TypeError, "bases must be types");
    auto type = std::static_pointer_cast<TypeObject>(base);
    // `type` itself may be subclassed: that is how metaclasses are written.
    if (type->is_builtin && type->constructor && type.get() != builtin_types().type)
      raise_error(ExcType::NotImplementedError,
                  "kiln does not support subclassing the builtin type '" + type->name + "'");
    bases.push_back(type);
    base_refs.push_back(base);
  }
  TypeRef metaclass;
  std::vector<std::pair<std::string, Ref>> keywords;  // for __init_subclass__
  for (const auto& keyword : node.keywords) {
    Ref value = eval(*keyword->value);
    if (*keyword->arg != "metaclass") {
      keywords.emplace_back(*keyword->arg, std::move(value));
      continue;
    }
    if (value->kind != ObjectKind::Type || !as<TypeObject>(value).is_subtype_of(builtin_types().type))
      raise_error(ExcType::NotImplementedError, "kiln supports only subclasses of type as metaclasses, not " + repr(interp_, value));
    metaclass = std::static_pointer_cast<TypeObject>(value);
  }
  if (!metaclass) metaclass = metaclass_of(bases);
  Ref module_name = frame_.globals->get("__name__");
  Frame body_frame;
  body_frame.code = &frame_.loaded->scopes->of(node);
  body_frame.scope = frame_.scope;
  body_frame.globals = frame_.globals;
  body_frame.loaded = frame_.loaded;
  auto namespace_dict = py_dict();
  namespace_dict->set("__module__", module_name ? module_name : py_str("__main__"));
  namespace_dict->set("__qualname__", py_str(body_frame.code->qualname));
  body_frame.class_dict = namespace_dict.get();
  run_frame(interp_, body_frame, [&](Evaluator& e) { e.exec_block(node.body); });
  Ref result;
  if (metaclass.get() == builtin_types().type) {
    result = build_class(interp_, metaclass, node.name, std::move(bases), *namespace_dict, keywords);
  } else {
    // A user metaclass makes the class: metaclass(name, bases, namespace, **keywords).
    CallArgs args;
    args.args = {py_str(node.name), py_tuple(std::move(base_refs)), namespace_dict};
    args.kwargs = std::move(keywords);
    frame_.where = &node;
    result = call(interp_, metaclass, std::move(args));
  }
  for (auto it = decorators.rbegin(); it != decorators.rend(); ++it) result = call(interp_, *it, {result});
  store_name(node.name, std::move(result));
  return Flow::Normal;
}

Flow Evaluator::visit_Return(const Return& node) {
  frame_.return_value = node.value ? eval(*node.value) : none();
  return Flow::Return;
}

Flow Evaluator::visit_Delete(const Delete& node) {
  for (const auto& t : node.targets) delete_target(*t);
  return Flow::Normal;
}

Flow Evaluator::visit_Assign(const Assign& node) {
  Ref value = eval(*node.value);
  for (const auto& t : node.targets) assign(*t, value);
  return Flow::Normal;
}

Flow Evaluator::visit_AugAssign(const AugAssign& node) {
  const Expression& target = *node.target;
  switch (target.kind) {
    case NodeKind::Name: {
      const auto& name = cast<Name>(target).id;
      Ref current = load_name(name);
      Ref rhs = eval(*node.value);
      frame_.where = &node;
      store_name(name, inplace_op(interp_, node.op, current, rhs));
      return Flow::Normal;
    }
    case NodeKind::Attribute: {
      const auto& attr = cast<Attribute>(target);
      Ref obj = eval(*attr.value);
      Ref current = getattr(interp_, obj, attr.attr);
      // The read is a read like any other: graph capture guards it (self.n += 1).
      if (interp_.call_hook)
        if (Ref stand_in = interp_.call_hook->read_attribute(interp_, obj, attr.attr, current)) current = stand_in;
      Ref rhs = eval(*node.value);
      frame_.where = &node;
      setattr(interp_, obj, attr.attr, inplace_op(interp_, node.op, current, rhs));
      return Flow::Normal;
    }
    case NodeKind::Subscript: {
      const auto& sub = cast<Subscript>(target);
      Ref obj = eval(*sub.value);
      Ref key = eval(*sub.slice);
      Ref current = getitem(interp_, obj, key);
      if (interp_.call_hook)
        if (Ref stand_in = interp_.call_hook->read_item(interp_, obj, key, current)) current = stand_in;
      Ref rhs = eval(*node.value);
      frame_.where = &node;
      setitem(interp_, obj, key, inplace_op(interp_, node.op, current, rhs));
      return Flow::Normal;
    }
    default: raise_error(ExcType::SyntaxError, "illegal expression for augmented assignment");
  }
}

Flow Evaluator::visit_AnnAssign(const AnnAssign& node) {
  if (node.value) assign(*node.target, eval(*node.value));
  // A class body records its annotations, evaluated, in __annotations__ (dataclasses read them);
  // elsewhere annotations are not evaluated.
  if (frame_.class_dict && node.simple && node.target->kind == NodeKind::Name) {
    Ref annotations = frame_.class_dict->get("__annotations__");
    if (!annotations || annotations->kind != ObjectKind::Dict) {
      annotations = py_dict();
      frame_.class_dict->set("__annotations__", annotations);
    }
    as<DictObject>(annotations).set(static_cast<const Name&>(*node.target).id, eval(*node.annotation));
  }
  return Flow::Normal;
}

Flow Evaluator::visit_For(const For& node) {
  Ref iterator = iter(interp_, eval(*node.iter));
  for (;;) {
    frame_.where = &node;
    Interpreter::check_interrupt();
    Ref item = next(interp_, iterator);
    if (!item) break;
    assign(*node.target, item);
    Flow flow = exec_block(node.body);
    if (flow == Flow::Break) return Flow::Normal;
    if (flow == Flow::Return) return flow;
  }
  return exec_block(node.orelse);
}

Flow Evaluator::visit_While(const While& node) {
  for (;;) {
    frame_.where = &node;
    Interpreter::check_interrupt();
    if (!truthy(interp_, eval(*node.test))) break;
    Flow flow = exec_block(node.body);
    if (flow == Flow::Break) return Flow::Normal;
    if (flow == Flow::Return) return flow;
  }
  return exec_block(node.orelse);
}

Flow Evaluator::visit_If(const If& node) {
  return truthy(interp_, eval(*node.test)) ? exec_block(node.body) : exec_block(node.orelse);
}

Flow Evaluator::visit_With(const With& node) {
  return run_with(node, 0, [&] { return exec_block(node.body); });
}

Flow Evaluator::run_with(const With& node, size_t index, const std::function<Flow()>& body) {
  if (index == node.items.size()) return body();
  const WithItem& item = *node.items[index];
  Ref manager = eval(*item.context_expr);
  Ref exit = try_getattr(interp_, manager, "__exit__");
  Ref enter = try_getattr(interp_, manager, "__enter__");
  if (!enter || !exit)
    raise_error(ExcType::TypeError, "'" + type_name(manager) + "' object does not support the context manager protocol");
  Ref value = call(interp_, enter, std::vector<Ref>{});
  Flow flow;
  try {
    if (item.optional_vars) assign(*item.optional_vars, value);
    flow = run_with(node, index + 1, body);
  } catch (PyException& error) {
    Ref suppress = call(interp_, exit, {type_of(error.exception), error.exception, none()});
    if (truthy(interp_, suppress)) return Flow::Normal;
    throw;
  } catch (CaptureUnwind&) {
    // Abandoned by graph capture: the block is left as if it finished (grad mode restored).
    call(interp_, exit, {none(), none(), none()});
    throw;
  }
  call(interp_, exit, {none(), none(), none()});
  return flow;
}

Flow Evaluator::visit_Raise(const Raise& node) {
  if (!node.exc) {
    if (frame_.handling.empty()) raise_error(ExcType::RuntimeError, "No active exception to reraise");
    throw PyException(*frame_.handling.back());
  }
  Ref value = eval(*node.exc);
  if (is_exception_class(value)) value = call(interp_, value, std::vector<Ref>{});
  if (!is_exception_instance(value)) raise_error(ExcType::TypeError, "exceptions must derive from BaseException");
  if (node.cause) {
    Ref cause = eval(*node.cause);
    if (is_exception_class(cause)) cause = call(interp_, cause, std::vector<Ref>{});
    generic_setattr(interp_, value, "__cause__", cause);
  }
  PyException error(value);
  if (!frame_.handling.empty()) {
    error.context = frame_.handling.back()->exception;
    generic_setattr(interp_, value, "__context__", error.context);
  }
  throw error;
}

bool Evaluator::handler_matches(const ExceptHandler& handler, const Ref& exception) {
  if (!handler.type) return true;
  Ref type = eval(*handler.type);
  auto matches = [&](const Ref& t) {
    if (!is_exception_class(t))
      raise_error(ExcType::TypeError, "catching classes that do not inherit from BaseException is not allowed");
    return exception->type->is_subtype_of(&as<TypeObject>(t));
  };
  if (type->kind == ObjectKind::Tuple) {
    for (const auto& t : as<TupleObject>(type).items)
      if (matches(t)) return true;
    return false;
  }
  return matches(type);
}

Flow Evaluator::run_try(const Try& node) {
  Flow flow;
  try {
    flow = exec_block(node.body);
  } catch (PyException& error) {
    for (const auto& handler : node.handlers) {
      if (!handler_matches(*handler, error.exception)) continue;
      if (handler->name) store_name(*handler->name, error.exception);
      frame_.handling.push_back(&error);
      try {
        flow = exec_block(handler->body);
      } catch (...) {
        frame_.handling.pop_back();
        throw;
      }
      frame_.handling.pop_back();
      if (handler->name) {
        NameResolution r = frame_.code->resolve(*handler->name);
        if (r.kind == NameKind::Local) frame_.scope->slots[r.slot] = nullptr;
        else delete_name(*handler->name);
      }
      return flow;
    }
    throw;
  }
  if (flow == Flow::Normal) flow = exec_block(node.orelse);
  return flow;
}

Flow Evaluator::visit_Try(const Try& node) {
  if (node.finalbody.empty()) return run_try(node);
  Flow flow = Flow::Normal;
  std::exception_ptr pending;
  try {
    flow = run_try(node);
  } catch (...) {
    pending = std::current_exception();
  }
  Ref saved_return = frame_.return_value;
  Flow final_flow = exec_block(node.finalbody);
  // break/continue/return inside finally discard the exception in flight, as in Python.
  if (final_flow != Flow::Normal) return final_flow;
  frame_.return_value = saved_return;
  if (pending) std::rethrow_exception(pending);
  return flow;
}

Flow Evaluator::visit_Assert(const Assert& node) {
  if (truthy(interp_, eval(*node.test))) return Flow::Normal;
  std::vector<Ref> args;
  if (node.msg) args.push_back(eval(*node.msg));
  frame_.where = &node;
  throw PyException(call(interp_, builtin_type_ref(exception_type(ExcType::AssertionError)), std::move(args)));
}

Flow Evaluator::visit_Import(const Import& node) {
  for (const auto& alias : node.names) {
    Ref leaf = interp_.import_module(alias->name);
    if (alias->asname) store_name(*alias->asname, leaf);
    else {
      std::string top = alias->name.substr(0, alias->name.find('.'));
      store_name(top, interp_.import_module(top));
    }
  }
  return Flow::Normal;
}

// The absolute name of `from <dots><module> import ...`: the dots climb from the importing module's
// __package__ (one dot is the package itself).
std::string Evaluator::absolute_import_name(const ImportFrom& node) {
  if (node.level == 0) return *node.module;
  Ref package = frame_.globals->get("__package__");
  std::string base = package && package->kind == ObjectKind::Str ? as<StrObject>(package).value : "";
  if (base.empty()) raise_error(ExcType::ImportError, "attempted relative import with no known parent package");
  for (int64_t up = 1; up < node.level; ++up) {
    const size_t dot = base.rfind('.');
    if (dot == std::string::npos) raise_error(ExcType::ImportError, "attempted relative import beyond top-level package");
    base = base.substr(0, dot);
  }
  return node.module ? base + "." + *node.module : base;
}

Flow Evaluator::visit_ImportFrom(const ImportFrom& node) {
  const std::string module_name = absolute_import_name(node);
  Ref module = interp_.import_module(module_name);
  for (const auto& alias : node.names) {
    if (alias->name == "*") {
      // sys.modules may hold any object: its __dict__ then.
      Ref names = module->kind == ObjectKind::Module ? as<ModuleObject>(module).globals : getattr(interp_, module, "__dict__");
      for (const auto& [key, value] : mapping_items(interp_, names).value_or(std::vector<std::pair<Ref, Ref>>{})) {
        const std::string& name = to_str(key, "attribute name");
        if (!name.empty() && name[0] != '_') store_name(name, value);
      }
      continue;
    }
    Ref value = getattr_or_null(interp_, module, alias->name);
    if (!value) {
      try {
        value = interp_.import_module(module_name + "." + alias->name);
      } catch (PyException&) {
        raise_error(ExcType::ImportError,
                    "cannot import name '" + alias->name + "' from '" + module_name + "' (unknown location)");
      }
    }
    store_name(alias->asname ? *alias->asname : alias->name, value);
  }
  return Flow::Normal;
}

Flow Evaluator::visit_ExprStmt(const ExprStmt& node) {
  eval(*node.value);
  return Flow::Normal;
}

// ---- expressions ----

Ref Evaluator::visit_BoolOp(const BoolOp& node) {
  Ref value;
  for (const auto& v : node.values) {
    value = eval(*v);
    bool t = truthy(interp_, value);
    if (node.op == BoolOperator::And ? !t : t) return value;
  }
  return value;
}

Ref Evaluator::visit_BinOp(const BinOp& node) {
  Ref left = eval(*node.left);
  Ref right = eval(*node.right);
  frame_.where = &node;
  return binary_op(interp_, node.op, left, right);
}

Ref Evaluator::visit_UnaryOp(const UnaryOp& node) {
  Ref operand = eval(*node.operand);
  if (node.op == UnaryOperator::Not) return py_bool(!truthy(interp_, operand));
  frame_.where = &node;
  return unary_op(interp_, node.op, operand);
}

Ref Evaluator::visit_Lambda(const Lambda& node) {
  Ref function = make_function(node, *node.args, "<lambda>");
  as<FunctionObject>(function).lambda_body = node.body.get();
  return function;
}

Ref Evaluator::visit_IfExp(const IfExp& node) {
  return truthy(interp_, eval(*node.test)) ? eval(*node.body) : eval(*node.orelse);
}

Ref Evaluator::visit_Dict(const Dict& node) {
  auto dict = py_dict();
  for (size_t i = 0; i < node.values.size(); ++i) {
    if (!node.keys[i]) {
      Ref other = eval(*node.values[i]);
      auto items = mapping_items(interp_, other);
      if (!items) raise_error(ExcType::TypeError, "'" + type_name(other) + "' object is not a mapping");
      for (auto& [key, value] : *items) dict->set(interp_, key, value);
      continue;
    }
    Ref key = eval(*node.keys[i]);
    dict->set(interp_, key, eval(*node.values[i]));
  }
  return dict;
}

Ref Evaluator::visit_Set(const Set& node) {
  auto set = std::make_shared<SetObject>();
  for (const auto& item : eval_elements(node.elts)) set->items.set(interp_, item, none());
  return set;
}

std::vector<Ref> Evaluator::eval_elements(const ExprList& elements) {
  std::vector<Ref> items;
  items.reserve(elements.size());
  for (const auto& e : elements) {
    if (e->kind == NodeKind::Starred) {
      for (auto& item : to_vector(interp_, eval(*cast<Starred>(*e).value))) items.push_back(std::move(item));
    } else {
      items.push_back(eval(*e));
    }
  }
  return items;
}

void Evaluator::comprehension_loop(const std::vector<std::unique_ptr<Comprehension>>& generators, size_t level,
                                   const std::function<void(Evaluator&)>& emit) {
  const Comprehension& gen = *generators[level];
  Ref iterator = level == 0 ? frame_.scope->slots[0] : iter(interp_, eval(*gen.iter));
  for (;;) {
    Ref item = next(interp_, iterator);
    if (!item) return;
    assign(*gen.target, item);
    bool keep = true;
    for (const auto& cond : gen.ifs)
      if (!truthy(interp_, eval(*cond))) {
        keep = false;
        break;
      }
    if (!keep) continue;
    if (level + 1 < generators.size()) comprehension_loop(generators, level + 1, emit);
    else emit(*this);
  }
}

void Evaluator::run_comprehension(const Node& node, const std::vector<std::unique_ptr<Comprehension>>& generators,
                                  const std::function<void(Evaluator&)>& emit) {
  Ref first = iter(interp_, eval(*generators.front()->iter));
  Frame frame;
  frame.code = &frame_.loaded->scopes->of(node);
  frame.scope = std::make_shared<Scope>();
  frame.scope->slots.resize(frame.code->slot_names.size());
  frame.scope->slots[0] = first;
  frame.scope->parent = frame_.scope;
  frame.globals = frame_.globals;
  frame.loaded = frame_.loaded;
  frame.where = &node;
  run_frame(interp_, frame, [&](Evaluator& e) { e.comprehension_loop(generators, 0, emit); });
}

Ref Evaluator::visit_ListComp(const ListComp& node) {
  auto list = std::make_shared<ListObject>();
  run_comprehension(node, node.generators, [&](Evaluator& e) { list->items.push_back(e.eval(*node.elt)); });
  return list;
}

Ref Evaluator::visit_SetComp(const SetComp& node) {
  auto set = std::make_shared<SetObject>();
  run_comprehension(node, node.generators, [&](Evaluator& e) { set->items.set(interp_, e.eval(*node.elt), none()); });
  return set;
}

Ref Evaluator::visit_DictComp(const DictComp& node) {
  auto dict = py_dict();
  run_comprehension(node, node.generators, [&](Evaluator& e) {
    Ref key = e.eval(*node.key);
    dict->set(interp_, key, e.eval(*node.value));
  });
  return dict;
}

Ref Evaluator::visit_GeneratorExp(const GeneratorExp& node) {
  Ref first = iter(interp_, eval(*node.generators.front()->iter));
  auto frame = std::make_unique<Frame>();
  frame->code = &frame_.loaded->scopes->of(node);
  frame->scope = std::make_shared<Scope>();
  frame->scope->slots.resize(frame->code->slot_names.size());
  frame->scope->slots[0] = first;
  frame->scope->parent = frame_.scope;
  frame->globals = frame_.globals;
  frame->loaded = frame_.loaded;
  frame->where = &node;
  Interpreter& interp = interp_;
  return std::make_shared<GeneratorObject>(
      interp, std::move(frame),
      [&interp, &node](Frame& f) {
        try {
          Evaluator e(interp, f);
          e.comprehension_loop(node.generators, 0, [&](Evaluator& inner) { f.generator->yield(inner.eval(*node.elt)); });
        } catch (PyException& error) {
          if (f.where) error.traceback.push_back(traceback_entry(*f.where, f.code->name));
          throw;
        }
      },
      "<genexpr>");
}

Ref Evaluator::visit_Yield(const Yield& node) {
  Ref value = node.value ? eval(*node.value) : none();
  return frame_.generator->yield(std::move(value));
}

Ref Evaluator::visit_YieldFrom(const YieldFrom& node) {
  Ref iterator = iter(interp_, eval(*node.value));
  while (Ref item = next(interp_, iterator)) frame_.generator->yield(item);
  if (iterator->kind == ObjectKind::Generator) return static_cast<GeneratorObject&>(*iterator).return_value();
  return none();
}

Ref Evaluator::visit_Compare(const Compare& node) {
  Ref left = eval(*node.left);
  Ref result;
  for (size_t i = 0; i < node.ops.size(); ++i) {
    Ref right = eval(*node.comparators[i]);
    frame_.where = &node;
    result = compare_op(interp_, node.ops[i], left, right);
    if (i + 1 < node.ops.size() && !truthy(interp_, result)) return result;
    left = std::move(right);
  }
  return result;
}

Ref Evaluator::visit_Call(const Call& node) {
  Ref callee = eval(*node.func);
  CallArgs args;
  args.args = eval_elements(node.args);
  for (const auto& kw : node.keywords) {
    Ref value = eval(*kw->value);
    if (kw->arg) {
      args.kwargs.emplace_back(*kw->arg, std::move(value));
      continue;
    }
    auto items = mapping_items(interp_, value);
    if (!items) raise_error(ExcType::TypeError, "argument after ** must be a mapping, not " + type_name(value));
    for (auto& [key, item] : *items) {
      if (key->kind != ObjectKind::Str) raise_error(ExcType::TypeError, "keywords must be strings");
      args.kwargs.emplace_back(as<StrObject>(key).value, item);
    }
  }
  frame_.where = &node;
  return call(interp_, callee, std::move(args));
}

Ref Evaluator::visit_FormattedValue(const FormattedValue& node) {
  Ref value = eval(*node.value);
  if (node.conversion == 'r') value = py_str(repr(interp_, value));
  else if (node.conversion == 's') value = py_str(str(interp_, value));
  else if (node.conversion == 'a') value = py_str(repr(interp_, value));
  std::string spec;
  if (node.format_spec) spec = as<StrObject>(eval(*node.format_spec)).value;
  frame_.where = &node;
  return py_str(format_value(interp_, value, spec));
}

Ref Evaluator::visit_JoinedStr(const JoinedStr& node) {
  std::string text;
  for (const auto& part : node.values) {
    Ref piece = eval(*part);
    text += as<StrObject>(piece).value;
  }
  return py_str(std::move(text));
}

Ref Evaluator::visit_Constant(const Constant& node) {
  auto& cache = frame_.loaded->constants;
  auto it = cache.find(&node);
  if (it != cache.end()) return it->second;
  Ref value = constant_object(node.value);
  cache.emplace(&node, value);
  return value;
}

Ref Evaluator::visit_Attribute(const Attribute& node) {
  Ref obj = eval(*node.value);
  frame_.where = &node;
  Ref value = getattr(interp_, obj, node.attr);
  if (interp_.call_hook)
    if (Ref stand_in = interp_.call_hook->read_attribute(interp_, obj, node.attr, value)) return stand_in;
  return value;
}

Ref Evaluator::visit_Subscript(const Subscript& node) {
  Ref obj = eval(*node.value);
  Ref key = eval(*node.slice);
  frame_.where = &node;
  Ref value = getitem(interp_, obj, key);
  if (interp_.call_hook)
    if (Ref stand_in = interp_.call_hook->read_item(interp_, obj, key, value)) return stand_in;
  return value;
}

Ref Evaluator::visit_Starred(const Starred& node) {
  frame_.where = &node;
  raise_error(ExcType::SyntaxError, "can't use starred expression here");
}

Ref Evaluator::visit_Name(const Name& node) {
  frame_.where = &node;
  return load_name(node.id);
}

Ref Evaluator::visit_List(const List& node) { return py_list(eval_elements(node.elts)); }
Ref Evaluator::visit_Tuple(const Tuple& node) { return py_tuple(eval_elements(node.elts)); }

Ref Evaluator::visit_Slice(const Slice& node) {
  return std::make_shared<SliceObject>(node.lower ? eval(*node.lower) : none(),
                                       node.upper ? eval(*node.upper) : none(),
                                       node.step ? eval(*node.step) : none());
}

}  // namespace kiln::python
