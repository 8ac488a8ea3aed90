#include "libdiag/reduce/command_test.h"

#include <sys/mman.h>
#include <unistd.h>

#include <sstream>

namespace kiln::reduce {

ChildTest command_test(std::vector<std::string> argv, CandidateWriter writer) {
  return [argv = std::move(argv), writer = std::move(writer)](std::span<const size_t> kept) -> int {
    // A memfd needs no cleanup: it vanishes with the child, however the command ends.
    const int fd = memfd_create("kiln-reduce-candidate", 0);
    if (fd < 0) return 127;
    std::ostringstream text;
    writer(kept, text);
    const std::string bytes = text.str();
    for (size_t done = 0; done < bytes.size();) {
      const ssize_t written = write(fd, bytes.data() + done, bytes.size() - done);
      if (written <= 0) return 127;
      done += size_t(written);
    }
    lseek(fd, 0, SEEK_SET);
    dup2(fd, STDIN_FILENO);
    // The path of stdin, valid in the exec'd command because /proc/self is the same process.
    const std::string path = "/proc/self/fd/" + std::to_string(STDIN_FILENO);
    std::vector<std::string> args = argv;
    bool substituted = false;
    for (std::string& arg : args)
      if (arg == "{}") arg = path, substituted = true;
    if (!substituted) args.push_back(path);
    std::vector<char*> pointers;
    for (std::string& arg : args) pointers.push_back(arg.data());
    pointers.push_back(nullptr);
    execvp(pointers[0], pointers.data());
    return 127;
  };
}

}  // namespace kiln::reduce
