/**
 * The texts of a surface that a model reads, for the security lint and the drift lens: names,
 * titles, descriptions, schema texts, enum values and instructions, each with where it is.
 * Collected once per contract in units (an item's texts, or a tool schema's texts shared by
 * every tool of its shape, src/lint/shapes.ts), and scanned rule by rule through scanSurface.
 * Pure; no I/O.
 */
import { type Contract, isJsonObject, type Json, type JsonObject } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import type { TargetKind } from "../contract/surface.ts";
import { SCHEMA_KEYS } from "./found.ts";
import type { Finding } from "./model.ts";
import { indexShapes } from "./shapes.ts";
import { type Span, sentences } from "./text-scan.ts";

type Found = Omit<Finding, "rule" | "level">;

export interface SurfaceText {
  kind: TargetKind;
  /** Tool/prompt name, resource uri, template uriTemplate; "" for the server. */
  name: string;
  /** JSON Pointer of the text inside the item (for a schema property name: the property). */
  path: string;
  text: string;
  /** name: an identifier the model copies (tool, prompt, argument, property names); text: prose. */
  role: "name" | "text";
  /** Set by the security rules: the intent rules whose gate literals the text holds, as bits (rules-security.ts intentQuiet). */
  intents?: number;
  /** Set by the security rules: printable ASCII without a link (rules-security.ts plainText). */
  plain?: boolean;
  /** What the collection's Loudness said of it (never 0; -1 when the collection kept every text). */
  loud?: number;
}

/**
 * Whether a keyword's value is data, not schemas: never walked (enum/const strings are taken
 * apart). Compared, not looked up in a Set: keys are interned, so each test is a pointer
 * comparison, and a Set's lookup per key of every node cost more.
 */
function isSchemaData(key: string): boolean {
  return key === "default" || key === "examples" || key === "const" || key === "enum" || key === "required";
}

/**
 * Where a schema text sits: its pointer is built from its parent's only when read. Most texts
 * never get a finding, and a pointer string per text (955k on a 10,000-tool surface whose
 * schemas all differ) was most of what collecting them allocated.
 */
class Place {
  private cached: string | undefined;
  constructor(
    private readonly parent: Place | undefined,
    /** The root's pointer, or the segment under the parent. */
    private readonly segment: string | number,
  ) {}
  get path(): string {
    this.cached ??= this.parent === undefined ? (this.segment as string) : pointer(this.parent.path, this.segment);
    return this.cached;
  }
}

/** A text of a tool schema, its path built when read (see Place). */
class SchemaText implements SurfaceText {
  readonly kind = "tool";
  intents: number | undefined = undefined;
  plain: boolean | undefined = undefined;
  constructor(
    readonly name: string,
    private readonly at: Place,
    private readonly segment: string | number,
    readonly text: string,
    readonly role: "name" | "text",
    readonly loud: number,
  ) {}
  get path(): string {
    return pointer(this.at.path, this.segment);
  }
}

/** Each schema key's pointer ("/inputSchema"), made once. */
const SCHEMA_ROOTS = SCHEMA_KEYS.map((key) => `/${key}`);

/** A text as a plain object under `name` (a class's getter would not survive a spread). */
function named(t: SurfaceText, name: string): SurfaceText {
  return { kind: t.kind, name, path: t.path, text: t.text, role: t.role };
}

/**
 * The walk that finds a schema's texts, in the order they are written, with how each was
 * judged: one per collection, so that a text needs no closure to reach the loudness test or the
 * list it goes to (on a 10,000-tool surface whose schemas all differ, 955k texts were each
 * handed through two closures). It keeps the way from the root to the node being walked, a
 * segment per level, and each level's Place once a kept text needs it: Places are made only
 * for the ancestors of kept texts (one per node walked was most of what collecting the texts
 * allocated, and on big surfaces most texts are silent and never kept).
 */
