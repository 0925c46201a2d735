import { describe, expect, test } from "bun:test";
import { splitShellWords } from "../../../src/cli/shell-words.ts";
import { UsageError } from "../../../src/errors.ts";

/** What `sh` itself makes of the string: the reference the splitter must agree with. */
function shWords(text: string): string[] {
  const out = Bun.spawnSync(["sh", "-c", `set -- ${text}\nfor w in "$@"; do printf '%s\\0' "$w"; done`], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  const s = out.stdout.toString();
  return s === "" ? [] : s.slice(0, -1).split("\0");
}

describe("splitShellWords", () => {
  const cases: [string, string[]][] = [
    ["", []],
    ["   ", []],
    ["-y @modelcontextprotocol/server-everything", ["-y", "@modelcontextprotocol/server-everything"]],
    ["  a\t b \n c  ", ["a", "b", "c"]],
    ["'two words' x", ["two words", "x"]],
    ['"two words" x', ["two words", "x"]],
    ["a'b c'd", ["ab cd"]],
    [`"it's" 'say "hi"'`, ["it's", 'say "hi"']],
    ["a\\ b", ["a b"]],
    ["\\'", ["'"]],
    [`"a\\"b" "c\\\\d" "e\\f"`, ['a"b', "c\\d", "e\\f"]],
    [`'no \\escape'`, ["no \\escape"]],
    ["'' \"\" x", ["", "", "x"]],
    ["--root=/tmp/my\\ dir --flag", ["--root=/tmp/my dir", "--flag"]],
    ["--json '{\"a\": [1, 2]}'", ["--json", '{"a": [1, 2]}']],
    ["a\\\nb", ["ab"]],
  ];
  for (const [text, words] of cases) {
    test(`${JSON.stringify(text)} → ${JSON.stringify(words)}`, () => {
      expect(splitShellWords(text)).toEqual(words);
    });
  }

  test("agrees with sh on every case without expansions", () => {
    for (const [text] of cases) {
      // A newline would end the `set --` line of the reference script.
      if (text.includes("\n")) continue;
      expect({ text, words: splitShellWords(text) }).toEqual({ text, words: shWords(text) });
    }
  });

  test("does not expand variables, globs or ~ (the user's shell already did)", () => {
    expect(splitShellWords("$HOME * ~ `date`")).toEqual(["$HOME", "*", "~", "`date`"]);
  });

  test("an unterminated quote or a trailing backslash is a usage error naming the flag", () => {
    for (const text of ["'open", '"open', "a \\"]) {
      let error: unknown;
      try {
        splitShellWords(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toContain("--args");
    }
    expect(() => splitShellWords('"open')).toThrow(/unterminated double quote/);
  });
});

test("an error never shows the arguments themselves (they can hold a token)", () => {
  expect(() => splitShellWords("--token s3cr3t 'x")).toThrow(/opened at character 16/);
  try {
    splitShellWords("--token s3cr3t 'x");
  } catch (error) {
    expect((error as Error).message).not.toContain("s3cr3t");
  }
});
