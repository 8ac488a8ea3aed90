// Arbitrary bytes through the Python front end. Either the parser rejects them with a
// SyntaxError (whose report must be printable), or it accepts them, and then the tree must dump,
// and unparse to source that parses back to an equal tree. Anything else aborts: a crash, a
// sanitizer report, another exception type, or a round trip that changes the program.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "libcompiler/python/ast_dump.h"
#include "libcompiler/python/ast_unparse.h"
#include "libcompiler/python/parser.h"

namespace {

using kiln::python::SyntaxError;

// Nesting limits the unparser's added parentheses may cross for input already at the edge.
bool is_nesting_limit(const SyntaxError& error) {
  return error.message() == "too many nested expressions and blocks" ||
         error.message() == "too many nested parentheses";
}

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_python_parser: %s\n%s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string source(reinterpret_cast<const char*>(data), size);
  std::unique_ptr<kiln::python::Module> module;
  try {
    module = kiln::python::parse_source(source, "fuzz.py");
  } catch (const SyntaxError& error) {
    std::string report = error.traceback() + error.what();
    if (report.empty() || error.line() == 0) fail("error without a location", report);
    return 0;
  }
  std::string tree = kiln::python::dump(*module, {.include_attributes = true});
  std::string text = kiln::python::unparse(*module);
  try {
    std::unique_ptr<kiln::python::Module> reparsed = kiln::python::parse_source(text, "unparsed.py");
    if (kiln::python::dump(*reparsed) != kiln::python::dump(*module))
      fail("unparse changed the program", source + "\n----\n" + text);
  } catch (const SyntaxError& error) {
    if (!is_nesting_limit(error)) fail("unparsed source does not parse", source + "\n----\n" + text + "\n" + error.what());
  }
  return tree.empty() ? 1 : 0;
}
