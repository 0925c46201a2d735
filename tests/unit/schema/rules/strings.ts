/** The schema rules' table, strings: length, pattern, format (compare/strings.ts): see ../rules.test.ts for how each case is run. */
import type { JsonObject } from "../../../../src/contract/model.ts";
import { at, type Case, withP } from "./table.ts";

const str = (extra: JsonObject): JsonObject => withP({ type: "string", ...extra });

export const STRING_CASES: Case[] = [
  {
    name: "minLength added",
    old: str({}),
    new: str({ minLength: 1 }),
    expect: [at("min-length-raised", "/properties/p/minLength")],
    reverse: [at("min-length-lowered", "/properties/p/minLength")],
  },
  {
    name: "minLength raised",
    old: str({ minLength: 1 }),
    new: str({ minLength: 3 }),
    expect: [at("min-length-raised", "/properties/p/minLength")],
    reverse: [at("min-length-lowered", "/properties/p/minLength")],
  },
  {
    name: "minLength: 0 ≡ absent",
    old: str({}),
    new: str({ minLength: 0 }),
    expect: [],
    reverse: [],
  },
  {
    name: "maxLength lowered",
    old: str({ maxLength: 200 }),
    new: str({ maxLength: 100 }),
    expect: [at("max-length-lowered", "/properties/p/maxLength")],
    reverse: [at("max-length-raised", "/properties/p/maxLength")],
  },
  {
    name: "maxLength added",
    old: str({}),
    new: str({ maxLength: 100 }),
    expect: [at("max-length-lowered", "/properties/p/maxLength")],
    reverse: [at("max-length-raised", "/properties/p/maxLength")],
  },
  {
    name: "pattern added",
    old: str({}),
    new: str({ pattern: "^[a-z]+$" }),
    expect: [at("pattern-added", "/properties/p/pattern")],
    reverse: [at("pattern-removed", "/properties/p/pattern")],
  },
  {
    name: "pattern changed",
    old: str({ pattern: "^[a-z]+$" }),
    new: str({ pattern: "^[a-z0-9]+$" }),
    expect: [at("pattern-changed", "/properties/p/pattern")],
    reverse: [at("pattern-changed", "/properties/p/pattern")],
  },
  {
    name: "format added",
    old: str({}),
    new: str({ format: "email" }),
    expect: [at("format-added", "/properties/p/format")],
    reverse: [at("format-removed", "/properties/p/format")],
  },
  {
    name: "format changed",
    old: str({ format: "date" }),
    new: str({ format: "date-time" }),
    expect: [at("format-changed", "/properties/p/format")],
    reverse: [at("format-changed", "/properties/p/format")],
  },
  {
    name: "string keywords on a non-string type are ignored",
    old: withP({ type: "integer" }),
    new: withP({ type: "integer", minLength: 3, pattern: "^x", format: "email" }),
    expect: [],
    reverse: [],
  },
];
