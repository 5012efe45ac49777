package web_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
)

// oddPromptName is a prompt name with characters that a path escapes.
const oddPromptName = "sum up/today? 50%"

// mustPromptServer serves, over Streamable HTTP on loopback, an official Go
// SDK server with the prompts greet (argument name required, style
// optional; its messages hold markup, newlines, an image, a resource link
// and an embedded resource), oddPromptName (no arguments) and broken
// (answers with a JSON-RPC error). With completions it completes greet's
// name from alice, albert and bob by prefix, and adds "style=S" when the
// request's context holds style S. It returns the server's MCP URL.
func mustPromptServer(tb testing.TB, completions bool) string {
	tb.Helper()
	opts := &mcp.ServerOptions{}
	if completions {
		opts.CompletionHandler = func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			values := []string{}
			if req.Params.Ref.Type == "ref/prompt" && req.Params.Ref.Name == "greet" && req.Params.Argument.Name == "name" {
				for _, v := range []string{"alice", "albert", "bob"} {
					if strings.HasPrefix(v, req.Params.Argument.Value) {
						values = append(values, v)
					}
				}
				if req.Params.Context != nil && req.Params.Context.Arguments["style"] != "" {
					values = append(values, "style="+req.Params.Context.Arguments["style"])
				}
			}
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}, nil
		}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "prompt-test", Version: "1.0"}, opts)
	s.AddPrompt(&mcp.Prompt{Name: "greet", Title: "Greeting", Description: "greets <b>someone</b>", Arguments: []*mcp.PromptArgument{
		{Name: "name", Description: "who to greet", Required: true},
		{Name: "style", Description: "how"},
	}}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		args := req.Params.Arguments
		return &mcp.GetPromptResult{Description: "A greeting <i>for</i> " + args["name"], Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: "Greet " + args["name"] + " <script>alert(1)</script>\nsecond line"}},
			{Role: "assistant", Content: &mcp.TextContent{Text: "Hello, " + args["name"] + " (" + args["style"] + ")"}},
			{Role: "user", Content: &mcp.ImageContent{MIMEType: "image/png", Data: pngPixel}},
			{Role: "assistant", Content: &mcp.ResourceLink{URI: "file:///notes.txt", Name: "notes", Description: "the <em>notes</em>"}},
			{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a.txt", MIMEType: "text/plain", Text: "embedded text"}}},
		}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: oddPromptName}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "odd"}}}}, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "broken"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "broken on purpose"}
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// mustPromptSession registers a prompt server, connects it through the
// page's form, and returns the server's and the session's ids.
func (d *dashboard) mustPromptSession(t *testing.T, token string, completions bool) (serverID, sessionID int64) {
	t.Helper()
	srv := d.MustAPIServer(t, map[string]any{"name": fmt.Sprintf("prompts %v", completions), "transport": "http", "url": mustPromptServer(t, completions)})
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
		t.Fatalf("connect: %d %s", r.Status, r.Body)
	}
	live, ok := d.pool.LiveSession(srv.ID)
	if !ok {
		t.Fatal("no live session after connect")
	}
	return srv.ID, live.ID
}

// countRequests counts the session's recorded outgoing requests of method.
func (d *dashboard) countRequests(t *testing.T, sessionID int64, method string) int {
	t.Helper()
	d.rec.Flush(t.Context())
	frames, err := d.db.ListFrames(t.Context(), backend.FrameQuery{SessionID: sessionID})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range frames {
		if f.Method == method && f.RPCType == "request" {
			n++
		}
	}
	return n
}

