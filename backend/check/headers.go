package check

// The standard request headers of 2026-07-28 (SEP-2243): a server must
// refuse, with HTTP 400 and the JSON-RPC error -32020, a request whose
// Mcp-Method or Mcp-Name header is missing or disagrees with its body.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// codeHeaderMismatch is the JSON-RPC error of a header that disagrees
// with the body.
const codeHeaderMismatch = -32020

// headerCase is one request of the header-validation check: the body's
// method and tool name ("" for none), and the headers set over those the
// connection derives from the body (an empty value removes one). A case
// without header is the control of its method: its headers agree with
// its body, so the server must not refuse them.
type headerCase struct {
	what   string
	method string
	tool   string
	header http.Header
}

// headerAnswer is how the server answered a case: its HTTP status and
// the code of the JSON-RPC error it gave (hasCode false for none).
type headerAnswer struct {
	status  int
	code    int
	hasCode bool
}

func (a headerAnswer) String() string {
	if a.hasCode {
		return fmt.Sprintf("HTTP %d with error %d", a.status, a.code)
	}
	return fmt.Sprintf("HTTP %d", a.status)
}

// checkHeaderValidation sends requests whose standard headers disagree
// with their bodies, or are missing, each after a control of its method
// whose headers agree. A refusal is HTTP 400 with the error -32020, or
// HTTP 400 answered otherwise than the control (then the missing -32020
// is noted); a control must not be refused for its headers, and a
// tools/list control must succeed (a server that refuses everything
// validates nothing). The tools/call requests name a tool the server does
// not have, so that a server that takes one runs nothing; a server that
// answers an unknown tool with HTTP 400 is then told apart by the code.
// Go's HTTP client sends header names in canonical form and trims
// whitespace around values, so the suite's cases of a lowercase name and
// of a padded value are not probed.
func checkHeaderValidation(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if _, _, skip := r.endpoint(); skip != "" {
		return Skip, skip
	}
	if !r.modern {
		return Skip, "the Mcp-Method and Mcp-Name headers came in 2026-07-28; this session is of the legacy era"
	}
	cases := []headerCase{
		{"tools/list with its own Mcp-Method", "tools/list", "", nil},
		{"tools/list with Mcp-Method: prompts/list", "tools/list", "", http.Header{"Mcp-Method": {"prompts/list"}}},
		{"tools/list without Mcp-Method", "tools/list", "", http.Header{"Mcp-Method": {""}}},
		{"tools/list with Mcp-Method: TOOLS/LIST", "tools/list", "", http.Header{"Mcp-Method": {"TOOLS/LIST"}}},
	}
	if r.has("tools") {
		name := "playground-check-no-such-tool"
		cases = append(cases,
			headerCase{"tools/call of an unknown tool with its own Mcp-Name", "tools/call", name, nil},
			headerCase{"tools/call with a Mcp-Name that is not the body's name", "tools/call", name, http.Header{"Mcp-Name": {"wrong_tool_name"}}},
			headerCase{"tools/call without Mcp-Name", "tools/call", name, http.Header{"Mcp-Name": {""}}},
		)
	}
	var wrong, notes []string
	var control headerAnswer
	refused := 0
	for _, hc := range cases {
		var params map[string]any
		if hc.tool != "" {
			params = map[string]any{"name": hc.tool, "arguments": map[string]any{}}
		}
		body, id := r.probeBody(hc.method, params)
		pr, err := r.probe(ctx, res, hc.what, id, mcpclient.HTTPProbe{Body: body, Header: hc.header})
		if err != nil {
			return probeFailed(hc.what, err)
		}
		a := headerAnswer{status: pr.Status}
		a.code, a.hasCode = errorCodeOf(pr.Body)
		mismatch := a.hasCode && a.code == codeHeaderMismatch
		if hc.header == nil {
			control = a
			switch {
			case mismatch:
				wrong = append(wrong, fmt.Sprintf("%s: %s (its headers agree with the body)", hc.what, a))
			case hc.tool == "" && pr.Status/100 != 2:
				wrong = append(wrong, fmt.Sprintf("%s: %s (want it accepted)", hc.what, a))
			}
			continue
		}
		switch {
		case pr.Status != http.StatusBadRequest:
			wrong = append(wrong, fmt.Sprintf("%s: %s (want 400)", hc.what, a))
		case mismatch:
			refused++
		case a == control:
			wrong = append(wrong, fmt.Sprintf("%s: %s, as when the headers agree: the header was not checked", hc.what, a))
		default:
			refused++
			notes = append(notes, fmt.Sprintf("%s: %s, not %d", hc.what, a, codeHeaderMismatch))
		}
	}
	if len(wrong) > 0 {
		return Fail, strings.Join(append(wrong, notes...), "; ")
	}
	why := fmt.Sprintf("%s refused with HTTP 400, those whose headers agree accepted", count(refused, "mismatched request"))
	if len(notes) > 0 {
		why += "; " + strings.Join(notes, "; ")
	}
	return Pass, why
}

// errorCodeOf is the code of the JSON-RPC error that body holds, as one
// JSON message or in an SSE event's data; ok is false when it holds none.
func errorCodeOf(body []byte) (code int, ok bool) {
	text := strings.TrimSpace(string(body))
	if !strings.HasPrefix(text, "{") {
		for _, line := range strings.Split(text, "\n") {
			if data, found := strings.CutPrefix(line, "data:"); found && strings.TrimSpace(data) != "" {
				text = strings.TrimSpace(data)
				break
			}
		}
	}
	var m struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(text), &m) != nil || m.Error == nil {
		return 0, false
	}
	return m.Error.Code, true
}
