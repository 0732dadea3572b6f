#include "flipbook_kernels.h"
int fbk_cpu_avx2_state = -1;
int fbk_cpu_has_avx2(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}
