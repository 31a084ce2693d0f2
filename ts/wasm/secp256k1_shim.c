/*
 * The browser seat's public-data group operations: libsecp256k1 (the npm package secp256k1's copy of it,
 * node_modules/secp256k1/src/secp256k1, unmodified) compiled to WebAssembly with clang and wasm-ld by
 * scripts/build-wasm.mjs. Only what the verifier needs: a strict point decompression and one multi-scalar
 * multiplication (the library's ecmult_multi_var, Strauss or Pippenger). Variable time, so never given a secret:
 * src/crypto/group.ts keeps noble's constant-time multiplications for those.
 *
 * Everything goes through one static buffer (p2p_buffer): points are 64 bytes, x then y, big-endian (affine,
 * on the curve); scalars 32 bytes big-endian, below the group order. Nothing is allocated: the scratch space and
 * the generator's tables are static.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define USE_NUM_NONE 1
#define USE_FIELD_10X26 1
#define USE_SCALAR_8X32 1
#define USE_FIELD_INV_BUILTIN 1
#define USE_SCALAR_INV_BUILTIN 1
#define USE_ENDOMORPHISM 1
#define ECMULT_WINDOW_SIZE 10
#define ECMULT_GEN_PREC_BITS 4

#include "include/secp256k1.h"
#include "util.h"
#include "num_impl.h"
#include "field_impl.h"
#include "scalar_impl.h"
#include "group_impl.h"
#include "ecmult_impl.h"
#include "scratch_impl.h"

void *memcpy(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    unsigned char *d = dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++) {
        if (*x != *y) return *x < *y ? -1 : 1;
    }
    return 0;
}

/* The library calls this only for a misused scratch space: a bug here, never a peer's input. */
static void p2p_fatal(const char *text, void *data) {
    (void)text;
    (void)data;
    __builtin_trap();
}

static const secp256k1_callback fatal_callback = {p2p_fatal, NULL};

#define MAX_TERMS 1024
#define POINT_BYTES 64
#define SCALAR_BYTES 32

static unsigned char io[MAX_TERMS * (POINT_BYTES + SCALAR_BYTES) + SCALAR_BYTES];
static secp256k1_ge points[MAX_TERMS];
static secp256k1_scalar scalars[MAX_TERMS];

static unsigned char scratch_memory[2 << 20] __attribute__((aligned(16)));
static secp256k1_scratch scratch;

/* the two tables of odd multiples of G and of 2^128*G (SECP256K1_ECMULT_CONTEXT_PREALLOCATED_SIZE) */
static unsigned char ecmult_memory[2 * ROUND_TO_ALIGN(sizeof(secp256k1_ge_storage) * ECMULT_TABLE_SIZE(WINDOW_G))]
    __attribute__((aligned(16)));
static secp256k1_ecmult_context ecmult;

/* The shared buffer's address in the module's memory. */
__attribute__((export_name("p2p_buffer"))) uint32_t p2p_buffer(void) { return (uint32_t)(uintptr_t)io; }

/* How many terms one p2p_lincomb call takes at most. */
__attribute__((export_name("p2p_max_terms"))) uint32_t p2p_max_terms(void) { return MAX_TERMS; }

/* Build the generator's tables (once, before anything else). */
__attribute__((export_name("p2p_init"))) void p2p_init(void) {
    void *prealloc = ecmult_memory;
    memcpy(scratch.magic, "scratch", 8);
    scratch.data = scratch_memory;
    scratch.alloc_size = 0;
    scratch.max_size = sizeof(scratch_memory);
    secp256k1_ecmult_context_init(&ecmult);
    secp256k1_ecmult_context_build(&ecmult, &prealloc);
}

static void put_point(unsigned char *out, secp256k1_ge *p) {
    secp256k1_fe_normalize_var(&p->x);
    secp256k1_fe_normalize_var(&p->y);
    secp256k1_fe_get_b32(out, &p->x);
    secp256k1_fe_get_b32(out + 32, &p->y);
}

/* The 33-byte compressed point at io[0..33] as 64 bytes (x, y) at io[0..64]. 1; or 0, the buffer unchanged,
 * unless the prefix is 02 or 03, x is below the field prime and the point is on the curve (R-GRP-1). */
__attribute__((export_name("p2p_decompress"))) int p2p_decompress(void) {
    secp256k1_fe x;
    secp256k1_ge p;
    if (io[0] != 2 && io[0] != 3) return 0;
    if (!secp256k1_fe_set_b32(&x, io + 1)) return 0;
    if (!secp256k1_ge_set_xo_var(&p, &x, io[0] == 3)) return 0;
    put_point(io, &p);
    return 1;
}

static int term(secp256k1_scalar *sc, secp256k1_ge *pt, size_t idx, void *data) {
    (void)data;
    *sc = scalars[idx];
    *pt = points[idx];
    return 1;
}

/* sum k_i * P_i (+ g*G when with_g), the n points at io[0..64n], then the n scalars, then g. 1 and the sum at
 * io[0..64]; 0 for the identity; -1 for an input the caller must never give (a point off the curve, a scalar not
 * below the order, n out of range). */
__attribute__((export_name("p2p_lincomb"))) int p2p_lincomb(uint32_t n, int with_g) {
    secp256k1_scalar g;
    secp256k1_gej sum;
    secp256k1_ge result;
    secp256k1_fe x, y;
    const unsigned char *at = io + (size_t)n * POINT_BYTES;
    uint32_t i;
    int overflow;
    if (n > MAX_TERMS) return -1;
    for (i = 0; i < n; i++) {
        if (!secp256k1_fe_set_b32(&x, io + i * POINT_BYTES) || !secp256k1_fe_set_b32(&y, io + i * POINT_BYTES + 32)) {
            return -1;
        }
        secp256k1_ge_set_xy(&points[i], &x, &y);
        if (!secp256k1_ge_is_valid_var(&points[i])) return -1;
        secp256k1_scalar_set_b32(&scalars[i], at + i * SCALAR_BYTES, &overflow);
        if (overflow) return -1;
    }
    if (with_g) {
        secp256k1_scalar_set_b32(&g, at + (size_t)n * SCALAR_BYTES, &overflow);
        if (overflow) return -1;
    }
    if (!secp256k1_ecmult_multi_var(&fatal_callback, &ecmult, &scratch, &sum, with_g ? &g : NULL, term, NULL, n)) {
        return -1;
    }
    if (secp256k1_gej_is_infinity(&sum)) return 0;
    secp256k1_ge_set_gej_var(&result, &sum);
    put_point(io, &result);
    return 1;
}