class TextWalk {
  private readonly segments: (string | number)[] = [];
  private readonly places: (Place | undefined)[] = [];
  private depth = 0;
  /** Texts seen so far, kept or not. */
  seen = 0;
  /** Where the texts of the schema being walked go, the name they go under, and the OR of their loudness. */
  private into: SurfaceText[] = [];
  private name = "";
  private loudest = 0;
  constructor(private readonly loudness: Loudness | undefined) {}

  /** How loud a text seen is, 0: not kept (asked before it is made: most are not, on big surfaces). */
  judge(text: string, role: SurfaceText["role"]): number {
    this.seen++;
    return this.loudness === undefined ? -1 : this.loudness(text, role);
  }

  /** The kept texts of `schema` (at pointer `root`) pushed to `into` under `name`; returns the OR of their loudness. */
  schema(schema: Json | undefined, root: string, name: string, into: SurfaceText[]): number {
    this.segments[0] = root;
    this.places[0] = new Place(undefined, root);
    this.depth = 1;
    this.into = into;
    this.name = name;
    this.loudest = 0;
    this.walk(schema);
    return this.loudest;
  }

  private walk(node: Json | undefined): void {
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        // Only an object or a list can hold a text.
        if (item !== null && typeof item === "object") {
          this.enter(i);
          this.walk(item);
          this.depth--;
        }
      }
      return;
    }
    if (!isJsonObject(node)) return;
    // for...in, not Object.entries: a pair per key was a fifth of this walk on big surfaces.
    for (const key in node) {
      const value = node[key] as Json;
      if (value === null || typeof value !== "object") {
        if ((key === "description" || key === "title" || key === "const") && typeof value === "string") {
          this.text(key, value, "text");
        }
        continue;
      }
      if (key === "enum" && Array.isArray(value)) {
        this.enter(key);
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          if (typeof v === "string") this.text(i, v, "text");
        }
        this.depth--;
      } else if (key === "properties" && isJsonObject(value)) {
        this.enter(key);
        for (const prop in value) {
          this.text(prop, prop, "name");
          this.enter(prop);
          this.walk(value[prop]);
          this.depth--;
        }
        this.depth--;
      } else if (!isSchemaData(key)) {
        this.enter(key);
        this.walk(value);
        this.depth--;
      }
    }
  }

  private enter(segment: string | number): void {
    this.segments[this.depth] = segment;
    this.places[this.depth] = undefined;
    this.depth++;
  }

  /** A text at `segment` under the node being walked. */
  private text(segment: string | number, text: string, role: "name" | "text"): void {
    const loud = this.judge(text, role);
    if (loud === 0) return;
    this.into.push(new SchemaText(this.name, this.here(), segment, text, role, loud));
    this.loudest |= loud;
  }

  /** The Place of the node being walked, made with its missing ancestors on first need (the root's always is). */
  private here(): Place {
    let d = this.depth - 1;
    while (this.places[d] === undefined) d--;
    let place = this.places[d] as Place;
    for (d++; d < this.depth; d++) {
      place = new Place(place, this.segments[d] as string | number);
      this.places[d] = place;
    }
    return place;
  }
}

/**
 * The texts of a surface in order, in units: the texts of one item, or of one tool schema.
 * A schema's unit is built once per shape and key (src/lint/shapes.ts) and shared by every
 * tool of that shape, its texts under the name "" (see scanSurface).
 */
interface TextUnit {
  texts: SurfaceText[];
  /** For a shared schema unit: the tool it stands in for. */
  tool?: string;
  /** For a shared schema unit: where its texts are among the shared ones (scanSurface keeps their findings there). */
  slot?: number;
  /** For a shared schema unit: each text's number among the shared units' distinct texts (see Collected). */
  ids?: Int32Array;
  /** The OR of its texts' loudness (a rule that needs none of it skips the unit). */
  loud: number;
}

/**
 * A collection's units, and how many distinct texts its shared schema units hold. Equal texts
 * get one number, once per collection: a rule then remembers which it found clean by number
 * (scanSurface), where a set of the texts themselves cost a string lookup per text and rule.
 */
