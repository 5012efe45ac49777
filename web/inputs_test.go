package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askSchema is the form the asking server's ask tool requests.
var askSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Your name", "minLength": 1},
    "formal": {"type": "boolean", "default": false},
    "lang": {"type": "string", "enum": ["en", "fr"]},
    "age": {"type": "integer", "minimum": 0},
    "topics": {"type": "array", "title": "Topics", "items": {"type": "string", "enum": ["go", "mcp", "web"]}}
  },
  "required": ["name"]
}`)

type visitArgs struct {
	URL string `json:"url"`
}

type sampleArgs struct {
	Text string `json:"text"`
}

// newAskingServer returns an official Go SDK server whose tools send
// requests back to the client during the call (over protocol 2025-11-25
// these are real JSON-RPC requests):
//   - ask elicits askSchema and answers "ACTION: name=V(T) formal=V(T) ...",
//     with each content value and its Go type as the SDK decoded it;
//   - sample asks for a message (system prompt, one user message
//     "Summarise: TEXT", model hint test-model) and answers "MODEL: TEXT";
//   - visit elicits in URL mode (the url argument) and answers "ACTION:";
//   - roots lists the client's roots and answers "N roots".
//
// Failures of the requests are tool errors holding the SDK's error text.
// The handlers stop waiting when life ends: the SDK's session Close (on the
// client's DELETE) waits for handlers, and a handler waiting for the answer
// to its own request is released by nothing else.
func newAskingServer(life context.Context) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "asking", Version: "1.0"}, nil)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	// bounded returns ctx, also cancelled when life ends.
	bounded := func(ctx context.Context) (context.Context, func()) {
		ctx, cancel := context.WithCancel(ctx)
		stop := context.AfterFunc(life, cancel)
		return ctx, func() { stop(); cancel() }
	}
	mcp.AddTool(s, &mcp.Tool{Name: "ask", Description: "asks the user who they are"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			ctx, done := bounded(ctx)
			defer done()
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Who are you?", RequestedSchema: askSchema})
			if err != nil {
				return nil, nil, fmt.Errorf("elicitation: %w", err)
			}
			out := res.Action + ":"
			for _, k := range []string{"name", "formal", "lang", "age", "topics"} {
				if v, ok := res.Content[k]; ok {
					out += fmt.Sprintf(" %s=%v(%T)", k, v, v)
				}
			}
			return text(out), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "visit", Description: "asks the user to visit a URL"},
		func(ctx context.Context, req *mcp.CallToolRequest, in visitArgs) (*mcp.CallToolResult, any, error) {
			ctx, done := bounded(ctx)
			defer done()
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Please sign in.", URL: in.URL, ElicitationID: "e1"})
			if err != nil {
				return nil, nil, fmt.Errorf("elicitation: %w", err)
			}
			return text(res.Action + ":"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "sample", Description: "asks the client's model"},
		func(ctx context.Context, req *mcp.CallToolRequest, in sampleArgs) (*mcp.CallToolResult, any, error) {
			ctx, done := bounded(ctx)
			defer done()
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
				SystemPrompt:     "Be brief.",
				Messages:         []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Summarise: " + in.Text}}},
				MaxTokens:        50,
				ModelPreferences: &mcp.ModelPreferences{Hints: []*mcp.ModelHint{{Name: "test-model"}}},
			})
			if err != nil {
				return nil, nil, fmt.Errorf("sampling: %w", err)
			}
			reply, ok := res.Content.(*mcp.TextContent)
			if !ok {
				return nil, nil, fmt.Errorf("sampling: content %T, want text", res.Content)
			}
			return text(res.Model + ": " + reply.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "roots", Description: "lists the client's roots"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return nil, nil, fmt.Errorf("roots: %w", err)
			}
			return text(fmt.Sprintf("%d roots", len(res.Roots))), nil, nil
		})
	return s
}

// MustAskingServer serves newAskingServer over Streamable HTTP on loopback
// and returns its MCP URL. When the test ends, the tools stop waiting for
// answers, then client connections are cut.
func MustAskingServer(tb testing.TB) string {
	tb.Helper()
	life, end := context.WithCancel(context.Background())
	server := newAskingServer(life)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	tb.Cleanup(func() {
		end()
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// asyncResponse is a response read in another goroutine.
type asyncResponse struct {
	response
	err error
}

// doAsync sends req in a goroutine: the calls that wait for an answer to
// the server's request block until the test gives one. The channel gets
// the response (t.Fatal must not be called off the test's goroutine).
func (d *dashboard) doAsync(req *http.Request) <-chan asyncResponse {
	done := make(chan asyncResponse, 1)
	go func() {
		resp, err := d.client.Do(req)
		if err != nil {
			done <- asyncResponse{err: err}
			return
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		done <- asyncResponse{response: response{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}, err: err}
	}()
	return done
}

// apiCallAsync calls tool with args through the JSON API, in a goroutine.
func (d *dashboard) apiCallAsync(t *testing.T, sessionID int64, tool string, args map[string]any) <-chan asyncResponse {
	t.Helper()
	body, err := json.Marshal(map[string]any{"method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		t.Fatal(err)
	}
	req := d.newRequest(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sessionID), strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	return d.doAsync(req)
}

// pageCallAsync submits a tool card's form as htmx does, in a goroutine.
func (d *dashboard) pageCallAsync(t *testing.T, sessionID int64, token, tool string, values url.Values) <-chan asyncResponse {
	t.Helper()
	values.Set("_tool", tool)
	req := d.newRequest(t, http.MethodPost, fmt.Sprintf("/sessions/%d/tools/call?card=0", sessionID), strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-CSRF-Token", token)
	return d.doAsync(req)
}

// finished waits for a response from doAsync.
func finished(t *testing.T, what string, done <-chan asyncResponse) response {
	t.Helper()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("%s: %v", what, r.err)
		}
		return r.response
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: no response within 10s", what)
		return response{}
	}
}

// assertBlocked fails if the call already returned: it must wait for a
// person's answer.
func assertBlocked(t *testing.T, what string, done <-chan asyncResponse) {
	t.Helper()
	select {
	case r := <-done:
		t.Fatalf("%s returned before the server's request was answered: %d %s (%v)", what, r.Status, r.Body, r.err)
	case <-time.After(20 * time.Millisecond):
	}
}

// apiInputRequest is a waiting request as the API lists it.
type apiInputRequest struct {
	ID       int64           `json:"id"`
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params"`
	Received time.Time       `json:"received"`
}

