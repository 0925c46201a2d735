/** capture.scopes in the lockfile: written sorted after the other capture facts, read back, checked, absent without OAuth. */
import { describe, expect, test } from "bun:test";
import { serializeContract } from "../../../src/contract/canonical.ts";
import { emptyContract } from "../../../src/contract/model.ts";
import { parseContract } from "../../../src/contract/read.ts";

describe("capture.scopes", () => {
  test("sorted as the set it is, and read back", () => {
    const contract = emptyContract();
    contract.capture.scopes = ["notes:write", "notes:read"];
    const text = serializeContract(contract);
    expect(JSON.parse(text).capture).toEqual({ clientCapabilities: [], scopes: ["notes:read", "notes:write"] });
    expect(parseContract(text, "mcp.contract.json").capture.scopes).toEqual(["notes:read", "notes:write"]);
  });

  test("absent without OAuth: the lockfile is as before", () => {
    expect(JSON.parse(serializeContract(emptyContract())).capture).toEqual({ clientCapabilities: [] });
  });

  test("a mistyped value is exit 2 with its JSON path", () => {
    const contract = JSON.parse(serializeContract(emptyContract()));
    contract.capture.scopes = ["ok", 7];
    expect(() => parseContract(JSON.stringify(contract), "x.json")).toThrow(/\$\.capture\.scopes\[1\]/);
    contract.capture.scopes = "notes:read";
    expect(() => parseContract(JSON.stringify(contract), "x.json")).toThrow(/\$\.capture\.scopes/);
  });
});
