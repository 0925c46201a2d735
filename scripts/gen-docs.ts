/** Kept for `bun scripts/gen-docs.ts` habits: every generated file is written by scripts/generate.ts (`npm run generate`). */
import "./generate.ts";
