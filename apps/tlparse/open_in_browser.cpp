#include "apps/tlparse/open_in_browser.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

extern char** environ;

namespace kiln::apps {

void open_in_browser(const std::filesystem::path& page) {
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) return;
  std::string program = "xdg-open";
  std::string target = page.string();
  char* argv[] = {program.data(), target.data(), nullptr};
  pid_t child = 0;
  // xdg-open returns once the browser has been handed the page; a missing opener is not an error.
  if (::posix_spawnp(&child, argv[0], nullptr, nullptr, argv, environ) == 0) ::waitpid(child, nullptr, 0);
}

}  // namespace kiln::apps
