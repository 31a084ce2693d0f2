/* <stdio.h> for libsecp256k1's util.h: only its test macros (never compiled in here) print. */
#ifndef P2PDURAK_WASM_STDIO_H
#define P2PDURAK_WASM_STDIO_H
#endif
