package web_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mcp-playground/playground/backend"
)

// leakSecrets are the values of the headers an admin sets on the server of
// TestNoPathLeaksASecretHeader: by a secret name, by a name that says
// "key", by a plain name holding a URL with a password, and by a plain
// name.
var leakSecrets = []string{"leak-s3cret-bearer", "leak-s3cret-apikey", "leak-s3cret-pw", "leak-s3cret-team"}

// TestNoPathLeaksASecretHeader: the header values an admin set on a
// server, which travel in every recorded request, reach neither a viewer
// nor an editor on any path that shows recorded traffic: the session page,
// the frames fragment, the live stream (backlog and live frames), the JSON
// API's frames, the NDJSON exports of a session and of the history, the
// history search, the exchange page and its curl copy; nor the log. Each
// path is checked to show the headers, redacted, so that it is known to
// carry them.
func TestNoPathLeaksASecretHeader(t *testing.T) {
	log := &syncBuffer{}
	d := mustDashboardWith(t, dashboardOptions{log: log})
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil),
		"headers": map[string]string{"Authorization": "Bearer leak-s3cret-bearer", "X-Api-Key": "leak-s3cret-apikey",
			"X-Upstream": "https://bob:leak-s3cret-pw@up.example/x", "X-Team": "leak-s3cret-team"}})
	sess := d.MustAPISession(t, srv.ID)
	d.mustEcho(t, sess.ID, "before the viewers came")

	type reader struct {
		name string
		acct testAccount
		c    *http.Client
	}
	var readers []reader
	for _, x := range []struct {
		name string
		role backend.Role
	}{{"vera", backend.RoleViewer}, {"eddie", backend.RoleEditor}} {
		r := reader{name: x.name, acct: d.mustAccount(t, x.name, x.role), c: newClient()}
		d.mustSignIn(t, r.c, x.name)
		readers = append(readers, r)
	}

	// Each reader watches the live stream while the admin calls again.
	live := make([]*websocket.Conn, len(readers))
	for i, r := range readers {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, _, err := (&websocket.Dialer{Jar: r.c.Jar}).DialContext(ctx, fmt.Sprintf("ws://%s/sessions/%d/live?after=0", d.Host, sess.ID), http.Header{"Origin": {d.URL}})
		cancel()
		if err != nil {
			t.Fatalf("%s: dial the live stream: %v", r.name, err)
		}
		t.Cleanup(func() { conn.Close() })
		live[i] = conn
	}
	d.mustEcho(t, sess.ID, "zanzibar while they watch")
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}

	shown := regexp.MustCompile(`Authorization: \[redacted\]|"Authorization":\["\[redacted\]"\]`)
	check := func(t *testing.T, what, body string, mustShow bool) {
		t.Helper()
		body = html.UnescapeString(body)
		for _, s := range leakSecrets {
			if strings.Contains(body, s) {
				t.Errorf("%s shows the secret %q", what, s)
			}
		}
		if mustShow && !shown.MatchString(body) {
			t.Errorf("%s shows no redacted Authorization header, so the check proves nothing:\n%.2000s", what, body)
		}
	}

	for i, r := range readers {
		t.Run(r.name, func(t *testing.T) {
			get := func(path string) string {
				t.Helper()
				req := d.newRequest(t, http.MethodGet, path, nil)
				if strings.HasPrefix(path, "/api/") {
					req.Header.Set("Authorization", "Bearer "+r.acct.token)
				}
				resp := d.doWith(t, r.c, req)
				if resp.Status != http.StatusOK {
					t.Fatalf("GET %s: %d %.500s", path, resp.Status, resp.Body)
				}
				return resp.Body
			}
			check(t, "the session page", get(fmt.Sprintf("/sessions/%d", sess.ID)), true)
			check(t, "the frames fragment", get(fmt.Sprintf("/sessions/%d/frames?before=1000000", sess.ID)), true)
			check(t, "the JSON API's frames", get(fmt.Sprintf("/api/v1/sessions/%d/frames", sess.ID)), true)
			check(t, "the session's NDJSON export", get(fmt.Sprintf("/sessions/%d/export", sess.ID)), true)
			check(t, "the history's NDJSON export", get("/history/export"), true)
			results := get("/history?" + url.Values{"q": {"zanzibar"}}.Encode())
			check(t, "the history search", results, false)
			m := exchangeLink.FindStringSubmatch(results)
			if m == nil {
				t.Fatalf("the history search links no exchange:\n%.2000s", results)
			}
			page := get(m[1])
			check(t, "the exchange page", page, true)
			if !strings.Contains(html.UnescapeString(page), `curl -X POST`) || !strings.Contains(html.UnescapeString(page), `-H 'Authorization: [redacted]'`) {
				t.Errorf("the exchange page has no curl copy with the header redacted")
			}

			var stream strings.Builder
			lr := &liveReader{conn: live[i], seen: map[int64]bool{}}
			lr.until(t, "the call made while watching", func(msg string) bool {
				stream.WriteString(msg)
				return strings.Contains(msg, "zanzibar while they watch") && strings.Contains(msg, `data-rpc-type="request"`)
			})
			check(t, "the live stream", stream.String(), true)
		})
	}
	check(t, "the log", log.String(), false)
}
