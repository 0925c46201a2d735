/**
 * Rows of the surface-rule table (rules.test.ts) for the rules of group "item": a change to a
 * field the MCP schema does not define (unmodelled-field-changed, minor, never patch; unknown
 * fields that do not change stay quiet), and a content hash that changed while the item did
 * not (content-hash-changed, only when both sides recorded hashes).
 */
import type { Contract } from "../../../src/contract/model.ts";
import { type Expected, prompt, resource, template, tool } from "./helpers.ts";

interface Row {
  title: string;
  old: Partial<Contract>;
  new: Partial<Contract>;
  expected: Expected[];
}

const M = "minor" as const;
const P = "patch" as const;
const HASH_A = `sha256:${"a".repeat(64)}`;
const HASH_B = `sha256:${"b".repeat(64)}`;
const UNMODELLED = "unmodelled-field-changed" as const;

export const ITEM_ROWS: Row[] = [
  {
    title: "tool fields no MCP revision defines change: minor, never patch; an unchanged one stays quiet",
    old: {
      tools: [
        tool("t", {
          outputVariants: [{ mimeType: "text/csv" }],
          "x-vendor": 1,
          "x-stable": "same",
          annotations: { readOnlyHint: true, fooHint: false },
        }),
      ],
    },
    new: {
      tools: [
        tool("t", {
          outputVariants: [{ mimeType: "application/json" }],
          secureInputSchema: { type: "object" },
          "x-stable": "same",
          annotations: { readOnlyHint: true, fooHint: true },
        }),
      ],
    },
    expected: [
      {
        rule: UNMODELLED,
        severity: M,
        path: "/annotations/fooHint",
        message: "annotations.fooHint changed from false to true",
      },
      {
        rule: UNMODELLED,
        severity: M,
        path: "/outputVariants",
        message: 'tool "t": outputVariants changed from [{"mimeType":"text/csv"}] to [{"mimeType":"application/json"}]',
      },
      {
        rule: UNMODELLED,
        severity: M,
        path: "/secureInputSchema",
        message: 'secureInputSchema added: {"type":"object"}',
      },
      { rule: UNMODELLED, severity: M, path: "/x-vendor", message: "x-vendor removed (was 1)" },
    ],
  },
  {
    title: "resource, template and prompt fields no MCP revision defines; _meta and icons stay metadata",
    old: {
      resources: [resource("r://a", { "x-acme": 1, annotations: { audience: ["user"], x: 1 } })],
      resourceTemplates: [template("r://{id}", "t", { outputVariants: [] })],
      prompts: [prompt("p", { arguments: [{ name: "city", secret: false }] })],
    },
    new: {
      resources: [resource("r://a", { "x-acme": 2, annotations: { audience: ["user"], x: 2 }, _meta: { k: 1 } })],
      resourceTemplates: [template("r://{id}", "t", { outputVariants: [{}] })],
      prompts: [prompt("p", { "x-new": true, arguments: [{ name: "city", secret: true, _meta: { k: 1 } }] })],
    },
    expected: [
      { rule: "resource-metadata-changed", severity: P, path: "/_meta", message: '_meta added: {"k":1}' },
      { rule: UNMODELLED, severity: M, path: "/annotations/x", message: 'resource "r://a": annotations.x changed' },
      { rule: UNMODELLED, severity: M, path: "/x-acme", message: "x-acme changed from 1 to 2" },
      { rule: UNMODELLED, severity: M, path: "/outputVariants", message: "outputVariants changed from [] to [{}]" },
      { rule: "prompt-metadata-changed", severity: P, path: "/arguments/0/_meta", message: "_meta added" },
      { rule: UNMODELLED, severity: M, path: "/arguments/0/secret", message: "secret changed from false to true" },
      { rule: UNMODELLED, severity: M, path: "/x-new", message: "x-new added: true" },
    ],
  },
  {
    title: "only the content hash changed (both sides recorded hashes): patch, said once",
    old: { tools: [tool("t"), tool("u")], hashes: { tools: { t: HASH_A, u: HASH_A } } },
    new: { tools: [tool("t"), tool("u")], hashes: { tools: { t: HASH_B, u: HASH_A } } },
    expected: [
      {
        rule: "content-hash-changed",
        severity: P,
        path: "",
        message: 'tool "t": content hash changed, but nothing in the item did',
      },
    ],
  },
  {
    title: "a hash that changed with its item, or against a lockfile without hashes, says nothing more",
    old: { tools: [tool("t", { title: "A" }), tool("u")], hashes: { tools: { t: HASH_A } } },
    new: { tools: [tool("t", { title: "B" }), tool("u")], hashes: { tools: { t: HASH_B, u: HASH_B } } },
    expected: [{ rule: "description-changed", severity: P, path: "/title", message: 'title changed from "A" to "B"' }],
  },
];
