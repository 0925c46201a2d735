import { expect, test } from "bun:test";
import { modernFetch } from "../../../src/connect/http-fetch.ts";
import type { ParamHeader } from "../../../src/connect/session.ts";

/** The headers a modern request went out with. */
async function headersFor(
  method: string,
  params: Record<string, unknown>,
  declared: Map<string, ParamHeader[]> = new Map(),
): Promise<Headers> {
  let sent = new Headers();
  const fetch = modernFetch(
    async (_url, init) => {
      sent = new Headers(init?.headers);
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    },
    () => declared,
  );
  const body = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
  };
  await fetch("http://127.0.0.1/mcp", { method: "POST", body: JSON.stringify(body) });
  return sent;
}

test("modern requests that name something carry Mcp-Name (name or uri), Base64-wrapped when not plain header text", async () => {
  const call = await headersFor("tools/call", { name: "get_forecast", arguments: {} });
  expect([call.get("mcp-method"), call.get("mcp-name"), call.get("mcp-protocol-version")]).toEqual([
    "tools/call",
    "get_forecast",
    "2026-07-28",
  ]);
  expect((await headersFor("resources/read", { uri: "weather://city/Oslo/today" })).get("mcp-name")).toBe(
    "weather://city/Oslo/today",
  );
  expect((await headersFor("prompts/get", { name: "météo" })).get("mcp-name")).toBe(
    `=?base64?${Buffer.from("météo").toString("base64")}?=`,
  );
  expect((await headersFor("tools/list", {})).get("mcp-name")).toBeNull();
});

test("a tools/call mirrors the arguments its x-mcp-header declarations name into Mcp-Param-* headers", async () => {
  const declared = new Map([
    [
      "forecast",
      [
        { header: "Region", property: ["region"] },
        { header: "Days", property: ["days"] },
        { header: "Deep", property: ["where", "zone"] },
        { header: "Absent", property: ["nothing"] },
      ],
    ],
  ]);
  const sent = await headersFor(
    "tools/call",
    { name: "forecast", arguments: { region: "eu-west", days: 3, where: { zone: "zürich" } } },
    declared,
  );
  expect(sent.get("mcp-param-region")).toBe("eu-west");
  expect(sent.get("mcp-param-days")).toBe("3");
  expect(sent.get("mcp-param-deep")).toBe(`=?base64?${Buffer.from("zürich").toString("base64")}?=`);
  expect(sent.get("mcp-param-absent")).toBeNull();
  // Another tool's call carries none.
  expect(
    (await headersFor("tools/call", { name: "other", arguments: { region: "x" } }, declared)).get("mcp-param-region"),
  ).toBeNull();
});
