/**
 * The drift lens: security findings that a change brings in. A rewritten description is how a
 * tool that was reviewed and approved turns hostile, so every finding of the security lint
 * (src/lint/rules-security.ts) present after the change and not before it becomes a
 * `security-finding-introduced` change, with the old and new text and a word diff of them.
 *
 * Only texts that are new or changed are linted, so a diff of two big lockfiles stays fast:
 * each added item whole, and of each changed item just the texts that differ, cut out into a
 * small sub-contract (the item pruned to those paths). The security rules judge a text by its
 * own content, where it sits, and the server's tool names (tool-shadowing and
 * hidden-instructions look for them); the sub-contract carries every tool name that occurs in
 * its texts, in the server's order, so its findings are exactly the full lint's findings on
 * those texts. A finding is new when no finding of the same lint rule, path and evidence was
 * there before. An unchanged text is never re-linted, even when a tool it mentions came or
 * went (which can change a tool-shadowing finding on it): the text did not drift, and `lint`
 * still reports such findings.
 *
 * Links are judged by where they point: a link into a registrable domain the surface already
 * linked (the Public Suffix List: `www.notion.com` beside `developers.notion.com`) or to a host
 * the policy file allows is not drift; a new foreign domain, IP address, data: URI or shortened
 * link is. Pure; no I/O.
 */

import { stableStringify } from "../contract/canonical.ts";
import {
  type Contract,
  emptyContract,
  isJsonObject,
  type Json,
  type JsonObject,
  type Tool,
} from "../contract/model.ts";
import { pointer, pointerToDotted } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import { type ChangeSpec, firstById, jsonEqual, type TouchedItem } from "../diff/change.ts";
import { type DiffRuleId, LINT_RULES, type LintRuleId } from "../rules/registry.ts";
import { domainOf, findLinks, hostOf, linkKnown } from "./intent/links.ts";
import { vendorLinks } from "./intent/vendor.ts";
import { DEFAULT_LINT_OPTIONS, type Finding } from "./model.ts";
import { SECURITY_CHECKS, type SecurityOptions, surfaceTexts } from "./rules-security.ts";
import { textDiff } from "./text-diff.ts";

/** The diff rule the lens reports an error-level finding under: it fails the run. */
export const DRIFT_RULE: DiffRuleId = "security-finding-introduced";
/** The diff rule for a warning-level finding, or a link to a new foreign domain: minor, for review. */
export const DRIFT_WARNING_RULE: DiffRuleId = "security-warning-introduced";

/**
 * The drift rule a finding brought in is reported under: an attack (error) fails the run; a
 * warning, or a link that leads somewhere new and foreign (whatever its lint level), is for
 * review; an info-level finding (a word a careful reviewer would not dispute) is no drift.
 */
function driftRuleOf(finding: Finding): DiffRuleId | undefined {
  if (finding.level === "error") return DRIFT_RULE;
  if (finding.level === "warning" || URL_RULES.has(finding.rule)) return DRIFT_WARNING_RULE;
  return undefined;
}

type ItemKind = TouchedItem["kind"];

const ID_FIELD: Record<ItemKind, string> = {
  tool: "name",
  prompt: "name",
  resource: "uri",
  resourceTemplate: "uriTemplate",
  skill: "uri",
};

const LIST: Record<ItemKind, "tools" | "prompts" | "resources" | "resourceTemplates" | "skills"> = {
  tool: "tools",
  prompt: "prompts",
  resource: "resources",
  resourceTemplate: "resourceTemplates",
  skill: "skills",
};

/** What the lens reads beyond the two surfaces: the policy file's allowHosts. */
export interface DriftOptions {
  /** Hosts (with their subdomains) and IP addresses whose links are never drift. */
  allowHosts?: readonly string[];
}

/**
 * Changes for the security findings `after` has and `before` has not. `touched` lists the
 * added and changed items, as the surface diff found them (diffContracts passes its own);
 * without it they are found here.
 */
