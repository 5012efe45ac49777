package backend_test

import (
	"slices"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

// codesOf is the codes of a frame's findings, in order.
func codesOf(fs []lint.Finding) []string {
	var codes []string
	for _, f := range fs {
		codes = append(codes, f.Code)
	}
	return codes
}

// TestRecorderLintsFrames records a session whose client breaks JSON-RPC
// twice: the findings are on the published frames, stored beside them and
// read back whole (with the rule's fix), and a clean frame has none. A
// session's linter is its own: the same request id in another session is
// no clash.
func TestRecorderLintsFrames(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	hub := backend.NewHub(1 << 10)
	rec := backendtest.MustRecorder(t, db, hub)
	s1, s2 := MustSession(t, db), MustSession(t, db)
	sub := hub.Subscribe(s1)
	defer sub.Close()

	at := time.Now()
	MustRecord(t, rec, s1,
		msg(mcpclient.Outbound, at, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`),
		msg(mcpclient.Inbound, at, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`),
		msg(mcpclient.Outbound, at, `{"jsonrpc":"2.0","method":"notifications/initialized"}`),
		msg(mcpclient.Outbound, at, `{"jsonrpc":"1.0","id":2,"method":"tools/list"}`),
		msg(mcpclient.Outbound, at, `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`),
	)
	MustRecord(t, rec, s2, msg(mcpclient.Outbound, at, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	MustFlush(t, rec)

	want := [][]string{nil, nil, nil, {"jsonrpc.version"}, {"jsonrpc.id-type"}}
	published := map[int64][]lint.Finding{}
	for len(published) < len(want) {
		select {
		case ev := <-sub.C:
			for _, f := range ev.Frames {
				published[f.ID] = f.Findings
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d frames published", len(published), len(want))
		}
	}
	stored, err := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: s1, Limit: 10})
	if err != nil || len(stored) != len(want) {
		t.Fatalf("ListFrames: %d frames, %v", len(stored), err)
	}
	for i, f := range stored {
		if got := codesOf(f.Findings); !slices.Equal(got, want[i]) {
			t.Errorf("frame %d %s: stored findings %v, want %v", i, f.Body, got, want[i])
		}
		if got := codesOf(published[f.ID]); !slices.Equal(got, want[i]) {
			t.Errorf("frame %d: published findings %v, want %v", i, got, want[i])
		}
		for _, fd := range f.Findings {
			rule, _ := lint.RuleOf(fd.Code)
			if fd.Severity != lint.SevError || fd.Message == "" || fd.Spec == "" || fd.Fix != rule.Fix || fd.Fix == "" {
				t.Errorf("frame %d: finding read back as %+v", i, fd)
			}
		}
	}
	if stored[3].Findings[0].Pointer != "/jsonrpc" || stored[4].Findings[0].Pointer != "/id" {
		t.Errorf("pointers %q, %q", stored[3].Findings[0].Pointer, stored[4].Findings[0].Pointer)
	}
	other, err := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: s2, Limit: 10})
	if err != nil || len(other) != 1 || len(other[0].Findings) != 0 {
		t.Errorf("the other session's initialize: %+v, %v", other, err)
	}
}

// TestRecorderWithoutLint records a broken frame with NoLint: it is
// stored without findings.
func TestRecorderWithoutLint(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	rec, err := backend.NewRecorder(backendtest.Context(t), db, backend.NewHub(0), backendtest.Logger(t), backend.RecorderOptions{NoLint: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	s := MustSession(t, db)
	MustRecord(t, rec, s, msg(mcpclient.Outbound, time.Now(), `{"jsonrpc":"1.0","id":2,"method":"tools/list"}`))
	MustFlush(t, rec)
	stored, err := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: s, Limit: 10})
	if err != nil || len(stored) != 1 || stored[0].Findings != nil {
		t.Errorf("frames %+v, %v", stored, err)
	}
}
