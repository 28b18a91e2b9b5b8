// libFuzzer's driver for Swift. libFuzzer ships no header, and SwiftPM renames an executable's
// `main` in debug builds, so libFuzzer's own `main` cannot be used: each fuzz executable's
// top-level code calls CFuzzerDriver_run instead. Built only with MTLS_MIRROR_FUZZ=1.
#ifndef CFUZZERDRIVER_H
#define CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer (argument parsing, corpus loading, mutation loop) with `callback` as the
/// target; forwards to LLVMFuzzerRunDriver.
int CFuzzerDriver_run(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
