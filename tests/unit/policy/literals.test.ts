import { describe, expect, test } from "bun:test";
import { extractLiterals, MAX_LITERAL_LENGTH, unescapeLiteral } from "../../../src/policy/literals.ts";

const literals = (text: string) => extractLiterals(text);

describe("string literals in any language", () => {
  test.each([
    ["TypeScript", `await client.callTool({ name: "get_forecast", arguments: { city } });`, "get_forecast"],
    ["single quotes", `session.call_tool('get_forecast', {"city": city})`, "get_forecast"],
    ["template literal", "const tool = `get_forecast`;", "get_forecast"],
    ["Python triple quotes", `name = """get_forecast"""`, "get_forecast"],
    ["Go", `res, err := c.CallTool(ctx, "get_forecast", args)`, "get_forecast"],
    ["Rust raw string", `let name = r#"get_forecast"#;`, "get_forecast"],
    ["Ruby symbol beside a string", `client.call(:tool, "get_forecast")`, "get_forecast"],
    ["shell", `mcp call 'get_forecast' --city "Paris"`, "get_forecast"],
    ["JSON", `{"tool": "get_forecast"}`, "get_forecast"],
    ["YAML", `tool: "get_forecast"`, "get_forecast"],
    ["an apostrophe in a comment before", `// don't forget\ncall("get_forecast")`, "get_forecast"],
    ["an apostrophe on the same line", `call("get_forecast") // it's here`, "get_forecast"],
    ["an escaped quote inside", `say("a \\"quoted\\" word", "get_forecast")`, "get_forecast"],
    ["CRLF line ends", `a = "x"\r\nb = "get_forecast"\r\n`, "get_forecast"],
  ])("%s", (_, source, expected) => {
    expect(literals(source).has(expected)).toBe(true);
  });

  test("a quote without its pair on the line does not swallow the next line", () => {
    const found = literals(`it's\nx = "echo"`);
    expect(found.has("echo")).toBe(true);
  });

  test("literals do not span lines (a lone quote pairs with nothing)", () => {
    expect(literals(`a = "get_\nforecast"`).has("get_\nforecast")).toBe(false);
  });

  test("escapes are resolved as well as kept raw", () => {
    const found = literals(`uri = "weather:\\/\\/stations"; t = "get\\u005fforecast"`);
    expect(found.has("weather://stations")).toBe(true);
    expect(found.has("weather:\\/\\/stations")).toBe(true);
    expect(found.has("get_forecast")).toBe(true);
  });

  test("template literals with substitutions are kept, for URI templates", () => {
    expect(literals("fetch(`weather://city/${city}/today`)").has("weather://city/${city}/today")).toBe(true);
  });

  test("identifiers and comments alone are not literals", () => {
    const found = literals("get_forecast(city) // get_forecast\n# echo");
    expect(found.has("get_forecast")).toBe(false);
    expect(found.has("echo")).toBe(false);
  });

  test("empty and over-long stretches are dropped", () => {
    expect(literals(`""`).size).toBe(0);
    const long = "x".repeat(MAX_LITERAL_LENGTH + 1);
    expect(literals(`"${long}"`).has(long)).toBe(false);
  });

  test("collects into an existing set", () => {
    const into = new Set(["a"]);
    extractLiterals(`"b"`, into);
    expect([...into].sort()).toEqual(["a", "b"]);
  });

  test.each([
    ["plain", "plain"],
    ['a\\"b', 'a"b'],
    ["a\\'b", "a'b"],
    ["\\\\", "\\"],
    ["\\n", "\n"],
    ["\\u00e9", "é"],
    ["\\u{1F600}", "😀"],
    ["\\x41", "A"],
    ["\\/", "/"],
  ])("unescape %p", (raw, plain) => {
    expect(unescapeLiteral(raw)).toBe(plain);
  });
});
