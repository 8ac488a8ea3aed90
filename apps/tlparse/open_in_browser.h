#pragma once
// Opening the finished report like tlparse does, but only where a browser can show it.
#include <filesystem>

namespace kiln::apps {

// Starts the desktop's opener (xdg-open) on `page` without waiting for it. Does nothing when no
// graphical session is available (neither DISPLAY nor WAYLAND_DISPLAY is set).
void open_in_browser(const std::filesystem::path& page);

}  // namespace kiln::apps
