#pragma once
// `tlparse diff A B ...`: its flags; the work is libdiag/report/diff_run.h's.

namespace kiln::apps {

// argv[0] is "diff". Returns the exit status: 0, 1 for an error or a --fail-on condition that
// holds, 2 for a usage error.
int run_diff_command(int argc, char** argv);

}  // namespace kiln::apps
