/**
 * Resource-template matching in the mock runs in linear time. A RegExp built from a template
 * (`{a}{b}…` → `([^/?#]*)([^/?#]*)…`) backtracks through every split of a URI that does not fit:
 * 16 expressions took 6 s on a 16-character URI and a minute on 20. Driven through
 * resources/read and fixtures, as a client and a fixtures file reach it.
 */
import { describe, expect, test } from "bun:test";
import type { Contract } from "../../../src/contract/model.ts";
import { UsageError } from "../../../src/errors.ts";
import { parseFixtures } from "../../../src/mock/fixtures.ts";
import { MockServer } from "../../../src/mock/server.ts";
import { mockContract } from "./contract.ts";

const SIXTEEN = `x://${Array.from({ length: 16 }, (_, i) => `{v${i}}`).join("")}`;

const contract: Contract = mockContract({
  capabilities: { resources: {} },
  resourceTemplates: [{ uriTemplate: SIXTEEN, name: "sixteen" }],
});

describe("a 16-expression template against a 5,000-character URI", () => {
  const server = new MockServer(contract, { seed: 1, pageSize: 10 });
  // Simple expansions never hold "/", so the trailing one makes every split fail.
  const miss = `x://${"a".repeat(5_000)}/`;
  const hit = `x://${"a".repeat(5_000)}`;

  test("a URI that does not fit is refused at once", () => {
    const started = performance.now();
    expect(server.handle("resources/read", { uri: miss }, {})).toMatchObject({ error: { code: -32002 } });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("a URI that fits is served at once", () => {
    const started = performance.now();
    expect(server.handle("resources/read", { uri: hit }, {})).toMatchObject({ result: { contents: [{ uri: hit }] } });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("a fixtures file keyed by such a URI is checked at once", () => {
    const started = performance.now();
    expect(() => parseFixtures(JSON.stringify({ resources: { [miss]: { text: "x" } } }), "f.json", contract)).toThrow(
      UsageError,
    );
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
