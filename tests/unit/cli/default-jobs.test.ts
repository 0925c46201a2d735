import { describe, expect, test } from "bun:test";
import { defaultJobs } from "../../../src/cli/all-servers.ts";

describe("--all's default number of servers captured at once", () => {
  test("twice the cores, at least 8 (eight servers at once on a 2-core runner), at most 16", () => {
    expect([1, 2, 4, 5, 6, 8, 64].map((cores) => defaultJobs(cores))).toEqual([8, 8, 8, 10, 12, 16, 16]);
  });
});
