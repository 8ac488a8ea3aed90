#pragma once
// run_repro, what every repro file calls (debug_tools.md §1.6-1.7): torch._dynamo.repro.after_aot
// and torch._dynamo.repro.after_dynamo. The graph is the file's `class Repro` block (read back by
// the runnable parser), the inputs what load_args gives the reader. The default command comes
// from the file; the command line overrides it and adds flags:
//
//   run            compile the graph and run it (--accuracy: compare with the reference and
//                  raise AccuracyError on a mismatch; after Dynamo the gradients too, unless
//                  repro_forward_only, as same_two_models in graph_accuracy.h)
//   minify         reduce it to a minimal repro (minifier.h): checkpoints under the save dir,
//                  ./repro.py at the end; -j N tests in parallel, --timeout S per test
//   analyze        the first node whose compiled value diverges (analyze.h)
//   get_args       returns (mod, args)
//   minifier-query exits 1 when the graph fails, else 0
#include <memory>

#include <boost/program_options/options_description.hpp>

#include "libcompiler/ir/graph_module.h"
#include "libcompiler/python/interp/interpreter.h"

namespace kiln::repro {

// The graph of a repro file's Repro module: its class block, read back from the file that defines
// it (TypeError for another module, SyntaxError for a block the runnable parser cannot read).
std::shared_ptr<const ir::GraphModule> repro_module_graph(python::Interpreter& interp, const python::Ref& mod);

// The command and flags a repro file's command line takes (minify --help prints them).
boost::program_options::options_description run_repro_flags();

// Registers the torch._dynamo.repro modules, torch._dynamo.testing (rand_strided) and the
// reader of load_args.
void install_run_repro(python::Interpreter& interp);

}  // namespace kiln::repro
