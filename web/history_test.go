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

	"github.com/mcp-playground/playground/web"
)

var (
	historyRow   = regexp.MustCompile(`data-testid="history-row" data-exchange="(\d+)"`)
	exchangeLink = regexp.MustCompile(`href="(/sessions/\d+/exchanges/\d+)" data-testid="exchange-link"`)
	historyOlder = regexp.MustCompile(`href="([^"]+)" data-testid="history-older"`)
)

func TestHistoryPage(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil),
		"headers": map[string]string{"Authorization": "Bearer top-secret-token", "X-Team": "team-secret-value"}})
	sess := d.MustAPISession(t, srv.ID)
	for i := range web.HistoryPageSize + 2 {
		d.mustEcho(t, sess.ID, fmt.Sprintf("call %d", i))
	}
	d.mustEcho(t, sess.ID, "zanzibar lighthouse")
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	search := func(t *testing.T, query url.Values) response {
		t.Helper()
		return d.get(t, "/history?"+query.Encode())
	}

	t.Run("a word finds its exchange, marked", func(t *testing.T) {
		r := search(t, url.Values{"q": {"lighthouse"}})
		if r.Status != http.StatusOK || len(historyRow.FindAllString(r.Body, -1)) != 1 {
			t.Fatalf("GET /history?q=lighthouse: %d, %d rows", r.Status, len(historyRow.FindAllString(r.Body, -1)))
		}
		if !strings.Contains(r.Body, "<mark>lighthouse</mark>") || !strings.Contains(r.Body, ">echo</td>") {
			t.Errorf("the row does not mark the word or name the tool:\n%s", r.Body)
		}
	})

	t.Run("no match", func(t *testing.T) {
		r := search(t, url.Values{"q": {"nowhere-to-be-found"}})
		if r.Status != http.StatusOK || historyRow.MatchString(r.Body) || !strings.Contains(r.Body, `data-testid="history-empty"`) {
			t.Errorf("GET: %d, rows or no empty note:\n%s", r.Status, r.Body)
		}
	})

	t.Run("a malformed query is shown at the search box", func(t *testing.T) {
		r := search(t, url.Values{"q": {"colour:red lighthouse"}})
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `data-testid="history-error"`) ||
			!strings.Contains(html.UnescapeString(r.Body), `Unknown filter "colour:"`) || !strings.Contains(r.Body, `value="colour:red lighthouse"`) {
			t.Errorf("GET: %d\n%s", r.Status, r.Body)
		}
		if historyRow.MatchString(r.Body) {
			t.Error("rows shown for a malformed query")
		}
	})

	t.Run("selects filter", func(t *testing.T) {
		if r := search(t, url.Values{"q": {"lighthouse"}, "server": {"sdk"}, "outcome": {"ok"}}); len(historyRow.FindAllString(r.Body, -1)) != 1 {
			t.Errorf("server sdk, outcome ok: %d rows", len(historyRow.FindAllString(r.Body, -1)))
		}
		for _, q := range []url.Values{{"server": {"other"}}, {"outcome": {"iserror"}}, {"q": {"method:prompts/get"}}} {
			if r := search(t, q); r.Status != http.StatusOK || historyRow.MatchString(r.Body) {
				t.Errorf("%v: %d, rows found", q, r.Status)
			}
		}
		if r := search(t, url.Values{"outcome": {"perhaps"}}); r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `data-testid="history-error"`) {
			t.Errorf("outcome perhaps: %d", r.Status)
		}
	})

	t.Run("pages", func(t *testing.T) {
		seen := map[string]bool{}
		path := "/history?q=" + url.QueryEscape("name:echo")
		pages := 0
		for path != "" {
			r := d.get(t, html.UnescapeString(path))
			if r.Status != http.StatusOK {
				t.Fatalf("GET %s: %d", path, r.Status)
			}
			for _, m := range historyRow.FindAllStringSubmatch(r.Body, -1) {
				if seen[m[1]] {
					t.Errorf("exchange %s on two pages", m[1])
				}
				seen[m[1]] = true
			}
			pages++
			path = ""
			if m := historyOlder.FindStringSubmatch(r.Body); m != nil {
				path = m[1]
			}
		}
		if want := web.HistoryPageSize + 3; len(seen) != want || pages != 2 {
			t.Errorf("%d exchanges on %d pages, want %d on 2", len(seen), pages, want)
		}
	})

	t.Run("permalink", func(t *testing.T) {
		m := exchangeLink.FindStringSubmatch(search(t, url.Values{"q": {"zanzibar"}}).Body)
		if m == nil {
			t.Fatal("no permalink")
		}
		r := d.get(t, m[1])
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d", m[1], r.Status)
		}
		body := html.UnescapeString(r.Body)
		for _, want := range []string{`data-testid="exchange-request"`, `data-testid="exchange-response"`, "zanzibar lighthouse", "echo: zanzibar lighthouse",
			`data-testid="copy-jsonrpc"`, `"method": "tools/call"`,
			`playground call --url http://127.0.0.1:`, `--header 'Authorization: [redacted]' --header 'X-Team: [redacted]' tools/call '{"arguments":{"text":"zanzibar lighthouse"},"name":"echo"}'`,
			`curl -X POST`, `-H 'Authorization: [redacted]'`, `-H 'Mcp-Session-Id: `, `--data-raw '{"jsonrpc":"2.0"`} {
			if !strings.Contains(body, want) {
				t.Errorf("the exchange page lacks %s", want)
			}
		}
		for _, secret := range []string{"top-secret-token", "team-secret-value"} {
			if strings.Contains(body, secret) {
				t.Errorf("the exchange page shows %q", secret)
			}
		}
	})

	t.Run("permalink of another session", func(t *testing.T) {
		m := historyRow.FindStringSubmatch(search(t, url.Values{"q": {"zanzibar"}}).Body)
		if r := d.get(t, fmt.Sprintf("/sessions/%d/exchanges/%s", sess.ID+1, m[1])); r.Status != http.StatusNotFound {
			t.Errorf("GET: %d, want 404", r.Status)
		}
	})
}

