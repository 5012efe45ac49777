package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// exportedLine is a line of an NDJSON export, as a script reads it.
type exportedLine struct {
	apiFrame
	SessionID  int64  `json:"sessionId"`
	ServerName string `json:"serverName"`
}

// mustExport downloads an NDJSON export and returns its bytes and lines.
func (d *dashboard) mustExport(t *testing.T, path string) ([]byte, []exportedLine) {
	t.Helper()
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := d.get(t, path)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/x-ndjson" || !strings.HasPrefix(r.Header.Get("Content-Disposition"), "attachment;") {
		t.Fatalf("GET %s: %d %q %q\n%.500s", path, r.Status, r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"), r.Body)
	}
	var out []exportedLine
	for line := range strings.Lines(r.Body) {
		var l exportedLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("GET %s: line %d is not a frame: %v", path, len(out)+1, err)
		}
		out = append(out, l)
	}
	return []byte(r.Body), out
}

// postImport uploads content as the import form's file, named name, with
// the CSRF token (none when token is ""), and the extra headers.
func (d *dashboard) postImport(t *testing.T, token, name string, content []byte, header map[string]string) response {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if token != "" {
		if err := w.WriteField("_csrf", token); err != nil {
			t.Fatal(err)
		}
	}
	if content != nil {
		fw, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	}
	w.Close()
	req := d.newRequest(t, http.MethodPost, "/sessions/import", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return d.do(t, req)
}

// mustImport uploads content and returns the new session's id.
func (d *dashboard) mustImport(t *testing.T, name string, content []byte) int64 {
	t.Helper()
	r := d.postImport(t, d.MustCSRF(t), name, content, nil)
	loc := r.Header.Get("Location")
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(loc, "/sessions/") {
		t.Fatalf("import: %d %q %q", r.Status, loc, importError.FindStringSubmatch(r.Body))
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(loc, "/sessions/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// storeState is what an import must leave alone when it fails.
type storeState struct {
	sessions int
	maxFrame int64
}

func (d *dashboard) state(t *testing.T) storeState {
	t.Helper()
	ctx := context.Background()
	if err := d.rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	sessions, err := d.db.ListSessions(ctx, 0, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	maxFrame, err := d.db.MaxFrameID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return storeState{len(sessions), maxFrame}
}

// allFrames reads every frame of a session, bodies whole.
func (d *dashboard) allFrames(t *testing.T, sessionID int64) []backend.Frame {
	t.Helper()
	frames, err := d.db.ListFrames(context.Background(), backend.FrameQuery{SessionID: sessionID})
	if err != nil {
		t.Fatal(err)
	}
	return frames
}

// recordExchange records a request the client sent and the server's
// answer, which the recorder pairs.
func (d *dashboard) recordExchange(t *testing.T, sessionID int64, at time.Time, request, response string) {
	t.Helper()
	for _, f := range []backend.WireFrame{
		{Time: at, Direction: backend.Outbound, Kind: backend.KindMessage, Body: []byte(request)},
		{Time: at.Add(7 * time.Millisecond), Direction: backend.Inbound, Kind: backend.KindMessage, Body: []byte(response)},
	} {
		if err := d.rec.Record(sessionID, f); err != nil {
			t.Fatal(err)
		}
	}
}

// mustSession creates a closed session of a server named name.
func (d *dashboard) mustSession(t *testing.T, name string) int64 {
	t.Helper()
	id, err := d.db.CreateSession(context.Background(), backend.Session{ServerName: name, Transport: backend.TransportStdio,
		Status: backend.SessionClosed, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

const scriptPayload = `<script>alert("owned")</script>`

// TestImportRoundTrip exports a session whose traffic holds every kind of
// body a recording can (pretty JSON, malformed JSON-RPC, bytes that are not
// UTF-8, a body over the preview size, script), imports the file, and finds
// the same frames, bodies byte for byte, directions, kinds, times and
// pairs, in a read-only session of the file's server that history finds.
func TestImportRoundTrip(t *testing.T) {
	d := MustDashboard(t)
	sid := d.mustSession(t, "round "+scriptPayload)
	at := time.Date(2026, 11, 30, 12, 0, 0, 123456789, time.UTC)
	d.recordExchange(t, sid, at, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"quokka `+strings.ReplaceAll(scriptPayload, `"`, `\"`)+`"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"echo: quokka & friends"}]}}`)
	d.recordExchange(t, sid, at.Add(time.Second), "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": \"b\",\n  \"method\": \"ping\"\n}",
		`{"jsonrpc":"2.0","id":"b","error":{"code":-32601,"message":"no such method"}}`)
	for i, f := range []backend.WireFrame{
		{Direction: backend.Inbound, Kind: backend.KindParseError, Body: []byte(`{"jsonrpc":"2.0","id":3,"result":`)},
		{Direction: backend.Stderr, Kind: backend.KindLog, Body: []byte("caf\xe9 \xff not utf-8")},
		{Direction: backend.Inbound, Kind: backend.KindMessage, Body: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("z", 40<<10) + `"}}`)},
		{Direction: backend.Outbound, Kind: backend.KindMessage, Body: []byte(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)}, // never answered
	} {
		f.Time = at.Add(time.Duration(2+i) * time.Second)
		if err := d.rec.Record(sid, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}

	file, lines := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
	if len(lines) != 8 || lines[0].SessionID != sid || lines[0].ServerName != "round "+scriptPayload {
		t.Fatalf("the export: %d lines, first %+v", len(lines), lines[0])
	}
	imported := d.mustImport(t, "round-trip.ndjson", file)

	sess, err := d.db.GetSession(context.Background(), imported)
	if err != nil {
		t.Fatal(err)
	}
	if !sess.Imported() || sess.ImportedFrom != "round-trip.ndjson" || sess.ServerID != 0 || sess.ServerName != "round "+scriptPayload ||
		sess.Live() || !sess.StartedAt.Equal(at) || !sess.EndedAt.Equal(at.Add(5*time.Second)) || time.Since(sess.ImportedAt) > time.Minute {
		t.Errorf("the imported session: %+v", sess)
	}
	var api map[string]any
	if r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d", imported), nil, &api); r.Status != http.StatusOK || api["importedFrom"] != "round-trip.ndjson" {
		t.Errorf("the API shows the imported session as %d %v", r.Status, api)
	}
	want, got := d.allFrames(t, sid), d.allFrames(t, imported)
	if len(got) != len(want) {
		t.Fatalf("%d frames imported, want %d", len(got), len(want))
	}
	index := func(frames []backend.Frame) map[int64]int {
		m := map[int64]int{}
		for i, f := range frames {
			m[f.ID] = i
		}
		return m
	}
	wantAt, gotAt := index(want), index(got)
	for i := range want {
		w, g := want[i], got[i]
		if !g.Time.Equal(w.Time) || g.Direction != w.Direction || g.Kind != w.Kind || g.RPCType != w.RPCType || g.RPCID != w.RPCID ||
			g.Method != w.Method || !bytes.Equal(g.Body, w.Body) || g.LatencyNS != w.LatencyNS {
			t.Errorf("frame %d:\n got %v %s %s %s %s %s %d %.80q\nwant %v %s %s %s %s %s %d %.80q", i,
				g.Time, g.Direction, g.Kind, g.RPCType, g.RPCID, g.Method, g.LatencyNS, g.Body, w.Time, w.Direction, w.Kind, w.RPCType, w.RPCID, w.Method, w.LatencyNS, w.Body)
		}
		if g.ID == w.ID || g.SessionID != imported {
			t.Errorf("frame %d keeps its id %d or is not in the new session", i, g.ID)
		}
		wp, wok := wantAt[w.PairID]
		gp, gok := gotAt[g.PairID]
		if wok != gok || wp != gp {
			t.Errorf("frame %d is paired with frame %d (%t), want %d (%t)", i, gp, gok, wp, wok)
		}
	}
	if n := len(slices.DeleteFunc(slices.Clone(got), func(f backend.Frame) bool { return f.PairID == 0 })); n != 4 {
		t.Errorf("%d frames paired, want the 4 of the two exchanges", n)
	}

	page := d.get(t, fmt.Sprintf("/sessions/%d", imported))
	if page.Status != http.StatusOK || !strings.Contains(page.Body, `data-testid="imported-badge"`) ||
		!strings.Contains(page.Body, `Imported from <span class="mono">round-trip.ndjson</span> at`) {
		t.Errorf("the imported session's page: %d, no badge\n%.2000s", page.Status, page.Body)
	}
	hist := d.get(t, "/history?q=quokka")
	rows := historyRow.FindAllStringSubmatch(hist.Body, -1)
	if len(rows) != 2 || !strings.Contains(hist.Body, fmt.Sprintf(`href="/sessions/%d"`, imported)) {
		t.Errorf("history finds %d exchanges for a word of both sessions, want 2 (the imported one's too)", len(rows))
	}
	if r := d.get(t, "/history?"+url.Values{"q": {"quokka"}, "server": {"round " + scriptPayload}}.Encode()); len(historyRow.FindAllString(r.Body, -1)) != 2 {
		t.Errorf("history by the file's server name: %d rows, want 2", len(historyRow.FindAllString(r.Body, -1)))
	}

	t.Run("script renders escaped", func(t *testing.T) {
		for _, path := range []string{fmt.Sprintf("/sessions/%d", imported), "/sessions", "/history?q=quokka",
			fmt.Sprintf("/sessions/%d/exchanges/%d", imported, got[0].ID)} {
			r := d.get(t, path)
			if r.Status != http.StatusOK || strings.Contains(r.Body, scriptPayload) || strings.Contains(r.Body, `<script>alert`) ||
				!strings.Contains(r.Body, "&lt;script&gt;") {
				t.Errorf("GET %s: %d, the script is not escaped (or not shown)", path, r.Status)
			}
		}
	})

	t.Run("a file without server names", func(t *testing.T) {
		var buf bytes.Buffer
		for line := range strings.Lines(string(file)) {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "serverName")
			b, _ := json.Marshal(m)
			buf.Write(append(b, '\n'))
		}
		id := d.mustImport(t, `C:\exports\bare.ndjson`, buf.Bytes())
		s, err := d.db.GetSession(context.Background(), id)
		if err != nil || s.ServerName != backend.ImportedServerName || s.ImportedFrom != "bare.ndjson" {
			t.Errorf("the imported session: %+v %v", s, err)
		}
	})
}

// TestHistoryExport downloads a search result of more exchanges than an
// export reads at a time: every exchange that matches is in it, request
// then response, bodies whole, and no other.
func TestHistoryExport(t *testing.T) {
	d := MustDashboard(t)
	a, b := d.mustSession(t, "alpha"), d.mustSession(t, "beta")
	at := time.Now().Add(-time.Hour)
	const matching = 230
	for i := range matching {
		sid := a
		if i%2 == 1 {
			sid = b
		}
		d.recordExchange(t, sid, at.Add(time.Duration(i)*time.Second),
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"wombat %d"}}}`, i, i),
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"echo: wombat %d %s"}]}}`, i, i, strings.Repeat("w", 5<<10)))
		d.recordExchange(t, sid, at.Add(time.Duration(i)*time.Second+time.Millisecond),
			fmt.Sprintf(`{"jsonrpc":"2.0","id":"n%d","method":"tools/call","params":{"name":"echo","arguments":{"text":"numbat %d"}}}`, i, i),
			fmt.Sprintf(`{"jsonrpc":"2.0","id":"n%d","error":{"code":-32602,"message":"numbat"}}`, i))
	}
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}

	page := d.get(t, "/history?q=wombat&server=alpha")
	if !strings.Contains(page.Body, `href="/history/export?q=wombat&amp;server=alpha"`) {
		t.Errorf("the history page has no export link for its search:\n%.3000s", page.Body)
	}

	check := func(t *testing.T, path string, want int, word string) {
		t.Helper()
		_, lines := d.mustExport(t, path)
		if len(lines) != 2*want {
			t.Fatalf("GET %s: %d lines, want %d", path, len(lines), 2*want)
		}
		seen := map[string]bool{}
		for i := 0; i < len(lines); i += 2 {
			rq, rs := lines[i], lines[i+1]
			if rq.RPCType != "request" || rq.PairID != rs.ID || rs.PairID != rq.ID || rs.SessionID != rq.SessionID {
				t.Fatalf("lines %d and %d are not an exchange: %+v %+v", i+1, i+2, rq.apiFrame, rs.apiFrame)
			}
			if !strings.Contains(string(rq.Body), word) || seen[string(rq.Body)] {
				t.Errorf("line %d: %s (seen before: %t)", i+1, rq.Body, seen[string(rq.Body)])
			}
			seen[string(rq.Body)] = true
			if i > 0 && rq.ID > lines[i-2].ID {
				t.Errorf("line %d: exchanges are not newest first", i+1)
			}
			if word == "wombat" && !strings.HasSuffix(string(rs.Body), strings.Repeat("w", 5<<10)+`"}]}}`) {
				t.Errorf("line %d: the response body is cut: %d bytes", i+2, len(rs.Body))
			}
			if name := map[int64]string{a: "alpha", b: "beta"}[rq.SessionID]; rq.ServerName != name {
				t.Errorf("line %d: server %q, want %q", i+1, rq.ServerName, name)
			}
		}
	}
	check(t, "/history/export?q=wombat", matching, "wombat")
	check(t, "/history/export?q=wombat&server=alpha", matching/2, "wombat")
	check(t, "/history/export?outcome=rpc-error", matching, "numbat")
	check(t, "/history/export?q=nowhere", 0, "")
	if r := d.get(t, "/history/export?q="+url.QueryEscape("colour:red")); r.Status != http.StatusBadRequest && r.Status != http.StatusUnprocessableEntity {
		t.Errorf("export of a malformed query: %d", r.Status)
	}

	// The export imports as one session holding all its exchanges.
	file, _ := d.mustExport(t, "/history/export?q=wombat")
	id := d.mustImport(t, "wombats.ndjson", file)
	s, err := d.db.GetSession(context.Background(), id)
	if err != nil || s.ServerName != "beta, alpha" {
		t.Errorf("the imported search: %+v %v", s, err)
	}
	frames := d.allFrames(t, id)
	if paired := len(slices.DeleteFunc(frames, func(f backend.Frame) bool { return f.PairID == 0 })); paired != 2*matching {
		t.Errorf("the imported search has %d paired frames, want %d", paired, 2*matching)
	}
}

