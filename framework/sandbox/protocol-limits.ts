/**
 * The protocol's limits (protocol.ts), apart from its schemas: the sandbox's runtime needs these
 * numbers but none of zod, which the schemas would bring into every sandboxed process.
 */

/** A child's answer may not exceed this (a large trace is a few MB); past it the child is killed. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The child refuses to send a longer trace (it would approach MAX_MESSAGE_BYTES). */
export const MAX_TRACE_EVENTS = 250_000;
/** Longer error texts from the child are cut to this many characters. */
export const MAX_TEXT_CHARS = 4000;
