/* spvgen/export.h — symbol visibility of the public API.
 *
 * The libraries are compiled with -fvisibility=hidden; every declaration between
 * SPVGEN_API_BEGIN and SPVGEN_API_END (each public header wraps its declarations in
 * them) is exported from libspvgen.so, and nothing else is: the internal helpers, volk's
 * function pointers and SPIRV-Tools stay inside. SPVGEN_API marks a single declaration
 * (the generated spvgen/ops.h uses it). With static libraries both change nothing. */
#ifndef SPVGEN_EXPORT_H
#define SPVGEN_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define SPVGEN_API __attribute__((visibility("default")))
#define SPVGEN_API_BEGIN _Pragma("GCC visibility push(default)")
#define SPVGEN_API_END _Pragma("GCC visibility pop")
#else
#define SPVGEN_API
#define SPVGEN_API_BEGIN
#define SPVGEN_API_END
#endif

#endif
