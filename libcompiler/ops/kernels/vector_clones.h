#pragma once
// Hot loops compiled twice, for AVX2 and for any x86-64, the one to run picked when the program
// loads (as ATen picks its kernels by CPU capability): the build itself targets every x86-64,
// where a 32-byte vector is two SSE registers. Put it on non-template functions that run whole
// loops (a lambda inside keeps the default target). Sanitizer builds keep one version: their
// run-time is not set up yet when the loader picks a clone.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KILN_NO_VECTOR_CLONES
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define KILN_NO_VECTOR_CLONES
#endif

#if defined(__x86_64__) && !defined(KILN_NO_VECTOR_CLONES)
#define KILN_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define KILN_VECTOR_CLONES
#endif

// Code with FMA instructions too (std::fma inline, not a libm call), called where
// cpu_has_avx2_fma() (target_clones cannot name two features for one clone). kiln_ops is built
// with -ffp-contract=off, so the compiler fuses no other multiply-adds.
//
// Code on 64-byte vectors (16 floats, as ATen's AVX512 kernels), called where cpu_has_avx512():
// for loops whose operation is a lambda, which inlines into a function of this target (a lambda
// does not take a clone's target). Fine for elementwise loops, whose lanes are independent.
#if defined(__x86_64__)
#define KILN_AVX2_FMA_TARGET __attribute__((target("avx2,fma")))
inline bool cpu_has_avx2_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
#define KILN_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
inline bool cpu_has_avx512() {
  static const bool has =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return has;
}
#else
#define KILN_AVX2_FMA_TARGET
inline bool cpu_has_avx2_fma() { return false; }
#define KILN_AVX512_TARGET
inline bool cpu_has_avx512() { return false; }
#endif

#define KILN_INLINE_INTO_CLONES inline __attribute__((always_inline))

// Around code with AVX-512 intrinsics: GCC 12 warns about the undefined vectors inside its own
// intrinsics (-Wmaybe-uninitialized), which is no fault of the code.
#if defined(__clang__)
#define KILN_AVX512_INTRINSICS_BEGIN
#define KILN_AVX512_INTRINSICS_END
#else
#define KILN_AVX512_INTRINSICS_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define KILN_AVX512_INTRINSICS_END _Pragma("GCC diagnostic pop")
#endif
