#include "libcompiler/repro/repro_dir.h"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

#include "libcompiler/fx/debug_dir.h"
#include "libdiag/log/logger.h"

namespace kiln::repro {

namespace {

void warn(const char* file, int line, const std::string& compile_id, const std::string& message) {
  log::emit(log::Component::dynamo, log::Level::Warning, {file, line}, compile_id, message);
}

std::filesystem::path write_checkpoint(const std::filesystem::path& path, const std::string& text, size_t nodes,
                                       const std::string& compile_id, bool aot) {
  if (aot) warn("torch/_dynamo/repro/after_aot.py", 804, compile_id,
                "Writing checkpoint with " + std::to_string(nodes) + " nodes to " + path.string());
  write_text_file(path, text);
  const std::filesystem::path copy = convenience_repro_path();
  if (aot) warn("torch/_dynamo/repro/after_aot.py", 815, compile_id, "Copying repro file for convenience to " + copy.string());
  else warn("torch/_dynamo/debug_utils.py", 291, compile_id, "Copying " + path.string() + " to " + copy.string() + " for convenience");
  write_text_file(copy, text);
  return path;
}

}  // namespace

std::filesystem::path minifier_dir() {
  if (const char* dir = std::getenv("TORCHDYNAMO_REPRO_DIR"); dir && *dir) return std::filesystem::absolute(dir).lexically_normal();
  return (std::filesystem::absolute(fx::debug_run_dir()) / "minifier").lexically_normal();
}

std::filesystem::path launcher_path() { return minifier_dir() / "minifier_launcher.py"; }
std::filesystem::path checkpoints_dir() { return minifier_dir() / "checkpoints"; }
std::filesystem::path convenience_repro_path() { return std::filesystem::current_path() / "repro.py"; }

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  // Written aside and renamed into place: a minify run of the same command in the same folder
  // reads these files while this one writes them, and must never see half of one.
  std::filesystem::path aside = path;
  aside += ".writing-" + std::to_string(getpid());
  {
    std::ofstream out(aside);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + path.string());
  }
  std::error_code error;
  std::filesystem::rename(aside, path, error);
  if (error) {
    std::filesystem::remove(aside, error);
    throw std::runtime_error("cannot write " + path.string());
  }
}

std::filesystem::path write_launcher(const std::string& text, const std::string& compile_id) {
  const std::filesystem::path path = launcher_path();
  warn("torch/_dynamo/debug_utils.py", 338, compile_id, "Writing minified repro to:\n" + path.string());
  write_text_file(path, text);
  return path;
}

std::filesystem::path write_aot_checkpoint(const std::filesystem::path& dir, const std::string& text, size_t nodes,
                                           const std::string& compile_id) {
  return write_checkpoint(dir / (std::to_string(nodes) + ".py"), text, nodes, compile_id, true);
}

std::filesystem::path write_dynamo_checkpoint(const std::filesystem::path& dir, const std::string& text, size_t nodes,
                                              const std::string& compile_id) {
  return write_checkpoint(dir / ("minified_" + std::to_string(nodes) + "_nodes.py"), text, nodes, compile_id, false);
}

}  // namespace kiln::repro
