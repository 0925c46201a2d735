/** The scope of the platform packages. */
export declare const SCOPE: string;
/** The platform package for this machine, e.g. "@mcp-contract/linux-x64-musl". */
export declare function platformPackage(): string;
/** The absolute path of this platform's mcp-contract binary; MCP_CONTRACT_BINARY overrides it. */
export declare function binaryPath(): string;