var importError = regexp.MustCompile(`data-testid="import-error">([^<]*)<`)

// TestImportBadInput uploads files that are not exports: each is refused
// on the import form with what is wrong, and nothing is stored.
func TestImportBadInput(t *testing.T) {
	d := MustDashboard(t)
	sid := d.mustSession(t, "good")
	d.recordExchange(t, sid, time.Now(), `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	good, _ := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
	goodLines := strings.SplitAfter(string(good), "\n")
	before := d.state(t)
	token := d.MustCSRF(t)
	for path, want := range map[string]string{"/sessions/import": `data-testid="import-form"`, "/history": `data-testid="import-form"`, "/sessions": `href="/sessions/import"`} {
		if r := d.get(t, path); r.Status != http.StatusOK || !strings.Contains(r.Body, want) {
			t.Errorf("GET %s: %d, no %s", path, r.Status, want)
		}
	}

	for _, tc := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"not NDJSON", []byte("PK\x03\x04 this is a zip file\n"), "Nothing was imported from bad.ndjson. Line 1 is not a frame of an NDJSON export (one JSON object a line): it is not JSON (at byte 1)."},
		{"a JSON array", []byte(`[{"id":1}]`), "Line 1 is not a frame of an NDJSON export (one JSON object a line): it is a JSON array, not an object."},
		{"an object that is not a frame", []byte(`{"hello":"world"}` + "\n"), "Line 1: the direction \"\" is not out, in or stderr."},
		{"a frame of the wrong shape", []byte(`{"id":"one","direction":"out"}` + "\n"), "Line 1 is not a frame of an NDJSON export (one JSON object a line): its id is a JSON string."},
		{"a bad line after good ones", []byte(goodLines[0] + goodLines[1] + "\n" + `{"id":3,"time":"2026-01-01T00:00:00Z","direction":"sideways","kind":"message"}` + "\n"), "Line 4: the direction \"sideways\" is not out, in or stderr."},
		{"a repeated frame", []byte(goodLines[0] + goodLines[0]), "Line 2 repeats frame"},
		{"an object as the JSON-RPC id", []byte(goodLines[0] + strings.Replace(goodLines[1], `"rpcId":1`, `"rpcId":{"a":1}`, 1)), `Line 2: the rpcId {"a":1} is not a JSON-RPC id, which is a string or a number.`},
		{"an array as the JSON-RPC id", []byte(strings.Replace(goodLines[0], `"rpcId":1`, `"rpcId":[1]`, 1)), "Line 1: the rpcId [1] is not a JSON-RPC id"},
		{"a boolean as the JSON-RPC id", []byte(strings.Replace(goodLines[0], `"rpcId":1`, `"rpcId":true`, 1)), "Line 1: the rpcId true is not a JSON-RPC id"},
		{"an empty file", []byte{}, "The file holds no frames."},
		{"blank lines", []byte("\n  \n\n"), "The file holds no frames."},
		{"a line over the limit", []byte(goodLines[0] + `{"body":"` + strings.Repeat("x", 16<<20) + `"}` + "\n"), "Line 2 is longer than the 16 MiB limit of a line."},
		{"a file over the limit", append(bytes.Repeat([]byte(goodLines[0]), (64<<20)/len(goodLines[0])), goodLines[0]...), "The file is larger than the 64 MiB limit of an import."},
		{"a body over the limit", bytes.Repeat([]byte("x"), 66<<20), "The file is larger than the 64 MiB limit of an import."},
		{"no file", nil, "Choose an NDJSON file to import."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := d.postImport(t, token, "bad.ndjson", tc.content, nil)
			m := importError.FindStringSubmatch(r.Body)
			if r.Status != http.StatusUnprocessableEntity || m == nil || !strings.Contains(html.UnescapeString(m[1]), tc.want) {
				t.Errorf("import: %d, error %q, want 422 and %q\n%.1500s", r.Status, m, tc.want, r.Body)
			}
			if !strings.Contains(r.Body, `data-testid="import-form"`) {
				t.Error("the error is not shown with the import form")
			}
			if after := d.state(t); after != before {
				t.Errorf("a refused import changed the store: %+v, was %+v", after, before)
			}
		})
	}
}

// TestImportNeedsTheDashboardsOwnPage posts a good file without the CSRF
// token, and with it from another site's page: both are refused, and
// nothing is stored.
func TestImportNeedsTheDashboardsOwnPage(t *testing.T) {
	d := MustDashboard(t)
	sid := d.mustSession(t, "good")
	d.recordExchange(t, sid, time.Now(), `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	good, _ := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
	before := d.state(t)
	token := d.MustCSRF(t)
	for _, tc := range []struct {
		name   string
		token  string
		header map[string]string
	}{
		{"no token", "", nil},
		{"a wrong token", "AAAAAAAAAAAAAAAAAAAAAAAAAA", nil},
		{"another site's page", token, map[string]string{"Origin": "http://evil.example"}},
		{"another site's page without Origin", token, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}},
		{"another host", token, map[string]string{"Host": "evil.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body bytes.Buffer
			w := multipart.NewWriter(&body)
			if tc.token != "" {
				w.WriteField("_csrf", tc.token)
			}
			fw, _ := w.CreateFormFile("file", "x.ndjson")
			fw.Write(good)
			w.Close()
			req := d.newRequest(t, http.MethodPost, "/sessions/import", &body)
			req.Header.Set("Content-Type", w.FormDataContentType())
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			if k, ok := tc.header["Host"]; ok {
				req.Host = k
			}
			if r := d.do(t, req); r.Status != http.StatusForbidden && r.Status != http.StatusMisdirectedRequest {
				t.Errorf("import: %d, want it refused", r.Status)
			}
			if after := d.state(t); after != before {
				t.Errorf("a refused import changed the store: %+v, was %+v", after, before)
			}
		})
	}
	if r := d.postImport(t, token, "x.ndjson", good, map[string]string{"Origin": d.URL}); r.Status != http.StatusSeeOther {
		t.Errorf("the dashboard's own import: %d", r.Status)
	}
}