// TestReplayExchange sends a recorded echo again from its permalink: on
// the same server the answer matches the recorded one; on a server without
// that tool the JSON-RPC error fails the comparison with its diff; a
// replay needs the CSRF token and a session to send on.
func TestReplayExchange(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	sdk := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, sdk.ID)
	other := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "logging", "transport": "http", "url": MustLoggingServer(t)}).ID)
	d.mustEcho(t, sess.ID, "replay me")
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := exchangeLink.FindStringSubmatch(d.get(t, "/history?q=replay").Body)
	if m == nil {
		t.Fatal("no permalink for the echo")
	}
	page := d.get(t, m[1])
	if !strings.Contains(page.Body, `data-testid="replay-form"`) || !strings.Contains(page.Body, fmt.Sprintf(`value="%d" selected`, sess.ID)) {
		t.Fatalf("the permalink offers no replay on the live sessions:\n%s", page.Body)
	}
	replay := func(session string) response {
		t.Helper()
		return d.htmxPost(t, m[1]+"/replay", token, url.Values{"session": {session}})
	}
	if r := replay(fmt.Sprint(sess.ID)); !strings.Contains(r.Body, `data-outcome="pass"`) {
		t.Errorf("replay on the same server:\n%s", r.Body)
	}
	r := replay(fmt.Sprint(other.ID))
	if !strings.Contains(r.Body, `data-outcome="fail"`) || !strings.Contains(r.Body, "JSON-RPC error") || !strings.Contains(r.Body, `data-testid="diff-row"`) {
		t.Errorf("replay on a server without echo:\n%s", r.Body)
	}
	if r := replay("x"); !strings.Contains(r.Body, `data-testid="replay-error"`) {
		t.Errorf("replay without a session:\n%s", r.Body)
	}

	// A registered server without a session is connected for the replay.
	idle := d.MustAPIServer(t, map[string]any{"name": "sdk again", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	gone := d.MustAPIServer(t, map[string]any{"name": "gone", "transport": "http", "url": "http://127.0.0.1:1/mcp"})
	page = d.get(t, m[1])
	if !strings.Contains(page.Body, fmt.Sprintf(`value="server:%d"`, idle.ID)) || strings.Contains(page.Body, fmt.Sprintf(`value="server:%d"`, sdk.ID)) {
		t.Errorf("the permalink does not offer the idle server alone to connect:\n%s", page.Body)
	}
	if r := replay(fmt.Sprintf("server:%d", idle.ID)); !strings.Contains(r.Body, `data-outcome="pass"`) {
		t.Errorf("replay on an idle server:\n%s", r.Body)
	}
	if r := replay(fmt.Sprintf("server:%d", gone.ID)); !strings.Contains(r.Body, `data-testid="replay-error"`) || !strings.Contains(r.Body, "could not be connected") {
		t.Errorf("replay on a server that cannot be reached:\n%s", r.Body)
	}
	if r := replay("server:x"); !strings.Contains(r.Body, `data-testid="replay-error"`) {
		t.Errorf("replay on a malformed server:\n%s", r.Body)
	}
	if r := d.htmxPost(t, m[1]+"/replay", "", url.Values{"session": {fmt.Sprint(sess.ID)}}); strings.Contains(r.Body, "run-result") {
		t.Errorf("a replay without the CSRF token ran: %d", r.Status)
	}
}

// TestHistorySearchRefusesWhatCannotBeSearched searches recorded history
// for a NUL character and for bytes that are not UTF-8, on the page and in
// the export: each is refused with 400 and says why (at the search box on
// the page), never a 500.
func TestHistorySearchRefusesWhatCannotBeSearched(t *testing.T) {
	d := MustDashboard(t)
	sid := d.mustSession(t, "searched")
	d.recordExchange(t, sid, time.Now(), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"ab"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ab"}]}}`)
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	const why = "cannot be searched for"
	for _, q := range []string{"a\x00b", "\x00", `"a` + "\x00" + `b"`, "ab \xff\xfe", "server:x\x00"} {
		query := url.Values{"q": {q}}.Encode()
		r := d.get(t, "/history?"+query)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `data-testid="history-error"`) || !strings.Contains(r.Body, why) {
			t.Errorf("GET /history?%s = %d, want 400 with the reason at the search box:\n%.2000s", query, r.Status, r.Body)
		}
		if strings.Contains(r.Body, `<div class="card"></div>`) {
			t.Errorf("GET /history?%s shows an empty results card below the reason", query)
		}
		r = d.get(t, "/history/export?"+query)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, why) {
			t.Errorf("GET /history/export?%s = %d, want 400 with the reason: %.500s", query, r.Status, r.Body)
		}
	}
	if r := d.get(t, "/history?q=ab"); r.Status != http.StatusOK || len(historyRow.FindAllString(r.Body, -1)) != 1 {
		t.Errorf("GET /history?q=ab = %d with %d rows, want the exchange", r.Status, len(historyRow.FindAllString(r.Body, -1)))
	}
}
