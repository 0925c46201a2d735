/**
 * RFC 8785 (JCS) against the RFC's own published examples: the sample of §3.2.2, the key
 * sorting of §3.2.3, and the number table of Appendix B (IEEE-754 bit patterns → text).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { canonicalize, canonicalizeDirect, jcsNumber } from "../../../src/contract/jcs.ts";

/** A double from its IEEE-754 bit pattern, as Appendix B lists them. */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("RFC 8785 examples", () => {
  test("§3.2.2: whitespace removed, literals, numbers and strings serialized, keys sorted", () => {
    const text =
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n' +
      '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n' +
      '  "literals": [null, true, false]\n}';
    expect(canonicalize(JSON.parse(text))).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  test("§3.2.3: member names sorted as UTF-16 code units, not code points or locale", () => {
    const text = `{
      "\\u20ac": "Euro Sign",
      "\\r": "Carriage Return",
      "\\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\\ud83d\\ude00": "Emoji: Grinning Face",
      "\\u0080": "Control",
      "\\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    const out = canonicalize(JSON.parse(text));
    // The RFC's expected bytes: only U+0000–U+001F are escaped; the rest is written as is.
    expect(out).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  // Appendix B: IEEE-754 bit pattern → the text JCS writes.
  const APPENDIX_B: [string, string][] = [
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ];
  test.each(APPENDIX_B)("Appendix B: %s → %s", (bits, expected) => {
    expect(jcsNumber(fromBits(bits))).toBe(expected);
    expect(canonicalize([fromBits(bits)])).toBe(`[${expected}]`);
  });

  test("Appendix B: NaN and Infinity have no canonical form", () => {
    expect(() => jcsNumber(fromBits("7fffffffffffffff"))).toThrow(/not a JSON number/);
    expect(() => jcsNumber(fromBits("7ff0000000000000"))).toThrow(/not a JSON number/);
  });
});

describe("canonicalize", () => {
  test("key order and spacing do not matter; array order does", () => {
    const a = JSON.parse('{"b": [1, 2], "a": {"y": true, "x": null}}');
    const b = JSON.parse('{"a":{"x":null,"y":true},"b":[1,2]}');
    expect(canonicalize(a)).toBe('{"a":{"x":null,"y":true},"b":[1,2]}');
    expect(canonicalize(b)).toBe(canonicalize(a));
    expect(canonicalize(JSON.parse('{"b":[2,1]}'))).toBe('{"b":[2,1]}');
  });

  test("a key named __proto__ is data, and empty containers stay", () => {
    expect(canonicalize(JSON.parse('{"__proto__":{"z":[]},"a":{}}'))).toBe('{"__proto__":{"z":[]},"a":{}}');
  });

  test("a lone surrogate a server sent is written escaped, not a failure", () => {
    expect(canonicalize(JSON.parse('{"s":"\\ud800"}'))).toBe('{"s":"\\ud800"}');
  });

  test("names that look like array indices are still sorted as code units ('10' before '9', '$defs' first)", () => {
    const value = JSON.parse('{"a":4,"9":2,"10":1,"$defs":{"2":0,"10":0}}');
    expect(canonicalize(value)).toBe('{"$defs":{"10":0,"2":0},"10":1,"9":2,"a":4}');
  });

  test("the fast path (sorted copy, JSON.stringify) writes what the member-by-member writer writes", () => {
    const keys = fc.oneof(
      fc.string(),
      fc.constantFrom("0", "1", "10", "9", "$ref", "__proto__", "\u20ac", "\ud83d\ude00"),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.string({ unit: "binary" }),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(keys, tie("value"), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const parsed = JSON.parse(JSON.stringify(value));
        expect(canonicalize(parsed)).toBe(canonicalizeDirect(parsed));
      }),
      // A fixed seed: the tier must not pass or fail by chance (seed -56580460 found the
      // __proto__ case below; it stays a row of its own).
      { numRuns: 300, seed: 20261202 },
    );
  });

  test("a member named __proto__ before a member whose value is reordered stays a member", () => {
    const value = JSON.parse('{"__proto__":0,"\ud83d\ude00":{"\ud83d\ude00":null,"":null}}');
    expect(canonicalize(value)).toBe(canonicalizeDirect(value));
    expect(canonicalize(value)).toBe('{"__proto__":0,"\ud83d\ude00":{"":null,"\ud83d\ude00":null}}');
  });
});
