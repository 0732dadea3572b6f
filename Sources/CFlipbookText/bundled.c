// The fonts compiled into the library (fonts/, licences beside them), so text never depends on
// what a machine has installed. `#embed` (C23, an extension in clang's C modes) copies the files'
// bytes in at compile time.
#include "flipbook_text.h"
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char dejavu_sans[] = {
#embed "fonts/DejaVuSans.ttf"
};
static const unsigned char noto_sans_devanagari[] = {
#embed "fonts/NotoSansDevanagari-Regular.ttf"
};

const unsigned char *fbk_bundled_font(int which, size_t *size) {
    switch (which) {
    case 0: *size = sizeof dejavu_sans; return dejavu_sans;
    case 1: *size = sizeof noto_sans_devanagari; return noto_sans_devanagari;
    default: *size = 0; return 0;
    }
}
