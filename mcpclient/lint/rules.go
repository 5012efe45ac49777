package lint

// Rule is one check a Linter makes: its stable code, how much breaking
// it matters, where the specification sets it, and the usual cause and
// fix when it is broken.
type Rule struct {
	Code     string
	Severity Severity
	Spec     string
	Fix      string
}

const (
	specJSONRPC   = "https://www.jsonrpc.org/specification"
	specMCP       = "https://modelcontextprotocol.io/specification/2025-11-25/"
	specLifecycle = specMCP + "basic/lifecycle"
	specModern    = "https://modelcontextprotocol.io/specification/2026-07-28/basic"
)

// The rules, grouped as the package checks them.
var (
	ruleParse = Rule{"jsonrpc.parse", SevError, specJSONRPC + "#parse_error",
		"The sender wrote bytes that are not JSON (-32700): a truncated write, a print to the wrong stream, or a message split across lines."}
	ruleStdioLine = Rule{"transport.stdio-line", SevError, specMCP + "basic/transports#stdio",
		"A stdio server wrote a line to stdout that is not a JSON-RPC message; logs belong on stderr (a print or console.log in the server, or a library that logs to stdout)."}
	ruleSplitJSON = Rule{"transport.stdio-split", SevError, specMCP + "basic/transports#stdio",
		"Over stdio every message is one line: the sender wrote one JSON message across several (pretty-printed, or a raw newline in a string), so the receiver reads each line as garbage; serialise messages compactly."}
	ruleNotObject = Rule{"jsonrpc.not-object", SevError, specJSONRPC + "#request_object",
		"A message is a JSON object; the sender serialised something else (a string, a number, null)."}
	ruleVersion = Rule{"jsonrpc.version", SevError, specJSONRPC + "#request_object",
		`Every message carries "jsonrpc": "2.0" exactly; the sender left it out or wrote another value.`}
	ruleShape = Rule{"jsonrpc.shape", SevError, specJSONRPC + "#request_object",
		"A message is a request (method and id), a notification (method, no id) or a response (id and result or error) (-32600: missing required fields)."}
	ruleIDType = Rule{"jsonrpc.id-type", SevError, specMCP + "basic#requests",
		"An id is a string or an integer, never null, a fraction, a boolean or a structure; the sender's id generator is broken."}
	ruleMethodType = Rule{"jsonrpc.method-type", SevError, specJSONRPC + "#request_object",
		"The method is a string naming the procedure (-32601 names a method the receiver does not know)."}
	ruleParamsType = Rule{"jsonrpc.params-type", SevError, specJSONRPC + "#parameter_structures",
		"Params, when present, are an object (MCP) or an array (plain JSON-RPC), never a string, number or null."}
	ruleResponseShape = Rule{"jsonrpc.response-shape", SevError, specJSONRPC + "#response_object",
		"A response holds exactly one of result and error; the sender set both, or neither."}
	ruleErrorObject = Rule{"jsonrpc.error-object", SevError, specJSONRPC + "#error_object",
		"An error is an object with an integer code and a string message; the sender's error path serialises its own exception type."}
	ruleReservedCode = Rule{"jsonrpc.reserved-code", SevWarning, specJSONRPC + "#error_object",
		"Codes from -32768 to -32000 are reserved: only -32700, -32600, -32601, -32602, -32603 and the server errors -32099..-32000 have a meaning; use a code outside the range for an application error."}
	ruleNullID = Rule{"jsonrpc.null-id", SevError, specJSONRPC + "#response_object",
		"Only an error answering a request whose id could not be read has a null id; a result always names the request it answers."}
	ruleUnknownResponse = Rule{"jsonrpc.unknown-response", SevError, specJSONRPC + "#response_object",
		"A response answers an id that was never asked: the responder rewrote or mistyped the id (a number sent back as a string), or the request went to another session."}
	ruleDuplicateResponse = Rule{"jsonrpc.duplicate-response", SevError, specJSONRPC + "#response_object",
		"A request is answered once; the responder answered it twice (a retry, or two handlers for one method)."}
	ruleDuplicateID = Rule{"jsonrpc.duplicate-id", SevError, specMCP + "basic#requests",
		"The request reuses the id of a request of the same sender still in flight, so the answers cannot be told apart; the id counter restarted or is shared."}
	ruleBatch = Rule{"jsonrpc.batch", SevError, specMCP + "basic#messages",
		"This protocol version has no JSON-RPC batches (removed in 2025-06-18); send each message on its own."}
	ruleEmptyBatch = Rule{"jsonrpc.empty-batch", SevError, specJSONRPC + "#batch",
		"An empty array is not a batch (-32600); send nothing instead."}

	ruleNotificationID = Rule{"mcp.notification-id", SevError, specMCP + "basic#notifications",
		"A notifications/* method is a notification and carries no id; the sender built it as a request, so it may wait for an answer that never comes."}
	ruleUnknownMethod = Rule{"mcp.unknown-method", SevWarning, specMCP + "schema",
		"The method is not in the protocol version in use (-32601 Method not found): a typo, a method of another version, or a vendor extension."}
	ruleMethodDirection = Rule{"mcp.method-direction", SevError, specMCP + "schema",
		"The method exists in this version, but the other side sends it: a client-only request sent by the server, or the reverse."}
	ruleSchema = Rule{"mcp.schema", SevError, specMCP + "schema",
		"The message does not match the version's schema: a required field is missing or a value has the wrong type (-32602 Invalid params for a request's arguments)."}
	ruleContentType = Rule{"mcp.content-type", SevError, specMCP + "server/tools#tool-result",
		"A content item's type is not one the version defines (text, image, audio, resource_link, resource, as the version has them); the server uses a newer version's type or a private one."}
	ruleStructured = Rule{"mcp.structured-content", SevError, specMCP + "server/tools#output-schema",
		"A tool that declares an outputSchema returns structuredContent matching it in every result that is not an error; the tool's code and its declared schema drifted apart (a renamed field, a wrong type, a value left out)."}
	ruleUnknownVersion = Rule{"mcp.unknown-version", SevInfo, specLifecycle + "#version-negotiation",
		"The session's protocol version is not one this linter has a schema for, so only the JSON-RPC rules are checked."}
	ruleInitializeFirst = Rule{"mcp.lifecycle.initialize-first", SevError, specLifecycle + "#initialization",
		"In a legacy session the first request is initialize; the client skipped the handshake (or spoke the modern era without its _meta)."}
	ruleInitializeTwice = Rule{"mcp.lifecycle.initialize-twice", SevError, specLifecycle + "#initialization",
		"initialize is sent once per session; reconnect for a new one."}
	ruleInitializedFirst = Rule{"mcp.lifecycle.initialized-first", SevError, specLifecycle + "#initialization",
		"After the initialize result the client sends notifications/initialized before any request but ping; the client skipped it or sent requests too early."}
	ruleServerEarly = Rule{"mcp.lifecycle.server-early", SevWarning, specLifecycle + "#initialization",
		"The server sent a request other than ping before the client's notifications/initialized."}
	ruleCapability = Rule{"mcp.capability", SevError, specMCP + "basic/lifecycle#capability-negotiation",
		"The request needs a capability the other side did not advertise (in initialize, or in the modern era's _meta and server/discover); check the capabilities before sending."}
	ruleMetaMissing = Rule{"mcp.meta-missing", SevError, specModern,
		"In the modern era every request carries io.modelcontextprotocol/protocolVersion and io.modelcontextprotocol/clientCapabilities in params._meta."}
	ruleProgressToken = Rule{"mcp.progress-token", SevWarning, specMCP + "basic/utilities/progress",
		"Progress names a progressToken that no request in flight gave, or comes after the request's final response."}
	ruleAfterCancel = Rule{"mcp.response-after-cancel", SevWarning, specMCP + "basic/utilities/cancellation",
		"The request was cancelled with notifications/cancelled; the receiver should stop and not answer it (a late answer is harmless but is wasted work)."}

	ruleResultType = Rule{"mcp.result-type", SevError, specModern + "/lifecycle",
		`In the modern era every result says its resultType: "complete", or "input_required" when the server needs the client's input first; a server that leaves it out is written for an older version.`}
	ruleInputRound = Rule{"mcp.input-round", SevError, specModern + "/lifecycle",
		"An input_required result asks for inputRequests or carries a requestState (or both); the client fulfils every input request and sends the request again with the inputResponses and the requestState echoed byte for byte."}
	ruleDeprecated = Rule{"mcp.deprecated", SevInfo, "https://modelcontextprotocol.io/seps/2577-deprecate-roots-sampling-and-logging",
		"Roots, Sampling and Logging are deprecated from 2026-07-28 (SEP-2577): they keep working for at least a year, but plan to move to tool parameters, the host's own model and stderr or OpenTelemetry."}

	ruleContentTypeHeader = Rule{"transport.content-type", SevError, specMCP + "basic/transports#streamable-http",
		"A JSON-RPC message over HTTP comes as application/json or in a text/event-stream; the server sent another Content-Type."}
	ruleVersionHeader = Rule{"transport.protocol-version-header", SevError, specMCP + "basic/transports#protocol-version-header",
		"Over HTTP, every request after initialize carries MCP-Protocol-Version with the negotiated version (in the modern era, the version in the request's _meta); a client that drops or hard-codes it is refused with 400 Bad Request."}
	ruleSessionHeader = Rule{"transport.session-id", SevError, specMCP + "basic/transports#session-management",
		"When the server's initialize response gives an Mcp-Session-Id, the client sends it unchanged on every later request of the session (a client that loses it starts a new session without knowing); the modern era has no sessions and no such header."}
	ruleMethodHeader = Rule{"transport.method-header", SevError, specModern + "/transports",
		"In the modern era every POST carries Mcp-Method equal to the body's method, and a tools/call, prompts/get or resources/read also Mcp-Name equal to params.name or params.uri, so that intermediaries can route by them; servers refuse a mismatch with 400 Bad Request."}
	ruleSSEEventType = Rule{"transport.sse-event-type", SevWarning, specMCP + "basic/transports#streamable-http",
		`A JSON-RPC message in an event stream comes in an event of the default type, "message" (no event field, or event: message); clients built on EventSource's onmessage, and many others, drop events of any other type, so the message never arrives.`}
	ruleHTTPStatus = Rule{"transport.http-status", SevError, specMCP + "basic/transports#streamable-http",
		"A JSON-RPC result came with an HTTP error status; a server answers a request it handled with 200 (or a stream), and a failure as a JSON-RPC error."}
)

