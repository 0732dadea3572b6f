#ifndef CISAL_SHIM_H
#define CISAL_SHIM_H
/* Intel ISA-L's igzip (Debian libisal-dev): SIMD deflate, levels 0-3. */
#include <isa-l/igzip_lib.h>
#endif
