#ifndef FLIPBOOK_PNG_H
#define FLIPBOOK_PNG_H
/// The C shim over libpng. All setjmp/longjmp stays inside this library; errors come back as
/// return codes plus a message buffer.
#endif
