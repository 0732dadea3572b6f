#ifndef CLIBDEFLATE_SHIM_H
#define CLIBDEFLATE_SHIM_H
/* libdeflate (Debian libdeflate-dev): whole-buffer DEFLATE/zlib compression, levels 1-12. */
#include <libdeflate.h>
#endif