// TestImportedSessionIsReadOnly sends to an imported session on every
// route that acts on a session: each refuses with a message that says
// why, and the session's frames stay as imported.
func TestImportedSessionIsReadOnly(t *testing.T) {
	d := MustDashboard(t)
	sid := d.mustSession(t, "good")
	d.recordExchange(t, sid, time.Now(), `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	good, _ := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
	imported := d.mustImport(t, "ro.ndjson", good)
	frames := d.allFrames(t, imported)
	token := d.MustCSRF(t)
	n := 0
	for _, r := range d.web.Routes() {
		if isSafeMethod(r.Method) || !strings.HasPrefix(r.Path, "/sessions/:id") && !strings.HasPrefix(r.Path, "/api/v1/sessions/:id") {
			continue
		}
		path := routePath(r.Path, map[string]string{"sessions": fmt.Sprint(imported)}, "x")
		if r.Path == "/sessions/:id/exchanges/:exchange/replay" {
			// Replay sends on the session the form names: an imported one is never live.
			path = fmt.Sprintf("/sessions/%d/exchanges/%d/replay", imported, frames[0].ID)
		}
		n++
		t.Run(r.Method+" "+r.Path, func(t *testing.T) {
			form := url.Values{"_tool": {"echo"}, "method": {"ping"}, "mode": {"request"}, "session": {fmt.Sprint(imported)}}
			req := d.newRequest(t, r.Method, path, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if strings.HasPrefix(r.Path, "/api/") {
				req = d.newRequest(t, r.Method, path, strings.NewReader(`{"method":"ping"}`))
				req.Header.Set("Content-Type", "application/json")
			}
			req.Header.Set("X-CSRF-Token", token)
			resp := d.do(t, req)
			body := html.UnescapeString(resp.Body)
			if r.Path == "/sessions/:id/exchanges/:exchange/replay" {
				if !strings.Contains(body, "not connected") {
					t.Errorf("replay onto the imported session: %d %.500s", resp.Status, body)
				}
				return
			}
			if resp.Status != http.StatusConflict || !strings.Contains(body, fmt.Sprintf("Session %d was imported from ro.ndjson: it is read-only, and nothing can be sent on it.", imported)) {
				t.Errorf("%s %s: %d %.500s", r.Method, path, resp.Status, body)
			}
		})
	}
	if n < 15 {
		t.Errorf("only %d routes act on a session", n)
	}
	if after := d.allFrames(t, imported); len(after) != len(frames) {
		t.Errorf("the imported session has %d frames, want the %d imported", len(after), len(frames))
	}
}

// TestMessagesWithIdsJSONRPCForbidsRoundTrip records messages whose id is
// an object, an array or null, exports the session and imports the file:
// the frames come back byte for byte, none of them with a JSON-RPC id, so
// a recording the import would refuse is never exported.
func TestMessagesWithIdsJSONRPCForbidsRoundTrip(t *testing.T) {
	d := MustDashboard(t)
	sid := d.mustSession(t, "odd ids")
	bodies := []string{
		`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":[1],"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for i, b := range bodies {
		if err := d.rec.Record(sid, backend.WireFrame{Time: at.Add(time.Duration(i) * time.Second), Direction: backend.Inbound, Kind: backend.KindMessage, Body: []byte(b)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, f := range d.allFrames(t, sid) {
		if f.RPCID != "" {
			t.Errorf("the recorder gave %s the JSON-RPC id %s", f.Body, f.RPCID)
		}
	}
	file, _ := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
	imported := d.mustImport(t, "odd.ndjson", file)
	got := d.allFrames(t, imported)
	if len(got) != len(bodies) {
		t.Fatalf("%d frames imported, want %d", len(got), len(bodies))
	}
	for i, f := range got {
		if string(f.Body) != bodies[i] || f.RPCID != "" {
			t.Errorf("imported frame %d: %s with id %q, want %s without one", i, f.Body, f.RPCID, bodies[i])
		}
	}

	nullID := strings.Replace(string(file), `"direction"`, `"rpcId":null,"direction"`, 1)
	again := d.mustImport(t, "null.ndjson", []byte(nullID))
	if f := d.allFrames(t, again)[0]; f.RPCID != "" {
		t.Errorf("a line with rpcId null was imported with the id %q", f.RPCID)
	}
}

// TestImportKeepsClashAndToolErrorMarks exports a session in which two
// requests share an id while pending, whose answer is then ambiguous, and
// a tool fails; the imported session marks the same frames, naming the
// imported requests, and its page shows the same duplicate-id badges and
// tool-error marks. A file written before exports carried clash marks
// still imports, without them.
func TestImportKeepsClashAndToolErrorMarks(t *testing.T) {
	d := MustDashboard(t)
	sid := d.mustSession(t, "clashing")
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for i, f := range []backend.WireFrame{
		{Direction: backend.Outbound, Body: []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)},
		{Direction: backend.Outbound, Body: []byte(`{"jsonrpc":"2.0","id":5,"method":"prompts/list"}`)},
		{Direction: backend.Inbound, Body: []byte(`{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}`)},
		{Direction: backend.Outbound, Body: []byte(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"boom"}}`)},
		{Direction: backend.Inbound, Body: []byte(`{"jsonrpc":"2.0","id":6,"result":{"content":[],"isError":true}}`)},
	} {
		f.Time, f.Kind = at.Add(time.Duration(i)*time.Second), backend.KindMessage
		if err := d.rec.Record(sid, f); err != nil {
			t.Fatal(err)
		}
	}
	file, lines := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
	if len(lines) != 5 || lines[1].IDClash != string(backend.ClashDuplicate) || lines[1].IDClashFrame != lines[0].ID ||
		lines[2].IDClash != string(backend.ClashAmbiguous) || lines[2].IDClashFrame != lines[1].ID {
		t.Fatalf("the export does not carry the clash marks:\n%s", file)
	}
	want, got := d.allFrames(t, sid), d.allFrames(t, d.mustImport(t, "clash.ndjson", file))
	if len(got) != len(want) {
		t.Fatalf("%d frames imported, want %d", len(got), len(want))
	}
	newID := map[int64]int64{0: 0}
	for i := range want {
		newID[want[i].ID] = got[i].ID
	}
	for i, w := range want {
		g := got[i]
		if g.Clash != w.Clash || g.ClashFrameID != newID[w.ClashFrameID] || g.ToolError != w.ToolError || g.ClashNote() == "" != (w.ClashNote() == "") {
			t.Errorf("imported frame %d: clash %q with %d, tool error %t; want %q with %d, %t", i, g.Clash, g.ClashFrameID, g.ToolError, w.Clash, newID[w.ClashFrameID], w.ToolError)
		}
	}
	if want[1].Clash == "" || want[2].Clash == "" || !want[4].ToolError {
		t.Fatalf("the recording itself lacks the marks: %+v", want)
	}
	marks := func(sessionID int64) (clashes, toolErrors int) {
		page := d.get(t, fmt.Sprintf("/sessions/%d", sessionID))
		return strings.Count(page.Body, `data-testid="frame-clash"`), strings.Count(page.Body, `data-status="tool-error"`)
	}
	wantClashes, wantToolErrors := marks(sid)
	if gotClashes, gotToolErrors := marks(got[0].SessionID); wantClashes != 2 || wantToolErrors == 0 || gotClashes != wantClashes || gotToolErrors != wantToolErrors {
		t.Errorf("the imported session's page shows %d clash badges and %d tool-error marks, the recorded one's %d and %d",
			gotClashes, gotToolErrors, wantClashes, wantToolErrors)
	}

	t.Run("a file without clash marks", func(t *testing.T) {
		var old bytes.Buffer
		for line := range strings.Lines(string(file)) {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "idClash")
			delete(m, "idClashFrame")
			b, _ := json.Marshal(m)
			old.Write(append(b, '\n'))
		}
		frames := d.allFrames(t, d.mustImport(t, "old.ndjson", old.Bytes()))
		if len(frames) != len(want) || frames[1].Clash != "" || !frames[4].ToolError {
			t.Errorf("the older file imported as %+v", frames)
		}
	})
}
