package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// htmxPost posts a form the way htmx does: the token in the header.
func (d *dashboard) htmxPost(t *testing.T, path, token string, values url.Values) response {
	t.Helper()
	req := d.newRequest(t, http.MethodPost, path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-CSRF-Token", token)
	return d.do(t, req)
}

func TestPagesAndToolCalls(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	serverPage := fmt.Sprintf("/servers/%d", srv.ID)

	if r := d.get(t, "/"); r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="server-row"`) || !strings.Contains(r.Body, ">sdk<") {
		t.Errorf("GET /: %d", r.Status)
	}

	// Connect through the page's form.
	r := d.postForm(t, serverPage+"/connect", url.Values{"_csrf": {token}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != serverPage {
		t.Fatalf("connect: %d %q %s", r.Status, r.Header.Get("Location"), r.Body)
	}
	live, ok := d.pool.LiveSession(srv.ID)
	if !ok {
		t.Fatal("no live session after connect")
	}
	page := d.get(t, serverPage+"/tools")
	if page.Status != http.StatusOK || !strings.Contains(page.Body, `data-testid="protocol-version"`) ||
		!strings.Contains(page.Body, `data-tool="echo"`) || !strings.Contains(page.Body, `data-testid="traffic-panel"`) {
		t.Fatalf("server page with a live session: %d\n%s", page.Status, page.Body)
	}
	if strings.Contains(page.Body, "<b>text</b>") || !strings.Contains(page.Body, "echoes &lt;b&gt;text&lt;/b&gt;") {
		t.Error("the server's tool description is not escaped")
	}
	// Connecting again while live just returns to the page.
	if r := d.postForm(t, serverPage+"/connect", url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
		t.Errorf("second connect: %d", r.Status)
	}
	if again, _ := d.pool.LiveSession(srv.ID); again.ID != live.ID {
		t.Errorf("second connect opened session %d", again.ID)
	}

	callPath := fmt.Sprintf("/sessions/%d/tools/call?card=0", live.ID)
	countCalls := func() int {
		t.Helper()
		frames, err := d.db.ListFrames(t.Context(), backend.FrameQuery{SessionID: live.ID})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range frames {
			if f.Method == "tools/call" && f.RPCType == "request" {
				n++
			}
		}
		return n
	}

	t.Run("tool call", func(t *testing.T) {
		r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"echo"}, "arg.text": {"<i>hi</i>"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="result"`) {
			t.Fatalf("tool call: %d\n%s", r.Status, r.Body)
		}
		if !strings.Contains(r.Body, "echo: &lt;i&gt;hi&lt;/i&gt;") || strings.Contains(r.Body, "<i>hi</i>") {
			t.Errorf("tool output not shown escaped:\n%s", r.Body)
		}
	})

	t.Run("invalid form sends nothing", func(t *testing.T) {
		d.rec.Flush(t.Context())
		before := countCalls()
		r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"echo"}, "arg.text": {""}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="error-text"`) || strings.Contains(r.Body, `data-testid="outcome"`) {
			t.Errorf("invalid tool form: %d\n%s", r.Status, r.Body)
		}
		r = d.htmxPost(t, callPath, token, url.Values{"_tool": {"echo"}, "arg.text": {"x"}, "_raw": {`{"extra": 1}`}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="error-_raw"`) {
			t.Errorf("schema violation (additionalProperties): %d\n%s", r.Status, r.Body)
		}
		d.rec.Flush(t.Context())
		if after := countCalls(); after != before {
			t.Errorf("%d tools/call requests sent for invalid forms", after-before)
		}
	})

	t.Run("raw box null", func(t *testing.T) {
		r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"echo"}, "arg.text": {"x"}, "_raw": {"null"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="error-_raw"`) {
			t.Fatalf("a tool form with the raw box set to null answers %d %q instead of the card with a field error "+
				"(schemaform.Arguments must refuse a JSON view that is not an object)", r.Status, r.Body)
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"nope"}})
		// The card that was used says why nothing was sent.
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="failure"`) || !strings.Contains(r.Body, "no tool named &#34;nope&#34;") ||
			r.Header.Get("HX-Retarget") != "" {
			t.Errorf("unknown tool: %d %v\n%s", r.Status, r.Header, r.Body)
		}
	})

	t.Run("tool call without a token", func(t *testing.T) {
		r := d.htmxPost(t, callPath, "", url.Values{"_tool": {"echo"}, "arg.text": {"x"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="error-banner"`) {
			t.Errorf("status %d: %s", r.Status, r.Body)
		}
		if strings.Contains(r.Body, `data-testid="outcome"`) {
			t.Error("a call was made without a CSRF token")
		}
	})

	t.Run("session pages", func(t *testing.T) {
		if r := d.get(t, "/sessions"); r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="session-row"`) {
			t.Errorf("GET /sessions: %d", r.Status)
		}
		d.rec.Flush(t.Context())
		r := d.get(t, fmt.Sprintf("/sessions/%d", live.ID))
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-method="tools/call"`) || !strings.Contains(r.Body, `data-testid="session-meta"`) {
			t.Errorf("session page: %d", r.Status)
		}
		if r := d.get(t, "/sessions/999"); r.Status != http.StatusNotFound {
			t.Errorf("missing session page: %d", r.Status)
		}
	})

	t.Run("deleting a connected server is refused", func(t *testing.T) {
		r := d.postForm(t, serverPage+"/delete", url.Values{"_csrf": {token}})
		if r.Status != http.StatusConflict {
			t.Errorf("delete while connected: %d", r.Status)
		}
	})

	t.Run("disconnect", func(t *testing.T) {
		r := d.postForm(t, fmt.Sprintf("/sessions/%d/disconnect", live.ID), url.Values{"_csrf": {token}})
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != serverPage {
			t.Fatalf("disconnect: %d %q", r.Status, r.Header.Get("Location"))
		}
		if d.pool.IsLive(live.ID) {
			t.Error("still live")
		}
		if r := d.postForm(t, fmt.Sprintf("/sessions/%d/disconnect", live.ID), url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
			t.Errorf("second disconnect: %d", r.Status)
		}
	})
}

func TestConnectFailureShownOnThePage(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "exits", "transport": "stdio", "command": "sh", "args": []string{"-c", "read x; exit 3"}})
	other := d.MustAPIServer(t, map[string]any{"name": "other", "transport": "stdio", "command": "sh", "args": []string{"-c", "exit 4"}})
	r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"_csrf": {token}})
	loc := r.Header.Get("Location")
	if r.Status != http.StatusSeeOther || !strings.Contains(loc, "?failed=") {
		t.Fatalf("connect: %d %q", r.Status, loc)
	}
	page := d.get(t, loc)
	if page.Status != http.StatusOK || !strings.Contains(page.Body, `data-testid="connect-error"`) || !strings.Contains(page.Body, "exit status 3") {
		t.Errorf("server page after a failed connect: %d\n%s", page.Status, page.Body)
	}

	// The banner says only what the database holds of this server's failed
	// session: a link cannot put words on the page. Without ?failed= it is
	// the server's newest session, failed here.
	failedID := strings.TrimPrefix(loc, fmt.Sprintf("/servers/%d?failed=", srv.ID))
	tests := []struct {
		name, path string
		status     int
		shown      bool // the page shows srv's failure
	}{
		{"text in the old error parameter", fmt.Sprintf("/servers/%d?error=Your+session+expired%%2C+visit+evil.example", srv.ID), http.StatusOK, true},
		{"another server's failed session", fmt.Sprintf("/servers/%d?failed=%s", other.ID, failedID), http.StatusOK, false},
		{"an unknown session", fmt.Sprintf("/servers/%d?failed=9999", srv.ID), http.StatusOK, false},
		{"not an id", fmt.Sprintf("/servers/%d?failed=evil", srv.ID), http.StatusUnprocessableEntity, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := d.get(t, tt.path)
			shown := strings.Contains(page.Body, `data-testid="connect-error"`)
			if page.Status != tt.status || shown != tt.shown || (shown && !strings.Contains(page.Body, "exit status 3")) || strings.Contains(page.Body, "evil.example") {
				t.Errorf("GET %s: %d, want %d, with srv's connect error %v:\n%s", tt.path, page.Status, tt.status, tt.shown, page.Body)
			}
		})
	}
}
