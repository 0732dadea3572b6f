#ifndef FLIPBOOK_KERNELS_H
#define FLIPBOOK_KERNELS_H
/// Native SIMD kernels (AVX2 behind a runtime CPU check). Every kernel here has a portable
/// Swift twin in FlipbookRaster; tests compare them.
int fbk_cpu_has_avx2(void);
#endif
