package redact

// MinLen is minLen, for the external tests.
const MinLen = minLen
