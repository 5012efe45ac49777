package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Fault tests: servers that crash, hang, write garbage, answer too much,
// drip their SSE replies or lose their session. For each, the user gets a
// clear error, the session's record says what happened, and another
// session open at the same time is untouched. They wait by polling with
// generous deadlines, so a slow machine makes them slower, not flaky.

const faultWait = 30 * time.Second

// toolCall is a tools/call answer of the JSON API: a result, or apiError's
// error field for a request that got no answer.
type toolCall struct {
	Status int
	Body   string
	Result struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	Error string
}

// callTool calls a tool through the JSON API; timeoutMS 0 means the
// dashboard's default.
func (d *dashboard) callTool(t *testing.T, sessionID int64, tool string, args map[string]any, timeoutMS int) toolCall {
	t.Helper()
	in := map[string]any{"method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}}
	if timeoutMS > 0 {
		in["timeoutMs"] = timeoutMS
	}
	r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sessionID), in, nil)
	out := toolCall{Status: r.Status, Body: r.Body}
	var body struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
		t.Fatalf("tools/call %s: %d %q is not JSON: %v", tool, r.Status, r.Body, err)
	}
	if len(body.Result) > 0 {
		if err := json.Unmarshal(body.Result, &out.Result); err != nil {
			t.Fatalf("tools/call %s: result %s: %v", tool, body.Result, err)
		}
	}
	_ = json.Unmarshal(body.Error, &out.Error) // a string for API errors; an object for JSON-RPC errors
	return out
}

// mustEcho calls the echo tool and checks its answer.
func (d *dashboard) mustEcho(t *testing.T, sessionID int64, text string) {
	t.Helper()
	r := d.callTool(t, sessionID, "echo", map[string]any{"text": text}, 0)
	if r.Status != http.StatusOK || len(r.Result.Content) != 1 || r.Result.Content[0].Text != "echo: "+text {
		t.Fatalf("echo %q on session %d: %d %s", text, sessionID, r.Status, r.Body)
	}
}

// getSession reads a session through the JSON API.
func (d *dashboard) getSession(t *testing.T, id int64) apiSession {
	t.Helper()
	var s apiSession
	if r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d", id), nil, &s); r.Status != http.StatusOK {
		t.Fatalf("GET session %d: %d %s", id, r.Status, r.Body)
	}
	return s
}

// assertUntouched checks that a healthy session is still open and answers.
func (d *dashboard) assertUntouched(t *testing.T, healthy apiSession, text string) {
	t.Helper()
	if s := d.getSession(t, healthy.ID); s.Status != "open" {
		t.Errorf("the healthy session %d is %s (%s)", healthy.ID, s.Status, s.CloseReason)
	}
	d.mustEcho(t, healthy.ID, text)
}

