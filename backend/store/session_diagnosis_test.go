package store

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestDiagnosisOutlivesTheProcess saves a failed connect's diagnosis,
// reopens the database as a restart does and reads it back whole; a
// session without one has none, and a newer diagnosis replaces the older.
func TestDiagnosisOutlivesTheProcess(t *testing.T) {
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	failed, err := d.CreateSession(ctx, backend.Session{ServerName: "down", Transport: backend.TransportHTTP, Status: backend.SessionConnecting, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	other, err := d.CreateSession(ctx, backend.Session{ServerName: "up", Transport: backend.TransportHTTP, Status: backend.SessionConnecting, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	first := backend.Diagnosis{Summary: "Nothing listens on 127.0.0.1:9."}
	want := backend.Diagnosis{
		Summary:     "This URL is an HTTP+SSE server, not Streamable HTTP.",
		Findings:    []backend.Finding{{Check: "HTTP", Result: "GET answered an endpoint event (an HTTP+SSE server)"}},
		Suggestions: []backend.Suggestion{{Text: "Use HTTP+SSE.", Change: &backend.Fix{Transport: "sse"}}, {Text: "Sign in.", SignIn: true}},
	}
	for _, diagnosis := range []backend.Diagnosis{first, want} {
		if err := d.SaveDiagnosis(ctx, failed, diagnosis); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = MustOpenPath(t, path)
	got, ok, err := d.Diagnosis(ctx, failed)
	if err != nil || !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("after a restart the failed session's diagnosis is %+v, %v, %v; want %+v", got, ok, err, want)
	}
	if got, ok, err := d.Diagnosis(ctx, other); ok || err != nil {
		t.Errorf("a session without a diagnosis has %+v, %v, %v", got, ok, err)
	}
}
