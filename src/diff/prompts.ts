/**
 * Prompts, matched by name; their arguments, matched by name. Arguments are what callers
 * send, so argument changes carry direction "input". Pure.
 */

import { stableStringify } from "../contract/canonical.ts";
import { isJsonObject, type JsonObject, type Prompt } from "../contract/model.ts";
import { pointer } from "../contract/pointer.ts";
import { type ChangeSpec, diffById, diffFields, type TouchedItem, textOrMetadata } from "./change.ts";
import type { RenameCandidate } from "./rename.ts";
import { explainRest } from "./rewrites.ts";

export function diffPrompts(
  oldPrompts: readonly Prompt[],
  newPrompts: readonly Prompt[],
  touched?: TouchedItem[],
): ChangeSpec[] {
  return diffById({
    kind: "prompt",
    id: "name",
    removedRule: "prompt-removed",
    addedRule: "prompt-added",
    duplicateRule: "prompt-duplicate-added",
    before: oldPrompts,
    after: newPrompts,
    renameCandidate: (_, prompt) => renameCandidate(prompt),
    diffItem: diffPrompt,
    ...(touched !== undefined && { touched }),
  });
}

/** Identical (non-empty) argument lists mark a likely rename. */
function renameCandidate(prompt: Prompt): RenameCandidate {
  const args = prompt.arguments;
  const candidate: RenameCandidate = { id: prompt.name, text: prompt.name };
  if (Array.isArray(args) && args.length > 0) candidate.signature = stableStringify(args);
  return candidate;
}

interface Argument {
  index: number;
  value: JsonObject;
}

/** Arguments by name, first occurrence wins (lint reports duplicates); unnamed ones are skipped. */
function argumentsByName(prompt: Prompt): Map<string, Argument> {
  const byName = new Map<string, Argument>();
  const args = Array.isArray(prompt.arguments) ? prompt.arguments : [];
  args.forEach((value, index) => {
    if (isJsonObject(value) && typeof value.name === "string" && !byName.has(value.name)) {
      byName.set(value.name, { index, value });
    }
  });
  return byName;
}

const isRequired = (arg: JsonObject) => arg.required === true;

function diffPrompt(name: string, oldPrompt: Prompt, newPrompt: Prompt): ChangeSpec[] {
  const specs = diffFields(
    "prompt",
    name,
    oldPrompt,
    newPrompt,
    "",
    new Set(["name", "arguments"]),
    textOrMetadata("prompt-metadata-changed"),
  );
  const oldArgs = argumentsByName(oldPrompt);
  const newArgs = argumentsByName(newPrompt);
  const argument = (argName: string) => `argument ${JSON.stringify(argName)}`;

  for (const [argName, { index, value }] of oldArgs) {
    if (newArgs.has(argName)) continue;
    specs.push({
      rule: "prompt-argument-removed",
      kind: "prompt",
      name,
      direction: "input",
      path: pointer("/arguments", index),
      before: argName,
      message: `${argument(argName)} removed${isRequired(value) ? "" : " (it was optional)"}`,
    });
  }
  for (const [argName, { index, value }] of newArgs) {
    const old = oldArgs.get(argName);
    const path = pointer("/arguments", index);
    if (old === undefined) {
      const required = isRequired(value);
      specs.push({
        rule: required ? "prompt-argument-added-required" : "prompt-argument-added",
        kind: "prompt",
        name,
        direction: "input",
        path,
        after: argName,
        message: `${argument(argName)} added (${required ? "required" : "optional"})`,
      });
      continue;
    }
    const wasRequired = isRequired(old.value);
    const nowRequired = isRequired(value);
    if (wasRequired !== nowRequired) {
      specs.push({
        rule: nowRequired ? "prompt-argument-now-required" : "prompt-argument-now-optional",
        kind: "prompt",
        name,
        direction: "input",
        path: pointer(path, "required"),
        before: wasRequired,
        after: nowRequired,
        message: `${argument(argName)} is now ${nowRequired ? "required" : "optional"}`,
      });
    }
    specs.push(
      ...diffFields(
        "prompt",
        name,
        old.value,
        value,
        path,
        new Set(["name", "required"]),
        textOrMetadata("prompt-metadata-changed"),
        (key) => `${argument(argName)} ${key}`,
      ),
    );
  }
  return [...specs, ...explainRest("prompt", name, oldPrompt, newPrompt, specs)];
}
