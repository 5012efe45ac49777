package web_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestAPIServers(t *testing.T) {
	d := MustDashboard(t)

	created := d.MustAPIServer(t, map[string]any{
		"name": "remote", "transport": "http", "url": "http://127.0.0.1:9/mcp",
		"headers": map[string]string{"Authorization": "Bearer top-secret-header", "X-Trace": "trace-value"},
	})
	if created.ID == 0 || created.Name != "remote" || created.Transport != "http" || created.URL != "http://127.0.0.1:9/mcp" {
		t.Errorf("created = %+v", created)
	}
	sort.Strings(created.HeaderNames)
	if strings.Join(created.HeaderNames, ",") != "Authorization,X-Trace" {
		t.Errorf("headerNames = %v", created.HeaderNames)
	}
	d.MustAPIServer(t, map[string]any{"name": "local", "transport": "stdio", "command": "sh", "args": []string{"x.sh"},
		"env": map[string]string{"API_KEY": "top-secret-env"}})

	t.Run("a whole command line is split and other transports' settings dropped", func(t *testing.T) {
		got := d.MustAPIServer(t, map[string]any{"name": "Everything (npx)", "transport": "stdio", "command": "sh -c 'exec cat'",
			"url": "http://127.0.0.1:9/mcp", "headers": map[string]string{"X-Key": "k"}})
		if got.Name != "Everything (npx)" || got.Command != "sh" || strings.Join(got.Args, "|") != "-c|exec cat" || got.URL != "" || len(got.HeaderNames) != 0 {
			t.Errorf("created = %+v", got)
		}
		if err := d.reg.Delete(t.Context(), got.ID); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("list leaks no secret values", func(t *testing.T) {
		var list []apiServer
		r := d.api(t, http.MethodGet, "/api/v1/servers", nil, &list)
		if r.Status != http.StatusOK || len(list) != 2 {
			t.Fatalf("list: %d %s", r.Status, r.Body)
		}
		if list[0].Name != "local" || list[1].Name != "remote" {
			t.Errorf("order: %+v", list)
		}
		if strings.Join(list[0].EnvNames, ",") != "API_KEY" {
			t.Errorf("envNames = %v", list[0].EnvNames)
		}
		for _, secret := range []string{"top-secret", "trace-value"} {
			if strings.Contains(r.Body, secret) {
				t.Errorf("list shows %q: %s", secret, r.Body)
			}
		}
	})

	tests := []struct {
		name   string
		body   string
		status int
		fields []string
	}{
		{"invalid settings", `{"name":"","transport":"http","url":"nope"}`, http.StatusUnprocessableEntity, []string{"name", "url"}},
		{"bad transport", `{"name":"x","transport":"websocket"}`, http.StatusUnprocessableEntity, []string{"transport"}},
		{"sse needs a url", `{"name":"x","transport":"sse"}`, http.StatusUnprocessableEntity, []string{"url"}},
		{"bad era", `{"name":"x","transport":"stdio","command":"sh","era":"future"}`, http.StatusUnprocessableEntity, []string{"era"}},
		{"duplicate name", `{"name":"remote","transport":"stdio","command":"sh"}`, http.StatusConflict, []string{"name"}},
		{"unknown field", `{"name":"x","transport":"stdio","command":"sh","shell":true}`, http.StatusUnprocessableEntity, nil},
		{"command not on PATH", `{"name":"x","transport":"stdio","command":"no-such-program-mcp"}`, http.StatusUnprocessableEntity, []string{"command"}},
		{"command line and args", `{"name":"x","transport":"stdio","command":"npx -y","args":["pkg"]}`, http.StatusUnprocessableEntity, []string{"command"}},
		{"name with a newline", `{"name":"a\nb","transport":"stdio","command":"sh"}`, http.StatusUnprocessableEntity, []string{"name"}},
		{"not JSON", `{"name":`, http.StatusUnprocessableEntity, nil},
		{"wrong type", `{"name":1}`, http.StatusUnprocessableEntity, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := d.newRequest(t, http.MethodPost, "/api/v1/servers", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			r := d.do(t, req)
			if r.Status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tt.status, r.Body)
			}
			if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			var e apiError
			if err := json.Unmarshal([]byte(r.Body), &e); err != nil || e.Error == "" {
				t.Fatalf("error body %q: %v", r.Body, err)
			}
			for _, f := range tt.fields {
				if e.Fields[f] == "" {
					t.Errorf("no field error for %q: %+v", f, e)
				}
			}
			if len(e.Fields) != len(tt.fields) {
				t.Errorf("fields = %v, want %v", e.Fields, tt.fields)
			}
		})
	}
	assertServerCount(t, d, 2)
}

