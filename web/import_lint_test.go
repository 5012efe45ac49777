package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/web"
)

// lintedLine is an export line with the fields a linter reads.
type lintedLine struct {
	exportedLine
	ProtocolVersion string `json:"protocolVersion"`
	Excerpt         bool   `json:"excerpt"`
}

// codesOf lists the codes of a frame's findings.
func codesOf(f backend.Frame) []string {
	var out []string
	for _, l := range f.Findings {
		out = append(out, l.Code)
	}
	return out
}

// hasError reports whether a frame's findings hold an error of code at
// pointer.
func hasError(f backend.Frame, code, pointer string) bool {
	for _, l := range f.Findings {
		if l.Code == code && l.Severity == "error" && l.Pointer == pointer {
			return true
		}
	}
	return false
}

// TestExportCarriesVersionAndExcerpt: a session's export gives on each
// line the session's negotiated protocol version, and marks the lines of
// a filtered export and of a history export as an excerpt.
func TestExportCarriesVersionAndExcerpt(t *testing.T) {
	d := MustDashboard(t)
	ctx := context.Background()
	sid := d.mustSession(t, "versioned")
	if err := d.db.MarkSessionOpen(ctx, backend.Session{ID: sid, Era: backend.EraLegacy, ProtocolVersion: "2025-06-18"}); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	d.recordExchange(t, sid, at, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
	d.recordExchange(t, sid, at.Add(time.Second), `{"jsonrpc":"2.0","id":2,"method":"ping"}`, `{"jsonrpc":"2.0","id":2,"result":{"echidna":1}}`)
	unversioned := d.mustSession(t, "unversioned")
	d.recordExchange(t, unversioned, at, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)

	for _, tt := range []struct {
		name, path string
		lines      int
		version    string
		excerpt    bool
	}{
		{"whole session", fmt.Sprintf("/sessions/%d/export", sid), 4, "2025-06-18", false},
		{"filtered session", fmt.Sprintf("/sessions/%d/export?dir=in", sid), 2, "2025-06-18", true},
		{"history search", "/history/export?q=echidna", 2, "2025-06-18", true},
		{"session without a version", fmt.Sprintf("/sessions/%d/export", unversioned), 2, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file, lines := d.mustExport(t, tt.path)
			if len(lines) != tt.lines {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), tt.lines, file)
			}
			for n, line := range strings.Split(strings.TrimSpace(string(file)), "\n") {
				var l lintedLine
				if err := json.Unmarshal([]byte(line), &l); err != nil {
					t.Fatal(err)
				}
				if l.ProtocolVersion != tt.version || l.Excerpt != tt.excerpt {
					t.Errorf("line %d: protocolVersion %q, excerpt %t; want %q, %t", n+1, l.ProtocolVersion, l.Excerpt, tt.version, tt.excerpt)
				}
			}
			if tt.version == "" && bytes.Contains(file, []byte(`"protocolVersion"`)) {
				t.Errorf("the export names a protocol version the session never had:\n%s", file)
			}
			if !tt.excerpt && bytes.Contains(file, []byte(`"excerpt"`)) {
				t.Errorf("a whole session's export says excerpt:\n%s", file)
			}
		})
	}
}

