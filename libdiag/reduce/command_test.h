#pragma once
// The interestingness test as an external command, like creduce's and llvm-reduce's
// --test: the candidate is written by the caller's writer into an anonymous in-memory file that
// is the command's stdin, and whose path replaces every "{}" argument (or is appended when there
// is none). Exit status 0 means interesting.
#include <functional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "libdiag/reduce/test_runner.h"

namespace kiln::reduce {

using CandidateWriter = std::function<void(std::span<const size_t> kept, std::ostream& out)>;

// Runs in the child (see ChildTest): writes the candidate and execs `argv`; 127 if exec fails.
ChildTest command_test(std::vector<std::string> argv, CandidateWriter writer);

}  // namespace kiln::reduce
