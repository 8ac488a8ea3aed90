#include "libcompiler/aot/build_identity.h"

#include <elf.h>
#include <link.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>

namespace kiln::aot {

namespace {

// The GNU build id note of the first loaded object, the executable; "" when it has none.
int read_build_id(dl_phdr_info* info, size_t, void* data) {
  auto& id = *static_cast<std::string*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_NOTE) continue;
    const char* at = reinterpret_cast<const char*>(info->dlpi_addr + header.p_vaddr);
    const char* end = at + header.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(at);
      const char* name = at + sizeof(ElfW(Nhdr));
      const auto* desc = reinterpret_cast<const unsigned char*>(name + ((note->n_namesz + 3) & ~3u));
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        for (unsigned k = 0; k < note->n_descsz; ++k) {
          char byte[3];
          std::snprintf(byte, sizeof byte, "%02x", desc[k]);
          id += byte;
        }
        return 1;
      }
      at = reinterpret_cast<const char*>(desc) + ((note->n_descsz + 3) & ~3u);
    }
  }
  return 1;  // only the executable is looked at
}

}  // namespace

const std::string& build_identity() {
  static const std::string identity = [] {
    std::string id;
    dl_iterate_phdr(read_build_id, &id);
    if (!id.empty()) return "build-id " + id;
    struct stat executable {};
    if (stat("/proc/self/exe", &executable) == 0)
      return "size " + std::to_string(executable.st_size) + " mtime " + std::to_string(executable.st_mtim.tv_sec) + "." +
             std::to_string(executable.st_mtim.tv_nsec);
    return std::string("unknown");
  }();
  return identity;
}

}  // namespace kiln::aot
