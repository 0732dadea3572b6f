#include "fuzz_entry.h"

// libFuzzer's entry for programs with their own main (compiler-rt FuzzerInterface.h). Weak: it
// is present only when the link includes libFuzzer (`-sanitize=fuzzer`).
__attribute__((weak)) int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));

__attribute__((weak)) size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static flipbook_fuzz_mutator installed;

void flipbook_fuzz_set_mutator(flipbook_fuzz_mutator mutator) { installed = mutator; }

/// libFuzzer's hook for custom mutations (it calls this instead of its own when the symbol is
/// defined): the installed structure-aware mutator first, libFuzzer's own mutations when it
/// declines (returns 0) or none is installed.
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    if (installed && size > 0) {
        size_t n = installed(data, size, data, max_size, seed);
        if (n > 0) return n;
    }
    return LLVMFuzzerMutate ? LLVMFuzzerMutate(data, size, max_size) : size;
}

int flipbook_fuzz_run_driver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size)) {
    if (!LLVMFuzzerRunDriver) return -1;
    return LLVMFuzzerRunDriver(argc, argv, callback);
}