// TestImportLintsFrames imports a hand-written file that breaks rules and
// an export of a recorded session: the imported frames are stored with
// the findings a linter of each session of the file gives, by the file's
// protocol version and excerpt mark, whatever findings the file claims.
func TestImportLintsFrames(t *testing.T) {
	d := MustDashboard(t)
	at := "2026-12-03T09:00:00Z"
	line := func(session, id, pair int64, dir, rpcType, body, extra string) string {
		pairs := ""
		if pair != 0 {
			pairs = fmt.Sprintf(`,"pairId":%d`, pair)
		}
		return fmt.Sprintf(`{"id":%d,"time":%q,"direction":%q,"kind":"message","rpcType":%q,"body":%s,"sessionId":%d,"serverName":"rules"%s%s}`,
			id, at, dir, rpcType, body, session, pairs, extra) + "\n"
	}
	file := line(1, 1, 0, "out", "request", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, `,"protocolVersion":"2025-06-18","excerpt":true`) +
		line(1, 2, 0, "in", "result", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-32603,"message":"both"}}`, `,"protocolVersion":"2025-06-18","excerpt":true`) +
		// A claimed finding is not taken: the frame is fine.
		line(1, 3, 4, "out", "request", `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
			`,"protocolVersion":"2025-06-18","excerpt":true,"findings":[{"code":"made.up","severity":"error","pointer":"","message":"no"}]`) +
		line(1, 4, 3, "in", "result", `{"jsonrpc":"2.0","id":2,"result":{}}`, `,"protocolVersion":"2025-06-18","excerpt":true`) +
		// Session 2 of the file is whole: an answer to an id never asked
		// is an error there, though its excerpt in session 1 let it be.
		line(2, 1, 0, "in", "result", `{"jsonrpc":"2.0","id":99,"result":{}}`, `,"protocolVersion":"2025-06-18"`) +
		line(1, 5, 0, "in", "result", `{"jsonrpc":"2.0","id":77,"result":{}}`, `,"protocolVersion":"2025-06-18","excerpt":true`)
	frames := d.allFrames(t, d.mustImport(t, "rules.ndjson", []byte(file)))
	if len(frames) != 6 {
		t.Fatalf("%d frames imported, want 6", len(frames))
	}
	for i, want := range []struct {
		code    string
		pointer string
	}{
		{"jsonrpc.version", "/jsonrpc"},
		{"jsonrpc.response-shape", ""},
		{},
		{},
		{"jsonrpc.unknown-response", "/id"},
		{},
	} {
		f := frames[i]
		switch {
		case want.code == "" && len(f.Findings) != 0:
			t.Errorf("imported frame %d (%s) has the findings %q, want none", i, f.Body, codesOf(f))
		case want.code != "" && !hasError(f, want.code, want.pointer):
			t.Errorf("imported frame %d (%s) has the findings %+v, want the error %s at %q", i, f.Body, f.Findings, want.code, want.pointer)
		}
	}

	t.Run("an export of a recorded session", func(t *testing.T) {
		sid := d.mustSession(t, "recorded")
		now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
		d.recordExchange(t, sid, now, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`)
		export, _ := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
		recorded := d.allFrames(t, sid)
		imported := d.allFrames(t, d.mustImport(t, "recorded.ndjson", export))
		if len(imported) != len(recorded) {
			t.Fatalf("%d frames imported, want %d", len(imported), len(recorded))
		}
		for i := range recorded {
			if g, w := codesOf(imported[i]), codesOf(recorded[i]); strings.Join(g, " ") != strings.Join(w, " ") {
				t.Errorf("frame %d: imported with %q, recorded with %q", i, g, w)
			}
		}
		if !hasError(imported[1], "jsonrpc.response-shape", "") {
			t.Errorf("the imported answer with a result and an error has %+v", imported[1].Findings)
		}
		page := d.get(t, fmt.Sprintf("/api/v1/sessions/%d/frames", imported[0].SessionID))
		if !strings.Contains(page.Body, `"code":"jsonrpc.response-shape"`) {
			t.Errorf("the API does not show the imported finding:\n%s", page.Body)
		}
	})
}

// TestImportedSessionKeepsVersionAndExcerpt imports an excerpt, which
// holds an answer to a request it does not hold, and a whole session: the
// imported session keeps the file's protocol version and excerpt mark, its
// page and the API show them, its export gives them again, and a linter
// of that export (as `playground lint` and an import run it) finds on
// each frame what the import found, so no answer of the excerpt is an
// answer to an id never asked; imported again, the export makes a session
// with the same version and mark.
func TestImportedSessionKeepsVersionAndExcerpt(t *testing.T) {
	d := MustDashboard(t)
	line := func(id, pair int64, dir, rpcType, body, extra string) string {
		pairs := ""
		if pair != 0 {
			pairs = fmt.Sprintf(`,"pairId":%d`, pair)
		}
		return fmt.Sprintf(`{"id":%d,"time":"2026-12-03T09:00:0%dZ","direction":%q,"kind":"message","rpcType":%q,"body":%s,"sessionId":4,"serverName":"kept"%s,"protocolVersion":"2025-06-18"%s}`,
			id, id, dir, rpcType, body, pairs, extra) + "\n"
	}
	for _, tt := range []struct {
		name    string
		file    string
		excerpt bool
	}{
		{"an excerpt", line(1, 0, "in", "result", `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`, `,"excerpt":true`) +
			line(2, 3, "out", "request", `{"jsonrpc":"2.0","id":8,"method":"ping"}`, `,"excerpt":true`) +
			line(3, 2, "in", "result", `{"jsonrpc":"2.0","id":8,"result":{}}`, `,"excerpt":true`), true},
		{"a whole session", line(1, 2, "out", "request", `{"jsonrpc":"2.0","id":8,"method":"ping"}`, "") +
			line(2, 1, "in", "result", `{"jsonrpc":"2.0","id":8,"result":{}}`, ""), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id := d.mustImport(t, "kept.ndjson", []byte(tt.file))
			imported := d.allFrames(t, id)
			for i, f := range imported {
				if slices.Contains(codesOf(f), "jsonrpc.unknown-response") && tt.excerpt {
					t.Errorf("imported frame %d (%s) has %q: an excerpt's answer to a request it does not hold", i, f.Body, codesOf(f))
				}
			}

			page := d.get(t, fmt.Sprintf("/sessions/%d", id))
			if !strings.Contains(page.Body, `protocol <span class="mono">2025-06-18</span>`) {
				t.Errorf("the session page shows no protocol version 2025-06-18:\n%s", sessionMeta(page.Body))
			}
			if got := strings.Contains(page.Body, `data-testid="imported-excerpt"`); got != tt.excerpt {
				t.Errorf("the session page says excerpt: %t, want %t:\n%s", got, tt.excerpt, sessionMeta(page.Body))
			}
			var api struct {
				ProtocolVersion string `json:"protocolVersion"`
				Excerpt         bool   `json:"excerpt"`
			}
			d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d", id), nil, &api)
			if api.ProtocolVersion != "2025-06-18" || api.Excerpt != tt.excerpt {
				t.Errorf("the API gives protocolVersion %q, excerpt %t; want 2025-06-18, %t", api.ProtocolVersion, api.Excerpt, tt.excerpt)
			}

			export, _ := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", id))
			linter := backend.NewExportLinter()
			n := 0
			for in, err := range web.ReadExport(bytes.NewReader(export)) {
				if err != nil {
					t.Fatal(err)
				}
				if in.ProtocolVersion != "2025-06-18" || in.Excerpt != tt.excerpt {
					t.Errorf("export line %d: protocolVersion %q, excerpt %t; want 2025-06-18, %t", in.Line, in.ProtocolVersion, in.Excerpt, tt.excerpt)
				}
				got := codesOf(backend.Frame{Findings: linter.Lint(in)})
				if n < len(imported) && !slices.Equal(got, codesOf(imported[n])) {
					t.Errorf("export line %d (%s): linted again with %q, imported with %q", in.Line, in.Body, got, codesOf(imported[n]))
				}
				n++
			}
			if n != len(imported) {
				t.Fatalf("the export has %d frames, want %d:\n%s", n, len(imported), export)
			}

			again := d.mustImport(t, "kept-again.ndjson", export)
			s, err := d.db.GetSession(context.Background(), again)
			if err != nil {
				t.Fatal(err)
			}
			if s.ProtocolVersion != "2025-06-18" || s.Excerpt != tt.excerpt {
				t.Errorf("imported again: protocol version %q, excerpt %t; want 2025-06-18, %t", s.ProtocolVersion, s.Excerpt, tt.excerpt)
			}
			for i, f := range d.allFrames(t, again) {
				if !slices.Equal(codesOf(f), codesOf(imported[i])) {
					t.Errorf("frame %d imported again with %q, first with %q", i, codesOf(f), codesOf(imported[i]))
				}
			}
		})
	}
}

// sessionMeta is the session page's meta card, for a failure message.
func sessionMeta(body string) string {
	i := strings.Index(body, `data-testid="session-meta"`)
	if i < 0 {
		return body
	}
	return body[i:min(len(body), i+1500)]
}
