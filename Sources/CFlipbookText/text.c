// Fonts for Flipbook (see include/flipbook_text.h): FreeType for outlines and names, HarfBuzz
// for shaping, fontconfig for lookup by name. Each font owns its FreeType library and face
// (FreeType objects are not shareable across threads) behind a mutex; HarfBuzz fonts are
// thread-safe for shaping, each call with its own buffer.
#include "flipbook_text.h"
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H
#include <hb.h>
#include <hb-ot.h>
#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct fbk_font {
    FT_Library library;
    FT_Face face;
    hb_blob_t *blob;
    hb_face_t *hb_face;
    hb_font_t *hb_font;
    unsigned char *owned;      // file bytes read by fbk_font_open_file
    pthread_mutex_t lock;      // guards `face` (outline loading)
};

static fbk_font *open_bytes(const unsigned char *data, size_t size, int index, unsigned char *owned, int *error) {
    fbk_font *f = calloc(1, sizeof *f);
    if (!f) { if (error) *error = -1; free(owned); return NULL; }
    int e = FT_Init_FreeType(&f->library);
    if (!e) e = FT_New_Memory_Face(f->library, data, (FT_Long)size, index, &f->face);
    if (!e && !FT_IS_SCALABLE(f->face)) e = FT_Err_Invalid_File_Format;   // bitmap-only fonts: no outlines
    if (e) {
        if (error) *error = e;
        if (f->library) FT_Done_FreeType(f->library);
        free(owned); free(f);
        return NULL;
    }
    f->owned = owned;
    f->blob = hb_blob_create((const char *)data, (unsigned)size, HB_MEMORY_MODE_READONLY, NULL, NULL);
    // fontconfig and FreeType put a variable font's named instance in the index's high 16 bits;
    // HarfBuzz wants the face alone.
    f->hb_face = hb_face_create(f->blob, (unsigned)index & 0xFFFFu);
    f->hb_font = hb_font_create(f->hb_face);          // scale = units per em: positions in font units
    hb_font_make_immutable(f->hb_font);
    pthread_mutex_init(&f->lock, NULL);
    if (error) *error = 0;
    return f;
}

fbk_font *fbk_font_open_memory(const unsigned char *data, size_t size, int index, int *error) {
    return open_bytes(data, size, index, NULL, error);
}

fbk_font *fbk_font_open_file(const char *path, int index, int *error) {
    FILE *fp = fopen(path, "rb");
    if (!fp) { if (error) *error = FT_Err_Cannot_Open_Resource; return NULL; }
    unsigned char *buf = NULL;
    long n = -1;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && n <= (256L << 20) && fseek(fp, 0, SEEK_SET) == 0) {
        buf = malloc(n > 0 ? (size_t)n : 1);
        if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) { free(buf); buf = NULL; }
    }
    fclose(fp);
    if (!buf) { if (error) *error = n > (256L << 20) ? FT_Err_Out_Of_Memory : FT_Err_Cannot_Open_Stream; return NULL; }
    return open_bytes(buf, (size_t)n, index, buf, error);
}

void fbk_font_close(fbk_font *f) {
    if (!f) return;
    hb_font_destroy(f->hb_font);
    hb_face_destroy(f->hb_face);
    hb_blob_destroy(f->blob);
    FT_Done_Face(f->face);
    FT_Done_FreeType(f->library);
    pthread_mutex_destroy(&f->lock);
    free(f->owned);
    free(f);
}

void fbk_font_get_metrics(const fbk_font *f, fbk_font_metrics *m) {
    FT_Face face = f->face;
    memset(m, 0, sizeof *m);
    m->units_per_em = face->units_per_EM;
    m->ascender = face->ascender;
    m->descender = face->descender;
    m->line_gap = face->height - (face->ascender - face->descender);
    if (m->line_gap < 0) m->line_gap = 0;
    TT_OS2 *os2 = (TT_OS2 *)FT_Get_Sfnt_Table(face, FT_SFNT_OS2);
    if (os2 && os2->version != 0xFFFF && os2->version >= 2) {
        m->cap_height = os2->sCapHeight;
        m->x_height = os2->sxHeight;
    }
    m->underline_position = face->underline_position;
    m->underline_thickness = face->underline_thickness;
    m->num_glyphs = (int)face->num_glyphs;
    m->bbox[0] = (int)face->bbox.xMin; m->bbox[1] = (int)face->bbox.yMin;
    m->bbox[2] = (int)face->bbox.xMax; m->bbox[3] = (int)face->bbox.yMax;
    TT_Postscript *post = (TT_Postscript *)FT_Get_Sfnt_Table(face, FT_SFNT_POST);
    if (post) m->italic_angle_x1000 = (int)((double)post->italicAngle / 65536.0 * 1000.0);
}