interface Collected {
  units: TextUnit[];
  distinct: number;
}

/**
 * What the callers of scanSurface may find in a text, from the text and its role, as bits the
 * caller defines (a rule names those it needs: scanSurface's `needs`); 0: no rule of theirs can
 * find anything in it.
 */
export type Loudness = (text: string, role: SurfaceText["role"]) => number;

/** Which texts a collection keeps (all when undefined: then each is as loud as can be, -1), and where it may stop. */
interface Collect {
  loudness?: Loudness;
  /** Stop after the tool at which this many texts were seen (the units are then incomplete). */
  stopAt?: number;
}

/**
 * Every text of the surface, collected once per contract, and again when lintContract indexes
 * it afresh (by the index, which a fresh run replaces); the drift lens reads these.
 */
const UNITS = new WeakMap<object, Collected>();

export function textUnits(contract: Contract): TextUnit[] {
  return allUnits(contract).units;
}

function allUnits(contract: Contract): Collected {
  const index = indexShapes(contract);
  let units = UNITS.get(index);
  if (!units) {
    units = collectUnits(contract, {});
    UNITS.set(index, units);
  }
  return units;
}

/**
 * The texts the security rules scan on a big surface: those `loudness` does not clear (0),
 * collected once per contract and index for every rule, each with its loudness (the silent ones
 * are never kept: on a 10,000-tool surface whose schemas all differ they were 815k of 955k
 * texts, most of lint's live memory).
 */
const LOUD = new WeakMap<object, Collected>();

function loudUnits(contract: Contract, loudness: Loudness): Collected {
  const index = indexShapes(contract);
  let units = LOUD.get(index);
  if (!units) {
    units = collectUnits(contract, { loudness });
    LOUD.set(index, units);
  }
  return units;
}

/**
 * Whether a security rule visits at least `min` texts on the surface (a shared schema unit
 * once per tool of its shape). Counted without keeping a text, and only until `min`.
 */
export function textsAtLeast(contract: Contract, min: number): boolean {
  const index = indexShapes(contract);
  let known = ENOUGH.get(index);
  if (known?.min !== min) {
    known = { min, enough: collectUnits(contract, { loudness: () => 0, stopAt: min }).seen >= min };
    ENOUGH.set(index, known);
  }
  return known.enough;
}

const ENOUGH = new WeakMap<object, { min: number; enough: boolean }>();

/** Every human/model-readable text of the surface, with where it is (the drift lens reads these). */
export function surfaceTexts(contract: Contract): SurfaceText[] {
  return textUnits(contract).flatMap((unit) => unit.texts.map((t) => named(t, unit.tool ?? t.name)));
}

/** An item's own fields that a model reads, and their pointers (made once, not per item). */
const ITEM_FIELDS = ["name", "title", "description"] as const;
const FIELD_PATHS: Readonly<Record<string, string>> = { name: "/name", title: "/title", description: "/description" };

/**
 * A unit of an item's own texts: `add` keeps a text seen there (its schema's texts too, when it
 * has no shape). An object per item, not a closure with the unit put on it (10,000 tools).
 */
class ItemTexts implements TextUnit {
  texts: SurfaceText[] = [];
  loud = 0;
  constructor(
    private readonly walk: TextWalk,
    private readonly kind: TargetKind,
    private readonly name: string,
  ) {}
  add(path: string, text: string, role: "name" | "text"): void {
    const loud = this.walk.judge(text, role);
    if (loud === 0) return;
    this.texts.push({ kind: this.kind, name: this.name, path, text, role, loud });
    this.loud |= loud;
  }
}

/**
 * The units of the surface's texts, of those `collect.loudness` keeps, and how many texts were
 * seen (kept or not; a shared schema unit's once per tool of its shape).
 */
