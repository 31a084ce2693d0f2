/* The three functions of <string.h> that libsecp256k1 calls; defined in secp256k1_shim.c. */
#ifndef P2PDURAK_WASM_STRING_H
#define P2PDURAK_WASM_STRING_H
#include <stddef.h>
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
#endif
