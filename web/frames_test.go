package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// MustRecordedSession records a closed session whose frames are bodies, in
// order, through the dashboard's recorder, and returns its id and the ids
// the frames got.
func (d *dashboard) MustRecordedSession(tb testing.TB, bodies [][]byte) (int64, []int64) {
	tb.Helper()
	ctx := context.Background()
	id, err := d.db.CreateSession(ctx, backend.Session{ServerName: "recorded", Transport: backend.TransportStdio,
		Status: backend.SessionClosed, StartedAt: time.Now()})
	if err != nil {
		tb.Fatal(err)
	}
	if err := d.rec.Flush(ctx); err != nil {
		tb.Fatal(err)
	}
	first, err := d.db.MaxFrameID(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	ids := make([]int64, len(bodies))
	for i, body := range bodies {
		if err := d.rec.Record(id, backend.WireFrame{Time: time.Now(), Direction: backend.Inbound, Kind: backend.KindMessage, Body: body}); err != nil {
			tb.Fatal(err)
		}
		ids[i] = first + 1 + int64(i)
	}
	if err := d.rec.Flush(ctx); err != nil {
		tb.Fatal(err)
	}
	return id, ids
}

// notification is a small JSON-RPC notification that names its index.
func notification(i int) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"n":%d}}`, i)
}

// largeBody is a JSON-RPC result of about size bytes whose end is marked,
// so a test can tell the whole body from its preview.
func largeBody(size int) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"result":{"text":"%s","end":"END-OF-BODY"}}`, strings.Repeat("x", size))
}

var shownFrameID = regexp.MustCompile(`id="frame-(\d+)"`)

// shownFrames lists the ids of the frame rows in an HTML page or fragment.
func shownFrames(html string) []int64 {
	var ids []int64
	for _, m := range shownFrameID.FindAllStringSubmatch(html, -1) {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		ids = append(ids, id)
	}
	return ids
}

var olderLink = regexp.MustCompile(`hx-get="(/sessions/\d+/frames\?before=\d+[^"]*)"`)

func TestSessionPageShowsTheNewestFramesAndLoadsOlderOnes(t *testing.T) {
	d := MustDashboard(t)
	const total = 120
	bodies := make([][]byte, total)
	for i := range bodies {
		bodies[i] = notification(i)
	}
	big := 7
	bodies[big] = largeBody(3 << 20)
	sid, ids := d.MustRecordedSession(t, bodies)

	r := d.get(t, fmt.Sprintf("/sessions/%d", sid))
	if r.Status != http.StatusOK {
		t.Fatalf("session page: %d\n%s", r.Status, r.Body)
	}
	if got, want := shownFrames(r.Body), ids[total-50:]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the session page shows frames %v, want the newest 50 in order: %v", got, want)
	}
	if !strings.Contains(r.Body, `data-testid="frame-count">120 frames`) {
		t.Error("the session page does not say the session has 120 frames")
	}

	// Follow the older-frames control to the first frame.
	var shown []int64
	shown = append(shownFrames(r.Body), shown...)
	html := r.Body
	for pages := 1; ; pages++ {
		m := olderLink.FindStringSubmatch(html)
		if m == nil {
			if pages != 3 {
				t.Errorf("%d pages, want 3 of at most 50 frames", pages)
			}
			if !strings.Contains(html, `data-testid="frames-start"`) {
				t.Error("the oldest page does not say that it starts with the session's first frame")
			}
			break
		}
		older := d.get(t, m[1])
		if older.Status != http.StatusOK || strings.Contains(older.Body, "<html") {
			t.Fatalf("GET %s: %d, want a fragment:\n%s", m[1], older.Status, older.Body)
		}
		shown = append(shownFrames(older.Body), shown...)
		html = older.Body
		if pages > 5 {
			t.Fatal("the older-frames control never ends")
		}
	}
	if fmt.Sprint(shown) != fmt.Sprint(ids) {
		t.Errorf("paging back shows frames %v, want each frame once, in order: %v", shown, ids)
	}

	// The large body is only previewed; the whole of it comes on demand.
	if strings.Contains(html, "END-OF-BODY") || !strings.Contains(html, `data-testid="body-preview"`) {
		t.Error("the oldest page embeds the large body instead of a preview")
	}
	if len(html) > 512<<10 {
		t.Errorf("a page of frames is %d bytes of HTML", len(html))
	}
	bodyPath := fmt.Sprintf("/frames/%d/body", ids[big])
	inPlace := d.newRequest(t, http.MethodGet, bodyPath, nil)
	inPlace.Header.Set("HX-Request", "true")
	whole := d.do(t, inPlace)
	if whole.Status != http.StatusOK || !strings.Contains(whole.Body, "END-OF-BODY") || !strings.Contains(whole.Body, `data-testid="whole-body"`) || strings.Contains(whole.Body, "<html") {
		t.Errorf("GET %s from htmx: %d, %d bytes, want the whole body as a fragment", bodyPath, whole.Status, len(whole.Body))
	}
	// Show all opens it in a tab of its own: a page, styled like the others,
	// that names the frame and links back to its session.
	tab := d.get(t, bodyPath)
	for _, want := range []string{"<html", `href="/static/app.css"`, "END-OF-BODY", `data-testid="whole-body"`, fmt.Sprintf(`href="/sessions/%d"`, sid), fmt.Sprintf(`href="/frames/%d/raw"`, ids[big])} {
		if tab.Status != http.StatusOK || !strings.Contains(tab.Body, want) {
			t.Errorf("GET %s in a tab of its own: %d, no %s in %d bytes", bodyPath, tab.Status, want, len(tab.Body))
		}
	}
	raw := d.get(t, fmt.Sprintf("/frames/%d/raw", ids[big]))
	if raw.Status != http.StatusOK || raw.Body != string(bodies[big]) || !strings.HasPrefix(raw.Header.Get("Content-Disposition"), "attachment;") {
		t.Errorf("GET /frames/%d/raw: %d, %d bytes, disposition %q; want the body as a download", ids[big], raw.Status, len(raw.Body), raw.Header.Get("Content-Disposition"))
	}

	// Without script, the control is a link to the older page.
	hist := d.get(t, fmt.Sprintf("/sessions/%d?before=%d", sid, ids[70]))
	if got, want := shownFrames(hist.Body), ids[20:70]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the page before frame %d shows %v, want %v", ids[70], got, want)
	}
	if !strings.Contains(hist.Body, `data-testid="newest-frames"`) {
		t.Error("an older page does not link back to the newest frames")
	}
}

