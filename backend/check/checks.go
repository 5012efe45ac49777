package check

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// A check's codes, as the specification gives them.
const (
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeResourceNotFound = -32002
)

// checkDef is one check: its id, title, the conformance scenario it
// corresponds to, and how it is run. run returns the verdict and its
// reason, and adds its exchanges to res.
type checkDef struct {
	id, title, conformance string
	run                    func(ctx context.Context, r *runner, res *Result) (Verdict, string)
}

// checks are run in this order: the lists come before the checks that
// use what they found, the session's end last.
var checks = []checkDef{
	{"server-initialize", "the handshake: protocol version, server info and capabilities", "server-initialize", checkHandshake},
	{"ping", "ping is answered with an empty result", "ping", checkPing},
	{"tools-list", "tools/list, every page, gives well-formed tools", "tools-list", checkToolsList},
	{"resources-list", "resources/list and resources/templates/list, every page", "resources-list", checkResourcesList},
	{"prompts-list", "prompts/list, every page, gives well-formed prompts", "prompts-list", checkPromptsList},
	{"unknown-method", "an unknown method is answered -32601", "", checkUnknownMethod},
	{"invalid-params", "a request with bad params is answered -32602", "", checkInvalidParams},
	{"unknown-tool", "calling an unknown tool is refused", "", checkUnknownTool},
	{"unknown-resource", "reading an unknown resource is answered -32002 or -32602", "sep-2164-resource-not-found", checkUnknownResource},
	{"completion-complete", "completion/complete gives a list of values", "completion-complete", checkCompletion},
	{"logging-set-level", "logging/setLevel is answered with an empty result", "logging-set-level", checkSetLevel},
	{"dns-rebinding-protection", "a request with a foreign Host and Origin is refused (4xx), a local one accepted", "dns-rebinding-protection", checkDNSRebinding},
	{"origin-validation", "a request with a foreign Origin is refused (403)", "", checkOrigin},
	{"protocol-version-header", "a request with an unsupported MCP-Protocol-Version is answered 400", "", checkVersionHeader},
	{"header-validation", "a request whose Mcp-Method or Mcp-Name header is missing or disagrees with its body is answered 400", "http-header-validation", checkHeaderValidation},
	{"sse-polling", "a reply stream the server closes early is resumed with Last-Event-ID and brings the response", "server-sse-polling", checkSSEPolling},
	{"server-session-lifecycle", "an unknown or ended Mcp-Session-Id is answered 404; DELETE ends a session", "server-session-lifecycle", checkSessionLifecycle},
}

// IDs returns the ids of the checks in the order Run runs them,
// protocol-lint last.
func IDs() []string {
	ids := make([]string, 0, len(checks)+1)
	for _, c := range checks {
		ids = append(ids, c.id)
	}
	return append(ids, "protocol-lint")
}

// checkHandshake judges what the connection's handshake (initialize, or
// server/discover in the modern era) returned.
func checkHandshake(_ context.Context, r *runner, res *Result) (Verdict, string) {
	method := "initialize"
	if r.modern {
		method, res.Title = "server/discover", "server/discover: supported versions, server info and capabilities"
	}
	res.Exchanges = append(res.Exchanges, Exchange{What: method, method: method})
	var problems []string
	info := r.c.InitializeResult().ServerInfo
	if r.modern {
		d := r.c.Discovery()
		if d == nil {
			return Fail, "the connection has no server/discover result"
		}
		info = d.ServerInfo
		if len(d.SupportedVersions) == 0 {
			problems = append(problems, "no supportedVersions")
		}
	} else if r.c.ProtocolVersion() == "" {
		problems = append(problems, "no protocolVersion")
	}
	if info.Name == "" {
		problems = append(problems, "no serverInfo.name")
	}
	if r.caps == nil {
		problems = append(problems, "capabilities is not an object")
	}
	if _, sid, ok := r.c.HTTPEndpoint(); ok && !visibleASCII(sid) {
		problems = append(problems, fmt.Sprintf("the Mcp-Session-Id %q has characters outside visible ASCII", sid))
	}
	names := make([]string, 0, len(r.caps))
	for k := range r.caps {
		names = append(names, k)
	}
	sort.Strings(names)
	capsText := strings.Join(names, ", ")
	if capsText == "" {
		capsText = "none"
	}
	summary := fmt.Sprintf("protocol %s, server %q %s, capabilities: %s", r.c.ProtocolVersion(), info.Name, info.Version, capsText)
	if len(problems) > 0 {
		return Fail, strings.Join(problems, "; ") + " (" + summary + ")"
	}
	return Pass, summary
}

