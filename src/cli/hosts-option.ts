/** `--hosts NAME,…|all` for lint, check and diff: the host profiles to judge against (src/lint/hosts/). */
import { Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import { HOST_IDS, parseHostNames } from "../lint/hosts/profiles.ts";

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function hostsOption() {
  return new Option(
    "--hosts <names>",
    `judge against these host profiles (comma-separated, repeatable, or all): ${HOST_IDS.join(", ")}`,
  ).argParser(collect);
}

/** The hosts of one run: --hosts when given (an unknown name is exit 2), else the policy file's "hosts", else none. */
export function resolveHosts(
  values: readonly string[] | undefined,
  fromPolicy: readonly string[] | undefined,
): string[] {
  if (values === undefined) return [...(fromPolicy ?? [])];
  const parsed = parseHostNames(values);
  if ("error" in parsed) throw new UsageError(`--hosts: ${parsed.error}`);
  return parsed.hosts;
}
