#pragma once
// Grad mode (torch.is_grad_enabled): thread-local, on by default. While it is off, ops record no
// autograd history (torch.no_grad()); the engine turns it on for backward only with create_graph.
namespace kiln::ops {

class GradMode {
 public:
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

// Sets grad mode for a scope and restores the previous mode (torch.no_grad / enable_grad /
// set_grad_enabled as context managers).
class GradModeGuard {
 public:
  explicit GradModeGuard(bool enabled) : previous_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~GradModeGuard() { GradMode::set_enabled(previous_); }
  GradModeGuard(const GradModeGuard&) = delete;
  GradModeGuard& operator=(const GradModeGuard&) = delete;

 private:
  bool previous_;
};

class NoGradGuard : public GradModeGuard {
 public:
  NoGradGuard() : GradModeGuard(false) {}
};

}  // namespace kiln::ops