export function securityDrift(
  before: Contract,
  after: Contract,
  touched?: readonly TouchedItem[],
  options: DriftOptions = {},
): ChangeSpec[] {
  const lint: SecurityOptions = { ...DEFAULT_LINT_OPTIONS, allowHosts: options.allowHosts ?? [] };
  const oldNames = lazy(() => new ToolNames(before.tools));
  const newNames = lazy(() => new ToolNames(after.tools));
  const known = lazy(() => linksOf(before, after));
  // A link into a domain the surface already pointed at (the vendor's own docs) is not drift.
  const fresh = (side: Side): Side => ({
    ...side,
    findings: side.findings.filter((f) => !URL_RULES.has(f.rule) || !allKnown(f.evidence, known())),
  });
  // The new side of every touched item (added ones whole, changed ones cut to what changed),
  // linted together in one sub-contract: the rules' set-up is paid once, not once per item.
  const batch: Batched[] = [];
  for (const item of touched ?? touchedItems(before, after)) {
    if (item.before === undefined) {
      batch.push({ item, part: item.after, covers: EVERYWHERE });
      continue;
    }
    const scope = changedTexts(item.before, item.after);
    if (scope.isEmpty()) continue;
    batch.push({ item, part: prune(item.after, scope.paths, ID_FIELD[item.kind]), covers: scope.covers, scope });
  }
  const specs: ChangeSpec[] = [];
  const sides = batch.length > 0 ? lintBatch(batch, newNames(), lint) : [];
  batch.forEach(({ item, covers, scope }, i) => {
    const now = fresh(sides[i] as Side);
    if (item.before === undefined || scope === undefined) {
      specs.push(...introduced(item.kind, item.name, EMPTY_SIDE, now));
      return;
    }
    // Most rewrites are benign: the old texts only matter when the new ones have findings.
    if (now.findings.length === 0) return;
    const then = lintItem(item.kind, prune(item.before, scope.paths, ID_FIELD[item.kind]), oldNames(), covers, lint);
    specs.push(...introduced(item.kind, item.name, then, now));
  });
  const instructions = after.instructions;
  if (typeof instructions === "string" && instructions !== before.instructions) {
    const now = fresh(lintServer(instructions, newNames(), lint));
    if (now.findings.length > 0) {
      const then =
        typeof before.instructions === "string" ? lintServer(before.instructions, oldNames(), lint) : EMPTY_SIDE;
      specs.push(...introduced("server", "", then, now));
    }
  }
  return specs;
}

/** The rules whose evidence is the list of links of a text. */
const URL_RULES: ReadonlySet<string> = new Set(["embedded-url", "external-link"] satisfies LintRuleId[]);

export { domainOf, hostOf };

interface KnownLinks {
  /** Registrable domains (and IP addresses) the surface linked. */
  domains: Set<string>;
  /** Every link as written. */
  urls: Set<string>;
  /** Whether a link is the vendor's own (its site, its repository), by either side's server. */
  vendor: (url: string) => boolean;
}

/** Every link of the old surface's texts, by registrable domain and as written (allowHosts aside: it only removes findings). */
function linksOf(contract: Contract, current: Contract): KnownLinks {
  const known: KnownLinks = { domains: new Set(), urls: new Set(), vendor: vendorLinks(contract, current) };
  for (const t of surfaceTexts(contract)) {
    if (t.role !== "text") continue;
    for (const link of findLinks(t.text)) {
      known.urls.add(link.url);
      if (link.host !== undefined) known.domains.add(domainOf(link.host));
    }
  }
  return known;
}

function allKnown(evidence: Json | undefined, known: KnownLinks): boolean {
  const urls = Array.isArray(evidence) ? evidence : [];
  return (
    urls.length > 0 &&
    urls.every((url) => typeof url === "string" && (linkKnown(url, known.domains, known.urls) || known.vendor(url)))
  );
}