static int copy_name(const char *s, char *buf, size_t cap) {
    if (!s) s = "";
    size_t n = strlen(s);
    if (cap > 0) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(buf, s, k);
        buf[k] = 0;
    }
    return (int)n;
}

int fbk_font_family_name(const fbk_font *f, char *buf, size_t cap) { return copy_name(f->face->family_name, buf, cap); }
int fbk_font_postscript_name(const fbk_font *f, char *buf, size_t cap) { return copy_name(FT_Get_Postscript_Name(f->face), buf, cap); }

unsigned fbk_font_glyph_for_char(const fbk_font *f, uint32_t cp) {
    hb_codepoint_t g = 0;
    return hb_font_get_nominal_glyph(f->hb_font, cp, &g) ? g : 0;
}

int fbk_font_glyph_advance(const fbk_font *f, unsigned glyph) {
    return (int)hb_font_get_glyph_h_advance(f->hb_font, glyph);
}

// MARK: Outlines

typedef struct {
    unsigned char *verbs; int verb_cap; int nverbs;
    double *xy; int point_cap; int npoints;
    int open;   // a contour is open (needs a close)
} sink;

static void put_verb(sink *s, unsigned char v) { if (s->verbs && s->nverbs < s->verb_cap) s->verbs[s->nverbs] = v; s->nverbs++; }
static void put_point(sink *s, const FT_Vector *p) {
    if (s->xy && s->npoints < s->point_cap) { s->xy[2 * s->npoints] = (double)p->x; s->xy[2 * s->npoints + 1] = (double)p->y; }
    s->npoints++;
}
static int d_move(const FT_Vector *to, void *u) {
    sink *s = u;
    if (s->open) put_verb(s, 4);
    put_verb(s, 0); put_point(s, to); s->open = 1; return 0;
}
static int d_line(const FT_Vector *to, void *u) { sink *s = u; put_verb(s, 1); put_point(s, to); return 0; }
static int d_conic(const FT_Vector *c, const FT_Vector *to, void *u) {
    sink *s = u; put_verb(s, 2); put_point(s, c); put_point(s, to); return 0;
}
static int d_cubic(const FT_Vector *c1, const FT_Vector *c2, const FT_Vector *to, void *u) {
    sink *s = u; put_verb(s, 3); put_point(s, c1); put_point(s, c2); put_point(s, to); return 0;
}

int fbk_font_glyph_outline(fbk_font *f, unsigned glyph, unsigned char *verbs, int verb_cap,
                           double *xy, int point_cap, int *points) {
    if (points) *points = 0;
    if ((long)glyph >= f->face->num_glyphs) return -1;
    pthread_mutex_lock(&f->lock);
    int e = FT_Load_Glyph(f->face, glyph, FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP);
    if (e || f->face->glyph->format != FT_GLYPH_FORMAT_OUTLINE) {
        pthread_mutex_unlock(&f->lock);
        return e ? -1 : 0;          // a glyph without an outline (a space) draws nothing
    }
    sink s = { verbs, verb_cap, 0, xy, point_cap, 0, 0 };
    FT_Outline_Funcs funcs = { d_move, d_line, d_conic, d_cubic, 0, 0 };
    e = FT_Outline_Decompose(&f->face->glyph->outline, &funcs, &s);
    pthread_mutex_unlock(&f->lock);
    if (e) return -1;
    if (s.open) put_verb(&s, 4);
    if (points) *points = s.npoints;
    return s.nverbs;
}

// MARK: Shaping

