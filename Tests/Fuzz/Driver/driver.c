#include "CFuzzerDriver.h"

// Provided by libFuzzer (linked by -sanitize=fuzzer); see compiler-rt's FuzzerInterface.h.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

// Why: Swift cannot import LLVMFuzzerRunDriver without a declaration. Forwards to exactly it.
int CFuzzerDriver_run(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
