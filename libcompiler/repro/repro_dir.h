#pragma once
// Where the repro tools write (debug_tools.md §1.3): <debug run folder>/minifier/, or
// $TORCHDYNAMO_REPRO_DIR when set (the override PyTorch's docs name), with the launcher, the
// checkpoints and the content store under it; and the copy of the latest repro in the working
// folder. Every write logs what PyTorch logs, so the log says where the file is.
#include <filesystem>
#include <string>

namespace kiln::repro {

std::filesystem::path minifier_dir();
std::filesystem::path launcher_path();    // minifier_launcher.py
std::filesystem::path checkpoints_dir();  // checkpoints/: also the launcher's content store

// "Writing minified repro to:\n<path>"; returns the path.
std::filesystem::path write_launcher(const std::string& text, const std::string& compile_id);
// After AOT: <dir>/<nodes>.py ("Writing checkpoint with N nodes to ..."), copied to ./repro.py
// ("Copying repro file for convenience to ..."); returns the checkpoint's path.
std::filesystem::path write_aot_checkpoint(const std::filesystem::path& dir, const std::string& text, size_t nodes,
                                           const std::string& compile_id);
// After Dynamo: <dir>/minified_<nodes>_nodes.py, copied to ./repro.py ("Copying <from> to <to>
// for convenience").
std::filesystem::path write_dynamo_checkpoint(const std::filesystem::path& dir, const std::string& text, size_t nodes,
                                              const std::string& compile_id);

// The copy of the latest repro in the working folder.
std::filesystem::path convenience_repro_path();

void write_text_file(const std::filesystem::path& path, const std::string& text);

}  // namespace kiln::repro