int fbk_shape(fbk_font *f, const uint32_t *text, int text_length, int start, int length,
              int rtl, uint32_t script, int kerning, int ligatures, fbk_glyph *out, int cap) {
    if (start < 0 || length < 0 || start + length > text_length) return -1;
    hb_buffer_t *b = hb_buffer_create();
    if (!hb_buffer_allocation_successful(b)) { hb_buffer_destroy(b); return -1; }
    hb_buffer_set_cluster_level(b, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS);
    hb_buffer_add_utf32(b, text, text_length, (unsigned)start, length);
    hb_buffer_set_direction(b, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    if (script) hb_buffer_set_script(b, hb_script_from_iso15924_tag(script));
    hb_buffer_guess_segment_properties(b);
    hb_feature_t feats[3];
    unsigned nf = 0;
    if (!kerning) { feats[nf].tag = HB_TAG('k','e','r','n'); feats[nf].value = 0; feats[nf].start = 0; feats[nf].end = (unsigned)-1; nf++; }
    if (!ligatures) {
        feats[nf].tag = HB_TAG('l','i','g','a'); feats[nf].value = 0; feats[nf].start = 0; feats[nf].end = (unsigned)-1; nf++;
        feats[nf].tag = HB_TAG('c','l','i','g'); feats[nf].value = 0; feats[nf].start = 0; feats[nf].end = (unsigned)-1; nf++;
    }
    hb_shape(f->hb_font, b, nf ? feats : NULL, nf);
    unsigned n = 0;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(b, &n);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(b, &n);
    for (unsigned i = 0; i < n && (int)i < cap; i++) {
        out[i].glyph = info[i].codepoint;
        out[i].cluster = info[i].cluster;
        out[i].x_advance = pos[i].x_advance; out[i].y_advance = pos[i].y_advance;
        out[i].x_offset = pos[i].x_offset; out[i].y_offset = pos[i].y_offset;
    }
    hb_buffer_destroy(b);
    return (int)n;
}

uint32_t fbk_script_of(uint32_t cp) {
    return hb_script_to_iso15924_tag(hb_unicode_script(hb_unicode_funcs_get_default(), cp));
}

int fbk_script_is_rtl(uint32_t script) {
    return hb_script_get_horizontal_direction(hb_script_from_iso15924_tag(script)) == HB_DIRECTION_RTL;
}

int fbk_general_category(uint32_t cp) {
    return (int)hb_unicode_general_category(hb_unicode_funcs_get_default(), cp);
}

// MARK: fontconfig

static pthread_mutex_t fc_lock = PTHREAD_MUTEX_INITIALIZER;
static FcConfig *fc_config;

static int name_matches(FcPattern *p, const char *object, const char *name) {
    FcChar8 *v = NULL;
    for (int i = 0; FcPatternGetString(p, object, i, &v) == FcResultMatch; i++)
        if (strcasecmp((const char *)v, name) == 0) return 1;
    return 0;
}

int fbk_font_find(const char *name, char *path, size_t cap, int *index) {
    pthread_mutex_lock(&fc_lock);
    if (!fc_config) fc_config = FcInitLoadConfigAndFonts();
    if (!fc_config) { pthread_mutex_unlock(&fc_lock); return -1; }
    int found = 0;
    // 1. a family: fontconfig's best face of it (regular weight and style by default),
    //    accepted only if its family really is `name`.
    FcPattern *pat = FcPatternCreate();
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)name);
    FcConfigSubstitute(fc_config, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult r;
    FcPattern *m = FcFontMatch(fc_config, pat, &r);
    FcPatternDestroy(pat);
    if (m && name_matches(m, FC_FAMILY, name)) found = 1;
    // 2. a PostScript or full name: the first listed face of that name (sorted by path).
    if (!found) {
        if (m) { FcPatternDestroy(m); m = NULL; }
        const char *objects[2] = { FC_POSTSCRIPT_NAME, FC_FULLNAME };
        for (int k = 0; k < 2 && !found; k++) {
            FcPattern *q = FcPatternCreate();
            FcPatternAddString(q, objects[k], (const FcChar8 *)name);
            FcObjectSet *os = FcObjectSetBuild(FC_FILE, FC_INDEX, FC_POSTSCRIPT_NAME, FC_FULLNAME, (char *)0);
            FcFontSet *set = FcFontList(fc_config, q, os);
            FcPattern *best = NULL; FcChar8 *bestFile = NULL;
            for (int i = 0; set && i < set->nfont; i++) {
                FcChar8 *file = NULL;
                if (FcPatternGetString(set->fonts[i], FC_FILE, 0, &file) != FcResultMatch) continue;
                if (!bestFile || strcmp((const char *)file, (const char *)bestFile) < 0) { best = set->fonts[i]; bestFile = file; }
            }
            if (best) { m = FcPatternDuplicate(best); found = 1; }
            if (set) FcFontSetDestroy(set);
            FcObjectSetDestroy(os);
            FcPatternDestroy(q);
        }
    }
    if (found) {
        FcChar8 *file = NULL; int idx = 0;
        FcPatternGetString(m, FC_FILE, 0, &file);
        FcPatternGetInteger(m, FC_INDEX, 0, &idx);
        copy_name((const char *)file, path, cap);
        if (index) *index = idx;
    }
    if (m) FcPatternDestroy(m);
    pthread_mutex_unlock(&fc_lock);
    return found;
}

