/**
 * Finds where JSON text stops being valid, as line and column, because JSON.parse in
 * some runtimes reports no position at all. Only called after JSON.parse has failed.
 */
export interface JsonSyntaxProblem {
  line: number;
  column: number;
  message: string;
}

export function locateJsonError(text: string): JsonSyntaxProblem {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: i, message };
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i] as string)) i++;
  };
  const expect = (what: string) => {
    if (i >= text.length) fail(`unexpected end of file, expected ${what} (the file looks truncated)`);
    fail(`unexpected ${JSON.stringify(text[i])}, expected ${what}`);
  };
  const str = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i] as string;
      if (c === '"') return void i++;
      if (c === "\\") {
        i++;
        const escaped = text[i];
        if (escaped === "u") {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 1, i + 5)))
            fail("bad \\u escape inside a string (four hex digits expected)");
          i += 4;
        } else if (escaped !== undefined && !'"\\/bfnrt'.includes(escaped)) {
          fail(`bad escape ${JSON.stringify(`\\${escaped}`)} inside a string`);
        }
      } else if (c < " ") fail("control character inside a string");
      i++;
    }
    fail("unexpected end of file inside a string (the file looks truncated)");
  };
  const member = () => {
    ws();
    if (text[i] !== '"') expect("a property name in double quotes");
    str();
    ws();
    if (text[i] !== ":") expect("':'");
    i++;
  };
  /** Iterative, with the open containers on a stack: no nesting depth can exhaust the call stack. */
  const value = (): void => {
    const closers: string[] = [];
    let wantValue = true;
    for (;;) {
      if (wantValue) {
        ws();
        const c = text[i];
        if (c === "{" || c === "[") {
          const close = c === "{" ? "}" : "]";
          i++;
          ws();
          if (text[i] === close) {
            i++;
            wantValue = false;
          } else {
            closers.push(close);
            if (close === "}") member();
          }
          continue;
        }
        if (c === '"') {
          str();
        } else {
          const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
          if (!literal) expect("a JSON value");
          i += (literal as RegExpExecArray)[0].length;
        }
        wantValue = false;
        continue;
      }
      const close = closers.at(-1);
      if (close === undefined) return;
      ws();
      if (text[i] === ",") {
        i++;
        if (close === "}") member();
        wantValue = true;
      } else if (text[i] === close) {
        i++;
        closers.pop();
      } else {
        expect(close === "}" ? "',' or '}'" : "',' or ']'");
      }
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail("unexpected text after the end of the JSON document");
  } catch (problem) {
    const { offset, message } = problem as { offset: number; message: string };
    const before = text.slice(0, offset).split("\n");
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1, message };
  }
  return { line: 1, column: 1, message: "invalid JSON" };
}