function collectUnits(contract: Contract, collect: Collect): Collected & { seen: number } {
  const units: TextUnit[] = [];
  // The shared units' distinct texts, numbered in the order first seen.
  const numbers = new Map<string, number>();
  const walk = new TextWalk(collect.loudness);
  /** A unit of an item's own texts, with those of `fields` added. */
  const item = (kind: TargetKind, name: string, obj: JsonObject, fields: readonly string[]) => {
    const unit = new ItemTexts(walk, kind, name);
    units.push(unit);
    for (const field of fields) {
      const value = obj[field];
      if (typeof value === "string")
        unit.add(FIELD_PATHS[field] ?? `/${field}`, value, field === "name" ? "name" : "text");
    }
    return unit;
  };
  if (typeof contract.instructions === "string") {
    const text = contract.instructions;
    const loud = walk.judge(text, "text");
    const texts: SurfaceText[] = [];
    if (loud !== 0) texts.push({ kind: "server", name: "", path: "/instructions", text, role: "text", loud });
    units.push({ texts, loud });
  }
  const shared = SCHEMA_KEYS.map(
    () => new Map<number, { texts: SurfaceText[]; ids: Int32Array; slot: number; count: number; loud: number }>(),
  );
  let slots = 0;
  const { shapes } = indexShapes(contract);
  const tools = contract.tools;
  for (let index = 0; index < tools.length; index++) {
    if (collect.stopAt !== undefined && walk.seen >= collect.stopAt) {
      return { units, seen: walk.seen, distinct: numbers.size };
    }
    const tool = tools[index]!;
    const own = item("tool", tool.name, tool, ITEM_FIELDS);
    const annotations = tool.annotations;
    if (isJsonObject(annotations) && typeof annotations.title === "string") {
      own.add("/annotations/title", annotations.title, "text");
    }
    for (let k = 0; k < SCHEMA_KEYS.length; k++) {
      const key = SCHEMA_KEYS[k]!;
      const schema = tool[key];
      const shape = shapes[key][index] ?? -1;
      if (shape === -1) {
        // No shape: the schema's texts are the tool's own.
        own.loud |= walk.schema(schema, SCHEMA_ROOTS[k]!, tool.name, own.texts);
        continue;
      }
      let known = shared[k]!.get(shape);
      if (!known) {
        const texts: SurfaceText[] = [];
        const before = walk.seen;
        const loud = walk.schema(schema, SCHEMA_ROOTS[k]!, "", texts);
        known = { texts, ids: textNumbers(texts, numbers), slot: slots++, count: walk.seen - before, loud };
        shared[k]!.set(shape, known);
      } else walk.seen += known.count;
      if (known.texts.length > 0) {
        units.push({ texts: known.texts, tool: tool.name, slot: known.slot, ids: known.ids, loud: known.loud });
      }
    }
  }
  for (const prompt of contract.prompts) {
    const own = item("prompt", prompt.name, prompt, ITEM_FIELDS);
    if (Array.isArray(prompt.arguments)) {
      prompt.arguments.forEach((arg, i) => {
        if (!isJsonObject(arg)) return;
        for (const field of ITEM_FIELDS) {
          const value = arg[field];
          if (typeof value === "string") own.add(`/arguments/${i}/${field}`, value, field === "name" ? "name" : "text");
        }
      });
    }
  }
  for (const resource of contract.resources) item("resource", resource.uri, resource, ITEM_FIELDS);
  for (const template of contract.resourceTemplates) {
    item("resourceTemplate", template.uriTemplate, template, ITEM_FIELDS);
  }
  // A skill's frontmatter name and description are what a host routes on: the model reads them.
  for (const skill of contract.skills ?? []) {
    const own = item("skill", skill.uri, skill, []);
    const front = skill.frontmatter;
    if (!isJsonObject(front)) continue;
    if (typeof front.name === "string") own.add("/frontmatter/name", front.name, "name");
    if (typeof front.description === "string") own.add("/frontmatter/description", front.description, "text");
  }
  return { units, seen: walk.seen, distinct: numbers.size };
}