func TestAPISessionOverHTTP(t *testing.T) {
	d := MustDashboard(t)
	headers := make(chan http.Header, 64)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, headers),
		"headers": map[string]string{"Authorization": "Bearer top-secret-token"}})

	sess := d.MustAPISession(t, srv.ID)
	if sess.ID == 0 || sess.Status != "open" || sess.ProtocolVersion != "2025-11-25" || sess.PeerName != "sdk-test" || sess.ServerID != srv.ID {
		t.Errorf("session = %+v", sess)
	}
	if h := <-headers; h.Get("Authorization") != "Bearer top-secret-token" {
		t.Errorf("the server got Authorization %q", h.Get("Authorization"))
	}
	base := fmt.Sprintf("/api/v1/sessions/%d", sess.ID)

	t.Run("get", func(t *testing.T) {
		var got apiSession
		if r := d.api(t, http.MethodGet, base, nil, &got); r.Status != http.StatusOK || got.ID != sess.ID || got.Status != "open" {
			t.Errorf("GET session: %d %s", r.Status, r.Body)
		}
	})

	t.Run("tools/list", func(t *testing.T) {
		var out struct {
			Result struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			} `json:"result"`
			Error     *json.RawMessage `json:"error"`
			LatencyMS float64          `json:"latencyMs"`
		}
		r := d.api(t, http.MethodPost, base+"/requests", map[string]any{"method": "tools/list"}, &out)
		if r.Status != http.StatusOK || out.Error != nil || len(out.Result.Tools) != 2 || out.Result.Tools[0].Name != "echo" || out.Result.Tools[1].Name != "wait" {
			t.Errorf("tools/list: %d %s", r.Status, r.Body)
		}
		if out.LatencyMS <= 0 {
			t.Errorf("latencyMs = %v", out.LatencyMS)
		}
	})

	t.Run("tools/call", func(t *testing.T) {
		var out struct {
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		r := d.api(t, http.MethodPost, base+"/requests", map[string]any{"method": "tools/call",
			"params": map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}}, &out)
		if r.Status != http.StatusOK || len(out.Result.Content) != 1 || out.Result.Content[0].Text != "echo: hi" {
			t.Errorf("tools/call: %d %s", r.Status, r.Body)
		}
	})

	t.Run("pages show HTTP details with secrets redacted", func(t *testing.T) {
		// The API answers before the recorder has stored the exchange.
		if err := d.rec.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{fmt.Sprintf("/sessions/%d", sess.ID), fmt.Sprintf("/servers/%d", srv.ID)} {
			r := d.get(t, path)
			if r.Status != http.StatusOK {
				t.Fatalf("GET %s: %d", path, r.Status)
			}
			if strings.Contains(r.Body, "top-secret-token") {
				t.Errorf("GET %s shows the Authorization value", path)
			}
			if !strings.Contains(r.Body, `data-testid="http-details"`) || !strings.Contains(r.Body, "Authorization: [redacted]") {
				t.Errorf("GET %s lacks the redacted HTTP details", path)
			}
		}
	})

	t.Run("unknown method", func(t *testing.T) {
		// The Go SDK refuses unknown methods over Streamable HTTP with a
		// plain HTTP 400 (no JSON-RPC response): a gateway error.
		var e apiError
		r := d.api(t, http.MethodPost, base+"/requests", map[string]any{"method": "no/such/method"}, &e)
		if r.Status != http.StatusBadGateway || !strings.Contains(e.Error, "400") {
			t.Errorf("unknown method: %d %s", r.Status, r.Body)
		}
	})

	t.Run("request validation", func(t *testing.T) {
		tests := []struct {
			name   string
			body   string
			status int
		}{
			{"no method", `{"params":{}}`, http.StatusUnprocessableEntity},
			{"blank method", `{"method":"  "}`, http.StatusUnprocessableEntity},
			{"unknown field", `{"method":"ping","id":1}`, http.StatusUnprocessableEntity},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				req := d.newRequest(t, http.MethodPost, base+"/requests", strings.NewReader(tt.body))
				req.Header.Set("Content-Type", "application/json")
				if r := d.do(t, req); r.Status != tt.status {
					t.Errorf("status %d, want %d: %s", r.Status, tt.status, r.Body)
				}
			})
		}
	})

	t.Run("frames", func(t *testing.T) {
		frames := waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
			for _, f := range fs {
				if f.Method == "tools/call" && f.RPCType == "result" {
					return true
				}
			}
			return false
		})
		byID := map[int64]apiFrame{}
		for _, f := range frames {
			byID[f.ID] = f
		}
		pairs := 0
		for _, f := range frames {
			if f.RPCType != "request" || f.Direction != "out" {
				continue
			}
			if f.Method == "no/such/method" {
				if f.PairID != 0 {
					t.Errorf("the refused request is paired: %+v", f)
				}
				continue
			}
			resp, ok := byID[f.PairID]
			if !ok || resp.PairID != f.ID || resp.Direction != "in" || resp.Method != f.Method || resp.LatencyMS <= 0 || resp.LatencyMS != f.LatencyMS {
				t.Errorf("request %d (%s) pair: %+v", f.ID, f.Method, resp)
				continue
			}
			if string(resp.RPCID) != string(f.RPCID) {
				t.Errorf("pair ids %s and %s", f.RPCID, resp.RPCID)
			}
			pairs++
		}
		if pairs < 3 { // initialize, tools/list, tools/call
			t.Errorf("%d paired requests", pairs)
		}
		all := listFrames(t, d, sess.ID, "")
		if strings.Contains(all.Body, "top-secret-token") {
			t.Errorf("frames show the Authorization header value")
		}
		if !strings.Contains(all.Body, "[redacted]") {
			t.Errorf("no redacted header in the frames")
		}

		// Paging.
		var page []apiFrame
		json.Unmarshal([]byte(listFrames(t, d, sess.ID, "?limit=2").Body), &page)
		if len(page) != 2 || page[0].ID != frames[0].ID || page[1].ID != frames[1].ID {
			t.Errorf("limit=2: %+v", page)
		}
		json.Unmarshal([]byte(listFrames(t, d, sess.ID, fmt.Sprintf("?after=%d&limit=1", frames[1].ID)).Body), &page)
		if len(page) != 1 || page[0].ID != frames[2].ID {
			t.Errorf("after: %+v", page)
		}
	})

	t.Run("close", func(t *testing.T) {
		if r := d.api(t, http.MethodDelete, base, nil, nil); r.Status != http.StatusNoContent {
			t.Fatalf("DELETE: %d %s", r.Status, r.Body)
		}
		var got apiSession
		d.api(t, http.MethodGet, base, nil, &got)
		if got.Status != "closed" || got.CloseReason != "closed by the user" {
			t.Errorf("after close: %+v", got)
		}
		var e apiError
		if r := d.api(t, http.MethodPost, base+"/requests", map[string]any{"method": "ping"}, &e); r.Status != http.StatusConflict || e.Error == "" {
			t.Errorf("request on a closed session: %d %s", r.Status, r.Body)
		}
		if r := d.api(t, http.MethodDelete, base, nil, nil); r.Status != http.StatusConflict {
			t.Errorf("second DELETE: %d", r.Status)
		}
	})
}

