/* The little of <stdlib.h> that libsecp256k1's headers name. Nothing here is called: the shim allocates nothing
 * (its scratch space and tables are static), and the compiler drops the library's unused malloc paths. */
#ifndef P2PDURAK_WASM_STDLIB_H
#define P2PDURAK_WASM_STDLIB_H
#include <stddef.h>
void *malloc(size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
_Noreturn void abort(void);
#endif
