/** Sent in User-Agent; keep equal to package.json's version. */
export const VERSION = '0.1.0';
