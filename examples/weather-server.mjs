#!/usr/bin/env node
// A small example MCP server (stdio) for trying mcp-contract: `npm run demo` snapshots it.
// Written with the SDK's low-level Server so that its JSON Schemas are exactly what you see.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const tools = [
  {
    name: "get_forecast",
    title: "Weather forecast",
    description: "Get the daily weather forecast for a city, up to 7 days ahead.",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string", description: "City name, e.g. 'Lisbon'", minLength: 1 },
        days: { type: "integer", minimum: 1, maximum: 7, default: 3, description: "Number of days" },
        units: { type: "string", enum: ["metric", "imperial"], default: "metric" },
      },
      required: ["city"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        days: {
          type: "array",
          items: {
            type: "object",
            properties: {
              date: { type: "string", format: "date" },
              high: { type: "number" },
              low: { type: "number" },
              conditions: { type: "string", enum: ["sunny", "cloudy", "rain", "snow"] },
            },
            required: ["date", "high", "low", "conditions"],
          },
        },
      },
      required: ["city", "days"],
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: "set_alert",
    title: "Set a weather alert",
    description: "Create an alert that fires when a condition is forecast for a city.",
    inputSchema: {
      type: "object",
      properties: {
        city: { type: "string" },
        condition: { type: "string", enum: ["rain", "snow", "heat"] },
      },
      required: ["city", "condition"],
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  },
];

const resources = [
  { uri: "weather://stations", name: "stations", title: "Weather stations", mimeType: "application/json" },
];
const resourceTemplates = [{ uriTemplate: "weather://city/{city}/today", name: "today", mimeType: "application/json" }];
const prompts = [
  {
    name: "packing_list",
    description: "Suggest what to pack for a trip, given the forecast.",
    arguments: [
      { name: "city", description: "Destination city", required: true },
      { name: "days", description: "Length of the trip in days" },
    ],
  },
];

// `--release 1.3.0` serves the next release, whose changes break clients: `mcp-contract check
// --baseline examples/weather.contract.json -- node examples/weather-server.mjs --release 1.3.0`
// shows the failing check in the README.
const release = process.argv.includes("--release") ? process.argv[process.argv.indexOf("--release") + 1] : "1.2.0";
if (release === "1.3.0") {
  const forecast = tools[0];
  forecast.inputSchema.properties.units.enum = ["metric"];
  forecast.outputSchema.properties.days.items.properties.conditions.enum.push("hail");
  tools.push({
    name: "list_stations",
    title: "List weather stations",
    description: "List the weather stations forecasts are drawn from.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true },
  });
} else if (release !== "1.2.0") {
  console.error(`unknown release ${release}: this example serves 1.2.0 (the default) or 1.3.0`);
  process.exit(2);
}

const server = new Server(
  { name: "example-weather", version: release },
  {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: "Forecasts come from a fictional provider; use get_forecast before set_alert.",
  },
);
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources }));
server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates }));
server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: "text", text: `called ${request.params.name} (example server: no real data)` }],
}));
server.setRequestHandler(ReadResourceRequestSchema, (request) => ({
  contents: [{ uri: request.params.uri, mimeType: "application/json", text: "[]" }],
}));
server.setRequestHandler(GetPromptRequestSchema, () => ({
  messages: [{ role: "user", content: { type: "text", text: "Pack for the forecast." } }],
}));

await server.connect(new StdioServerTransport());
