#ifndef FLIPBOOK_FUZZ_ENTRY_H
#define FLIPBOOK_FUZZ_ENTRY_H
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (LLVMFuzzerRunDriver) with `callback` as the fuzz target. Returns
/// -1 without running anything when the binary was linked without libFuzzer (a build without
/// `-sanitize=fuzzer`), so the package builds with the stock flags too.
int flipbook_fuzz_run_driver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// A structure-aware mutation: writes a mutated copy of `data[0..<size]` into `out` (at most
/// `max_size` bytes) and returns its length, or 0 to let libFuzzer's own mutations run.
typedef size_t (*flipbook_fuzz_mutator)(const uint8_t *data, size_t size, uint8_t *out, size_t max_size, unsigned int seed);

/// Installs `mutator` (nil: none). With one installed, LLVMFuzzerCustomMutator asks it first
/// and falls back to libFuzzer's mutations (LLVMFuzzerMutate: bytes, dictionary, compares).
void flipbook_fuzz_set_mutator(flipbook_fuzz_mutator mutator);

#endif
