/**
 * Changes to fields the engine does not model get a section of their own in the human
 * reports (text, Markdown), after BREAKING and before MINOR, with the note "not modelled:
 * review"; they are never listed among the minor or patch changes.
 */
import { describe, expect, test } from "bun:test";
import { compareSurfaces } from "../../../src/policy/compare.ts";
import { renderMarkdown } from "../../../src/report/markdown.ts";
import { buildReport, sideOf } from "../../../src/report/model.ts";
import { renderText } from "../../../src/report/text.ts";
import { contract, tool } from "../diff/helpers.ts";

function report() {
  const before = contract({ tools: [tool("t", { outputVariants: ["csv"] }), tool("gone")] });
  const after = contract({ tools: [tool("t", { outputVariants: ["json"], title: "T" }), tool("new")] });
  const changes = compareSurfaces(before, after);
  return buildReport("diff", sideOf(before, "old.json"), sideOf(after, "new.json"), changes, "breaking");
}

describe("the NOT MODELLED section", () => {
  test("text: its own heading between BREAKING and MINOR, with the note", () => {
    const text = renderText(report(), { color: false });
    const headings = text.split("\n").filter((line) => /^[A-Z][A-Z :]+ \(\d+\)$/.test(line));
    expect(headings).toEqual(["BREAKING (1)", "NOT MODELLED: REVIEW (1)", "MINOR (1)", "PATCH (1)"]);
    const section = text.slice(text.indexOf("NOT MODELLED"), text.indexOf("MINOR ("));
    expect(section).toContain('tool "t": outputVariants changed from ["csv"] to ["json"]');
    expect(section).toContain("not modelled: review");
    expect(text.slice(text.indexOf("MINOR ("))).not.toContain("outputVariants");
  });

  test("Markdown: its own collapsible section and summary row", () => {
    const markdown = renderMarkdown(report());
    expect(markdown).toContain("<strong>Not modelled: review (1)</strong>");
    expect(markdown).toMatch(/\| 🟡 unmodelled \| 1 \| 0 \| 0 \|/);
    const order = ["Breaking (1)", "Not modelled: review (1)", "Minor (1)", "Patch (1)"].map((label) =>
      markdown.indexOf(`<strong>${label}</strong>`),
    );
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] as number)))).toBe(true);
  });

  test("no unmodelled change: no such section", () => {
    const before = contract({ tools: [tool("t", { "x-stable": 1 })] });
    const after = contract({ tools: [tool("t", { "x-stable": 1, title: "T" })] });
    const changes = compareSurfaces(before, after);
    const text = renderText(buildReport("diff", sideOf(before, "a"), sideOf(after, "b"), changes, "breaking"), {
      color: false,
    });
    expect(text).not.toContain("NOT MODELLED");
    expect(changes.map((c) => c.rule)).toEqual(["description-changed"]);
  });
});
