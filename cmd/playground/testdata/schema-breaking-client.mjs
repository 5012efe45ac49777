// A client for the conformance suite's client scenarios that breaks the
// protocol's schema on purpose, so that the suite's wire-schema-valid check
// on what it sends fails: its initialize request leaves out clientInfo's
// required version, and its tools/list request gives a number as cursor.
// It speaks Streamable HTTP to the URL given as its last argument and
// writes every message it sends and receives to the file that
// SCHEMA_BREAKING_CLIENT_EXPORT names, as a session export (one frame a
// line), for `playground lint` to judge.
//
// Usage: node schema-breaking-client.mjs URL

import { writeFileSync } from "node:fs";

const url = process.argv.at(-1);
const exportFile = process.env.SCHEMA_BREAKING_CLIENT_EXPORT;
const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION || "2025-11-25";
const lines = [];
let sessionId = "";

// record notes one frame as an export line.
function record(direction, body) {
  lines.push(JSON.stringify({
    id: lines.length + 1, time: new Date().toISOString(), direction, kind: "message",
    method: body.method, body, sessionId: 1, serverName: "conformance", protocolVersion: version,
  }));
}

// send posts message and records it and every message of the answer, a
// JSON body or an SSE stream.
async function send(message) {
  record("out", message);
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  if (sessionId) {
    headers["mcp-session-id"] = sessionId;
    headers["mcp-protocol-version"] = version;
  }
  const resp = await fetch(url, { method: "POST", headers, body: JSON.stringify(message) });
  sessionId = resp.headers.get("mcp-session-id") || sessionId;
  const text = await resp.text();
  const type = resp.headers.get("content-type") || "";
  const bodies = type.includes("text/event-stream")
    ? text.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).filter(Boolean)
    : text.trim() ? [text] : [];
  for (const b of bodies) {
    record("in", JSON.parse(b));
  }
}

try {
  await send({ jsonrpc: "2.0", id: 1, method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "schema-breaking-client" } } });
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: 5 } });
} finally {
  writeFileSync(exportFile, lines.map((l) => l + "\n").join(""));
}
