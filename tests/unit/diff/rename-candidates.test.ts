/**
 * Rename candidates are made only when a rename is possible: a list with no removed item, or
 * no added one, makes none (a tool's candidate serializes its inputSchema, which a release that
 * only adds tools paid once per added tool). Where both sides have items, they are still made
 * and the hint still comes.
 */
import { expect, test } from "bun:test";
import type { JsonObject } from "../../../src/contract/model.ts";
import { diffById } from "../../../src/diff/change.ts";

function run(before: JsonObject[], after: JsonObject[]) {
  const asked: string[] = [];
  const specs = diffById({
    kind: "tool",
    id: "name",
    removedRule: "tool-removed",
    addedRule: "tool-added",
    duplicateRule: "tool-duplicate-added",
    before,
    after,
    renameCandidate: (id) => {
      asked.push(id);
      return { id, text: id };
    },
    diffItem: () => [],
  });
  return { asked, specs };
}

test("only additions, or only removals: no rename candidate is made", () => {
  expect(run([{ name: "a" }], [{ name: "a" }, { name: "b" }, { name: "c" }]).asked).toEqual([]);
  expect(run([{ name: "a" }, { name: "b" }], [{ name: "a" }]).asked).toEqual([]);
});

test("a removal beside an addition still gets its rename hint", () => {
  const { asked, specs } = run([{ name: "get_forecast" }], [{ name: "get_forecasts" }]);
  expect(asked).toEqual(["get_forecast", "get_forecasts"]);
  expect(specs.find((s) => s.rule === "tool-removed")?.renamedTo).toBe("get_forecasts");
});