/** Added items, and items on both sides that differ, by identity (first item of each identity, as the diff does). */
export function touchedItems(before: Contract, after: Contract): TouchedItem[] {
  const out: TouchedItem[] = [];
  for (const kind of Object.keys(LIST) as ItemKind[]) {
    const id = ID_FIELD[kind];
    const old = firstById((before[LIST[kind]] ?? []) as JsonObject[], id);
    for (const [name, item] of firstById((after[LIST[kind]] ?? []) as JsonObject[], id)) {
      const was = old.get(name);
      if (was === undefined) out.push({ kind, name, after: item });
      else if (!jsonEqual(was, item)) out.push({ kind, name, before: was, after: item });
    }
  }
  return out;
}

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}

// ---------------------------------------------------------------------------------------------
// Which texts changed

interface Scope {
  /** Paths (as segments) of changed strings and of new or retyped subtrees. */
  paths: string[][];
  isEmpty: () => boolean;
  /** Whether a text at this JSON Pointer is new or changed. */
  covers: (path: string) => boolean;
}

/** Walks `after` against `before`: a string that differs, or a key, element or type that is new, is in scope. */
function changedTexts(before: JsonObject, after: JsonObject): Scope {
  const leaves = new Set<string>();
  const subtrees: string[] = [];
  const paths: string[][] = [];
  const stack: string[] = [];
  const record = (subtree: boolean) => {
    const at = pointer("", ...stack);
    paths.push([...stack]);
    if (subtree) subtrees.push(at);
    else leaves.add(at);
  };
  // One visit per node: equal subtrees record nothing and build no path (only the key stack
  // moves), where asking jsonEqual first at every level walked a changed node's subtree again
  // at each level above the change.
  const walk = (old: Json | undefined, now: Json) => {
    if (old === now) return;
    if (typeof now === "string") {
      record(false);
    } else if (Array.isArray(now)) {
      if (!Array.isArray(old)) return record(true);
      for (let i = 0; i < now.length; i++) {
        stack.push(String(i));
        if (i < old.length) walk(old[i], now[i]!);
        else record(true);
        stack.pop();
      }
    } else if (isJsonObject(now)) {
      if (!isJsonObject(old)) return record(true);
      // for...in visits exactly a JSON object's own keys (it inherits none), without a key array.
      for (const key in now) {
        stack.push(key);
        if (Object.hasOwn(old, key)) walk(old[key], now[key]!);
        else record(true);
        stack.pop();
      }
    }
  };
  walk(before, after);
  return {
    paths,
    isEmpty: () => paths.length === 0,
    covers: (path) => leaves.has(path) || subtrees.some((s) => path === s || path.startsWith(`${s}/`)),
  };
}

/**
 * The item cut down to its identity and the given paths; other array elements become null so
 * that indexes (and with them the paths of findings) stay the same.
 */
function prune(item: JsonObject, paths: readonly string[][], idField: string): JsonObject {
  const root: JsonObject = {};
  if (item[idField] !== undefined) root[idField] = item[idField];
  for (const segments of paths) {
    let source: Json | undefined = item;
    let target: Json = root;
    for (let i = 0; i < segments.length; i++) {
      const key = segments[i]!;
      const next: Json | undefined = child(source, key);
      if (next === undefined) break;
      if (i === segments.length - 1) {
        setChild(target, key, next);
        break;
      }
      let made = child(target, key);
      if (made === undefined || made === null) {
        made = Array.isArray(next) ? new Array<Json>(next.length).fill(null) : {};
        setChild(target, key, made);
      }
      source = next;
      target = made;
    }
  }
  return root;
}

function child(node: Json | undefined, key: string): Json | undefined {
  if (Array.isArray(node)) return node[Number(key)];
  return isJsonObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
}

function setChild(node: Json, key: string, value: Json): void {
  if (Array.isArray(node)) node[Number(key)] = value;
  else if (isJsonObject(node)) node[key] = value;
}

// ---------------------------------------------------------------------------------------------
// Tool names the texts mention

/** A tool name made only of these characters is only ever mentioned at the start of such a run (see stubs()). */
const NAME_RUN = /[\w.-]+/g;
const SIMPLE_NAME = /^[\w.-]+$/;

/** The tool names of one side, in server order, for building the tool list of a sub-contract. */
class ToolNames {
  private readonly order = new Map<string, number>();
  private readonly odd: string[] = [];

