import { z } from "zod";

/**
 * Zod 4 compiles object parsers with `new Function` when it may, and finds out by trying one:
 * under the pages' Content-Security-Policy (no 'unsafe-eval', lib/api/content-security-policy.ts)
 * that try is refused and reported as a `securitypolicyviolation` even though zod catches it.
 * In the browser it parses small forms: the interpreted parser is fast enough and never evals.
 * Imported first by app/providers.tsx, before any schema runs.
 */
z.config({ jitless: true });
