/**
 * Lint fingerprints are users' baselines and ignore entries: they must not move between
 * releases. Pinned here to fixed values and to the key they hash, on the fast path (every key
 * distinct, hashed from a shared per-rule prefix) and on the path that tells equal keys apart.
 */
import { describe, expect, test } from "bun:test";
import { fnv1a64 } from "../../../src/diff/fingerprint.ts";
import type { Finding } from "../../../src/lint/model.ts";
import { fingerprintFindings } from "../../../src/report/model.ts";

const finding = (rule: string, name: string, path: string, evidence?: string): Finding =>
  ({
    rule,
    level: "error",
    target: { kind: "tool", name },
    path,
    message: `tool "${name}": something`,
    ...(evidence !== undefined && { evidence }),
  }) as Finding;

describe("lint fingerprints", () => {
  test("are the hash of lint|rule|kind|name|path, as in every release before", () => {
    const findings = [
      finding("tool-name-invalid", "get.weather", "/name"),
      finding("openai-strict-object-open", "get.weather", "/inputSchema"),
      finding("openai-strict-object-open", "日本", "/inputSchema/properties/a"),
    ];
    const prints = fingerprintFindings(findings).map((f) => f.fingerprint);
    expect(prints).toEqual(findings.map((f) => fnv1a64(`lint|${f.rule}|tool|${f.target.name}|${f.path}`)));
    expect(prints[0]).toBe(fnv1a64("lint|tool-name-invalid|tool|get.weather|/name"));
    expect(prints[0]).toBe("68a19f1d592ee21e");
  });

  test("findings that share a key are told apart by evidence, then by order", () => {
    const findings = [
      finding("external-link", "t", "/description", "https://a.example"),
      finding("external-link", "t", "/description", "https://b.example"),
      finding("external-link", "t", "/description", "https://b.example"),
      finding("external-link", "u", "/description", "https://a.example"),
    ];
    const prints = fingerprintFindings(findings).map((f) => f.fingerprint);
    const key = "lint|external-link|tool|t|/description";
    expect(prints).toEqual([
      fnv1a64(`${key}|"https://a.example"`),
      fnv1a64(`${key}|"https://b.example"|#0`),
      fnv1a64(`${key}|"https://b.example"|#1`),
      fnv1a64("lint|external-link|tool|u|/description"),
    ]);
  });
});
