#pragma once
// Asks the kernel to read a loaded library's files into the page cache ahead of use. NVRTC is
// ~100 MB of code and built-in headers touched a few pages at a time: on a machine that has not
// read them since it started, its first compiles wait on the disk page by page (a GPT's first
// compiled step took 2.8 s there against 0.35 s once the files were cached, H200 machine).
namespace kiln::cuda {

// In the background: every file whose name starts with `file_prefix` in the folder of the library
// that defines `symbol` (posix_fadvise WILLNEED: sequential reads the disk serves at its speed).
void read_ahead_library_files(const void* symbol, const char* file_prefix);

}  // namespace kiln::cuda
