/**
 * Table rows for the surface rules of what MCP 2026-07-28 and its extensions added:
 * `x-mcp-header` on input properties, MCP Apps metadata on tools, server extensions, and task
 * support in its two encodings. Each rule in both directions. Run by rules.test.ts, with the
 * same shape as its own rows.
 */
import type { Contract, Json, JsonObject } from "../../../src/contract/model.ts";
import { type Expected, tool } from "./helpers.ts";

interface Row {
  title: string;
  old: Partial<Contract>;
  new: Partial<Contract>;
  expected: Expected[];
}

const B = "breaking" as const;
const M = "minor" as const;
const P = "patch" as const;

const HEADER = "/inputSchema/properties/region/x-mcp-header";
const input = (properties: JsonObject) => ({ tools: [tool("t", { inputSchema: { type: "object", properties } })] });
const region = (extra: JsonObject = {}) => ({ region: { type: "string", ...extra } });
const withMeta = (meta: JsonObject | undefined) => ({ tools: [tool("t", meta === undefined ? {} : { _meta: meta })] });
const ui = (fields: JsonObject) => withMeta({ ui: fields });
const VIEW = "ui://weather/forecast";
const servers = (capabilities: JsonObject, extra: Partial<Contract> = {}) => ({ capabilities, ...extra });
const APPS = "io.modelcontextprotocol/ui";
const APPS_PATH = "/capabilities/extensions/io.modelcontextprotocol~1ui";
const LEGACY_TASKS = { tasks: { cancel: {}, list: {}, requests: { tools: { call: {} } } }, tools: {} };
const MODERN_TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} }, tools: {} };
const legacyTasks = (taskSupport: string) =>
  servers(LEGACY_TASKS, { protocolVersion: "2025-11-25", tools: [tool("t", { execution: { taskSupport } })] });
const modernTasks = (capabilities: JsonObject = MODERN_TASKS) =>
  servers(capabilities, { protocolVersion: "2026-07-28", tools: [tool("t")] });

const output = (outputSchema: Json) => ({ protocolVersion: "2026-07-28", tools: [tool("t", { outputSchema })] });
/** The same tool as a dual-era server gives it to 2025 clients: the outputSchema wrapped (SEP-2106). */
const legacyWrapped = (result: Json) => ({
  protocolVersion: "2025-11-25",
  tools: [tool("t", { outputSchema: { type: "object", properties: { result }, required: ["result"] } })],
});
const DAYS = {
  type: "array",
  items: { $ref: "#/$defs/day" },
  $defs: { day: { type: "object", properties: { summary: { enum: ["sunny", "rain"] } } } },
};
const DAYS_WRAPPED = { ...DAYS, items: { $ref: "#/properties/result/$defs/day" } };

