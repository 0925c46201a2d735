/**
 * A consumer's manifest (`contracts/consumers/NAME/consumer.json`), read and checked: who the
 * consumer is and the environments it is deployed in. Unknown keys are refused, so that a typo
 * ("enviroments") cannot quietly take a consumer out of every can-i-deploy. Pure: the CLI reads
 * the directory.
 *
 *   { "name": "weather-app", "environments": ["staging", "production"] }
 */
import { isJsonObject } from "../contract/model.ts";
import { UsageError } from "../errors.ts";

export const MANIFEST_FILE = "consumer.json";

export interface ConsumerManifest {
  name: string;
  environments: string[];
  description?: string;
}

const KEYS = new Set(["name", "environments", "description", "$schema"]);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._\-/@ ]{0,127}$/;

const EXAMPLE = '{ "name": "weather-app", "environments": ["staging", "production"] }';

export function parseManifest(text: string, path: string, folder: string): ConsumerManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${path} is not valid JSON (${(error as Error).message}); a consumer manifest looks like ${EXAMPLE}.`,
    );
  }
  if (!isJsonObject(value)) throw new UsageError(`${path} must be a JSON object, like ${EXAMPLE}.`);
  const unknown = Object.keys(value).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) {
    throw new UsageError(
      `${path}: unknown key${unknown.length === 1 ? "" : "s"} ${unknown.map((k) => JSON.stringify(k)).join(", ")}; a consumer manifest has "name", "environments" and optionally "description".`,
    );
  }
  const name = value.name ?? folder;
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new UsageError(
      `${path}: "name" must be a non-empty string of letters, digits, and . _ - / @ or spaces (got ${JSON.stringify(name)}).`,
    );
  }
  const environments = value.environments;
  if (
    !Array.isArray(environments) ||
    environments.length === 0 ||
    !environments.every((e) => typeof e === "string" && e.trim() !== "")
  ) {
    throw new UsageError(
      `${path}: "environments" must be a non-empty array of environment names, e.g. ["staging", "production"] (got ${JSON.stringify(environments ?? null)}).`,
    );
  }
  if (value.description !== undefined && typeof value.description !== "string") {
    throw new UsageError(`${path}: "description" must be a string.`);
  }
  return {
    name,
    environments: [...new Set(environments as string[])],
    ...(typeof value.description === "string" && { description: value.description }),
  };
}

/** Two folders that name the same consumer would merge their verdicts silently: refused. */
export function assertDistinct(manifests: readonly { manifest: ConsumerManifest; path: string }[]): void {
  const seen = new Map<string, string>();
  for (const { manifest, path } of manifests) {
    const other = seen.get(manifest.name);
    if (other !== undefined) {
      throw new UsageError(
        `${path} and ${other} both name the consumer ${JSON.stringify(manifest.name)}; give each its own name.`,
      );
    }
    seen.set(manifest.name, path);
  }
}
