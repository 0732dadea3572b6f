/*
 * scratch.c — per-thread scratch buffers for the PNG encoders (see scratch.h).
 *
 * One pthread key holds a small struct per thread with one buffer per slot; its destructor
 * frees them when the thread exits. A buffer only grows (to the largest request ≤
 * FB_SCRATCH_KEEP seen on that thread). If the key cannot be made or set, every request is a
 * plain malloc and every release a free.
 */
#include "scratch.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct fb_scratch {
    uint8_t *p[FB_SCRATCH_SLOTS];
    size_t cap[FB_SCRATCH_SLOTS];
} fb_scratch;

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static int scratch_ok;

static void scratch_destroy(void *v) {
    fb_scratch *s = v;
    for (int i = 0; i < FB_SCRATCH_SLOTS; i++) free(s->p[i]);
    free(s);
}

static void scratch_init(void) { scratch_ok = pthread_key_create(&scratch_key, scratch_destroy) == 0; }

static fb_scratch *scratch_mine(int create) {
    pthread_once(&scratch_once, scratch_init);
    if (!scratch_ok) return NULL;
    fb_scratch *s = pthread_getspecific(scratch_key);
    if (!s && create) {
        if (!(s = calloc(1, sizeof *s))) return NULL;
        if (pthread_setspecific(scratch_key, s) != 0) { free(s); return NULL; }
    }
    return s;
}

uint8_t *fb_scratch_take(int slot, size_t n) {
    if (n == 0) n = 1;
    fb_scratch *s = slot >= 0 && slot < FB_SCRATCH_SLOTS && n <= FB_SCRATCH_KEEP ? scratch_mine(1) : NULL;
    if (!s) return malloc(n);
    if (s->cap[slot] < n) {
        free(s->p[slot]);
        s->p[slot] = malloc(n);
        s->cap[slot] = s->p[slot] ? n : 0;
    }
    return s->p[slot];
}

void fb_scratch_release(int slot, uint8_t *p) {
    if (!p) return;
    fb_scratch *s = slot >= 0 && slot < FB_SCRATCH_SLOTS ? scratch_mine(0) : NULL;
    if (!s || s->p[slot] != p) free(p);
}