// listInputs fetches the session's waiting requests.
func listInputs(t *testing.T, d *dashboard, sessionID int64) []apiInputRequest {
	t.Helper()
	var out []apiInputRequest
	r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/inputs", sessionID), nil, &out)
	if r.Status != http.StatusOK {
		t.Fatalf("GET inputs: %d %s", r.Status, r.Body)
	}
	return out
}

// waitInputs polls the session's waiting requests until there are n.
func waitInputs(t *testing.T, d *dashboard, sessionID int64, n int) []apiInputRequest {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		in := listInputs(t, d, sessionID)
		if len(in) == n {
			return in
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d has %d waiting requests, want %d: %+v", sessionID, len(in), n, in)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// answerInput posts an API answer to a waiting request.
func answerInput(t *testing.T, d *dashboard, sessionID, inputID int64, body any) response {
	t.Helper()
	return d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/inputs/%d", sessionID, inputID), body, nil)
}

// callText returns the text of a tools/call API response and whether the
// tool reported an error.
func callText(t *testing.T, r response) (string, bool) {
	t.Helper()
	var out struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if r.Status != http.StatusOK {
		t.Fatalf("tools/call: %d %s", r.Status, r.Body)
	}
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil {
		t.Fatalf("tools/call answer %s: %v", r.Body, err)
	}
	var texts []string
	for _, c := range out.Result.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n"), out.Result.IsError
}

func TestInputsAPI(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "asking", "transport": "http", "url": MustAskingServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	base := fmt.Sprintf("/api/v1/sessions/%d/inputs", sess.ID)

	if r := d.api(t, http.MethodGet, base, nil, nil); r.Status != http.StatusOK || strings.TrimSpace(r.Body) != "[]" {
		t.Errorf("GET inputs with none waiting: %d %q, want 200 []", r.Status, r.Body)
	}

	t.Run("elicitation answered", func(t *testing.T) {
		call := d.apiCallAsync(t, sess.ID, "ask", nil)
		in := waitInputs(t, d, sess.ID, 1)[0]
		var params struct {
			Mode            string          `json:"mode"`
			Message         string          `json:"message"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		}
		if err := json.Unmarshal(in.Params, &params); err != nil {
			t.Fatalf("params %s: %v", in.Params, err)
		}
		if in.ID == 0 || in.Method != "elicitation/create" || params.Message != "Who are you?" || !strings.Contains(string(params.RequestedSchema), `"minLength"`) {
			t.Errorf("waiting request = %+v", in)
		}
		if time.Since(in.Received) > time.Minute || in.Received.After(time.Now()) {
			t.Errorf("received = %v", in.Received)
		}
		assertBlocked(t, "the ask call", call)

		tests := []struct {
			name   string
			path   string
			body   string
			status int
		}{
			{"both result and error", fmt.Sprintf("%s/%d", base, in.ID), `{"result":{"action":"decline"},"error":{"code":-1,"message":"no"}}`, http.StatusUnprocessableEntity},
			{"neither", fmt.Sprintf("%s/%d", base, in.ID), `{}`, http.StatusUnprocessableEntity},
			{"unknown field", fmt.Sprintf("%s/%d", base, in.ID), `{"answer":{"action":"decline"}}`, http.StatusUnprocessableEntity},
			{"not JSON", fmt.Sprintf("%s/%d", base, in.ID), `{"result":`, http.StatusUnprocessableEntity},
			{"unknown input", fmt.Sprintf("%s/%d", base, in.ID+1000), `{"result":{"action":"decline"}}`, http.StatusNotFound},
			{"input id not a number", base + "/abc", `{"result":{"action":"decline"}}`, http.StatusNotFound},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				req := d.newRequest(t, http.MethodPost, tt.path, strings.NewReader(tt.body))
				req.Header.Set("Content-Type", "application/json")
				if r := d.do(t, req); r.Status != tt.status {
					t.Errorf("status %d, want %d: %s", r.Status, tt.status, r.Body)
				}
			})
		}
		if got := listInputs(t, d, sess.ID); len(got) != 1 || got[0].ID != in.ID {
			t.Fatalf("after refused answers the waiting requests are %+v, want request %d still waiting", got, in.ID)
		}
		assertBlocked(t, "the ask call", call)

		answer := map[string]any{"result": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada", "formal": true, "lang": "fr", "age": 36}}}
		if r := answerInput(t, d, sess.ID, in.ID, answer); r.Status != http.StatusNoContent || r.Body != "" {
			t.Fatalf("answer: %d %q, want 204", r.Status, r.Body)
		}
		text, isErr := callText(t, finished(t, "the ask call", call))
		if want := "accept: name=Ada(string) formal=true(bool) lang=fr(string) age=36(float64)"; text != want || isErr {
			t.Errorf("ask answered %q (isError %v), want %q", text, isErr, want)
		}
		if got := listInputs(t, d, sess.ID); len(got) != 0 {
			t.Errorf("still waiting after the answer: %+v", got)
		}
		if r := answerInput(t, d, sess.ID, in.ID, answer); r.Status != http.StatusNotFound {
			t.Errorf("second answer: %d %s, want 404", r.Status, r.Body)
		}
	})

	t.Run("result null is no answer", func(t *testing.T) {
		call := d.apiCallAsync(t, sess.ID, "ask", nil)
		in := waitInputs(t, d, sess.ID, 1)[0]
		r := answerInput(t, d, sess.ID, in.ID, map[string]any{"result": nil})
		if r.Status != http.StatusUnprocessableEntity {
			t.Errorf(`{"result": null} answered %d %s, want 422 (exactly one of result and error): `+
				`it sends a JSON-RPC response with "result": null, which is no elicitation result`, r.Status, r.Body)
		}
		if len(listInputs(t, d, sess.ID)) == 1 {
			answerInput(t, d, sess.ID, in.ID, map[string]any{"result": map[string]any{"action": "cancel"}})
		}
		t.Logf("the ask call after the null answer: %s", finished(t, "the ask call", call).Body)
	})

	t.Run("sampling refused", func(t *testing.T) {
		call := d.apiCallAsync(t, sess.ID, "sample", map[string]any{"text": "the sea"})
		in := waitInputs(t, d, sess.ID, 1)[0]
		if in.Method != "sampling/createMessage" || !strings.Contains(string(in.Params), "Summarise: the sea") {
			t.Errorf("waiting request = %+v", in)
		}
		r := answerInput(t, d, sess.ID, in.ID, map[string]any{"error": map[string]any{"code": -1, "message": "not today"}})
		if r.Status != http.StatusNoContent {
			t.Fatalf("refusal: %d %s", r.Status, r.Body)
		}
		text, isErr := callText(t, finished(t, "the sample call", call))
		if !isErr || !strings.Contains(text, "not today") {
			t.Errorf("sample after a refusal = %q (isError %v), want a tool error with the refusal's message", text, isErr)
		}
	})

	t.Run("sampling answered", func(t *testing.T) {
		call := d.apiCallAsync(t, sess.ID, "sample", map[string]any{"text": "the sea"})
		in := waitInputs(t, d, sess.ID, 1)[0]
		r := answerInput(t, d, sess.ID, in.ID, map[string]any{"result": map[string]any{
			"role": "assistant", "content": map[string]any{"type": "text", "text": "Water."}, "model": "m1", "stopReason": "endTurn"}})
		if r.Status != http.StatusNoContent {
			t.Fatalf("answer: %d %s", r.Status, r.Body)
		}
		if text, isErr := callText(t, finished(t, "the sample call", call)); text != "m1: Water." || isErr {
			t.Errorf("sample = %q (isError %v), want %q", text, isErr, "m1: Water.")
		}
	})

	t.Run("roots are an empty list", func(t *testing.T) {
		text, isErr := callText(t, finished(t, "the roots call", d.apiCallAsync(t, sess.ID, "roots", nil)))
		if text != "0 roots" || isErr {
			t.Errorf("roots = %q (isError %v), want %q", text, isErr, "0 roots")
		}
		if got := listInputs(t, d, sess.ID); len(got) != 0 {
			t.Errorf("roots/list waits for a person: %+v", got)
		}
	})

	t.Run("another session's request", func(t *testing.T) {
		other := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "other", "transport": "http", "url": MustAskingServer(t)}).ID)
		call := d.apiCallAsync(t, sess.ID, "ask", nil)
		in := waitInputs(t, d, sess.ID, 1)[0]
		if got := listInputs(t, d, other.ID); len(got) != 0 {
			t.Errorf("session %d lists session %d's requests: %+v", other.ID, sess.ID, got)
		}
		if r := answerInput(t, d, other.ID, in.ID, map[string]any{"result": map[string]any{"action": "decline"}}); r.Status != http.StatusNotFound {
			t.Errorf("answering through session %d: %d %s, want 404", other.ID, r.Status, r.Body)
		}
		assertBlocked(t, "the ask call", call)
		if r := answerInput(t, d, sess.ID, in.ID, map[string]any{"result": map[string]any{"action": "decline"}}); r.Status != http.StatusNoContent {
			t.Fatalf("answer: %d %s", r.Status, r.Body)
		}
		if text, _ := callText(t, finished(t, "the ask call", call)); text != "decline:" {
			t.Errorf("ask = %q, want %q", text, "decline:")
		}
	})

	t.Run("frames", func(t *testing.T) {
		// The server's requests come in; our answers go out, paired.
		has := func(fs []apiFrame, dir, typ, method string) bool {
			for _, f := range fs {
				if f.Direction == dir && f.RPCType == typ && f.Method == method {
					return true
				}
			}
			return false
		}
		// Every request has been answered; wait until the answers are committed too.
		allPaired := func(fs []apiFrame) bool {
			for _, f := range fs {
				if f.Direction == "in" && f.RPCType == "request" && f.PairID == 0 {
					return false
				}
			}
			return true
		}
		frames := waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
			return has(fs, "out", "result", "elicitation/create") && has(fs, "out", "error", "sampling/createMessage") &&
				has(fs, "out", "result", "sampling/createMessage") && has(fs, "out", "result", "roots/list") && allPaired(fs)
		})
		byID := map[int64]apiFrame{}
		for _, f := range frames {
			byID[f.ID] = f
		}
		for _, f := range frames {
			if f.Direction != "in" || f.RPCType != "request" {
				continue
			}
			resp, ok := byID[f.PairID]
			if !ok || resp.Direction != "out" || resp.Method != f.Method || resp.PairID != f.ID || string(resp.RPCID) != string(f.RPCID) {
				t.Errorf("the server's %s request %d is not paired with our response: %+v", f.Method, f.ID, resp)
			}
		}
	})
}

func TestInputsAbandonedWhenTheSessionCloses(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "asking", "transport": "http", "url": MustAskingServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	call := d.apiCallAsync(t, sess.ID, "ask", nil)
	in := waitInputs(t, d, sess.ID, 1)[0]

	if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", sess.ID), nil, nil); r.Status != http.StatusNoContent {
		t.Fatalf("close: %d %s", r.Status, r.Body)
	}
	waitInputs(t, d, sess.ID, 0)
	if r := answerInput(t, d, sess.ID, in.ID, map[string]any{"result": map[string]any{"action": "decline"}}); r.Status != http.StatusNotFound {
		t.Errorf("answer after the session closed: %d %s, want 404", r.Status, r.Body)
	}
	if r := finished(t, "the ask call", call); r.Status == http.StatusOK {
		t.Errorf("the call on the closed session answered %d %s, want a failure", r.Status, r.Body)
	}
}

var inputIDAttr = regexp.MustCompile(`id="input-(\d+)"`)

func TestInputsPage(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "asking", "transport": "http", "url": MustAskingServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	serverPage := fmt.Sprintf("/servers/%d", srv.ID)
	inputPath := func(id int64) string { return fmt.Sprintf("/sessions/%d/inputs/%d", sess.ID, id) }

	page := d.get(t, serverPage)
	if page.Status != http.StatusOK || !strings.Contains(page.Body, fmt.Sprintf(`id="inputs-%d"`, sess.ID)) ||
		!strings.Contains(page.Body, `data-testid="inputs"`) || strings.Contains(page.Body, `data-testid="input-request"`) {
		t.Errorf("server page with nothing waiting: %d\n%s", page.Status, page.Body)
	}

	t.Run("elicitation", func(t *testing.T) {
		call := d.pageCallAsync(t, sess.ID, token, "ask", url.Values{})
		in := waitInputs(t, d, sess.ID, 1)[0]
		page := d.get(t, serverPage)
		for _, want := range []string{
			`data-testid="input-request" data-kind="elicit-form"`,
			fmt.Sprintf(`id="input-%d"`, in.ID),
			fmt.Sprintf(`id="input-%d-name" name="arg.name"`, in.ID),
			// A boolean with a default is a checkbox, its hidden "false" sent when unchecked.
			`<input type="hidden" name="arg.formal" value="false">`,
			fmt.Sprintf(`<input type="checkbox" id="input-%d-formal" name="arg.formal" value="true"`, in.ID),
			fmt.Sprintf(`<select id="input-%d-lang" name="arg.lang"`, in.ID),
			`<option value="&#34;fr&#34;">`,
			`data-testid="multi-choice"`,
			`<input type="checkbox" name="arg.topics[]" value="&#34;mcp&#34;" data-sf-multi>`,
			fmt.Sprintf(`hx-post="%s"`, inputPath(in.ID)),
			"Who are you?",
		} {
			if !strings.Contains(page.Body, want) {
				t.Errorf("the server page lacks %s", want)
			}
		}
		if t.Failed() {
			t.Logf("the server page:\n%s", page.Body)
		}

		invalid := []struct {
			name   string
			values url.Values
			field  string
		}{
			{"missing required name", url.Values{"_action": {"accept"}, "arg.formal": {"true"}}, "name"},
			{"integer that is not a number", url.Values{"_action": {"accept"}, "arg.name": {"Ada"}, "arg.age": {"old"}}, "age"},
			{"integer below the minimum", url.Values{"_action": {"accept"}, "arg.name": {"Ada"}, "arg.age": {"-1"}}, "age"},
		}
		for _, tt := range invalid {
			t.Run(tt.name, func(t *testing.T) {
				r := d.htmxPost(t, inputPath(in.ID), token, tt.values)
				if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="error-`+tt.field+`"`) ||
					!strings.Contains(r.Body, `data-testid="input-request"`) || strings.Contains(r.Body, `data-testid="input-answered"`) {
					t.Errorf("invalid answer: %d\n%s", r.Status, r.Body)
				}
				if name := tt.values.Get("arg.name"); name != "" && !strings.Contains(r.Body, `value="`+name+`"`) {
					t.Errorf("the re-rendered card lost the name typed:\n%s", r.Body)
				}
				if got := listInputs(t, d, sess.ID); len(got) != 1 {
					t.Errorf("an invalid answer ended the request: %+v", got)
				}
				assertBlocked(t, "the ask call", call)
			})
		}

		t.Run("without a CSRF token", func(t *testing.T) {
			r := d.htmxPost(t, inputPath(in.ID), "", url.Values{"_action": {"decline"}})
			if strings.Contains(r.Body, `data-testid="input-answered"`) || len(listInputs(t, d, sess.ID)) != 1 {
				t.Errorf("an answer without a CSRF token was sent: %d %s", r.Status, r.Body)
			}
		})
		t.Run("through another session's address", func(t *testing.T) {
			r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/inputs/%d", sess.ID+100, in.ID), token, url.Values{"_action": {"decline"}})
			if r.Status != http.StatusOK || !strings.Contains(r.Body, "no longer waiting") || len(listInputs(t, d, sess.ID)) != 1 {
				t.Errorf("answer through session %d: %d %s", sess.ID+100, r.Status, r.Body)
			}
		})

		r := d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {"accept"},
			"arg.name": {"Ada"}, "arg.formal": {"true"}, "arg.lang": {`"fr"`}, "arg.age": {"36"}, "arg.topics[]": {`"web"`, `"go"`}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="input-answered"`) || strings.Contains(r.Body, `data-testid="input-request"`) {
			t.Fatalf("accept: %d\n%s", r.Status, r.Body)
		}
		card := finished(t, "the ask call", call)
		if want := "accept: name=Ada(string) formal=true(bool) lang=fr(string) age=36(float64) topics=[go web]([]interface {})"; card.Status != http.StatusOK ||
			!strings.Contains(card.Body, `data-outcome="result"`) || !strings.Contains(card.Body, want) {
			t.Errorf("the ask card after the answer: %d, want the result %q\n%s", card.Status, want, card.Body)
		}
		if got := listInputs(t, d, sess.ID); len(got) != 0 {
			t.Errorf("still waiting: %+v", got)
		}
		if page := d.get(t, serverPage); strings.Contains(page.Body, `data-testid="input-request"`) {
			t.Errorf("the server page still shows an input card after the answer")
		}
		// The card was answered: another answer finds it answered, by whom.
		r = d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {"decline"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="input-answered"`) || !strings.Contains(r.Body, testAdmin+" answered this request first.") {
			t.Errorf("second answer: %d\n%s", r.Status, r.Body)
		}
	})

	t.Run("elicitation keeps not sent after an error", func(t *testing.T) {
		call := d.pageCallAsync(t, sess.ID, token, "ask", url.Values{})
		in := waitInputs(t, d, sess.ID, 1)[0]
		// The optional boolean is marked "not sent"; the name is missing.
		r := d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {"accept"}, "arg.formal": {"false"}, "arg.formal?unset": {"on"}})
		if !strings.Contains(r.Body, `data-testid="error-name"`) {
			t.Fatalf("the answer without a name was not refused: %d\n%s", r.Status, r.Body)
		}
		unset := regexp.MustCompile(`<input type="checkbox" name="arg.formal\?unset"[^>]*>`).FindString(r.Body)
		if !strings.Contains(unset, " checked") {
			t.Errorf("the re-rendered card lost \"not sent\" of formal: %q", unset)
		}
		// Accept as the browser posts the re-rendered card, the name now filled in.
		again := url.Values{"_action": {"accept"}, "arg.name": {"Ada"}, "arg.formal": {"false"}}
		if strings.Contains(unset, " checked") {
			again.Set("arg.formal?unset", "on")
		}
		d.htmxPost(t, inputPath(in.ID), token, again)
		finished(t, "the ask call", call)
		// What went on the wire (the SDK fills in the schema's default before the tool sees it).
		frames := waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
			return len(fs) > 0 && fs[len(fs)-1].Method == "tools/call" && fs[len(fs)-1].RPCType == "result"
		})
		var answer apiFrame
		for _, f := range frames {
			if f.Direction == "out" && f.Method == "elicitation/create" && f.RPCType == "result" {
				answer = f
			}
		}
		var sent struct {
			Result struct {
				Content map[string]any `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal(answer.Body, &sent); err != nil || sent.Result.Content["name"] != "Ada" {
			t.Fatalf("the answer sent: %s (%v)", answer.Body, err)
		}
		if v, ok := sent.Result.Content["formal"]; ok {
			t.Errorf("the answer sent formal = %v although it was marked not sent: %s", v, answer.Body)
		}
	})

	for _, action := range []string{"decline", "cancel"} {
		t.Run("elicitation "+action, func(t *testing.T) {
			call := d.pageCallAsync(t, sess.ID, token, "ask", url.Values{})
			in := waitInputs(t, d, sess.ID, 1)[0]
			// The fields are ignored, even invalid ones.
			r := d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {action}, "arg.name": {""}, "arg.age": {"old"}})
			if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="input-answered"`) {
				t.Fatalf("%s: %d\n%s", action, r.Status, r.Body)
			}
			if card := finished(t, "the ask call", call); !strings.Contains(card.Body, action+":") {
				t.Errorf("the ask card after %s:\n%s", action, card.Body)
			}
		})
	}

	t.Run("elicitation of a URL", func(t *testing.T) {
		tests := []struct {
			name     string
			url      string
			link     bool     // the page links to the URL (behind "Open <domain>?")
			shows    []string // what the card shows
			absent   string
			action   string
			received string
		}{
			{"https", "https://example.com/sign-in?x=1&y=2", true,
				[]string{`data-testid="url-domain">example.com<`, `Open example.com in a new tab?`}, "", "accept", "https://example.com/sign-in?x=1&amp;y=2"},
			{"internationalised domain shown as ASCII", "https://bücher.example/login", true,
				[]string{`data-testid="url-domain">xn--bcher-kva.example<`, `data-testid="url-idn"`, "written bücher.example"}, "", "accept", "https://bücher.example/login"},
			{"name before the host", "https://bank.example@evil.example/", true,
				[]string{`data-testid="url-domain">evil.example<`, `data-testid="url-userinfo"`}, "", "accept", "https://bank.example@evil.example/"},
			{"javascript", "javascript:alert(1)", false,
				[]string{`data-testid="url-refused"`, "only http and https"}, `href="javascript:`, "decline", "javascript:alert(1)"},
			{"data", "data:text/html,<script>alert(1)</script>", false,
				[]string{`data-testid="url-refused"`, "data: URL"}, `href="data:`, "cancel", "data:text/html,&lt;script&gt;"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				call := d.pageCallAsync(t, sess.ID, token, "visit", url.Values{"arg.url": {tt.url}})
				in := waitInputs(t, d, sess.ID, 1)[0]
				page := d.get(t, serverPage)
				if !strings.Contains(page.Body, `data-testid="input-request" data-kind="elicit-url"`) || !strings.Contains(page.Body, "Please sign in.") ||
					!strings.Contains(page.Body, tt.received) {
					t.Errorf("the server page lacks the URL card showing %s:\n%s", tt.received, page.Body)
				}
				for _, want := range tt.shows {
					if !strings.Contains(page.Body, want) {
						t.Errorf("the URL card lacks %s", want)
					}
				}
				link := fmt.Sprintf(`href="%s" target="_blank" rel="noopener noreferrer"`, tt.received)
				if got := strings.Contains(page.Body, link); got != tt.link {
					t.Errorf("the page links to the URL: %v, want %v\n%s", got, tt.link, page.Body)
				}
				if tt.link && !regexp.MustCompile(`data-url-confirm hidden[^>]*>[^<]*<span>Open [^<]*</span> <a class="button" href="`).MatchString(page.Body) {
					t.Errorf("the link is not behind a hidden confirmation:\n%s", page.Body)
				}
				if hasAccept := strings.Contains(page.Body, `value="accept" data-testid="input-accept"`); hasAccept != tt.link {
					t.Errorf("the card offers Accept: %v, want %v", hasAccept, tt.link)
				}
				if tt.absent != "" && strings.Contains(page.Body, tt.absent) {
					t.Errorf("the page holds %s", tt.absent)
				}
				if !tt.link {
					r := d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {"accept"}})
					if strings.Contains(r.Body, `data-testid="input-answered"`) || len(listInputs(t, d, sess.ID)) != 1 {
						t.Errorf("accepting a refused URL was sent: %d %s", r.Status, r.Body)
					}
				}
				r := d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {tt.action}})
				if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="input-answered"`) {
					t.Fatalf("%s: %d\n%s", tt.action, r.Status, r.Body)
				}
				if card := finished(t, "the visit call", call); !strings.Contains(card.Body, tt.action+":") {
					t.Errorf("the visit card after %s:\n%s", tt.action, card.Body)
				}
			})
		}
	})

	t.Run("sampling", func(t *testing.T) {
		call := d.pageCallAsync(t, sess.ID, token, "sample", url.Values{"arg.text": {"the sea"}})
		in := waitInputs(t, d, sess.ID, 1)[0]
		page := d.get(t, serverPage)
		for _, want := range []string{
			`data-testid="input-request" data-kind="sample"`,
			fmt.Sprintf(`<textarea id="input-reply-%d" name="reply"`, in.ID),
			fmt.Sprintf(`id="input-model-%d" name="model" value="test-model"`, in.ID),
			"Summarise: the sea",
			"Be brief.",
		} {
			if !strings.Contains(page.Body, want) {
				t.Errorf("the server page lacks %s", want)
			}
		}
		if t.Failed() {
			t.Logf("the server page:\n%s", page.Body)
		}

		r := d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {"accept"}, "reply": {"  "}, "model": {"m1"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="error-reply"`) || strings.Contains(r.Body, `data-testid="input-answered"`) {
			t.Errorf("empty reply: %d\n%s", r.Status, r.Body)
		}
		if !strings.Contains(r.Body, `value="m1"`) {
			t.Errorf("the re-rendered card lost the model typed:\n%s", r.Body)
		}
		if len(listInputs(t, d, sess.ID)) != 1 {
			t.Fatal("an empty reply ended the request")
		}
		assertBlocked(t, "the sample call", call)

		r = d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {"accept"}, "reply": {"short"}, "model": {"m1"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="input-answered"`) {
			t.Fatalf("reply: %d\n%s", r.Status, r.Body)
		}
		if card := finished(t, "the sample call", call); !strings.Contains(card.Body, `data-outcome="result"`) || !strings.Contains(card.Body, "m1: short") {
			t.Errorf("the sample card after the reply:\n%s", card.Body)
		}
	})

	t.Run("sampling refused", func(t *testing.T) {
		call := d.pageCallAsync(t, sess.ID, token, "sample", url.Values{"arg.text": {"the sea"}})
		in := waitInputs(t, d, sess.ID, 1)[0]
		r := d.htmxPost(t, inputPath(in.ID), token, url.Values{"_action": {"decline"}, "reply": {""}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="input-answered"`) {
			t.Fatalf("refuse: %d\n%s", r.Status, r.Body)
		}
		// The server got the spec's refusal: JSON-RPC error -1.
		if card := finished(t, "the sample call", call); !strings.Contains(card.Body, `data-outcome="tool-error"`) || !strings.Contains(card.Body, "User rejected sampling request") {
			t.Errorf("the sample card after a refusal:\n%s", card.Body)
		}
		var frames []struct {
			Direction string          `json:"direction"`
			Body      json.RawMessage `json:"body"`
		}
		found := false
		for deadline := time.Now().Add(5 * time.Second); !found && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/frames", sess.ID), nil, &frames) // the recorder commits in batches
			for _, f := range frames {
				found = found || (f.Direction == "out" && strings.Contains(string(f.Body), `"error":{"code":-1,"message":"User rejected sampling request"}`))
			}
		}
		if !found {
			t.Errorf("no outbound JSON-RPC error -1 among the session's frames: %s", frames)
		}
	})

	t.Run("two waiting requests", func(t *testing.T) {
		first := d.pageCallAsync(t, sess.ID, token, "ask", url.Values{})
		waitInputs(t, d, sess.ID, 1)
		second := d.pageCallAsync(t, sess.ID, token, "sample", url.Values{"arg.text": {"x"}})
		ins := waitInputs(t, d, sess.ID, 2)
		page := d.get(t, serverPage)
		var shown []string
		for _, m := range inputIDAttr.FindAllStringSubmatch(page.Body, -1) {
			shown = append(shown, m[1])
		}
		if want := []string{fmt.Sprint(ins[0].ID), fmt.Sprint(ins[1].ID)}; fmt.Sprint(shown) != fmt.Sprint(want) {
			t.Errorf("the page shows input cards %v, want %v (oldest first)", shown, want)
		}
		// Answering the second leaves the first waiting.
		d.htmxPost(t, inputPath(ins[1].ID), token, url.Values{"_action": {"decline"}})
		finished(t, "the sample call", second)
		if got := listInputs(t, d, sess.ID); len(got) != 1 || got[0].ID != ins[0].ID {
			t.Errorf("waiting after answering %d: %+v", ins[1].ID, got)
		}
		d.htmxPost(t, inputPath(ins[0].ID), token, url.Values{"_action": {"cancel"}})
		finished(t, "the ask call", first)
	})
}

