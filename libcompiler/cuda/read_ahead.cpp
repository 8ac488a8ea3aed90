#include "libcompiler/cuda/read_ahead.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <thread>

namespace kiln::cuda {

void read_ahead_library_files(const void* symbol, const char* file_prefix) {
  Dl_info info{};
  if (!symbol || !dladdr(symbol, &info) || !info.dli_fname) return;
  const std::filesystem::path folder = std::filesystem::path(info.dli_fname).parent_path();
  std::thread([folder, prefix = std::string(file_prefix)] {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
      if (!entry.path().filename().string().starts_with(prefix)) continue;
      const int fd = open(entry.path().c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
      close(fd);
    }
  }).detach();
}

}  // namespace kiln::cuda
