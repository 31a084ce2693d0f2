/** Canonical msgpack wire encoding: message schema, strict decoding, size limits (SPEC.md section 6). */

export * from "./canonical";
export * from "./kinds";
export * from "./schema";
export * from "./tags";
