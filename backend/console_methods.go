package backend

// MethodTemplate is a request a client may send a server, with a params
// object to start from: what the console offers to type.
type MethodTemplate struct {
	Method string
	Params string // JSON; "" for a request without params
}

// commonMethods are the client requests of both eras.
var commonMethods = []MethodTemplate{
	{"tools/list", `{}`},
	{"tools/call", `{"name": "", "arguments": {}}`},
	{"resources/list", `{}`},
	{"resources/templates/list", `{}`},
	{"resources/read", `{"uri": ""}`},
	{"prompts/list", `{}`},
	{"prompts/get", `{"name": "", "arguments": {}}`},
	{"completion/complete", `{"ref": {"type": "ref/prompt", "name": ""}, "argument": {"name": "", "value": ""}}`},
	{"tasks/list", `{}`},
	{"tasks/get", `{"taskId": ""}`},
	{"tasks/result", `{"taskId": ""}`},
	{"tasks/cancel", `{"taskId": ""}`},
}

// legacyMethods are requests of the versions with the initialize
// handshake (up to 2025-11-25).
var legacyMethods = []MethodTemplate{
	{"ping", ``},
	{"logging/setLevel", `{"level": "info"}`},
	{"resources/subscribe", `{"uri": ""}`},
	{"resources/unsubscribe", `{"uri": ""}`},
	{"initialize", `{"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "console", "version": "0"}}`},
}

// legacyNotifications are the notifications a client may send in the
// versions with the initialize handshake; the console offers them too,
// sent with "Send as notification".
var legacyNotifications = []MethodTemplate{
	{"notifications/initialized", ``},
	{"notifications/cancelled", `{"requestId": "", "reason": ""}`},
	{"notifications/progress", `{"progressToken": "", "progress": 0}`},
	{"notifications/roots/list_changed", ``},
}

// modernMethods are requests of version 2026-07-28.
var modernMethods = []MethodTemplate{
	{"server/discover", `{}`},
	{"subscriptions/listen", `{"resources": [{"uri": ""}]}`},
}

// ConsoleMethods lists the requests and notifications of an era ("" is legacy), the common
// ones first; EraAuto, not yet settled, lists both eras'.
func ConsoleMethods(era Era) []MethodTemplate {
	out := append([]MethodTemplate(nil), commonMethods...)
	if era != EraModern {
		out = append(out, legacyMethods...)
		out = append(out, legacyNotifications...)
	}
	if era == EraModern || era == EraAuto {
		out = append(out, modernMethods...)
	}
	return out
}
