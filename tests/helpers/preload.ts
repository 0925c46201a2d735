/**
 * Loaded before every test file (bunfig.toml): every lockfile a command reads is frozen, in
 * process and in the binaries the tests run (they inherit the environment), so code that
 * modifies a contract it read, whose objects another lockfile of the run may share, fails in
 * the tests instead of corrupting a verdict (src/cli/lockfile.ts).
 */
process.env.MCP_CONTRACT_FREEZE_READS = "1";
