#pragma once
// Repro files in PyTorch's format (debug_tools.md §1.4, §1.6, §1.7): a header (environment,
// imports, changed config, Kiln's version), the graph as `class Repro(torch.nn.Module)`,
// load_args, and a call of run_repro with the default command. After-AOT files run the graph
// through the aten-graph compiler of a backend; after-Dynamo files through torch.compile with a
// backend, and carry a script-defined backend's source along (PyTorch's only name it, and its
// launcher then cannot find it).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "libcompiler/python/interp/interpreter.h"
#include "libcompiler/repro/load_args_writer.h"
#include "libcompiler/repro/repro_state.h"

namespace kiln::repro {

struct ReproScript {
  ReproAfter after = ReproAfter::Aot;
  ReproState state;  // an input that is None loads as random data of its placeholder's metadata
  std::string command = "run";  // "run" for repros and checkpoints, "minify" for launchers
  bool accuracy = false;
  std::optional<std::filesystem::path> save_dir;  // the content store and checkpoints
  // After AOT: the backend whose aten-graph compiler runs the graph (written only when it is not
  // inductor, which is PyTorch's). After Dynamo: the backend's name.
  std::string backend = "inductor";
  std::string backend_source;  // after Dynamo: a script-defined backend's def; backend names it
  std::optional<std::string> check_str;
  // The config lines to write; by default the values Kiln's config modules hold that differ from
  // their defaults (a PyTorch launcher's own lines, for files that real PyTorch runs).
  std::optional<std::vector<std::string>> config;
  int64_t embed_limit = LoadArgsOptions{}.embed_limit;
  // The device the state's host tensors stand for (host_placement.h): the file says it.
  std::optional<tensor::Device> kept_on_host_for;
};

std::string repro_script_text(python::Interpreter& interp, const ReproScript& script);

// The script-defined backend's source to carry along: the script's module-level imports, then
// its def's lines, dedented; empty for a callable that is not a `def` function.
std::string backend_source(const python::Ref& backend);
// The same for a backend PyTorch's launcher names but cannot look up, defined in the script the
// launcher came from: its def (found at any depth), after every module-level import of the
// script; empty when the script defines no such function.
std::string backend_source_in_script(python::Interpreter& interp, const std::filesystem::path& script, const std::string& name);

}  // namespace kiln::repro