func TestFramePagingRefusesBadInput(t *testing.T) {
	d := MustDashboard(t)
	sid, ids := d.MustRecordedSession(t, [][]byte{notification(0)})
	tests := []struct {
		name   string
		path   string
		status int
	}{
		{"cursor not a number", fmt.Sprintf("/sessions/%d?before=abc", sid), http.StatusUnprocessableEntity},
		{"negative cursor", fmt.Sprintf("/sessions/%d?before=-5", sid), http.StatusUnprocessableEntity},
		{"cursor overflows", fmt.Sprintf("/sessions/%d?before=99999999999999999999", sid), http.StatusUnprocessableEntity},
		{"older fragment without a cursor", fmt.Sprintf("/sessions/%d/frames", sid), http.StatusUnprocessableEntity},
		{"older fragment of an unknown session", "/sessions/9999/frames?before=5", http.StatusNotFound},
		{"sessions list cursor not a number", "/sessions?before=x", http.StatusUnprocessableEntity},
		{"unknown frame body", "/frames/9999/body", http.StatusNotFound},
		{"unknown frame download", "/frames/9999/raw", http.StatusNotFound},
		{"frame id not a number", "/frames/x/body", http.StatusNotFound},
		{"cursor past the last frame", fmt.Sprintf("/sessions/%d?before=%d", sid, ids[0]+100), http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := d.get(t, tt.path); r.Status != tt.status {
				t.Errorf("GET %s: %d, want %d\n%s", tt.path, r.Status, tt.status, r.Body)
			}
		})
	}
}

