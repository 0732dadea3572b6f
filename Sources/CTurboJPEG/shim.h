#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H
/* libjpeg-turbo's TurboJPEG API. FlipbookJPEG calls the TurboJPEG 2 functions (tjInitDecompress,
   tjDecompressHeader3, tjDecompress2), which TurboJPEG 3 keeps, so it builds against both. */
#include <stddef.h>
#include <turbojpeg.h>
#endif