export const SURFACE_2026_ROWS: Row[] = [
  // ── outputSchema roots of any type: covariant, as object roots are ──
  {
    title: "an array outputSchema whose items gain null: consumers may now receive null items",
    old: output({ type: "array", items: { type: "string" } }),
    new: output({ type: "array", items: { type: ["string", "null"] } }),
    expected: [
      {
        rule: "null-added",
        severity: B,
        direction: "output",
        path: "/outputSchema/items",
        message: 'tool "t": now allows null at outputSchema.items',
      },
    ],
  },
  {
    title: "an array outputSchema whose items lose null",
    old: output({ type: "array", items: { type: ["string", "null"] } }),
    new: output({ type: "array", items: { type: "string" } }),
    expected: [
      {
        rule: "null-removed",
        severity: M,
        direction: "output",
        path: "/outputSchema/items",
        message: "no longer allows null at outputSchema.items",
      },
    ],
  },
  {
    title: "a string outputSchema gains an enum value",
    old: output({ type: "string", enum: ["sunny", "rain"] }),
    new: output({ type: "string", enum: ["sunny", "rain", "snow"] }),
    expected: [
      {
        rule: "enum-value-added",
        severity: B,
        direction: "output",
        path: "/outputSchema/enum",
        message: 'value "snow" now allowed at outputSchema',
      },
    ],
  },
  {
    title: "a string outputSchema loses an enum value",
    old: output({ type: "string", enum: ["sunny", "rain", "snow"] }),
    new: output({ type: "string", enum: ["sunny", "rain"] }),
    expected: [
      {
        rule: "enum-value-removed",
        severity: M,
        direction: "output",
        path: "/outputSchema/enum",
        message: 'value "snow" no longer allowed at outputSchema',
      },
    ],
  },
  {
    title: "2025-11-25 capture (outputSchema wrapped as {result}) → 2026-07-28 capture of the same tool: no change",
    old: legacyWrapped(DAYS_WRAPPED),
    new: output(DAYS),
    expected: [],
  },
  {
    title: "2026-07-28 → 2025-11-25 capture of the same tool: no change",
    old: output(DAYS),
    new: legacyWrapped(DAYS_WRAPPED),
    expected: [],
  },
  {
    title: "across eras, a real change inside the wrapped schema is reported where the 2026 schema has it",
    old: legacyWrapped(DAYS_WRAPPED),
    new: output({
      ...DAYS,
      $defs: { day: { type: "object", properties: { summary: { enum: ["sunny", "rain", "snow"] } } } },
    }),
    expected: [
      {
        rule: "enum-value-added",
        severity: B,
        direction: "output",
        path: "/outputSchema/items/$ref/properties/summary/enum",
        message: 'value "snow" now allowed',
      },
    ],
  },
  {
    title: "within one era, an object outputSchema with one result property is compared as it is",
    old: {
      tools: [
        tool("t", {
          outputSchema: { type: "object", properties: { result: { type: "string" } }, required: ["result"] },
        }),
      ],
    },
    new: { tools: [tool("t", { outputSchema: { type: "string" } })] },
    expected: [
      { rule: "type-narrowed", severity: M, direction: "output", path: "/outputSchema/type", message: "" },
      { rule: "type-widened", severity: B, direction: "output", path: "/outputSchema/type", message: "" },
    ],
  },

  // ── x-mcp-header ──
  {
    title: "x-mcp-header added to a property",
    old: input(region()),
    new: input(region({ "x-mcp-header": "Region" })),
    expected: [
      {
        rule: "mcp-header-added",
        severity: M,
        path: HEADER,
        message: 'tool "t": argument now mirrored into header Mcp-Param-Region at inputSchema.properties.region',
      },
    ],
  },
  {
    title: "x-mcp-header removed from a property",
    old: input(region({ "x-mcp-header": "Region" })),
    new: input(region()),
    expected: [
      {
        rule: "mcp-header-removed",
        severity: B,
        path: HEADER,
        message:
          'tool "t": header Mcp-Param-Region no longer sent (x-mcp-header removed) at inputSchema.properties.region',
      },
    ],
  },
  {
    title: "the property that declares the header removed: the header goes with it",
    old: input({ ...region({ "x-mcp-header": "Region" }), query: { type: "string" } }),
    new: input({ query: { type: "string" } }),
    expected: [
      {
        rule: "property-removed",
        severity: M,
        direction: "input",
        path: "/inputSchema/properties/region",
        message: "property",
      },
      { rule: "mcp-header-removed", severity: B, path: HEADER, message: "header Mcp-Param-Region no longer sent" },
    ],
  },
  {
    title: "the header renamed",
    old: input(region({ "x-mcp-header": "Region" })),
    new: input(region({ "x-mcp-header": "Zone" })),
    expected: [
      {
        rule: "mcp-header-changed",
        severity: B,
        path: HEADER,
        message:
          "argument mirrored into header Mcp-Param-Zone instead of Mcp-Param-Region at inputSchema.properties.region",
      },
    ],
  },
  {
    title: "the header renamed back",
    old: input(region({ "x-mcp-header": "Zone" })),
    new: input(region({ "x-mcp-header": "Region" })),
    expected: [
      {
        rule: "mcp-header-changed",
        severity: B,
        path: HEADER,
        message: "header Mcp-Param-Region instead of Mcp-Param-Zone",
      },
    ],
  },
  {
    title: "a respelling in another case is no header change (HTTP header names ignore case)",
    old: input(region({ "x-mcp-header": "Region" })),
    new: input(region({ "x-mcp-header": "REGION" })),
    expected: [
      { rule: "annotation-keyword-changed", severity: P, direction: "input", path: HEADER, message: "x-mcp-header" },
    ],
  },
  {
    title: "the property renamed with its header kept: intermediaries see the same header",
    old: input(region({ "x-mcp-header": "Region" })),
    new: input({ zone: { type: "string", "x-mcp-header": "Region" } }),
    expected: [
      {
        rule: "property-removed",
        severity: M,
        direction: "input",
        path: "/inputSchema/properties/region",
        message: "property",
      },
      { rule: "property-added", severity: M, direction: "input", path: "/inputSchema/properties/zone", message: "" },
    ],
  },
  {
    title: "a header value that is no HTTP header name: clients on Streamable HTTP drop the tool",
    old: input(region({ "x-mcp-header": "Tenant-Id" })),
    new: input(region({ "x-mcp-header": "Tenant Id" })),
    expected: [
      {
        rule: "mcp-header-now-invalid",
        severity: B,
        path: HEADER,
        message:
          'tool "t": x-mcp-header at inputSchema.properties.region is invalid, so clients on Streamable HTTP now drop the tool: its value is not an HTTP header name: it contains U+0020',
      },
    ],
  },
  {
    title: "the header value fixed: the tool is listed again",
    old: input(region({ "x-mcp-header": "Tenant Id" })),
    new: input(region({ "x-mcp-header": "Tenant-Id" })),
    expected: [
      {
        rule: "mcp-header-no-longer-invalid",
        severity: M,
        path: HEADER,
        message: "x-mcp-header declarations are valid again, so clients on Streamable HTTP list the tool again",
      },
    ],
  },
  {
    title: "a header on a property whose type became number",
    old: input({ limit: { type: "integer", "x-mcp-header": "Limit" } }),
    new: input({ limit: { type: "number", "x-mcp-header": "Limit" } }),
    expected: [
      {
        rule: "type-widened",
        severity: M,
        direction: "input",
        path: "/inputSchema/properties/limit/type",
        message: "",
      },
      {
        rule: "mcp-header-now-invalid",
        severity: B,
        path: "/inputSchema/properties/limit/x-mcp-header",
        message: "only string, integer and boolean properties can be mirrored into a header (number is excluded)",
      },
    ],
  },

  // ── MCP Apps metadata ──
  {
    title: 'visibility ["app"]: the tool is hidden from the model',
    old: ui({ resourceUri: VIEW }),
    new: ui({ resourceUri: VIEW, visibility: ["app"] }),
    expected: [
      {
        rule: "tool-no-longer-visible-to-model",
        severity: B,
        path: "/_meta/ui/visibility",
        message: 'tool "t": no longer visible to the model (_meta.ui.visibility absent → ["app"])',
      },
    ],
  },
  {
    title: "visibility dropped: the tool is visible to the model again",
    old: ui({ resourceUri: VIEW, visibility: ["app"] }),
    new: ui({ resourceUri: VIEW }),
    expected: [
      {
        rule: "tool-now-visible-to-model",
        severity: M,
        path: "/_meta/ui/visibility",
        message: 'now visible to the model (_meta.ui.visibility ["app"] → absent)',
      },
    ],
  },
  {
    title: 'visibility ["model"]: app views can no longer call the tool',
    old: ui({ visibility: ["model", "app"] }),
    new: ui({ visibility: ["model"] }),
    expected: [
      {
        rule: "tool-no-longer-visible-to-app",
        severity: B,
        path: "/_meta/ui/visibility",
        message: "no longer visible to app views",
      },
    ],
  },
  {
    title: '"app" added to the visibility',
    old: ui({ visibility: ["model"] }),
    new: ui({ visibility: ["model", "app"] }),
    expected: [
      {
        rule: "tool-now-visible-to-app",
        severity: M,
        path: "/_meta/ui/visibility",
        message: "now visible to app views",
      },
    ],
  },
  {
    title: "the default visibility spelled out is metadata only",
    old: ui({ resourceUri: VIEW }),
    new: ui({ resourceUri: VIEW, visibility: ["app", "model"] }),
    expected: [{ rule: "tool-metadata-changed", severity: P, path: "/_meta", message: "_meta changed from" }],
  },
  {
    title: "a view added",
    old: withMeta(undefined),
    new: ui({ resourceUri: VIEW }),
    expected: [
      {
        rule: "tool-ui-added",
        severity: M,
        path: "/_meta/ui/resourceUri",
        message: 'tool "t": now shows its results in the MCP Apps view "ui://weather/forecast"',
      },
    ],
  },
  {
    title: "the view removed",
    old: ui({ resourceUri: VIEW }),
    new: withMeta(undefined),
    expected: [
      {
        rule: "tool-ui-removed",
        severity: B,
        path: "/_meta/ui/resourceUri",
        message: 'no longer shows its results in an MCP Apps view (was "ui://weather/forecast")',
      },
    ],
  },
  {
    title: "the view changed",
    old: ui({ resourceUri: VIEW }),
    new: ui({ resourceUri: `${VIEW}-v2` }),
    expected: [
      {
        rule: "tool-ui-resource-changed",
        severity: M,
        path: "/_meta/ui/resourceUri",
        message: 'MCP Apps view changed from "ui://weather/forecast" to "ui://weather/forecast-v2"',
      },
    ],
  },
  {
    title: "the view changed back",
    old: ui({ resourceUri: `${VIEW}-v2` }),
    new: ui({ resourceUri: VIEW }),
    expected: [
      {
        rule: "tool-ui-resource-changed",
        severity: M,
        path: "/_meta/ui/resourceUri",
        message: 'from "ui://weather/forecast-v2" to "ui://weather/forecast"',
      },
    ],
  },
  {
    title: "the deprecated flat ui/resourceUri rewritten as _meta.ui.resourceUri: metadata only",
    old: withMeta({ "ui/resourceUri": VIEW }),
    new: ui({ resourceUri: VIEW }),
    expected: [{ rule: "tool-metadata-changed", severity: P, path: "/_meta", message: "_meta changed from" }],
  },
  {
    title: "the flat ui/resourceUri removed beside another _meta edit: two changes",
    old: withMeta({ "com.example/owner": "a", "ui/resourceUri": VIEW }),
    new: withMeta({ "com.example/owner": "b" }),
    expected: [
      { rule: "tool-metadata-changed", severity: P, path: "/_meta", message: "_meta changed from" },
      { rule: "tool-ui-removed", severity: B, path: "/_meta/ui~1resourceUri", message: "no longer shows its results" },
    ],
  },

  // ── server extensions ──
  {
    title: "an extension added",
    old: servers({ tools: {} }),
    new: servers({ tools: {}, extensions: { [APPS]: {} } }),
    expected: [
      {
        rule: "extension-added",
        severity: M,
        path: APPS_PATH,
        message: 'server: extension "io.modelcontextprotocol/ui" added',
      },
    ],
  },
  {
    title: "an extension removed",
    old: servers({ tools: {}, extensions: { [APPS]: {}, "com.example/x": {} } }),
    new: servers({ tools: {}, extensions: { "com.example/x": {} } }),
    expected: [
      {
        rule: "extension-removed",
        severity: B,
        path: APPS_PATH,
        message: 'server: extension "io.modelcontextprotocol/ui" removed',
      },
    ],
  },
  {
    title: "a value added to a list setting, and a new setting",
    old: servers({ extensions: { [APPS]: { mimeTypes: ["text/html;profile=mcp-app"] } } }),
    new: servers({ extensions: { [APPS]: { mimeTypes: ["text/html;profile=mcp-app", "text/x-b"], prefetch: true } } }),
    expected: [
      {
        rule: "extension-setting-added",
        severity: M,
        path: `${APPS_PATH}/mimeTypes`,
        message: 'server: extension "io.modelcontextprotocol/ui": setting "mimeTypes": "text/x-b" added',
      },
      {
        rule: "extension-setting-added",
        severity: M,
        path: `${APPS_PATH}/prefetch`,
        message: 'extension "io.modelcontextprotocol/ui": setting "prefetch" added: true',
      },
    ],
  },
  {
    title: "a value removed from a list setting, and a setting turned off",
    old: servers({ extensions: { [APPS]: { mimeTypes: ["text/html;profile=mcp-app", "text/x-b"], prefetch: true } } }),
    new: servers({ extensions: { [APPS]: { mimeTypes: ["text/html;profile=mcp-app"], prefetch: false } } }),
    expected: [
      {
        rule: "extension-setting-removed",
        severity: B,
        path: `${APPS_PATH}/mimeTypes`,
        message: 'setting "mimeTypes": "text/x-b" removed',
      },
      {
        rule: "extension-setting-removed",
        severity: B,
        path: `${APPS_PATH}/prefetch`,
        message: 'setting "prefetch" removed (was true)',
      },
    ],
  },
  {
    title: "a nested setting changed value",
    old: servers({ extensions: { "com.example/stream": { transport: { protocol: "v1" } } } }),
    new: servers({ extensions: { "com.example/stream": { transport: { protocol: "v2" } } } }),
    expected: [
      {
        rule: "extension-setting-changed",
        severity: B,
        path: "/capabilities/extensions/com.example~1stream/transport/protocol",
        message: 'extension "com.example/stream": setting "transport.protocol" changed from "v1" to "v2"',
      },
    ],
  },
  {
    title: "a nested setting changed back",
    old: servers({ extensions: { "com.example/stream": { transport: { protocol: "v2" } } } }),
    new: servers({ extensions: { "com.example/stream": { transport: { protocol: "v1" } } } }),
    expected: [
      {
        rule: "extension-setting-changed",
        severity: B,
        path: "/capabilities/extensions/com.example~1stream/transport/protocol",
        message: 'changed from "v2" to "v1"',
      },
    ],
  },
  {
    title: "a list setting in another order changes nothing: an equivalent rewrite",
    old: servers({ extensions: { [APPS]: { mimeTypes: ["a", "b"] } } }),
    new: servers({ extensions: { [APPS]: { mimeTypes: ["b", "a"] } } }),
    expected: [{ rule: "equivalent-rewrite", severity: P, path: "", message: 'mimeTypes ["a","b"] → ["b","a"]' }],
  },

  // ── task support: one fact in two encodings ──
  {
    title: "tasks moved from the 2025-11-25 capability and execution.taskSupport to the 2026 extension: no change",
    old: legacyTasks("optional"),
    new: modernTasks(),
    expected: [],
  },
  {
    title: "tasks moved from the 2026 extension to the 2025-11-25 encoding: no change",
    old: modernTasks(),
    new: legacyTasks("required"),
    expected: [],
  },
  {
    title: "tasks dropped while moving to 2026: the capability and the tool's task support",
    old: legacyTasks("optional"),
    new: modernTasks({ tools: {} }),
    expected: [
      { rule: "tool-task-support-changed", severity: B, path: "/execution/taskSupport", message: "execution" },
      { rule: "capability-removed", severity: B, path: "/capabilities/tasks", message: 'capability "tasks" removed' },
    ],
  },
  {
    title: "tasks taken up while moving back to 2025-11-25",
    old: modernTasks({ tools: {} }),
    new: legacyTasks("optional"),
    expected: [
      { rule: "tool-task-support-relaxed", severity: M, path: "/execution/taskSupport", message: "execution" },
      { rule: "capability-added", severity: M, path: "/capabilities/tasks", message: 'capability "tasks" added' },
    ],
  },
  {
    title: "the tasks extension removed within 2026",
    old: modernTasks(),
    new: modernTasks({ tools: {} }),
    expected: [
      {
        rule: "extension-removed",
        severity: B,
        path: "/capabilities/extensions/io.modelcontextprotocol~1tasks",
        message: 'extension "io.modelcontextprotocol/tasks" removed',
      },
    ],
  },
];