func TestSessionsListIsPaged(t *testing.T) {
	d := MustDashboard(t)
	ctx := context.Background()
	var ids []int64
	for i := range 130 {
		id, err := d.db.CreateSession(ctx, backend.Session{ServerName: fmt.Sprintf("server-%d", i), Transport: backend.TransportStdio,
			Status: backend.SessionClosed, StartedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rowLink := regexp.MustCompile(`<td><a href="/sessions/(\d+)">`)
	listed := func(html string) (out []int64) {
		for _, m := range rowLink.FindAllStringSubmatch(html, -1) {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			out = append(out, id)
		}
		return out
	}
	first := d.get(t, "/sessions")
	if got := listed(first.Body); len(got) != 100 || got[0] != ids[129] || got[99] != ids[30] {
		t.Fatalf("the first page lists %d sessions (%v…), want the newest 100", len(got), got[:min(3, len(got))])
	}
	next := regexp.MustCompile(`href="(/sessions\?before=\d+)" data-testid="older-sessions"`).FindStringSubmatch(first.Body)
	if next == nil {
		t.Fatal("the first page has no link to older sessions")
	}
	second := d.get(t, next[1])
	if got := listed(second.Body); len(got) != 30 || got[0] != ids[29] || got[29] != ids[0] {
		t.Errorf("the second page lists %v, want the oldest 30", got)
	}
	if strings.Contains(second.Body, `data-testid="older-sessions"`) || !strings.Contains(second.Body, `data-testid="newest-sessions"`) {
		t.Error("the last page links to older sessions, or not back to the newest")
	}
}

func TestLiveBacklogIsBounded(t *testing.T) {
	d := MustDashboard(t)
	bodies := make([][]byte, 200)
	for i := range bodies {
		bodies[i] = notification(i)
	}
	bodies[190] = largeBody(1 << 20)
	sid, ids := d.MustRecordedSession(t, bodies)

	tests := []struct {
		name  string
		after int64
		swap  string // how the first message changes the panel
		want  []int64
	}{
		{"a viewer far behind gets the newest page in place of its own", 0, `hx-swap-oob="innerHTML"`, ids[150:]},
		{"a viewer a page behind gets the page", ids[149], `hx-swap-oob="beforeend"`, ids[150:]},
		{"a viewer a few frames behind gets just those", ids[196], `hx-swap-oob="beforeend"`, ids[197:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, _, err := d.dialLive(t, sid, tt.after, "")
			if err != nil {
				t.Fatal(err)
			}
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, msg, err := conn.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(msg), tt.swap) {
				t.Errorf("the first message is not a %s swap:\n%.300s", tt.swap, msg)
			}
			if got := shownFrames(string(msg)); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("the backlog holds frames %v, want %v", got, tt.want)
			}
			if strings.Contains(string(msg), "END-OF-BODY") || len(msg) > 512<<10 {
				t.Errorf("the backlog embeds a large body (%d bytes)", len(msg))
			}
		})
	}
}

func TestAPIFramesPageEndsAtAByteBudget(t *testing.T) {
	d := MustDashboard(t)
	bodies := [][]byte{largeBody(5 << 20), largeBody(5 << 20), notification(2), largeBody(5 << 20)}
	sid, ids := d.MustRecordedSession(t, bodies)
	var got []int64
	after := int64(0)
	for range 10 {
		var page []apiFrame
		if r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/frames?after=%d", sid, after), nil, &page); r.Status != http.StatusOK {
			t.Fatalf("list frames: %d %s", r.Status, r.Body)
		}
		if len(page) == 0 {
			break
		}
		if len(page) > 2 {
			t.Errorf("one answer holds %d frames of 5 MiB bodies, want the list cut at 8 MiB", len(page))
		}
		for _, f := range page {
			got = append(got, f.ID)
			after = f.ID
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(ids) {
		t.Errorf("paging the API lists frames %v, want %v", got, ids)
	}
}

// errorResponse is a JSON-RPC error answering request id i.
func errorResponse(i int) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"error":{"code":-32602,"message":"bad %d"}}`, i, i)
}

func TestTrafficFilter(t *testing.T) {
	d := MustDashboard(t)
	bodies := make([][]byte, 80)
	for i := range bodies {
		bodies[i] = notification(i)
	}
	bodies[10], bodies[70] = errorResponse(10), errorResponse(70)
	bodies[20] = []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"NEEDLE \u003cb\u003e"}}`)
	sid, ids := d.MustRecordedSession(t, bodies)
	errorsOnly := []int64{ids[10], ids[70]}

	t.Run("session page", func(t *testing.T) {
		r := d.get(t, fmt.Sprintf("/sessions/%d?errors=1", sid))
		if got := shownFrames(r.Body); fmt.Sprint(got) != fmt.Sprint(errorsOnly) {
			t.Errorf("?errors=1 shows %v, want %v", got, errorsOnly)
		}
		if !strings.Contains(r.Body, `name="errors" value="1" checked`) {
			t.Error("the filter form does not show the filter in force")
		}
	})
	t.Run("panel fragment", func(t *testing.T) {
		r := d.get(t, fmt.Sprintf("/sessions/%d/traffic?q=NEEDLE", sid))
		if r.Status != http.StatusOK || strings.Contains(r.Body, "<html") || !strings.Contains(r.Body, `data-testid="traffic-panel"`) {
			t.Fatalf("GET traffic: %d, want the panel alone:\n%.400s", r.Status, r.Body)
		}
		if got := shownFrames(r.Body); fmt.Sprint(got) != fmt.Sprint([]int64{ids[20]}) {
			t.Errorf("?q=NEEDLE shows %v, want [%d]", got, ids[20])
		}
		if !strings.Contains(r.Body, "NEEDLE &lt;b&gt;") {
			t.Error("the matching frame does not read <b> as written, escaped")
		}
	})
	t.Run("older frames keep the filter", func(t *testing.T) {
		r := d.get(t, fmt.Sprintf("/sessions/%d?quiet=1&dir=in", sid))
		if got := shownFrames(r.Body); fmt.Sprint(got) != fmt.Sprint(errorsOnly) {
			t.Errorf("no notifications, received: %v, want %v", got, errorsOnly)
		}
		all := d.get(t, fmt.Sprintf("/sessions/%d?dir=in", sid))
		m := olderLink.FindStringSubmatch(all.Body)
		if m == nil || !strings.Contains(m[1], "dir=in") {
			t.Fatalf("the older-frames control does not carry the filter: %v", m)
		}
		if got := shownFrames(d.get(t, strings.ReplaceAll(m[1], "&amp;", "&")).Body); len(got) != 30 || got[0] != ids[0] {
			t.Errorf("older received frames: %v, want the first 30", got)
		}
	})
	t.Run("bad filter", func(t *testing.T) {
		for _, path := range []string{
			fmt.Sprintf("/sessions/%d/traffic?dir=sideways", sid),
			fmt.Sprintf("/sessions/%d/traffic?q=%s", sid, strings.Repeat("x", 201)),
			fmt.Sprintf("/sessions/%d/live?dir=sideways", sid),
		} {
			if r := d.get(t, path); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("GET %s: %d, want 422", path, r.Status)
			}
		}
	})
	t.Run("live stream", func(t *testing.T) {
		conn, _, err := d.wsDialer().Dial(fmt.Sprintf("ws://%s/sessions/%d/live?after=0&errors=1", d.Host, sid), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		lr := &liveReader{conn: conn, seen: map[int64]bool{}}
		lr.until(t, "the matching backlog", func(msg string) bool { return strings.Contains(msg, fmt.Sprintf(`id="frame-%d"`, ids[70])) })
		for _, body := range [][]byte{notification(100), errorResponse(101)} {
			if err := d.rec.Record(sid, backend.WireFrame{Time: time.Now(), Direction: backend.Inbound, Kind: backend.KindMessage, Body: body}); err != nil {
				t.Fatal(err)
			}
		}
		msg := lr.until(t, "the new error", func(msg string) bool { return strings.Contains(msg, "bad 101") })
		if strings.Contains(msg, `"n":100`) || lr.seen[ids[0]] {
			t.Errorf("the filtered stream sent frames that do not match:\n%s", msg)
		}
		if len(lr.seen) != 3 {
			t.Errorf("the filtered stream sent %d frames, want 3 errors", len(lr.seen))
		}
	})
}

