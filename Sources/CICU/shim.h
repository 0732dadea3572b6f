#ifndef CICU_SHIM_H
#define CICU_SHIM_H
#include <unicode/ubrk.h>
#include <unicode/utf16.h>
#include <unicode/ubidi.h>
#endif
