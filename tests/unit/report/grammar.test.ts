/** Grouped lines read as English (issue #29): verbs agree with their count, and a few names are listed whole. */
import { describe, expect, test } from "bun:test";
import { rangeOf, runMessage } from "../../../src/report/entries.ts";

const plain = (name: string) => name;

describe("runs of one change on many items", () => {
  test("the verb agrees with the number of items", () => {
    const tools = Array.from({ length: 14 }, (_, i) => `t${i}`);
    expect(runMessage("tool", tools, "no longer reaches an open world of external entities", plain)).toStartWith(
      "14 tools no longer reach an open world of external entities: ",
    );
    expect(runMessage("tool", tools, "no longer performs destructive updates", plain)).toStartWith(
      "14 tools no longer perform destructive updates: ",
    );
    expect(runMessage("tool", ["a", "b", "c", "d"], "removed", plain)).toBe("4 tools removed: a, b, c, d");
  });

  test("a few names are listed whole, however long; many only past a sensible width", () => {
    const long = ["alpha_tool_with_a_long_name", "beta_tool_with_a_long_name", "gamma_tool_with_a_long_name"];
    const five = [...long, "delta_tool_with_a_long_name", "eps_tool_with_a_long_name"];
    expect(rangeOf(five, plain)).toBe(five.join(", "));
    const many = Array.from({ length: 40 }, (_, i) => `resource://static/${i}`);
    expect(rangeOf(many, plain)).toBe("resource://static/0 … /39");
    const short = Array.from({ length: 12 }, (_, i) => `t${i}`);
    expect(rangeOf(short, plain)).toBe(short.join(", "));
  });
});
