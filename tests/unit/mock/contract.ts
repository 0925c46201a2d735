/** A small contract for the mock's unit tests: a 2025-06-18 server with nothing but `parts`. */
import type { Contract } from "../../../src/contract/model.ts";

export function mockContract(parts: Partial<Contract>): Contract {
  return {
    lockfileVersion: 1,
    server: { name: "s", version: "1" },
    protocolVersion: "2025-06-18",
    capabilities: { tools: {} },
    capture: { clientCapabilities: [] },
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    ...parts,
  };
}
