/**
 * The diff rules of group "server": capabilities (in the spec's vocabulary), the protocol
 * version (which has a direction), the versions a modern server supports, instructions,
 * serverInfo and extensions.
 * src/rules/diff/index.ts puts them after the prompt rules in the catalog. Pure data.
 */
import type { DiffRuleRow } from "../model.ts";

export const SERVER_RULE_ROWS = [
  {
    id: "capability-removed",
    group: "server",
    input: "breaking",
    output: "breaking",
    summary: "a server capability or a sub-capability clients call was removed",
    rationale:
      "Clients that use it (listing tools, prompts or resources, logging, completions, tasks, an experimental feature) lose it. Sub-flags that only announce notifications are judged by capability-notifications-removed, and keys that are not server capabilities by non-server-capability-changed.",
    example: '"completions": {} → (absent)',
  },
  {
    id: "capability-notifications-removed",
    group: "server",
    input: "minor",
    output: "minor",
    summary: "a capability sub-flag that only announces notifications went false or absent",
    rationale:
      "`tools.listChanged`, `prompts.listChanged`, `resources.listChanged` and `resources.subscribe` promise notifications (list changed, resource updated); without them a client re-lists or re-reads when it needs to, and every request it sends stays valid. So the change is minor at most, with a note naming what the client no longer receives. Adding one is capability-added.",
    example: '"tools": {"listChanged": true} → "tools": {}',
  },
  {
    id: "non-server-capability-changed",
    group: "server",
    input: "patch",
    output: "patch",
    summary:
      "a key that is not a server capability in the spec (e.g. elicitation, sampling, roots) changed in the server's capabilities",
    rationale:
      "`elicitation`, `sampling` and `roots` are capabilities a client declares; a server that sends them under its own capabilities promises nothing clients can use, so adding, removing or changing them is patch. Server capabilities in the spec (2025-11-25, 2026-07-28): `tools`, `prompts`, `resources`, `completions`, `logging`, `tasks`, `experimental`, `extensions`.",
    example: '"elicitation": {} → (absent)',
  },
  {
    id: "capability-added",
    group: "server",
    input: "minor",
    output: "minor",
    summary: "a server capability or sub-capability was added",
    rationale: "Nothing that worked before stops working.",
    example: '(absent) → "logging": {}',
  },
  {
    id: "protocol-version-changed",
    group: "server",
    input: "minor",
    output: "minor",
    summary: "the protocol version moved to a newer revision within an era",
    rationale:
      "Clients negotiate the version; a newer revision adds features and keeps clients of the older one working (they negotiate down). A move to an older revision is protocol-version-downgraded. A move between eras (2025-11-25 ↔ 2026-07-28) is not reported: it says how the surface was captured (initialize or server/discover), and one surface model describes both. Which versions a modern server lists in supportedVersions is compared by protocol-version-support-dropped and protocol-version-support-added.",
    example: '"2025-06-18" → "2025-11-25"',
  },
  {
    id: "protocol-version-downgraded",
    group: "server",
    input: "breaking",
    output: "breaking",
    summary: "the protocol version moved to an older revision within an era",
    rationale:
      "Features of the newer revision that clients use (structured tool output, elicitation, resource links, tasks, icons, …) are not part of the older one; the note names what the older revision lacks.",
    example: '"2025-11-25" → "2025-06-18"',
  },
  {
    id: "protocol-version-support-dropped",
    group: "server",
    input: "breaking",
    output: "breaking",
    summary: "a protocol version the server listed in supportedVersions (server/discover) is no longer listed",
    rationale:
      "A client that speaks only that version can no longer connect: no version is left that both sides speak. One change per version dropped. Compared only when both lockfiles have `capture.supportedVersions` (modern captures): a legacy capture negotiated one version in initialize, and an older lockfile recorded no list, so which versions such a server speaks is unknown and nothing is said. The list is a set of versions in the server's order of preference; a new order alone is not reported.",
    example: '"supportedVersions": ["2026-07-28", "2025-11-25"] → ["2026-07-28"]',
  },
  {
    id: "protocol-version-support-added",
    group: "server",
    input: "minor",
    output: "minor",
    summary: "the server lists a protocol version in supportedVersions (server/discover) that it did not list before",
    rationale:
      "Clients that speak the new version can connect with it, and every version listed before still works. Compared only when both lockfiles have `capture.supportedVersions` (modern captures): a legacy capture or an older lockfile has no list, so which versions that server speaks is unknown and nothing is said. A new order alone is not reported.",
    example: '"supportedVersions": ["2026-07-28"] → ["2026-07-28", "2027-01-01"]',
  },
  {
    id: "legacy-era-dropped",
    group: "server",
    input: "breaking",
    output: "breaking",
    summary:
      "the server now refuses legacy clients: a legacy initialize it accepted in the old capture was refused in the new one",
    rationale:
      "A client that speaks only the initialize handshake (protocol 2025-11-25 and earlier, as every client on a 2025-era SDK such as the TypeScript SDK 1.x does) can no longer connect, though nothing in server/discover says so: its supportedVersions need not have listed a legacy version before either. `capture.legacy` is written only by a modern capture over Streamable HTTP in --era auto that got a clear answer; absent means unknown (over stdio the era of a pipe is fixed by its first request, so a capture cannot ask there; --era modern and legacy captures do not ask; older lockfiles never asked). A side that was not asked is never compared, so comparing a stdio capture with an HTTP one, or a lockfile written before the question existed with a new capture, reports nothing.",
    example: '"capture": {"legacy": "accepted"} → {"legacy": "refused"}',
  },
  {
    id: "legacy-era-added",
    group: "server",
    input: "minor",
    output: "minor",
    summary:
      "the server now accepts legacy clients: a legacy initialize it refused in the old capture was accepted in the new one",
    rationale:
      "Clients that speak only the initialize handshake can connect again, and modern clients are unaffected. Compared only when both lockfiles record `capture.legacy` (modern captures over Streamable HTTP in --era auto): a side that was not asked (stdio, --era modern, a legacy capture, an older lockfile) is never compared.",
    example: '"capture": {"legacy": "refused"} → {"legacy": "accepted"}',
  },
  {
    id: "instructions-changed",
    traits: ["text"],
    group: "server",
    input: "patch",
    output: "patch",
    summary: "the server's instructions changed",
    rationale: "Documentation for the model; review rewritten text.",
    example: '"instructions": "…" → "…"',
  },
  {
    id: "server-info-changed",
    group: "server",
    input: "patch",
    output: "patch",
    summary: "serverInfo (name, version, title, …) changed",
    rationale: "Informational; `--enforce-semver` compares the version with the changes.",
    example: '"version": "1.2.0" → "1.3.0"',
  },
  {
    id: "extension-removed",
    group: "server",
    input: "breaking",
    output: "breaking",
    summary: "a server extension (capabilities.extensions) was removed",
    rationale:
      "Clients that negotiated the extension lose what it adds: its methods, result types and metadata (task handles, MCP Apps views, …). The tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28) and the `tasks` capability with `execution.taskSupport` of 2025-11-25 are one fact: a server that moves from one encoding to the other and still supports tasks for tools/call is not reported.",
    example: '"extensions": {"io.modelcontextprotocol/ui": {}} → (absent)',
  },
  {
    id: "extension-added",
    group: "server",
    input: "minor",
    output: "minor",
    summary: "a server extension (capabilities.extensions) was added",
    rationale: "Clients that do not know the extension ignore it; nothing that worked before stops working.",
    example: '(absent) → "extensions": {"io.modelcontextprotocol/tasks": {}}',
  },
  {
    id: "extension-setting-added",
    group: "server",
    input: "minor",
    output: "minor",
    summary: "an extension setting, or a value of a list setting, was added",
    rationale:
      "The server advertises more of the extension; clients that do not know the setting ignore it. Settings are compared like sub-capabilities: false or null counts as absent, a bare `true` is an extension with no settings, and lists are compared as sets (a new order is no change).",
    example: '"mimeTypes": ["text/html;profile=mcp-app"] → ["text/html;profile=mcp-app", "text/uri-list"]',
  },
  {
    id: "extension-setting-removed",
    group: "server",
    input: "breaking",
    output: "breaking",
    summary: "an extension setting, or a value of a list setting, was removed",
    rationale: "Clients that relied on what the setting advertised (a mode, a content type, a feature flag) lose it.",
    example: '"io.example/streaming": {"resume": true} → {}',
  },
  {
    id: "extension-setting-changed",
    group: "server",
    input: "breaking",
    output: "breaking",
    summary: "an extension setting changed value",
    rationale:
      "What a setting means is defined by its extension, so whether the new value still serves the clients of the old one cannot be told statically: judged breaking so that a person reviews it (a policy override can lower it for a setting known to be harmless).",
    example: '"io.example/streaming": {"protocol": "v1"} → {"protocol": "v2"}',
  },
] as const satisfies readonly DiffRuleRow[];
