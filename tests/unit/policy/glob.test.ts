import { describe, expect, test } from "bun:test";
import { compileGlob, globToRegExp, hasWildcard, matchesGlob } from "../../../src/policy/glob.ts";

describe("globs", () => {
  test.each([
    ["get_forecast", "get_forecast", true],
    ["get_forecast", "get_forecasts", false],
    ["get_*", "get_forecast", true],
    ["get_*", "get_", true],
    ["get_*", "set_alert", false],
    ["get-*", "get_forecast", false],
    ["*", "", true],
    ["*", "anything at all", true],
    ["?cho", "echo", true],
    ["?cho", "cho", false],
    ["e?ho", "eecho", false],
    ["weather://*", "weather://city/paris", true],
    ["weather://*/today", "weather://city/{city}/today", true],
    ["a.b", "axb", false],
    ["a+b", "a+b", true],
    ["(x)", "(x)", true],
    ["[ab]", "a", false],
    ["[ab]", "[ab]", true],
    ["\\*", "*", true],
    ["\\*", "x", false],
    ["\\?x", "?x", true],
    ["Echo", "echo", false],
    ["*_*", "get_forecast", true],
    ["ünï*", "ünïcode", true],
  ])("%p against %p → %p", (glob, name, expected) => {
    expect(matchesGlob(glob, name)).toBe(expected);
    expect(compileGlob(glob)(name)).toBe(expected);
  });

  test("wildcards are only unescaped * and ?", () => {
    expect(hasWildcard("get_forecast")).toBe(false);
    expect(hasWildcard("get_*")).toBe(true);
    expect(hasWildcard("a?")).toBe(true);
    expect(hasWildcard("a\\*")).toBe(false);
    expect(hasWildcard("weather://city/{city}")).toBe(false);
  });

  test("the RegExp is anchored", () => {
    expect(globToRegExp("b*").test("ab")).toBe(false);
    expect(globToRegExp("*a").test("ab")).toBe(false);
  });
});