// visibleASCII reports whether s holds only the characters 0x21–0x7E
// that a session id may have.
func visibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

func checkPing(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if r.modern {
		return Skip, "2026-07-28 has no ping"
	}
	a := r.call(ctx, res, "ping", nil)
	return emptyResult(a, "ping")
}

// emptyResult judges an answer that should be {} (ping, logging/setLevel).
func emptyResult(a answer, method string) (Verdict, string) {
	switch {
	case a.err != nil:
		return Fail, a.failed()
	case a.rpcErr != nil:
		return Fail, fmt.Sprintf("%s was answered with error %s", method, errorText(a.rpcErr))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(a.result, &obj); err != nil {
		return Fail, fmt.Sprintf("the result is not an object: %s", excerpt(a.result))
	}
	delete(obj, "_meta")
	delete(obj, "resultType")
	if len(obj) > 0 {
		return Fail, fmt.Sprintf("the result is not empty: %s", oneLine(string(a.result), 200))
	}
	return Pass, "answered {}"
}

// maxPages bounds how many pages of one list a check follows.
const maxPages = 50

// listAll follows the pages of a list method to the end (at most
// maxPages), handing each page's items, under key, to each; it returns
// how many pages it read, or why it stopped.
func (r *runner) listAll(ctx context.Context, res *Result, method, key string, each func(json.RawMessage) string) (pages int, problems []string, failure string) {
	cursor := ""
	seen := map[string]bool{}
	for pages < maxPages {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		a := r.call(ctx, res, method, params)
		pages++
		switch {
		case a.err != nil:
			return pages, problems, fmt.Sprintf("page %d: %s", pages, a.failed())
		case a.rpcErr != nil:
			return pages, problems, fmt.Sprintf("page %d: error %s", pages, errorText(a.rpcErr))
		}
		var page map[string]json.RawMessage
		if err := json.Unmarshal(a.result, &page); err != nil {
			return pages, problems, fmt.Sprintf("page %d: the result is not an object", pages)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(page[key], &items); err != nil || page[key] == nil {
			return pages, problems, fmt.Sprintf("page %d: %s is not an array", pages, key)
		}
		for _, it := range items {
			if p := each(it); p != "" {
				problems = append(problems, p)
			}
		}
		next, ok := page["nextCursor"]
		if !ok || string(next) == "null" {
			return pages, problems, ""
		}
		if err := json.Unmarshal(next, &cursor); err != nil {
			return pages, problems, fmt.Sprintf("page %d: nextCursor %s is not a string", pages, next)
		}
		if seen[cursor] {
			return pages, problems, fmt.Sprintf("page %d: nextCursor %q came before: the pages loop", pages, cursor)
		}
		seen[cursor] = true
	}
	return pages, problems, fmt.Sprintf("still a nextCursor after %d pages; stopped there", maxPages)
}

// listVerdict turns listAll's outcome into a verdict on n items.
func listVerdict(n int, noun string, pages int, problems []string, failure string) (Verdict, string) {
	var why []string
	if failure != "" {
		why = append(why, failure)
	}
	if len(problems) > 0 {
		more := ""
		if len(problems) > 3 {
			more = fmt.Sprintf(" (and %d more)", len(problems)-3)
		}
		why = append(why, strings.Join(problems[:min(3, len(problems))], "; ")+more)
	}
	if len(why) > 0 {
		return Fail, strings.Join(why, "; ")
	}
	return Pass, fmt.Sprintf("%s in %s", count(n, noun), count(pages, "page"))
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

type listedTool struct {
	Name        string          `json:"name"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

type listedPrompt struct {
	Name      string `json:"name"`
	Arguments []struct {
		Name string `json:"name"`
	} `json:"arguments"`
}

func checkToolsList(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if !r.has("tools") {
		return Skip, "the server does not declare the tools capability"
	}
	pages, problems, failure := r.listAll(ctx, res, "tools/list", "tools", func(raw json.RawMessage) string {
		var t listedTool
		if err := json.Unmarshal(raw, &t); err != nil {
			return "a tool is not an object with a string name"
		}
		if t.Name == "" {
			return fmt.Sprintf("tool %d has no name", len(r.tools))
		}
		r.tools = append(r.tools, t)
		var schema map[string]any
		if json.Unmarshal(t.InputSchema, &schema) != nil || schema == nil {
			return fmt.Sprintf("tool %q has no inputSchema object", t.Name)
		}
		if typ, _ := schema["type"].(string); typ != "object" {
			return fmt.Sprintf("tool %q: inputSchema.type is %v, not \"object\"", t.Name, schema["type"])
		}
		return ""
	})
	return listVerdict(len(r.tools), "tool", pages, problems, failure)
}

func checkResourcesList(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if !r.has("resources") {
		return Skip, "the server does not declare the resources capability"
	}
	n := 0
	pages, problems, failure := r.listAll(ctx, res, "resources/list", "resources", func(raw json.RawMessage) string {
		var rc struct{ URI, Name string }
		n++
		if err := json.Unmarshal(raw, &rc); err != nil || rc.URI == "" || rc.Name == "" {
			return fmt.Sprintf("resource %d lacks a uri or a name", n)
		}
		return ""
	})
	if failure != "" || len(problems) > 0 {
		return listVerdict(n, "resource", pages, problems, failure)
	}
	tpages, tproblems, tfailure := r.listAll(ctx, res, "resources/templates/list", "resourceTemplates", func(raw json.RawMessage) string {
		var t struct{ URITemplate, Name string }
		if err := json.Unmarshal(raw, &t); err != nil || t.URITemplate == "" || t.Name == "" {
			return fmt.Sprintf("resource template %d lacks a uriTemplate or a name", len(r.templates)+1)
		}
		r.templates = append(r.templates, t.URITemplate)
		return ""
	})
	if tfailure != "" || len(tproblems) > 0 {
		v, why := listVerdict(len(r.templates), "template", tpages, tproblems, tfailure)
		return v, "resources/templates/list: " + why
	}
	return Pass, fmt.Sprintf("%s in %s; %s in %s", count(n, "resource"), count(pages, "page"), count(len(r.templates), "template"), count(tpages, "page"))
}

func checkPromptsList(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if !r.has("prompts") {
		return Skip, "the server does not declare the prompts capability"
	}
	pages, problems, failure := r.listAll(ctx, res, "prompts/list", "prompts", func(raw json.RawMessage) string {
		var p listedPrompt
		if err := json.Unmarshal(raw, &p); err != nil || p.Name == "" {
			return fmt.Sprintf("prompt %d has no name", len(r.prompts)+1)
		}
		r.prompts = append(r.prompts, p)
		return ""
	})
	return listVerdict(len(r.prompts), "prompt", pages, problems, failure)
}

// rpcVerdict judges an answer that should be a JSON-RPC error with one
// of the codes want.
func rpcVerdict(a answer, want ...int) (Verdict, string) {
	switch {
	case a.err != nil:
		return Fail, a.failed()
	case a.rpcErr == nil:
		return Fail, "answered with a result: " + oneLine(string(a.result), 200)
	}
	for _, c := range want {
		if a.rpcErr.Code == c {
			return Pass, "answered " + errorText(a.rpcErr)
		}
	}
	codes := make([]string, len(want))
	for i, c := range want {
		codes[i] = fmt.Sprint(c)
	}
	return Fail, fmt.Sprintf("answered %s, not %s", errorText(a.rpcErr), strings.Join(codes, " or "))
}

func checkUnknownMethod(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	return rpcVerdict(r.call(ctx, res, "playground/no-such-method", map[string]any{}), codeMethodNotFound)
}

// checkInvalidParams sends a request of a method the server has with
// params that break its schema: tools/call without a name, and with
// arguments that are not an object (a tool error passes for that one:
// 2025-11-25 has input validation errors reported as tool errors); else
// prompts/get or resources/read without their name or uri.
func checkInvalidParams(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	switch {
	case r.has("tools"):
		v, why := rpcVerdict(r.call(ctx, res, "tools/call", map[string]any{"arguments": map[string]any{}}), codeInvalidParams)
		if v != Pass {
			return v, "tools/call without a name: " + why
		}
		if len(r.tools) == 0 {
			return Pass, "tools/call without a name: " + why
		}
		a := r.call(ctx, res, "tools/call", map[string]any{"name": r.tools[0].Name, "arguments": "not an object"})
		if a.result != nil && isToolError(a.result) {
			return Pass, fmt.Sprintf("tools/call without a name: %s; with string arguments: a tool error", why)
		}
		v2, why2 := rpcVerdict(a, codeInvalidParams)
		return v2, fmt.Sprintf("tools/call without a name: %s; %q with string arguments: %s", why, r.tools[0].Name, why2)
	case r.has("prompts"):
		v, why := rpcVerdict(r.call(ctx, res, "prompts/get", map[string]any{}), codeInvalidParams)
		return v, "prompts/get without a name: " + why
	case r.has("resources"):
		v, why := rpcVerdict(r.call(ctx, res, "resources/read", map[string]any{}), codeInvalidParams)
		return v, "resources/read without a uri: " + why
	}
	return Skip, "the server declares no tools, prompts or resources to send bad params to"
}

// isToolError reports whether a tools/call result says isError: true.
func isToolError(result json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return json.Unmarshal(result, &r) == nil && r.IsError
}

func checkUnknownTool(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if !r.has("tools") {
		return Skip, "the server does not declare the tools capability"
	}
	a := r.call(ctx, res, "tools/call", map[string]any{"name": "playground-check-no-such-tool", "arguments": map[string]any{}})
	if a.result != nil && isToolError(a.result) {
		return Pass, "answered with a tool error (isError: true); the specification's example is -32602"
	}
	return rpcVerdict(a, codeInvalidParams)
}

const unknownResourceURI = "playground-check://no-such-resource"

func checkUnknownResource(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if !r.has("resources") {
		return Skip, "the server does not declare the resources capability"
	}
	a := r.call(ctx, res, "resources/read", map[string]any{"uri": unknownResourceURI})
	if a.result != nil {
		var rr struct {
			Contents []json.RawMessage `json:"contents"`
		}
		if json.Unmarshal(a.result, &rr) == nil && len(rr.Contents) == 0 {
			return Fail, "answered with an empty contents array, which the specification forbids for a resource that does not exist"
		}
	}
	return rpcVerdict(a, codeResourceNotFound, codeInvalidParams)
}

// checkCompletion asks for the completions of the first prompt argument
// or resource template variable the lists found.
func checkCompletion(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if !r.has("completions") {
		return Skip, "the server does not declare the completions capability"
	}
	var params map[string]any
	for _, p := range r.prompts {
		if len(p.Arguments) > 0 {
			params = map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": p.Name}, "argument": map[string]any{"name": p.Arguments[0].Name, "value": ""}}
			break
		}
	}
	if params == nil {
		for _, t := range r.templates {
			if v := firstVariable(t); v != "" {
				params = map[string]any{"ref": map[string]any{"type": "ref/resource", "uri": t}, "argument": map[string]any{"name": v, "value": ""}}
				break
			}
		}
	}
	if params == nil {
		return Skip, "the server declares completions but lists no prompt argument or template variable to complete"
	}
	a := r.call(ctx, res, "completion/complete", params)
	switch {
	case a.err != nil:
		return Fail, a.failed()
	case a.rpcErr != nil:
		return Fail, "answered with error " + errorText(a.rpcErr)
	}
	var cr struct {
		Completion *struct {
			Values []json.RawMessage `json:"values"`
		} `json:"completion"`
	}
	if json.Unmarshal(a.result, &cr) != nil || cr.Completion == nil || cr.Completion.Values == nil {
		return Fail, "the result has no completion.values array: " + oneLine(string(a.result), 200)
	}
	ref := params["ref"].(map[string]any)
	name := ref["name"]
	if name == nil {
		name = ref["uri"]
	}
	return Pass, fmt.Sprintf("%s for %s %v, argument %v", count(len(cr.Completion.Values), "value"), ref["type"], name, params["argument"].(map[string]any)["name"])
}

// firstVariable is the name of the first variable of a URI template
// ("" when it has none), without operator and modifiers.
func firstVariable(t string) string {
	i := strings.IndexByte(t, '{')
	if i < 0 {
		return ""
	}
	j := strings.IndexByte(t[i+1:], '}')
	if j < 0 {
		return ""
	}
	v := strings.TrimLeft(t[i+1:i+1+j], "+#./;?&")
	v, _, _ = strings.Cut(v, ",")
	v, _, _ = strings.Cut(v, ":")
	return strings.TrimSuffix(v, "*")
}

func checkSetLevel(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if r.modern {
		return Skip, "2026-07-28 has no logging/setLevel"
	}
	if !r.has("logging") {
		return Skip, "the server does not declare the logging capability"
	}
	return emptyResult(r.call(ctx, res, "logging/setLevel", map[string]any{"level": "info"}), "logging/setLevel")
}

// probeRequest is the request the HTTP probes send: ping, or
// server/discover in the modern era, which has no ping.
func (r *runner) probeRequest() (method string) {
	if r.modern {
		return "server/discover"
	}
	return "ping"
}