func TestPromptsSection(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	serverID, sessionID := d.mustPromptSession(t, token, true)
	section := fmt.Sprintf("/servers/%d/prompts", serverID)

	t.Run("list", func(t *testing.T) {
		r := d.get(t, section)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", section, r.Status, r.Body)
		}
		// The first prompt (the server lists them by name) is open.
		for _, want := range []string{`data-item="greet"`, `data-item="broken"`, `data-testid="tab-prompts"`, `data-prompt="broken"`,
			`href="` + section + `/` + url.PathEscape(oddPromptName) + `"`} {
			if !strings.Contains(r.Body, want) {
				t.Errorf("the Prompts section lacks %s\n%s", want, r.Body)
			}
		}
		if r := d.get(t, section+"?q=GREETING"); !strings.Contains(r.Body, `data-item="greet"`) || strings.Contains(r.Body, `data-item="broken"`) {
			t.Errorf("the search for GREETING does not keep only greet\n%s", r.Body)
		}
	})

	t.Run("detail by stable URL", func(t *testing.T) {
		r := d.get(t, section+"/"+url.PathEscape(oddPromptName))
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-prompt="`+oddPromptName+`"`) || !strings.Contains(r.Body, "takes no arguments") {
			t.Fatalf("GET the odd prompt: %d\n%s", r.Status, r.Body)
		}
		r = d.get(t, section+"/greet")
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-prompt="greet"`) || !strings.Contains(r.Body, `aria-current="true" data-testid="item-link" data-item="greet"`) {
			t.Fatalf("GET greet: %d\n%s", r.Status, r.Body)
		}
		if strings.Contains(r.Body, "<b>someone</b>") || !strings.Contains(r.Body, "greets &lt;b&gt;someone&lt;/b&gt;") {
			t.Error("the prompt's description is not escaped")
		}
		// One field per argument, the required one marked; each asks for
		// completions.
		for _, want := range []string{`name="arg.name"`, `name="arg.style"`, `<span class="req" title="required">*</span>`, "who to greet",
			`data-complete-ref="prompt"`, `data-complete-name="greet"`, `data-complete-arg="name"`, `data-complete-arg="style"`,
			fmt.Sprintf(`data-session-id="%d"`, sessionID)} {
			if !strings.Contains(r.Body, want) {
				t.Errorf("greet's card lacks %s", want)
			}
		}
	})

	t.Run("unknown prompt", func(t *testing.T) {
		r := d.get(t, section+"/nope")
		if r.Status != http.StatusNotFound || !strings.Contains(r.Body, "no prompt named &#34;nope&#34;") {
			t.Errorf("GET an unknown prompt: %d\n%s", r.Status, r.Body)
		}
	})

	getPath := fmt.Sprintf("/sessions/%d/prompts/get", sessionID)
	t.Run("required argument missing", func(t *testing.T) {
		before := d.countRequests(t, sessionID, "prompts/get")
		r := d.htmxPost(t, getPath, token, url.Values{"_prompt": {"greet"}, "arg.name": {"  "}, "arg.style": {"warm"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="error-name"`) || strings.Contains(r.Body, `data-testid="outcome"`) {
			t.Errorf("a missing required argument: %d\n%s", r.Status, r.Body)
		}
		if !strings.Contains(r.Body, `value="warm"`) {
			t.Error("the form lost what the user typed")
		}
		if after := d.countRequests(t, sessionID, "prompts/get"); after != before {
			t.Errorf("%d prompts/get requests sent for an invalid form", after-before)
		}
	})

	t.Run("messages by role", func(t *testing.T) {
		r := d.htmxPost(t, getPath, token, url.Values{"_prompt": {"greet"}, "arg.name": {"<u>Ann</u>"}, "arg.style": {"warm"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="result"`) {
			t.Fatalf("get greet: %d\n%s", r.Status, r.Body)
		}
		for _, want := range []string{
			`data-role="user"`, `data-role="assistant"`, "role-user", "role-assistant",
			"Greet &lt;u&gt;Ann&lt;/u&gt; &lt;script&gt;alert(1)&lt;/script&gt;\nsecond line",
			"Hello, &lt;u&gt;Ann&lt;/u&gt; (warm)",
			"A greeting &lt;i&gt;for&lt;/i&gt;",
			`src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(pngPixel) + `"`,
			`data-testid="message-resource-link"`, "file:///notes.txt", "the &lt;em&gt;notes&lt;/em&gt;",
			`data-testid="message-resource"`, "embedded text",
			`data-testid="result-json"`,
		} {
			if !strings.Contains(r.Body, want) {
				t.Errorf("the result lacks %q\n%s", want, r.Body)
			}
		}
		for _, bad := range []string{"<script>alert(1)", "<u>Ann", "<em>notes"} {
			if strings.Contains(r.Body, bad) {
				t.Errorf("server text %q is not escaped", bad)
			}
		}
		if n := strings.Count(r.Body, `data-testid="prompt-message"`); n != 5 {
			t.Errorf("%d messages shown, want 5", n)
		}
	})

	t.Run("saved to a collection and run", func(t *testing.T) {
		r := d.htmxPost(t, getPath, token, url.Values{"_prompt": {"greet"}, "arg.name": {"Ann"}, "arg.style": {"warm"}})
		m := saveFrameRe.FindStringSubmatch(r.Body)
		if m == nil {
			t.Fatalf("the prompt's messages have no Save to collection control:\n%s", r.Body)
		}
		if form := d.get(t, "/collections/save?frame="+m[1]).Body; !strings.Contains(form, `name="name" value="greet"`) {
			t.Errorf("the save form does not start with the prompt's name:\n%s", form)
		}
		r = d.htmxPost(t, "/collections/save", token, url.Values{"frame": {m[1]}, "collection": {"0"}, "new_collection": {"prompts"}, "name": {"greet Ann"}})
		cm := collectionRe.FindStringSubmatch(r.Body)
		if cm == nil || !strings.Contains(r.Body, `data-testid="saved-example"`) {
			t.Fatalf("save the prompt's answer: %d\n%s", r.Status, r.Body)
		}
		r = d.postForm(t, "/collections/"+cm[1]+"/run", url.Values{"_csrf": {token}, "session": {fmt.Sprint(sessionID)}, "example": {"0"}})
		if r.Status != http.StatusSeeOther {
			t.Fatalf("run: %d\n%s", r.Status, r.Body)
		}
		if report := d.finishedReport(t, r.Header.Get("Location")); !strings.Contains(report, "1 passed, 0 failed") {
			t.Errorf("the saved prompts/get does not pass again:\n%s", report)
		}
	})

	t.Run("JSON-RPC error on the card", func(t *testing.T) {
		r := d.htmxPost(t, getPath, token, url.Values{"_prompt": {"broken"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="rpc-error"`) || !strings.Contains(r.Body, "broken on purpose") ||
			!strings.Contains(r.Body, `data-prompt="broken"`) {
			t.Errorf("a JSON-RPC error: %d\n%s", r.Status, r.Body)
		}
	})

	t.Run("unknown prompt on get", func(t *testing.T) {
		r := d.htmxPost(t, getPath, token, url.Values{"_prompt": {"nope"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="failure"`) || !strings.Contains(r.Body, "no prompt named") {
			t.Errorf("get an unknown prompt: %d\n%s", r.Status, r.Body)
		}
	})

	t.Run("get without a token", func(t *testing.T) {
		before := d.countRequests(t, sessionID, "prompts/get")
		r := d.htmxPost(t, getPath, "", url.Values{"_prompt": {"broken"}})
		if strings.Contains(r.Body, `data-testid="outcome"`) || !strings.Contains(r.Body, `data-testid="error-banner"`) {
			t.Errorf("get without a token: %d\n%s", r.Status, r.Body)
		}
		if after := d.countRequests(t, sessionID, "prompts/get"); after != before {
			t.Error("prompts/get was sent without a CSRF token")
		}
	})
}

func TestPromptsSectionOfAServerWithoutPrompts(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "tools only", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
		t.Fatalf("connect: %d %s", r.Status, r.Body)
	}
	live, _ := d.pool.LiveSession(srv.ID)
	r := d.get(t, fmt.Sprintf("/servers/%d/prompts", srv.ID))
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "declares no prompts capability") || strings.Contains(r.Body, `data-testid="prompts-error"`) {
		t.Errorf("the Prompts section of a server without prompts: %d\n%s", r.Status, r.Body)
	}
	if n := d.countRequests(t, live.ID, "prompts/list"); n != 0 {
		t.Errorf("%d prompts/list requests sent to a server without the prompts capability", n)
	}
}

// completionAnswer is the completion endpoint's JSON.
type completionAnswer struct {
	Values  []string `json:"values"`
	Total   int      `json:"total"`
	HasMore bool     `json:"hasMore"`
	Error   string   `json:"error"`
}

// complete posts to the completion endpoint the way static/complete.js does.
func (d *dashboard) complete(t *testing.T, sessionID int64, token string, form url.Values) (int, completionAnswer) {
	t.Helper()
	req := d.newRequest(t, http.MethodPost, fmt.Sprintf("/sessions/%d/complete", sessionID), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if token != "" {
		req.Header.Set("X-CSRF-Token", token)
	}
	r := d.do(t, req)
	var out completionAnswer
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal([]byte(r.Body), &out); err != nil {
			t.Fatalf("completion answer %q: %v", r.Body, err)
		}
	}
	return r.Status, out
}

func TestCompletion(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	_, sessionID := d.mustPromptSession(t, token, true)

	status, got := d.complete(t, sessionID, token, url.Values{"ref": {"prompt"}, "name": {"greet"}, "arg": {"name"}, "value": {"al"}})
	if status != http.StatusOK || strings.Join(got.Values, ",") != "alice,albert" || got.Total != 2 || got.Error != "" {
		t.Errorf("complete al: %d %+v", status, got)
	}
	status, got = d.complete(t, sessionID, token, url.Values{"ref": {"prompt"}, "name": {"greet"}, "arg": {"name"}, "value": {"b"}, "ctx.style": {"warm"}, "ctx.empty": {""}})
	if status != http.StatusOK || strings.Join(got.Values, ",") != "bob,style=warm" {
		t.Errorf("complete b with context: %d %+v", status, got)
	}
	status, got = d.complete(t, sessionID, token, url.Values{"ref": {"resource"}, "name": {"file:///{x}"}, "arg": {"x"}, "value": {""}})
	if status != http.StatusOK || got.Values == nil || len(got.Values) != 0 {
		t.Errorf("complete a template: %d %+v", status, got)
	}
	if n := d.countRequests(t, sessionID, "completion/complete"); n != 3 {
		t.Errorf("%d completion/complete requests recorded, want 3", n)
	}

	t.Run("CSRF", func(t *testing.T) {
		status, got := d.complete(t, sessionID, "", url.Values{"ref": {"prompt"}, "name": {"greet"}, "arg": {"name"}, "value": {"a"}})
		if status != http.StatusForbidden || len(got.Values) != 0 {
			t.Errorf("complete without a token: %d %+v", status, got)
		}
		if r := d.get(t, fmt.Sprintf("/sessions/%d/complete?ref=prompt&name=greet&arg=name&value=a", sessionID)); r.Status == http.StatusOK {
			t.Errorf("GET completes: %d %s", r.Status, r.Body)
		}
		if n := d.countRequests(t, sessionID, "completion/complete"); n != 3 {
			t.Errorf("a request without the token was sent to the server (%d completion requests)", n)
		}
	})

	t.Run("bad ref", func(t *testing.T) {
		status, got := d.complete(t, sessionID, token, url.Values{"ref": {"tool"}, "name": {"x"}, "arg": {"y"}})
		if status != http.StatusBadRequest || got.Error == "" {
			t.Errorf("complete with ref=tool: %d %+v", status, got)
		}
	})

	t.Run("server without completions", func(t *testing.T) {
		_, plain := d.mustPromptSession(t, token, false)
		status, got := d.complete(t, plain, token, url.Values{"ref": {"prompt"}, "name": {"greet"}, "arg": {"name"}, "value": {"a"}})
		if status != http.StatusConflict || !strings.Contains(got.Error, "does not offer completion") || len(got.Values) != 0 {
			t.Errorf("complete on a server without completions: %d %+v", status, got)
		}
		if n := d.countRequests(t, plain, "completion/complete"); n != 0 {
			t.Errorf("%d completion/complete requests sent to a server without the capability", n)
		}
	})

	t.Run("not connected", func(t *testing.T) {
		status, got := d.complete(t, 999, token, url.Values{"ref": {"prompt"}, "name": {"greet"}, "arg": {"name"}})
		if status != http.StatusConflict || !strings.Contains(got.Error, "not connected") {
			t.Errorf("complete on no session: %d %+v", status, got)
		}
	})
}
