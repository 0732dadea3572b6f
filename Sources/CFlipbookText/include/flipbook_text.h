#ifndef FLIPBOOK_TEXT_H
#define FLIPBOOK_TEXT_H
// Fonts for Flipbook: outlines from FreeType, shaping from HarfBuzz, lookup through fontconfig.
// A thin C layer with plain types so the Swift side never touches FreeType's macros. Every
// quantity is in font units (unscaled, unhinted): scaling, positioning and rasterization happen
// in Flipbook's own vector core, so a glyph is the same bytes on every machine.
#include <stddef.h>
#include <stdint.h>

typedef struct fbk_font fbk_font;

/// Face `index` of the font file at `path`; NULL on failure (`*error`: FreeType's error code).
fbk_font *fbk_font_open_file(const char *path, int index, int *error);
/// Face `index` of a font in memory (`data` must outlive the font); NULL on failure.
fbk_font *fbk_font_open_memory(const unsigned char *data, size_t size, int index, int *error);
void fbk_font_close(fbk_font *font);

typedef struct {
    int units_per_em, ascender, descender, line_gap;     // hhea (OS/2 typo metrics when USE_TYPO_METRICS)
    int cap_height, x_height;                            // OS/2 (0 when absent)
    int underline_position, underline_thickness;          // post
    int num_glyphs;
    int bbox[4];                                         // xMin, yMin, xMax, yMax
    int italic_angle_x1000;                              // post.italicAngle × 1000
} fbk_font_metrics;

void fbk_font_get_metrics(const fbk_font *font, fbk_font_metrics *out);
/// The family / PostScript name (UTF-8, NUL-terminated, truncated to `cap`); returns its length.
int fbk_font_family_name(const fbk_font *font, char *buf, size_t cap);
int fbk_font_postscript_name(const fbk_font *font, char *buf, size_t cap);
/// Glyph for a code point (0: .notdef).
unsigned fbk_font_glyph_for_char(const fbk_font *font, uint32_t cp);
/// Horizontal advance of a glyph, font units.
int fbk_font_glyph_advance(const fbk_font *font, unsigned glyph);

/// The outline of `glyph` in font units (y up). Verbs: 0 move, 1 line, 2 quad (1 control +
/// end), 3 cubic (2 controls + end), 4 close. Points as x, y pairs. Returns the verb count and
/// sets *points (point count), or -1 for an invalid glyph; with buffers too small (or NULL) it
/// only counts.
int fbk_font_glyph_outline(fbk_font *font, unsigned glyph, unsigned char *verbs, int verb_cap,
                           double *xy, int point_cap, int *points);

/// One shaped glyph.
typedef struct {
    unsigned glyph;
    unsigned cluster;        // index into the UTF-32 text of the first code point it came from
    int x_advance, y_advance, x_offset, y_offset;   // font units
} fbk_glyph;

/// Shapes code points [start, start + length) of `text` (the whole text is context) as one
/// run: `rtl` 1 for right-to-left, `script` an ISO 15924 tag (0: guessed from the text),
/// `kerning` 0 turns the kern feature off, `ligatures` 0 turns the common ligatures off.
/// Writes up to `cap` glyphs in visual order (left to right) and returns the glyph count
/// (call again with a larger buffer when it exceeds `cap`), or -1 on failure.
int fbk_shape(fbk_font *font, const uint32_t *text, int text_length, int start, int length,
              int rtl, uint32_t script, int kerning, int ligatures, fbk_glyph *out, int cap);

/// The Unicode script of a code point (ISO 15924 tag, e.g. 'Latn', 'Arab', 'Zyyy' common,
/// 'Zinh' inherited) and whether that script is written right to left.
uint32_t fbk_script_of(uint32_t cp);
int fbk_script_is_rtl(uint32_t script);
/// The Unicode general category (HarfBuzz's hb_unicode_general_category_t numbering).
int fbk_general_category(uint32_t cp);

/// Finds an installed font by family, full or PostScript name through fontconfig. Returns 1 and
/// the file path (NUL-terminated) and face index when a font of that exact name exists, 0 when
/// none does (fontconfig's nearest match is not accepted), -1 when fontconfig fails.
int fbk_font_find(const char *name, char *path, size_t cap, int *index);

/// Unicode segmentation by ICU. For each code point i of `text` (UTF-32), `line[i]` is 1 when
/// a line may break before it (UAX #14; 2 for a mandatory break, 0 otherwise) and `cluster[i]`
/// 1 when a grapheme cluster starts there (UAX #29); either buffer may be NULL. Index 0 is
/// never a break. Returns 0, or -1 when ICU fails (then every index is a break opportunity
/// for clusters, and no line breaks are allowed).
int fbk_segment(const uint32_t *text, int length, unsigned char *line, unsigned char *cluster);

/// The Unicode Bidirectional Algorithm (UAX #9) by ICU for one paragraph: writes each code
/// point's embedding level (even: left to right, odd: right to left) and returns the paragraph
/// level (0 or 1, from its first strong character; 0 when it has none), or -1 on failure.
int fbk_bidi_levels(const uint32_t *text, int length, unsigned char *levels);

/// The fonts compiled into the library: 0 DejaVu Sans (the default), 1 Noto Sans Devanagari
/// (the fallback for Devanagari). Returns the bytes and sets *size; NULL past the last.
const unsigned char *fbk_bundled_font(int which, size_t *size);

#endif
