/** Bounds on what an admin may configure, so a policy's cost per scanned character is bounded. */
export const MAX_CHECKS = 16;
export const MAX_PATTERNS = 32;
export const MAX_PATTERN_LENGTH = 256;
export const MAX_NAME_LENGTH = 40;
export const MAX_URL_LENGTH = 2048;
export const MAX_MODEL_LENGTH = 200;
export const MAX_CATEGORIES = 32;
export const MAX_CATEGORY_LENGTH = 64;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 2000;
export const MAX_WEBHOOK_TIMEOUT_MS = 30_000;
/** Stop collecting after this many problems: a hostile body should not produce a huge error. */
export const MAX_REPORTED_ISSUES = 10;