// pollFrames lists the session's frames until done accepts them.
func (d *dashboard) pollFrames(t *testing.T, sessionID int64, what string, done func([]apiFrame) bool) []apiFrame {
	t.Helper()
	deadline := time.Now().Add(faultWait)
	for {
		var frames []apiFrame
		if err := json.Unmarshal([]byte(listFrames(t, d, sessionID, "?limit=1000").Body), &frames); err != nil {
			t.Fatal(err)
		}
		if done(frames) {
			return frames
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d never recorded %s; frames:\n%s", sessionID, what, describeFrames(frames))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pollSession reads the session until done accepts it.
func (d *dashboard) pollSession(t *testing.T, id int64, what string, done func(apiSession) bool) apiSession {
	t.Helper()
	deadline := time.Now().Add(faultWait)
	for {
		s := d.getSession(t, id)
		if done(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %d never became %s: %+v", id, what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func describeFrames(frames []apiFrame) string {
	var b strings.Builder
	for _, f := range frames {
		body := f.BodyText
		if body == "" {
			body = string(f.Body)
		}
		if len(body) > 200 {
			body = body[:200] + "…"
		}
		fmt.Fprintf(&b, "  %d %s %s %s %s id=%s %s\n", f.ID, f.Direction, f.Kind, f.RPCType, f.Method, f.RPCID, body)
	}
	return b.String()
}

// frameText is a frame's body as text.
func frameText(f apiFrame) string {
	if f.BodyText != "" {
		return f.BodyText
	}
	return string(f.Body)
}

// findFrame returns the first frame that match accepts.
func findFrame(frames []apiFrame, match func(apiFrame) bool) (apiFrame, bool) {
	for _, f := range frames {
		if match(f) {
			return f, true
		}
	}
	return apiFrame{}, false
}

// toolRequest matches the outbound tools/call request of tool.
func toolRequest(tool string) func(apiFrame) bool {
	return func(f apiFrame) bool {
		return f.Direction == "out" && f.RPCType == "request" && f.Method == "tools/call" &&
			strings.Contains(string(f.Body), `"name":"`+tool+`"`)
	}
}

// cancelledFor matches the outbound notifications/cancelled of request id
// whose reason contains reason.
func cancelledFor(id json.RawMessage, reason string) func(apiFrame) bool {
	return func(f apiFrame) bool {
		if f.Direction != "out" || f.Method != "notifications/cancelled" {
			return false
		}
		var n struct {
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
				Reason    string          `json:"reason"`
			} `json:"params"`
		}
		return json.Unmarshal(f.Body, &n) == nil && string(n.Params.RequestID) == string(id) && strings.Contains(n.Params.Reason, reason)
	}
}

// hasFrame reports whether a frame of kind and direction contains text.
func hasFrame(frames []apiFrame, direction, kind, text string) bool {
	_, ok := findFrame(frames, func(f apiFrame) bool {
		return f.Direction == direction && f.Kind == kind && strings.Contains(frameText(f), text)
	})
	return ok
}

func TestFaultyStdioServer(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	healthy := d.MustAPISession(t, d.MustAPIServer(t, sdkStdioServer("healthy")).ID)
	faulty := d.MustAPIServer(t, faultStdioServer("faulty"))

	t.Run("crash mid-call", func(t *testing.T) {
		sess := d.MustAPISession(t, faulty.ID)
		// Through the page's tool form: the card shows why the call failed.
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/tools/call?card=1", sess.ID), token, url.Values{"_tool": {"crash"}})
		// The message quotes the exit status and the last stderr lines, or,
		// when reaping the process takes long, says that its stdout closed.
		ended := func(msg string) bool {
			return strings.Contains(msg, "server process exited: exit status 3") || strings.Contains(msg, "server closed its stdout")
		}
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="failure"`) || !ended(r.Body) {
			t.Fatalf("tool card after a crash: %d\n%s", r.Status, r.Body)
		}
		s := d.pollSession(t, sess.ID, "closed", func(s apiSession) bool { return s.Status == "closed" })
		if !strings.HasPrefix(s.CloseReason, "server went away: ") || !ended(s.CloseReason) {
			t.Errorf("close reason = %q", s.CloseReason)
		}
		// The pool's note comes last: once it is stored, so is the rest.
		frames := d.pollFrames(t, sess.ID, "the end of the session", func(fs []apiFrame) bool {
			return hasFrame(fs, "in", "transport", "server went away")
		})
		if !hasFrame(frames, "in", "transport", "process exited: exit status 3") {
			t.Errorf("the exit is not recorded:\n%s", describeFrames(frames))
		}
		if _, ok := findFrame(frames, toolRequest("crash")); !ok {
			t.Errorf("the crash request is not recorded:\n%s", describeFrames(frames))
		}
		if !hasFrame(frames, "stderr", "log", "crashing in the middle of a call") {
			t.Errorf("the server's last words are not recorded:\n%s", describeFrames(frames))
		}
		// A call on the ended session is refused plainly.
		if r := d.callTool(t, sess.ID, "echo", nil, 0); r.Status != http.StatusConflict || !strings.Contains(r.Error, "is not connected") {
			t.Errorf("call on the crashed session: %d %s", r.Status, r.Body)
		}
		d.assertUntouched(t, healthy, "after the crash")
	})

	t.Run("hang: timeout, then cancel", func(t *testing.T) {
		sess := d.MustAPISession(t, faulty.ID)
		r := d.callTool(t, sess.ID, "hang", nil, 300)
		if r.Status != http.StatusGatewayTimeout || !strings.Contains(r.Error, "tools/call timed out") {
			t.Fatalf("hanging call: %d %s", r.Status, r.Body)
		}
		frames := d.pollFrames(t, sess.ID, "the request and its cancellation", func(fs []apiFrame) bool {
			req, ok := findFrame(fs, toolRequest("hang"))
			if !ok {
				return false
			}
			_, ok = findFrame(fs, cancelledFor(req.RPCID, "request timed out"))
			return ok && hasFrame(fs, "stderr", "log", "fault server: request "+string(req.RPCID)+" cancelled")
		})
		if req, _ := findFrame(frames, toolRequest("hang")); req.PairID != 0 {
			t.Errorf("the hanging request has a response: %+v", req)
		}

		// The user gives up: the HTTP request ends before the answer.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		body := `{"method":"tools/call","params":{"name":"hang","arguments":{}}}`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/api/v1/sessions/%d/requests", d.URL, sess.ID), strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+d.token)
		done := make(chan error, 1)
		go func() {
			resp, err := d.client.Do(req)
			if err == nil {
				resp.Body.Close()
				err = fmt.Errorf("answered %s", resp.Status)
			}
			done <- err
		}()
		var second apiFrame
		d.pollFrames(t, sess.ID, "the second hang request", func(fs []apiFrame) bool {
			n := 0
			for _, f := range fs {
				if toolRequest("hang")(f) {
					n, second = n+1, f
				}
			}
			return n == 2
		})
		cancel()
		if err := <-done; !strings.Contains(fmt.Sprint(err), "context canceled") {
			t.Errorf("the abandoned request: %v", err)
		}
		d.pollFrames(t, sess.ID, "the cancellation by the client", func(fs []apiFrame) bool {
			_, ok := findFrame(fs, cancelledFor(second.RPCID, "request cancelled by the client"))
			return ok && hasFrame(fs, "stderr", "log", "fault server: request "+string(second.RPCID)+" cancelled")
		})
		// The session goes on.
		d.mustEcho(t, sess.ID, "after hanging")
		if s := d.getSession(t, sess.ID); s.Status != "open" {
			t.Errorf("session after the hang: %+v", s)
		}
		d.assertUntouched(t, healthy, "after the hang")
	})

	t.Run("garbage", func(t *testing.T) {
		sess := d.MustAPISession(t, faulty.ID)
		r := d.callTool(t, sess.ID, "garbage", nil, 500)
		if r.Status != http.StatusGatewayTimeout || !strings.Contains(r.Error, "tools/call timed out") {
			t.Fatalf("call answered with garbage: %d %s", r.Status, r.Body)
		}
		d.pollFrames(t, sess.ID, "the garbage and the cancellation", func(fs []apiFrame) bool {
			req, ok := findFrame(fs, toolRequest("garbage"))
			if !ok {
				return false
			}
			_, ok = findFrame(fs, cancelledFor(req.RPCID, "request timed out"))
			return ok && hasFrame(fs, "in", "parse-error", "this is not JSON-RPC {{{")
		})
		d.mustEcho(t, sess.ID, "after garbage")
		d.assertUntouched(t, healthy, "after garbage")
	})

	t.Run("50 MiB result", func(t *testing.T) {
		sess := d.MustAPISession(t, faulty.ID)
		r := d.callTool(t, sess.ID, "huge", nil, 0)
		if r.Status != http.StatusBadGateway || !strings.Contains(r.Error, "larger than the 16777216-byte limit") {
			t.Fatalf("huge result: %d %.500s", r.Status, r.Body)
		}
		frames := d.pollFrames(t, sess.ID, "the truncated result", func(fs []apiFrame) bool {
			_, ok := findFrame(fs, func(f apiFrame) bool { return f.Kind == "parse-error" })
			return ok
		})
		f := mustFind(t, frames, func(f apiFrame) bool { return f.Kind == "parse-error" })
		req := mustFind(t, frames, toolRequest("huge"))
		if len(f.BodyText) != 64<<10 || !strings.HasPrefix(f.BodyText, `{"jsonrpc":"2.0","id":`+string(req.RPCID)+`,"result":`) {
			t.Errorf("recorded %d bytes starting %.80q, want the first 64 KiB of the answer", len(f.BodyText), f.BodyText)
		}
		// The session stays usable: the oversized line was skipped whole.
		d.mustEcho(t, sess.ID, "after the huge result")
		if s := d.getSession(t, sess.ID); s.Status != "open" {
			t.Errorf("session after the huge result: %+v", s)
		}
		d.assertUntouched(t, healthy, "after the huge result")
	})
}

func mustFind(t *testing.T, frames []apiFrame, match func(apiFrame) bool) apiFrame {
	t.Helper()
	f, ok := findFrame(frames, match)
	if !ok {
		t.Fatalf("no such frame in:\n%s", describeFrames(frames))
	}
	return f
}

// dripServer is a Streamable HTTP server written by hand whose tools answer
// with an SSE stream written one byte at a time: drip with a short pause
// after each byte, stall with a pause that lasts until the request is
// cancelled. Two more misbehave otherwise: garbage answers with a JSON
// body that is not JSON, huge with a 50 MiB JSON body. It records the
// notifications/cancelled it receives.
type dripServer struct {
	URL       string
	cancelled chan string // the requestId of each notifications/cancelled

	mu     sync.Mutex
	stalls map[string]chan struct{} // closed when the request is cancelled
}

const dripGap = 3 * time.Millisecond

func newDripServer(t *testing.T) *dripServer {
	s := &dripServer{cancelled: make(chan string, 16), stalls: map[string]chan struct{}{}}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	s.URL = ts.URL + "/mcp"
	return s
}

func (s *dripServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	answer := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, m.ID, result)
	}
	switch {
	case m.Method == "initialize":
		w.Header().Set("Mcp-Session-Id", "drip-session")
		answer(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"drip","version":"1"}}`)
	case m.Method == "notifications/cancelled":
		id := string(m.Params.RequestID)
		s.mu.Lock()
		if c := s.stalls[id]; c != nil {
			close(c)
			delete(s.stalls, id)
		}
		s.mu.Unlock()
		s.cancelled <- id
		w.WriteHeader(http.StatusAccepted)
	case len(m.ID) == 0:
		w.WriteHeader(http.StatusAccepted)
	case m.Method == "tools/list":
		answer(`{"tools":[{"name":"drip","inputSchema":{"type":"object"}},{"name":"stall","inputSchema":{"type":"object"}},` +
			`{"name":"garbage","inputSchema":{"type":"object"}},{"name":"huge","inputSchema":{"type":"object"}}]}`)
	case m.Method == "tools/call" && m.Params.Name == "garbage":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "<html>502 Bad Gateway, but with status 200</html>")
	case m.Method == "tools/call" && m.Params.Name == "huge":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, m.ID)
		chunk := strings.Repeat("x", 1<<20)
		for range hugeResultSize / len(chunk) {
			if _, err := io.WriteString(w, chunk); err != nil {
				return // the client stopped reading at its limit
			}
		}
		io.WriteString(w, `"}]}}`)
	case m.Method == "tools/call" && m.Params.Name == "drip":
		event := fmt.Sprintf("id: drip-1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"dripped slowly\"}]}}\n\n", m.ID)
		s.drip(w, r, event, nil)
	case m.Method == "tools/call" && m.Params.Name == "stall":
		stalled := make(chan struct{})
		s.mu.Lock()
		s.stalls[string(m.ID)] = stalled
		s.mu.Unlock()
		s.drip(w, r, "id: stall-1\nevent: message\ndata: {\"jsonrpc\":\"2.0\",", stalled)
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, m.ID)
	}
}

// drip writes text as an SSE stream one byte at a time; then, if stall is
// not nil, it waits for stall or the end of the request without ending
// the event.
func (s *dripServer) drip(w http.ResponseWriter, r *http.Request, text string, stall <-chan struct{}) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	flusher := w.(http.Flusher)
	for i := range len(text) {
		if _, err := io.WriteString(w, text[i:i+1]); err != nil {
			return
		}
		flusher.Flush()
		select {
		case <-time.After(dripGap):
		case <-r.Context().Done():
			return
		}
	}
	if stall != nil {
		select {
		case <-stall:
		case <-r.Context().Done():
		}
	}
}

// swappableHandler serves whichever handler it holds.
type swappableHandler struct{ h atomic.Pointer[http.Handler] }

func (s *swappableHandler) set(h http.Handler) { s.h.Store(&h) }

func (s *swappableHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

func TestFaultyHTTPServer(t *testing.T) {
	d := MustDashboard(t)
	healthy := d.MustAPISession(t, d.MustAPIServer(t, sdkStdioServer("healthy")).ID)

	t.Run("SSE drips slowly", func(t *testing.T) {
		drip := newDripServer(t)
		sess := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "drip", "transport": "http", "url": drip.URL}).ID)

		// One byte at a time is slow, not wrong: the answer arrives whole.
		r := d.callTool(t, sess.ID, "drip", nil, 0)
		if r.Status != http.StatusOK || len(r.Result.Content) != 1 || r.Result.Content[0].Text != "dripped slowly" {
			t.Fatalf("dripped call: %d %s", r.Status, r.Body)
		}
		// A stream that stops in the middle of an event times out, and the
		// server is told the request was given up.
		r = d.callTool(t, sess.ID, "stall", nil, 500)
		if r.Status != http.StatusGatewayTimeout || !strings.Contains(r.Error, "tools/call timed out") {
			t.Fatalf("stalled call: %d %s", r.Status, r.Body)
		}
		select {
		case id := <-drip.cancelled:
			frames := d.pollFrames(t, sess.ID, "the cancellation", func(fs []apiFrame) bool {
				_, ok := findFrame(fs, cancelledFor(json.RawMessage(id), "request timed out"))
				return ok
			})
			req := mustFind(t, frames, toolRequest("stall"))
			if string(req.RPCID) != id || req.PairID != 0 {
				t.Errorf("the server cancelled request %s; the stalled request is %+v", id, req)
			}
			res := mustFind(t, frames, func(f apiFrame) bool {
				return f.RPCType == "result" && strings.Contains(string(f.Body), "dripped slowly")
			})
			if !strings.Contains(string(res.HTTP), `"eventId":"drip-1"`) {
				t.Errorf("the dripped result's HTTP record: %s", res.HTTP)
			}
		case <-time.After(faultWait):
			t.Fatal("the server never got notifications/cancelled")
		}
		// The session goes on.
		if r := d.callTool(t, sess.ID, "drip", nil, 0); r.Status != http.StatusOK {
			t.Errorf("call after the stall: %d %s", r.Status, r.Body)
		}
		d.assertUntouched(t, healthy, "after the drip")
	})

	t.Run("garbage and a 50 MiB result", func(t *testing.T) {
		srv := newDripServer(t)
		sess := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "misbehaving", "transport": "http", "url": srv.URL}).ID)

		r := d.callTool(t, sess.ID, "garbage", nil, 0)
		if r.Status != http.StatusBadGateway || !strings.Contains(r.Error, "tools/call failed") || !strings.Contains(r.Error, "ended without the response") {
			t.Fatalf("garbage body: %d %s", r.Status, r.Body)
		}
		r = d.callTool(t, sess.ID, "huge", nil, 0)
		if r.Status != http.StatusBadGateway || !strings.Contains(r.Error, "larger than the 16777216-byte limit") {
			t.Fatalf("huge body: %d %.500s", r.Status, r.Body)
		}
		// Both are recorded as they came, the huge one cut to 64 KiB.
		frames := d.pollFrames(t, sess.ID, "both replies", func(fs []apiFrame) bool {
			n := 0
			for _, f := range fs {
				if f.Kind == "parse-error" {
					n++
				}
			}
			return n == 2
		})
		garbage := mustFind(t, frames, func(f apiFrame) bool { return f.Kind == "parse-error" && strings.HasPrefix(f.BodyText, "<html>") })
		if !strings.Contains(string(garbage.HTTP), `"status":200`) {
			t.Errorf("the garbage reply's HTTP record: %s", garbage.HTTP)
		}
		huge := mustFind(t, frames, func(f apiFrame) bool { return f.Kind == "parse-error" && strings.HasPrefix(f.BodyText, `{"jsonrpc"`) })
		if len(huge.BodyText) != 64<<10 {
			t.Errorf("recorded %d bytes of the huge reply, want 64 KiB", len(huge.BodyText))
		}
		if r := d.callTool(t, sess.ID, "drip", nil, 0); r.Status != http.StatusOK {
			t.Errorf("call after the garbage and the huge reply: %d %s", r.Status, r.Body)
		}
		d.assertUntouched(t, healthy, "after the HTTP garbage")
	})

	t.Run("session lost", func(t *testing.T) {
		server := newSDKServer()
		fresh := func() http.Handler {
			return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
		}
		h := &swappableHandler{}
		h.set(fresh())
		ts := httptest.NewServer(h)
		t.Cleanup(func() {
			ts.CloseClientConnections()
			ts.Close()
		})
		sess := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "forgetful", "transport": "http", "url": ts.URL + "/mcp"}).ID)
		d.mustEcho(t, sess.ID, "first")

		// The server forgets every session (as after a restart): the next
		// call gets 404, a new session is started and the call goes through.
		h.set(fresh())
		d.mustEcho(t, sess.ID, "on a new session")
		d.pollFrames(t, sess.ID, "the renewal", func(fs []apiFrame) bool {
			return hasFrame(fs, "in", "transport", "is gone (HTTP 404 Not Found); starting a new session with initialize") &&
				hasFrame(fs, "in", "transport", "new session") &&
				hasFrame(fs, "in", "transport", "sending tools/call")
		})
		if s := d.getSession(t, sess.ID); s.Status != "open" {
			t.Errorf("session after the renewal: %+v", s)
		}

		// The server forgets the session and refuses a new one.
		h.set(http.NotFoundHandler())
		r := d.callTool(t, sess.ID, "echo", map[string]any{"text": "lost"}, 0)
		if r.Status != http.StatusBadGateway || !strings.Contains(r.Error, "session expired") || !strings.Contains(r.Error, "starting a new session failed") {
			t.Fatalf("call when no session can be started: %d %s", r.Status, r.Body)
		}
		d.pollFrames(t, sess.ID, "the failed renewal", func(fs []apiFrame) bool {
			n := 0
			for _, f := range fs {
				if f.Kind == "transport" && strings.Contains(frameText(f), "starting a new session with initialize") {
					n++
				}
			}
			return n == 2
		})
		d.assertUntouched(t, healthy, "after the session was lost")
	})
}
