#pragma once
// A fused kernel as C-like source: the parameters (in_ptrN/out_ptrN, size symbols, the outer
// range's chunk), the outer loop, and per member its inner loop of `auto tmpN = ...;` statements,
// each scalar op written as scalar_ops.def spells it in C. The CPU backend shows its LLVM kernels
// this way in output code; the CUDA backend compiles the same text in its own frame.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "libcompiler/inductor/scheduler.h"

namespace kiln::inductor {

// A row of a buffer only its kernel reads (kernel_private_rows), as a frame may keep it: the
// pointer that names the buffer in the kernel's statements, its element type, the row's length.
struct PrivateRow {
  std::string pointer;
  std::string element_type;
  int64_t length = 0;
  int64_t element_bytes = 0;
};

// How a dialect frames the members' statements: its declaration of the kernel (name and
// parameters given) through the opening of the loop over x0, and what closes them; and how the
// threads that share one x0 split each member's work. On the CPU one thread runs a whole row; a
// GPU kernel may give a row to a block of threads, which share each member's loop over r0, combine
// their partial reductions, let one of them store a row's single value, and wait for each other
// before the next member reads what this one wrote.
struct CLikeFrame {
  // `narrow_offsets`: every offset the kernel computes fits in 30 bits (offsets_fit_30_bits), so a
  // dialect may index in 32-bit arithmetic.
  std::string (*open)(const FusedKernel& kernel, const std::string& parameters, bool narrow_offsets);
  const char* close;
  const char* floor_division;  // in index expressions: "//" in the listing, "/" in compiled C
  // The loop of r0 over [0, size) (its `for (...)` line, without the brace).
  std::string (*inner_loop)(const std::string& size) = sequential_inner_loop;
  // A reduction's partial accumulators combined across the threads: "acc = ...(acc, ...);", or
  // empty when one thread has the whole row. `ordinal`: the reduction's place among the kernel's.
  std::string (*combine_threads)(const std::string& accumulator, const std::string& reduction, int ordinal) = nullptr;
  // What opens a statement only one of a row's threads runs ("" when a thread has the row).
  const char* one_thread = "";
  // What makes a row's threads wait for each other after a member ("" when a thread has the row).
  const char* barrier = "";
  // Whether every thread of a row has each reduction's total once combine_threads has run. Then
  // every thread also computes the row's one-value members, and later members read those values
  // (row_value_buffers) from locals: no barrier after the members that compute them.
  bool shares_row_values = false;
  // Written after the `*` of every buffer pointer: "__restrict__ " lets CUDA load inputs through
  // the read-only cache and move loads ahead of stores (no two of a kernel's pointers reach the
  // same memory: a kernel never writes a buffer it reads through another argument), so that a row
  // loop reads a member's earlier totals (out_ptrN[x0]) once, not again after each store.
  const char* pointer_qualifier = "";
  // A dialect that can move four floats as one (CUDA's float4) takes four neighbouring positions
  // a thread where the float32 buffers allow: a quad of type kiln_quad (members x, y, z, w) moved
  // by kiln_load_quad(ptr, q) / kiln_store_quad(ptr, q, value). Its backend's pointer_alignment()
  // is 16: a quad starts at a multiple of four elements of a 16-byte aligned pointer.
  // What opens the loop over a row's quads r4 of r0 (its lines through the opening brace, which
  // define r4), for members whose row buffers allow them; nullptr: one r0 at a time.
  std::string (*open_quad_loop)(const FusedKernel& kernel, int64_t quads) = nullptr;
  // How many of a row's quads each thread takes when its threads divide them evenly, 0 otherwise
  // or nullptr. Then open_quad_loop counts a thread's quads with r4_step from 0, and rows the
  // kernel only reads may stay in registers, r4_step indexing them (resident_rows).
  int64_t (*quads_per_thread)(const FusedKernel& kernel, int64_t quads) = nullptr;
  // A kernel of one point per x0 (point_quad_buffers): `open_point_quads` declares the kernel and
  // opens its loop over q, the quads of x0; `point_quads_rest` closes that loop and opens the one
  // over the x0 left (outer % 4 of them), which the kernel's statements for one x0 and `close`
  // fill and close (`close` alone closes the loop over q when outer is a known multiple of four).
  // nullptr: one x0 at a time.
  std::string (*open_point_quads)(const FusedKernel& kernel, const std::string& parameters, bool narrow_offsets) = nullptr;
  const char* point_quads_rest = "";
  // A dialect whose threads share a row may keep rows of kernel-private buffers in memory of
  // their own (CUDA's shared memory) rather than in the buffers: the lines that open each x0 and
  // rename those pointers there, for the rows it has room for (the statements index them as
  // inner*x0 + r0 still). nullptr: every buffer stays in memory.
  std::string (*keep_private_rows)(const FusedKernel& kernel, const std::vector<PrivateRow>& rows) = nullptr;
  // A frame whose threads step through r0 by a stride known only at run time (a Columns kernel's
  // lanes and splits) takes `batch` iterations of a member's loop at a time, so that their loads
  // are in flight together: `batch_loop` declares r0_batch and opens the loop over whole batches
  // (its lines without the brace), iteration i of a batch at r0_batch + i * kiln_r0_step; then
  // inner_loop goes on from r0_batch over the r0 left. nullptr: inner_loop alone.
  int batch = 1;
  std::string (*batch_loop)(const std::string& size) = nullptr;

  static std::string sequential_inner_loop(const std::string& size);
};
// The CPU listing's frame: `extern "C" int name(..., int64_t begin, int64_t end)`, a chunk of x0.
const CLikeFrame& cpu_listing_frame();

// Whether every buffer the kernel reaches and every loop it runs stays below 2^30 elements: sizes
// known at compile time only (a size symbol may be anything at run time).
bool offsets_fit_30_bits(const LoopProgram& program, const FusedKernel& kernel);

// The buffers a kernel of one point per x0 (no member loops over r0) may move four neighbouring
// x0 at a time: the float32 buffers it reads or writes only at x0 itself. Empty when the kernel
// has loops, or reads a buffer it writes anywhere but at x0.
std::set<int> point_quad_buffers(const LoopProgram& program, const FusedKernel& kernel);

// The buffers a kernel writes a row at a time (a pointwise member over r0 of a known length) that
// nothing outside the kernel reads (no other node, not an output of the program) and that its
// members read only at the row being computed (inner*x0 + r0, in a loop of that length): softmax's
// exp, read by the sum and then the division. Each with its row length.
std::map<int, int64_t> kernel_private_rows(const LoopProgram& program, const FusedKernel& kernel);

// The buffers a kernel writes one value per x0 (its reductions' and one-value members' outputs)
// that its members read only at x0: the value of the row being computed.
std::set<int> row_value_buffers(const LoopProgram& program, const FusedKernel& kernel);

std::string render_c_like_kernel(const LoopProgram& program, const FusedKernel& kernel, const CLikeFrame& frame = cpu_listing_frame());

}  // namespace kiln::inductor