// MARK: Segmentation (ICU)

#include <unicode/ubrk.h>
#include <unicode/utf16.h>

static int run_breaks(UBreakIteratorType type, const UChar *u, int32_t ulen, const int32_t *cp_of_unit,
                      int length, unsigned char *out) {
    UErrorCode err = U_ZERO_ERROR;
    UBreakIterator *bi = ubrk_open(type, "en", u, ulen, &err);
    if (U_FAILURE(err) || !bi) return -1;
    for (int32_t b = ubrk_first(bi); b != UBRK_DONE; b = ubrk_next(bi)) {
        if (b <= 0 || b >= ulen) continue;
        int cp = cp_of_unit[b];
        if (cp <= 0 || cp >= length) continue;
        unsigned char v = 1;
        if (type == UBRK_LINE && ubrk_getRuleStatus(bi) >= UBRK_LINE_HARD) v = 2;
        out[cp] = v;
    }
    ubrk_close(bi);
    return 0;
}

int fbk_segment(const uint32_t *text, int length, unsigned char *line, unsigned char *cluster) {
    if (length <= 0) return 0;
    if (line) memset(line, 0, (size_t)length);
    if (cluster) memset(cluster, 0, (size_t)length);
    // UTF-32 → UTF-16, remembering which code point each unit starts.
    UChar *u = malloc(sizeof(UChar) * (size_t)length * 2 + 2);
    int32_t *cp_of_unit = malloc(sizeof(int32_t) * ((size_t)length * 2 + 2));
    if (!u || !cp_of_unit) { free(u); free(cp_of_unit); return -1; }
    int32_t n = 0;
    for (int i = 0; i < length; i++) {
        uint32_t c = text[i];
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
        cp_of_unit[n] = i;
        if (c <= 0xFFFF) { u[n++] = (UChar)c; }
        else { u[n] = U16_LEAD(c); cp_of_unit[n + 1] = -1; u[n + 1] = U16_TRAIL(c); n += 2; }
    }
    cp_of_unit[n] = length;
    int rc = 0;
    if (line && run_breaks(UBRK_LINE, u, n, cp_of_unit, length, line) != 0) { memset(line, 0, (size_t)length); rc = -1; }
    if (cluster && run_breaks(UBRK_CHARACTER, u, n, cp_of_unit, length, cluster) != 0) { memset(cluster, 1, (size_t)length); rc = -1; }
    free(u); free(cp_of_unit);
    return rc;
}

// MARK: Bidi (ICU)

#include <unicode/ubidi.h>

int fbk_bidi_levels(const uint32_t *text, int length, unsigned char *levels) {
    if (length <= 0) return 0;
    UChar *u = malloc(sizeof(UChar) * (size_t)length * 2 + 2);
    int32_t *unit_of_cp = malloc(sizeof(int32_t) * (size_t)length);
    if (!u || !unit_of_cp) { free(u); free(unit_of_cp); return -1; }
    int32_t n = 0;
    for (int i = 0; i < length; i++) {
        uint32_t c = text[i];
        if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
        unit_of_cp[i] = n;
        if (c <= 0xFFFF) u[n++] = (UChar)c;
        else { u[n++] = U16_LEAD(c); u[n++] = U16_TRAIL(c); }
    }
    UErrorCode err = U_ZERO_ERROR;
    UBiDi *b = ubidi_openSized(n, 0, &err);
    int para = -1;
    if (!U_FAILURE(err) && b) {
        ubidi_setPara(b, u, n, UBIDI_DEFAULT_LTR, NULL, &err);
        if (!U_FAILURE(err)) {
            const UBiDiLevel *lv = ubidi_getLevels(b, &err);
            if (!U_FAILURE(err) && lv) {
                for (int i = 0; i < length; i++) levels[i] = lv[unit_of_cp[i]];
                para = ubidi_getParaLevel(b) & 1;
            }
        }
    }
    if (b) ubidi_close(b);
    free(u); free(unit_of_cp);
    return para;
}
