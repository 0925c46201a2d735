import { describe, expect, test } from "bun:test";
import { uriFitsTemplate, uriTemplatePrefix } from "../../../src/policy/uri-template-match.ts";

describe("does a URI fit a URI template", () => {
  test.each([
    ["weather://city/{city}/today", "weather://city/paris/today", true],
    ["weather://city/{city}/today", "weather://city/{city}/today", true],
    ["weather://city/{city}/today", "weather://city/${city}/today", true],
    ["weather://city/{city}/today", "weather://city/paris/tomorrow", false],
    ["weather://city/{city}/today", "weather://city/paris/extra/today", false],
    ["weather://city/{city}/today", "weather://city/paris", false],
    ["weather://city/{city}/today", "xweather://city/paris/today", false],
    ["weather://city/{city}/today", "weather://city/paris/today?x=1", false],
    ["file:///{+path}", "file:///home/me/notes.txt", true],
    ["file:///{+path}", "http:///home", false],
    ["repo://{owner}/{repo}{/path*}", "repo://acme/site", true],
    ["repo://{owner}/{repo}{/path*}", "repo://acme/site/src/index.ts", true],
    ["search://items{?q,limit}", "search://items", true],
    ["search://items{?q,limit}", "search://items?q=x&limit=3", true],
    ["search://items{?q}{&page}", "search://items?q=x&page=2", true],
    ["doc://{id}{#section}", "doc://42#intro", true],
    ["img://{name}{.ext}", "img://logo.png", true],
    ["matrix://{;x,y}", "matrix://;x=1;y=2", true],
    ["a.b://{x}", "aXb://y", false],
    ["weird://{unclosed", "weird://{unclosed", true],
    ["weird://{unclosed", "weird://x", false],
  ])("%p ← %p → %p", (template, uri, expected) => {
    expect(uriFitsTemplate(template, uri)).toBe(expected);
  });

  test("the literal prefix before the first expression", () => {
    expect(uriTemplatePrefix("weather://city/{city}/today")).toBe("weather://city/");
    expect(uriTemplatePrefix("no-vars")).toBe("no-vars");
    expect(uriTemplatePrefix("{x}")).toBe("");
  });
});
