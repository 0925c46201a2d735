/**
 * Splitting a command-line string into words as a POSIX shell does (for `--args "A B"`, the
 * mcp-query spelling of `-- CMD A B`): blanks separate words; single quotes keep everything
 * literally; double quotes keep everything but a backslash before $ ` " \ or a newline; a
 * backslash outside quotes keeps the next character (and removes a newline). Nothing is
 * expanded: no variables, globs or ~, which the user's shell has already done where it applies.
 */
import { UsageError } from "../errors.ts";

const BLANK = /[ \t\n]/;
const DOUBLE_QUOTE_ESCAPES = new Set(["$", "`", '"', "\\", "\n"]);

export function splitShellWords(text: string, flag = "--args"): string[] {
  const words: string[] = [];
  let word = "";
  // A word exists once any part of it is seen, so that '' and "" are empty words.
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (BLANK.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw unterminated(flag, "single", i);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      const opened = i;
      i++;
      for (;;) {
        if (i >= text.length) throw unterminated(flag, "double", opened);
        const d = text[i] as string;
        if (d === '"') break;
        if (d === "\\" && i + 1 < text.length && DOUBLE_QUOTE_ESCAPES.has(text[i + 1] as string)) {
          if (text[i + 1] !== "\n") word += text[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === "\\") {
      if (i + 1 >= text.length) {
        throw new UsageError(`${flag} ends in a lone backslash. Escape it as \\\\ or drop it.`);
      }
      if (text[i + 1] !== "\n") {
        word += text[i + 1];
        inWord = true;
      }
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The text itself is not shown: a server's arguments can hold a token. */
function unterminated(flag: string, kind: string, at: number): UsageError {
  return new UsageError(
    `${flag} has an unterminated ${kind} quote (opened at character ${at + 1}). Close the quote, or give the server's command after \`--\` instead (\`-- CMD ARG...\`), where no splitting happens.`,
  );
}