// Rules lists every rule a Linter checks, by code.
func Rules() []Rule {
	return []Rule{ruleParse, ruleStdioLine, ruleSplitJSON, ruleNotObject, ruleVersion, ruleShape, ruleIDType, ruleMethodType, ruleParamsType,
		ruleResponseShape, ruleErrorObject, ruleReservedCode, ruleNullID, ruleUnknownResponse, ruleDuplicateResponse,
		ruleDuplicateID, ruleBatch, ruleEmptyBatch, ruleNotificationID, ruleUnknownMethod, ruleMethodDirection, ruleSchema,
		ruleContentType, ruleStructured, ruleUnknownVersion, ruleInitializeFirst, ruleInitializeTwice, ruleInitializedFirst, ruleServerEarly,
		ruleCapability, ruleMetaMissing, ruleProgressToken, ruleAfterCancel, ruleContentTypeHeader, ruleHTTPStatus, ruleSSEEventType, ruleVersionHeader, ruleSessionHeader, ruleMethodHeader, ruleResultType, ruleInputRound, ruleDeprecated}
}

// RuleOf is the rule with code, ok false when no rule has it.
func RuleOf(code string) (Rule, bool) {
	for _, r := range Rules() {
		if r.Code == code {
			return r, true
		}
	}
	return Rule{}, false
}
