package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestTrafficShowsLintFindings records a session with frames that break
// JSON-RPC among clean ones: the session's page counts the findings, marks
// the flagged rows and lists their findings, its "lint findings" filter
// keeps just those rows (on the page, the panel and the live stream), and
// the sessions list counts them too.
func TestTrafficShowsLintFindings(t *testing.T) {
	d := MustDashboard(t)
	bodies := make([][]byte, 12)
	for i := range bodies {
		bodies[i] = notification(i)
	}
	bodies[3] = []byte(`{"jsonrpc":"1.0","method":"notifications/message","params":{"level":"info","data":"<img src=x onerror=alert(1)>"}}`)
	bodies[8] = []byte(`{"jsonrpc":"2.0","method":"notifications/message","id":null,"params":{"level":"info","data":"x"}}`)
	sid, ids := d.MustRecordedSession(t, bodies)

	var frames []apiFrame
	if r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/frames", sid), nil, &frames); r.Status != http.StatusOK {
		t.Fatalf("frames: %d %s", r.Status, r.Body)
	}
	var flagged []int64
	total := 0
	for _, f := range frames {
		if len(f.Findings) > 0 {
			flagged = append(flagged, f.ID)
		}
		total += len(f.Findings)
	}
	if fmt.Sprint(flagged) != fmt.Sprint([]int64{ids[3], ids[8]}) {
		t.Fatalf("flagged frames %v, want %v", flagged, []int64{ids[3], ids[8]})
	}
	if f := frames[3].Findings[0]; f.Code != "jsonrpc.version" || f.Severity != "error" || f.Pointer != "/jsonrpc" || f.Fix == "" {
		t.Errorf("the API shows the finding as %+v", f)
	}

	page := d.get(t, fmt.Sprintf("/sessions/%d", sid))
	for _, want := range []string{
		fmt.Sprintf(`href="/sessions/%d?findings=1"`, sid), fmt.Sprintf(`data-testid="finding-count" data-findings="%d">lint: `, total),
		`data-testid="lint-badge" data-severity="error"`, `data-code="jsonrpc.version" data-pointer="/jsonrpc"`,
		`name="findings" value="1" data-testid="filter-findings"`,
	} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("the session page lacks %s", want)
		}
	}
	if strings.Contains(page.Body, "<img src=x") {
		t.Error("a flagged body is rendered as markup")
	}
	if n := strings.Count(page.Body, `data-testid="lint-badge"`); n != 2 {
		t.Errorf("%d rows marked, want 2", n)
	}

	filtered := d.get(t, fmt.Sprintf("/sessions/%d?findings=1", sid))
	if got := shownFrames(filtered.Body); fmt.Sprint(got) != fmt.Sprint(flagged) {
		t.Errorf("?findings=1 shows %v, want %v", got, flagged)
	}
	if !strings.Contains(filtered.Body, `name="findings" value="1" checked`) {
		t.Error("the filter form does not show the lint filter in force")
	}
	panel := d.get(t, fmt.Sprintf("/sessions/%d/traffic?findings=1&dir=in", sid))
	if got := shownFrames(panel.Body); fmt.Sprint(got) != fmt.Sprint(flagged) {
		t.Errorf("the panel with findings=1 shows %v, want %v", got, flagged)
	}
	if body := d.get(t, fmt.Sprintf("/frames/%d/body", ids[3])).Body; !strings.Contains(body, `jv-flagged" data-pointer="/jsonrpc"`) {
		t.Errorf("the whole body does not mark the pointer:\n%.600s", body)
	}

	list := d.get(t, "/sessions")
	if !strings.Contains(list.Body, fmt.Sprintf(`href="/sessions/%d?findings=1" title="show the frames the protocol linter flagged" data-testid="finding-count" data-findings="%d">lint: `, sid, total)) {
		t.Errorf("the sessions list does not count the findings:\n%s", list.Body[strings.Index(list.Body, "session-list"):])
	}

	t.Run("live stream", func(t *testing.T) {
		conn, _, err := d.wsDialer().Dial(fmt.Sprintf("ws://%s/sessions/%d/live?after=0&findings=1", d.Host, sid), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		lr := &liveReader{conn: conn, seen: map[int64]bool{}}
		lr.until(t, "the flagged backlog", func(msg string) bool { return strings.Contains(msg, fmt.Sprintf(`id="frame-%d"`, ids[8])) })
		for _, body := range [][]byte{notification(100), []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":"NEW-BAD"}`)} {
			if err := d.rec.Record(sid, backend.WireFrame{Time: time.Now(), Direction: backend.Inbound, Kind: backend.KindMessage, Body: body}); err != nil {
				t.Fatal(err)
			}
		}
		msg := lr.until(t, "the new flagged frame", func(msg string) bool { return strings.Contains(msg, "NEW-BAD") })
		if strings.Contains(msg, `"n":100`) || len(lr.seen) != 3 {
			t.Errorf("the filtered stream sent %d frames, want the 3 flagged:\n%s", len(lr.seen), msg)
		}
	})
}

// TestHistoryLintQueries finds exchanges by their findings: lint:any and
// lint:CODE list the flagged exchange with its badge, not the clean one,
// and a code no rule has is a clear error where the search is.
func TestHistoryLintQueries(t *testing.T) {
	d := MustDashboard(t)
	ctx := t.Context()
	sid, err := d.db.CreateSession(ctx, backend.Session{ServerName: "linted", Transport: backend.TransportStdio, Status: backend.SessionClosed, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		dir  backend.Direction
		body string
	}{
		{backend.Outbound, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{backend.Inbound, `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`},
		{backend.Outbound, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{backend.Outbound, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"wombat-clean"}}`},
		{backend.Inbound, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`},
		{backend.Outbound, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"wombat-bad"}`},
		{backend.Inbound, `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`},
	} {
		if err := d.rec.Record(sid, backend.WireFrame{Time: time.Now(), Direction: f.dir, Kind: backend.KindMessage, Body: []byte(f.body)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"lint:any", "lint:jsonrpc.params-type", "wombat lint:error"} {
		r := d.get(t, "/history?q="+url.QueryEscape(q))
		if r.Status != http.StatusOK || strings.Count(r.Body, `data-testid="history-row"`) != 1 ||
			strings.Contains(r.Body, "wombat-clean") || !strings.Contains(r.Body, `title="jsonrpc.params-type: `) {
			t.Errorf("GET /history?q=%s: %d, want the flagged exchange alone, marked:\n%s", q, r.Status, r.Body[strings.Index(r.Body, "<main"):])
		}
	}
	r := d.get(t, "/history?q="+url.QueryEscape("lint:nonsense"))
	if !strings.Contains(r.Body, "lint:nonsense is not a lint code") {
		t.Errorf("an unknown lint code: %d\n%s", r.Status, r.Body[strings.Index(r.Body, "<main"):])
	}
}
