import pkg from "../package.json" with { type: "json" };

/** The mcp-contract version, from package.json, baked into the binary at build time. */
export const VERSION: string = pkg.version;