  constructor(tools: readonly Tool[]) {
    tools.forEach((tool, i) => {
      const name = tool.name;
      if (typeof name !== "string" || this.order.has(name)) return;
      this.order.set(name, i);
      if (!SIMPLE_NAME.test(name)) this.odd.push(name);
    });
  }

  /**
   * Tool names that occur in the texts, as stub tools in server order. The security rules
   * look a tool name up only where it starts a run of [\w.-] characters and either ends it or
   * is followed by "." (tool-shadowing's mentions, its "when using X tool", "never use X",
   * "instead of X" and the text after a takeover, src/lint/intent/hijack.ts; and
   * hidden-instructions' "call X"), so a run and its prefixes up to each "." find every such
   * name; names with other characters are looked for as plain substrings. A name that does not
   * occur in a text cannot change a finding on it, so leaving it out keeps the findings
   * identical (tests/unit/lint/drift-lens.test.ts compares with the full lint).
   */
  stubs(texts: readonly string[], exclude: ReadonlySet<string>): Tool[] {
    const found = new Set<string>();
    const consider = (candidate: string) => {
      if (!exclude.has(candidate) && this.order.has(candidate)) found.add(candidate);
    };
    for (const text of texts) {
      for (const match of text.matchAll(NAME_RUN)) {
        const run = match[0];
        consider(run);
        for (let i = run.indexOf("."); i >= 0; i = run.indexOf(".", i + 1)) consider(run.slice(0, i));
      }
    }
    for (const name of this.odd) if (texts.some((text) => text.includes(name))) consider(name);
    return [...found].sort((a, b) => this.order.get(a)! - this.order.get(b)!).map((name) => ({ name }));
  }
}

// ---------------------------------------------------------------------------------------------
// Linting the touched items

/** A touched item as the lens lints its new side: the part to lint, and which of its texts count. */
interface Batched {
  item: TouchedItem;
  part: JsonObject;
  covers: (path: string) => boolean;
  /** What changed, for a changed item (an added one is new everywhere). */
  scope?: Scope;
}

/** One thing to lint: an item's part, or the server's instructions, and which of its texts count. */
interface Part {
  kind: TargetKind;
  /** The item (cut to what changed), or the instructions' text for kind "server". */
  value: JsonObject | string;
  covers: (path: string) => boolean;
}

interface Side {
  findings: Finding[];
  /** Surface texts by path. */
  texts: Map<string, string>;
}

const EMPTY_SIDE: Side = { findings: [], texts: new Map() };
const EVERYWHERE = () => true;

function lintBatch(batch: readonly Batched[], names: ToolNames, options: SecurityOptions): Side[] {
  return lintParts(
    batch.map(({ item, part, covers }) => ({ kind: item.kind, value: part, covers })),
    names,
    options,
  );
}

function lintItem(
  kind: ItemKind,
  item: JsonObject,
  names: ToolNames,
  covers: (path: string) => boolean,
  options: SecurityOptions,
): Side {
  return lintParts([{ kind, value: item, covers }], names, options)[0] as Side;
}

function lintServer(instructions: string, names: ToolNames, options: SecurityOptions): Side {
  return lintParts([{ kind: "server", value: instructions, covers: EVERYWHERE }], names, options)[0] as Side;
}

/**
 * Security findings on each part's texts in scope, as the full lint finds them there: every
 * part in one sub-contract (the rules' set-up paid once), with stubs for the other tool names
 * their texts mention. The rules judge a text by its own content and the tool names it
 * mentions (see ToolNames.stubs), so a part's findings do not depend on the parts beside it;
 * each is given to its part by target (the parts of one kind have distinct identities).
 */