func TestExportFrames(t *testing.T) {
	d := MustDashboard(t)
	bodies := make([][]byte, 2500)
	for i := range bodies {
		bodies[i] = notification(i)
	}
	bodies[1200] = errorResponse(1200)
	bodies[7] = largeBody(9 << 20)
	sid, ids := d.MustRecordedSession(t, bodies)
	lines := func(t *testing.T, path string) []apiFrame {
		t.Helper()
		r := d.get(t, path)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/x-ndjson" || !strings.HasPrefix(r.Header.Get("Content-Disposition"), "attachment;") {
			t.Fatalf("GET %s: %d %q %q", path, r.Status, r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"))
		}
		var out []apiFrame
		for line := range strings.Lines(r.Body) {
			var f apiFrame
			if err := json.Unmarshal([]byte(line), &f); err != nil {
				t.Fatalf("line %d is not a frame: %v", len(out)+1, err)
			}
			out = append(out, f)
		}
		return out
	}
	all := lines(t, fmt.Sprintf("/sessions/%d/export", sid))
	if len(all) != len(ids) || all[0].ID != ids[0] || all[len(all)-1].ID != ids[len(ids)-1] {
		t.Fatalf("the export holds %d frames, want all %d in order", len(all), len(ids))
	}
	if !strings.Contains(string(all[7].Body), "END-OF-BODY") {
		t.Error("the export cuts a large body")
	}
	if errs := lines(t, fmt.Sprintf("/sessions/%d/export?errors=1", sid)); len(errs) != 1 || errs[0].ID != ids[1200] {
		t.Errorf("the export of errors holds %d frames, want the one error", len(errs))
	}
	if r := d.get(t, "/sessions/9999/export"); r.Status != http.StatusNotFound {
		t.Errorf("export of an unknown session: %d, want 404", r.Status)
	}
	page := d.get(t, fmt.Sprintf("/sessions/%d?errors=1", sid))
	if !strings.Contains(page.Body, fmt.Sprintf(`href="/sessions/%d/export?errors=1"`, sid)) {
		t.Error("the panel's export link does not follow its filter")
	}
}
