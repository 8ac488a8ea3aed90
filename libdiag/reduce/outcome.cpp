#include "libdiag/reduce/outcome.h"

namespace kiln::reduce {

std::string_view outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::Interesting: return "interesting";
    case Outcome::NotInteresting: return "not interesting";
    case Outcome::Crashed: return "crashed";
    case Outcome::TimedOut: return "timed out";
  }
  return "unknown";
}

}  // namespace kiln::reduce