function lintParts(parts: readonly Part[], names: ToolNames, options: SecurityOptions): Side[] {
  const sub = emptyContract();
  const sides: Side[] = parts.map(() => ({ findings: [], texts: new Map() }));
  const index = new Map<string, number>();
  const own = new Set<string>();
  parts.forEach(({ kind, value }, i) => {
    let identity = "";
    if (kind === "server") sub.instructions = value as string;
    else {
      if (kind === "skill") sub.skills ??= [];
      (sub[LIST[kind]] as JsonObject[]).push(value as JsonObject);
      // By the part's own identity, which its texts and findings carry (a template whose
      // uriTemplate changed is touched under its old one).
      identity = String((value as JsonObject)[ID_FIELD[kind]]);
      if (kind === "tool") own.add(identity);
    }
    index.set(`${kind}\u0000${identity}`, i);
  });
  const partOf = (kind: TargetKind, name: string) => index.get(`${kind}\u0000${name}`);
  const all = surfaceTexts(sub);
  let any = false;
  for (const t of all) {
    const i = partOf(t.kind, t.name);
    if (i === undefined || !(parts[i] as Part).covers(t.path)) continue;
    const texts = (sides[i] as Side).texts;
    if (!texts.has(t.path)) texts.set(t.path, t.text);
    any = true;
  }
  // No new or changed text (a changed `required` list, a number): nothing to lint.
  if (!any) return sides;
  const stubs = names.stubs(
    all.filter((t) => t.role === "text").map((t) => t.text),
    own,
  );
  // A new contract object, not the one just read: surfaceTexts may remember a contract's texts.
  const linted: Contract = { ...sub, tools: [...sub.tools, ...stubs] };
  for (const rule of LINT_RULES) {
    if (rule.group !== "security") continue;
    const id = rule.id as keyof typeof SECURITY_CHECKS;
    for (const f of SECURITY_CHECKS[id](linted, options)) {
      const i = partOf(f.target.kind, f.target.name);
      if (i === undefined || !(parts[i] as Part).covers(f.path)) continue;
      (sides[i] as Side).findings.push({ ...f, rule: id, level: rule.level });
    }
  }
  return sides;
}

// ---------------------------------------------------------------------------------------------
// New findings → changes

function evidenceKey(finding: Finding): string {
  return finding.evidence === undefined ? "" : stableStringify(finding.evidence);
}

function findingKey(finding: Finding): string {
  return `${finding.rule}\u0000${finding.path}\u0000${evidenceKey(finding)}`;
}

/** Findings of `now` without a counterpart (same lint rule, path and evidence) in `then`. */
function introduced(kind: TargetKind, name: string, then: Side, now: Side): ChangeSpec[] {
  const left = new Map<string, number>();
  for (const f of then.findings) left.set(findingKey(f), (left.get(findingKey(f)) ?? 0) + 1);
  // With repeats of one key, the ones whose message was there before are the old ones.
  const oldMessages = new Set(then.findings.map((f) => `${findingKey(f)}\u0000${f.message}`));
  const ordered = [...now.findings].sort(
    (a, b) =>
      Number(!oldMessages.has(`${findingKey(a)}\u0000${a.message}`)) -
      Number(!oldMessages.has(`${findingKey(b)}\u0000${b.message}`)),
  );
  const specs: ChangeSpec[] = [];
  for (const finding of ordered) {
    const key = findingKey(finding);
    const matched = left.get(key) ?? 0;
    if (matched > 0) {
      left.set(key, matched - 1);
      continue;
    }
    const rule = driftRuleOf(finding);
    if (rule === undefined) continue;
    specs.push(toSpec(rule, kind, name, finding, then.texts.get(finding.path), now.texts.get(finding.path)));
  }
  return specs;
}

function toSpec(
  rule: DiffRuleId,
  kind: TargetKind,
  name: string,
  finding: Finding,
  before: string | undefined,
  after: string | undefined,
): ChangeSpec {
  const where = pointerToDotted(finding.path) || "text";
  const prefix = `${where}: `;
  const detail = finding.message.startsWith(prefix) ? finding.message.slice(prefix.length) : finding.message;
  return {
    rule,
    kind,
    name,
    path: finding.path,
    ...(before !== undefined && { before }),
    ...(after !== undefined && { after }),
    message: `${where} now carries ${finding.rule}: ${detail}`,
    ...(after !== undefined && { note: `text diff: ${textDiff(before, after)}` }),
    discriminator: `${finding.rule}|${evidenceKey(finding)}`,
  };
}