func TestAPISessionOverStdio(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, sdkStdioServer("stdio-sdk"))
	sess := d.MustAPISession(t, srv.ID)
	base := fmt.Sprintf("/api/v1/sessions/%d", sess.ID)

	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		LatencyMS float64 `json:"latencyMs"`
	}
	r := d.api(t, http.MethodPost, base+"/requests", map[string]any{"method": "no/such/method"}, &out)
	if r.Status != http.StatusOK || out.Error == nil || out.Error.Code != -32601 || out.Error.Message == "" || out.Result != nil {
		t.Errorf("unknown method: %d %s", r.Status, r.Body)
	}
	if out.LatencyMS <= 0 {
		t.Errorf("latencyMs = %v", out.LatencyMS)
	}
	frames := waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
		for _, f := range fs {
			if f.RPCType == "error" && f.Method == "no/such/method" {
				return f.PairID != 0
			}
		}
		return false
	})
	for _, f := range frames {
		if f.HTTP != nil {
			t.Errorf("stdio frame with HTTP info: %+v", f)
		}
	}
}

func TestAPIErrors(t *testing.T) {
	d := MustDashboard(t)
	tests := []struct {
		name   string
		method string
		path   string
		status int
	}{
		{"session not found", http.MethodGet, "/api/v1/sessions/999", http.StatusNotFound},
		{"frames of a missing session", http.MethodGet, "/api/v1/sessions/999/frames", http.StatusNotFound},
		{"bad id", http.MethodGet, "/api/v1/sessions/abc", http.StatusNotFound},
		{"negative id", http.MethodGet, "/api/v1/sessions/-1", http.StatusNotFound},
		{"connect a missing server", http.MethodPost, "/api/v1/servers/999/sessions", http.StatusNotFound},
		{"close a session that is not live", http.MethodDelete, "/api/v1/sessions/999", http.StatusConflict},
		{"no route", http.MethodGet, "/api/v1/nothing", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e apiError
			r := d.api(t, tt.method, tt.path, nil, &e)
			if r.Status != tt.status || e.Error == "" {
				t.Errorf("%s %s = %d %s, want %d with an error message", tt.method, tt.path, r.Status, r.Body, tt.status)
			}
		})
	}

	t.Run("connect failure returns the failed session", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		refused := "http://" + ln.Addr().String() + "/mcp"
		ln.Close()
		srv := d.MustAPIServer(t, map[string]any{"name": "down", "transport": "http", "url": refused})
		var e apiError
		r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, &e)
		if r.Status != http.StatusBadGateway || e.Session == nil || e.Session.Status != "failed" || !strings.Contains(e.Session.CloseReason, "connect failed") {
			t.Fatalf("connect to a refused URL: %d %s", r.Status, r.Body)
		}
		var got apiSession
		d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d", e.Session.ID), nil, &got)
		if got.Status != "failed" || got.CloseReason != e.Session.CloseReason {
			t.Errorf("stored: %+v", got)
		}
	})
}

// listFrames fetches a session's frames with query (e.g. "?after=3").
func listFrames(t *testing.T, d *dashboard, sessionID int64, query string) response {
	t.Helper()
	r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/frames%s", sessionID, query), nil, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("frames: %d %s", r.Status, r.Body)
	}
	return r
}

// waitFrames polls the frames API until done accepts them: frames are
// committed by the recorder shortly after the call returns.
func waitFrames(t *testing.T, d *dashboard, sessionID int64, done func([]apiFrame) bool) []apiFrame {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var frames []apiFrame
		if err := json.Unmarshal([]byte(listFrames(t, d, sessionID, "").Body), &frames); err != nil {
			t.Fatal(err)
		}
		if done(frames) {
			return frames
		}
		if time.Now().After(deadline) {
			t.Fatalf("frames never reached the expected state: %+v", frames)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