/** The number of each text among `numbers`, a new text getting the next one. */
function textNumbers(texts: readonly SurfaceText[], numbers: Map<string, number>): Int32Array {
  const ids = new Int32Array(texts.length);
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i]!.text;
    let id = numbers.get(text);
    if (id === undefined) {
      id = numbers.size;
      numbers.set(text, id);
    }
    ids[i] = id;
  }
  return ids;
}

/**
 * One rule's findings on every text of the surface in order (`role`: only those texts), each
 * schema unit scanned once and its findings given to every tool of its shape. `own` is the tool
 * a text belongs to; in a shared unit it is unknown, which can only add findings (a tool may
 * name itself), so when `ownMatters` and the unit has findings, each tool's texts are scanned
 * again with their own name. `loudness`, when given, says of a text what the callers may find
 * in it (0: nothing): such texts are not collected (loudUnits), so no rule scans them; it must
 * be the same function for every caller of a run. A rule then skips the texts, and whole units,
 * whose loudness holds none of the bits it `needs` (-1: any): the security rules are eleven
 * passes over the loud texts, and most of them need what few of those texts have.
 * In a shared unit (every text a tool's, `own` unknown) whether `scan` finds anything must
 * depend on the text alone, not on its path: a text found clean there is not scanned again.
 */
export function scanSurface(
  contract: Contract,
  role: "name" | "text" | undefined,
  scan: (t: SurfaceText, own: string | undefined) => Found[],
  ownMatters = false,
  loudness?: Loudness,
  needs = -1,
): Found[] {
  const out: Found[] = [];
  // Each shared unit's findings, by its slot: scanned once for all the tools of its shape.
  const shared: (Found[] | undefined)[] = [];
  // Texts of shared units the rule found nothing in: the same text in another schema is not
  // scanned again (schemas that all differ still repeat most of their wording).
  const collected = loudness === undefined ? allUnits(contract) : loudUnits(contract, loudness);
  // By the texts' numbers (Collected): 1 once the rule found the text clean.
  const clean = new Uint8Array(collected.distinct);
  for (const unit of collected.units) {
    if ((unit.loud & needs) === 0) continue;
    const name = unit.tool;
    const texts = unit.texts;
    if (name === undefined) {
      for (const t of texts) {
        if ((role !== undefined && t.role !== role) || ((t.loud as number) & needs) === 0) continue;
        const found = scan(t, t.kind === "tool" ? t.name : undefined);
        if (found.length > 0) out.push(...found);
      }
      continue;
    }
    const slot = unit.slot as number;
    let found = shared[slot];
    if (!found) {
      found = NO_FINDINGS;
      const ids = unit.ids as Int32Array;
      for (let i = 0; i < texts.length; i++) {
        const t = texts[i]!;
        if ((role !== undefined && t.role !== role) || clean[ids[i]!] === 1 || ((t.loud as number) & needs) === 0)
          continue;
        const more = scan(t, undefined);
        if (more.length === 0) clean[ids[i]!] = 1;
        else if (found === NO_FINDINGS) found = [...more];
        else found.push(...more);
      }
      shared[slot] = found;
    }
    if (found.length === 0) continue;
    if (ownMatters) {
      for (const t of texts) if (role === undefined || t.role === role) out.push(...scan(named(t, name), name));
      continue;
    }
    for (const f of found) out.push({ ...f, target: { kind: "tool", name } });
  }
  return out;
}

/** A shared unit's findings when the rule found none (never added to). */
const NO_FINDINGS: Found[] = [];

/**
 * The sentences of a surface text with their own text, remembered for the next rule: five
 * rules read every prose text sentence by sentence.
 */
const SENTENCES = new WeakMap<SurfaceText, (Span & { text: string })[]>();

export function sentencesOf(t: SurfaceText): (Span & { text: string })[] {
  let known = SENTENCES.get(t);
  if (!known) {
    const text = t.text;
    known = sentences(text).map((s) => ({ ...s, text: text.slice(s.start, s.end) }));
    SENTENCES.set(t, known);
  }
  return known;
}
