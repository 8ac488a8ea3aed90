#pragma once
// What one test of a candidate ended in. A crash or a hang is its own kind, not an error of the
// reducer, so a caller reducing a segfault can count Crashed as the interesting outcome.
#include <cstdint>
#include <string_view>

namespace kiln::reduce {

enum class Outcome : uint8_t {
  Interesting,     // exit status 0
  NotInteresting,  // any other exit status
  Crashed,         // killed by a signal (segfault, abort, ...)
  TimedOut,        // ran past the timeout; its whole process group was killed
};

std::string_view outcome_name(Outcome outcome);

// The outcomes a caller counts as interesting, as a bit set over Outcome.
class OutcomeSet {
 public:
  constexpr OutcomeSet() = default;
  constexpr OutcomeSet(std::initializer_list<Outcome> outcomes) {
    for (Outcome outcome : outcomes) bits_ |= bit(outcome);
  }
  constexpr bool contains(Outcome outcome) const { return bits_ & bit(outcome); }

 private:
  static constexpr uint8_t bit(Outcome outcome) { return uint8_t(1u << static_cast<unsigned>(outcome)); }
  uint8_t bits_ = 0;
};

}  // namespace kiln::reduce