func TestInputsLiveStream(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "asking", "transport": "http", "url": MustAskingServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	// Commit the handshake's frames, so that they are the backlog: the
	// recorder may hold them a moment to batch them with later ones.
	if err := d.rec.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	conn, _, err := d.dialLive(t, sess.ID, 0, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	lr := &liveReader{conn: conn, seen: map[int64]bool{}}
	lr.until(t, "the initialize backlog", func(msg string) bool {
		return strings.Contains(msg, `data-method="initialize"`) && strings.Contains(msg, `data-rpc-type="result"`)
	})

	// After the backlog the whole (empty) panel comes; then single cards
	// are added and removed, so that typing in one card survives others.
	lr.until(t, "the whole inputs panel", func(msg string) bool {
		return strings.Contains(msg, fmt.Sprintf(`id="inputs-%d" hx-swap-oob="true"`, sess.ID))
	})
	isAdd := func(msg string) bool {
		return strings.Contains(msg, fmt.Sprintf(`id="inputs-list-%d" hx-swap-oob="beforeend"`, sess.ID))
	}
	frame := func(msg, dir, typ, method string) bool {
		return regexp.MustCompile(`data-direction="` + dir + `" data-rpc-type="` + typ + `" data-method="` + regexp.QuoteMeta(method) + `"`).MatchString(msg)
	}

	call := d.apiCallAsync(t, sess.ID, "ask", nil)
	var sawPanel, sawRequest bool
	lr.until(t, "the inputs panel with the request, and the elicitation/create frame", func(msg string) bool {
		if isAdd(msg) {
			if !strings.Contains(msg, `data-testid="input-request"`) || !strings.Contains(msg, `data-kind="elicit-form"`) || !strings.Contains(msg, "Who are you?") {
				t.Errorf("the card sent on arrival is not the elicitation:\n%s", msg)
			}
			sawPanel = true
		}
		sawRequest = sawRequest || frame(msg, "in", "request", "elicitation/create")
		return sawPanel && sawRequest
	})

	in := waitInputs(t, d, sess.ID, 1)[0]
	if r := answerInput(t, d, sess.ID, in.ID, map[string]any{"result": map[string]any{"action": "decline"}}); r.Status != http.StatusNoContent {
		t.Fatalf("answer: %d %s", r.Status, r.Body)
	}
	var sawEmpty, sawAnswer, sawResult bool
	lr.until(t, "the card saying who answered, our answer and the tools/call result", func(msg string) bool {
		sawEmpty = sawEmpty || strings.Contains(msg, fmt.Sprintf(`id="input-%d" hx-swap-oob="outerHTML" data-testid="input-answered-by" role="status">Answered by %s.`, in.ID, testAdmin))
		sawAnswer = sawAnswer || frame(msg, "out", "result", "elicitation/create")
		sawResult = sawResult || frame(msg, "in", "result", "tools/call")
		return sawEmpty && sawAnswer && sawResult
	})
	finished(t, "the ask call", call)
}

// A viewer that connects while a request waits must be shown it: the page
// it loaded may predate the request (it arrived between the page's render
// and the WebSocket's subscription), and htmx reconnects a dropped stream
// without reloading the page. Frames have ?after= for this; the inputs
// panel has nothing else.
func TestInputsLiveStreamSendsWaitingRequestsOnConnect(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "asking", "transport": "http", "url": MustAskingServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	call := d.apiCallAsync(t, sess.ID, "ask", nil)
	in := waitInputs(t, d, sess.ID, 1)[0]
	frames := waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
		for _, f := range fs {
			if f.Method == "elicitation/create" {
				return true
			}
		}
		return false
	})

	// As a page rendered now would: every frame is already shown.
	conn, _, err := d.dialLive(t, sess.ID, frames[len(frames)-1].ID, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	panelID := fmt.Sprintf(`id="inputs-%d"`, sess.ID)
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			t.Errorf("a viewer connecting while request %d waits got no inputs panel (%v): "+
				"web/session_live.go pumpSession sends only frames after the backlog; it should also send "+
				"views.InputsPanel(sessionID, s.inputViews(sessionID), true) once subscribed", in.ID, err)
			break
		}
		if msg := string(b); strings.Contains(msg, panelID) {
			if !strings.Contains(msg, fmt.Sprintf(`id="input-%d"`, in.ID)) {
				t.Errorf("the panel sent on connect lacks request %d:\n%s", in.ID, msg)
			}
			break
		}
	}
	answerInput(t, d, sess.ID, in.ID, map[string]any{"result": map[string]any{"action": "cancel"}})
	finished(t, "the ask call", call)
}
