package store

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/mcpclient"
)

// The secret parts of the URLs these tests store: a user name, a password
// and two query parameter values.
var urlSecrets = []string{"alice-user-s3cr3t", "hunter2-url-password", "k3y-in-the-query", "t0ken-in-the-query"}

const secretURL = "http://alice-user-s3cr3t:hunter2-url-password@127.0.0.1:1/mcp?api_key=k3y-in-the-query&page=2&access_token=t0ken-in-the-query"

// findInFiles returns, for each of the database's files (main, -wal, -shm)
// that holds one of secrets in its raw bytes, the file and the secret.
func findInFiles(t *testing.T, path string, secrets []string) []string {
	t.Helper()
	var found []string
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				found = append(found, filepath.Base(f)+": "+s)
			}
		}
	}
	return found
}

func TestServerURLSecretsEncryptedAtRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	ctx := testContext(t)
	id := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: secretURL})
	plain := MustCreateServer(t, d, backend.Server{Name: "plain", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:2/mcp"})
	updated := secretURL + "&v=2"
	if err := d.UpdateServer(ctx, backend.Server{ID: plain, Name: "plain", Transport: backend.TransportHTTP, URL: updated}); err != nil {
		t.Fatal(err)
	}
	sid := MustCreateSession(t, d, id, "remote")
	info := &mcpclient.HTTPInfo{Method: "POST", URL: secretURL, Header: http.Header{"Content-Type": {"application/json"}}}
	frames := []backend.Frame{
		{ID: 1, SessionID: sid, Time: time.Now(), Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`), HTTP: info},
		{ID: 2, SessionID: sid, Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`),
			HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: secretURL, Status: 200}},
	}
	if err := d.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}

	if found := findInFiles(t, path, urlSecrets); len(found) > 0 {
		t.Errorf("URL secrets stored in plaintext: %v", found)
	}
	for _, tt := range []struct {
		id   int64
		want string
	}{{id, secretURL}, {plain, updated}} {
		if s, err := d.GetServer(ctx, tt.id); err != nil || s.URL != tt.want {
			t.Errorf("server %d URL read back = %q, %v; want %q", tt.id, s.URL, err, tt.want)
		}
	}
	if list, err := d.ListServers(ctx); err != nil || len(list) != 2 || list[1].URL != secretURL {
		t.Errorf("ListServers = %+v, %v", list, err)
	}
	got, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
	if err != nil || len(got) != 2 {
		t.Fatalf("ListFrames = %d frames, %v", len(got), err)
	}
	for _, f := range got {
		if f.HTTP == nil || f.HTTP.URL != backend.RedactURL(secretURL) {
			t.Errorf("frame %d HTTP info read back = %+v, want the URL redacted", f.ID, f.HTTP)
		}
		if info, err := d.RevealFrameHTTP(ctx, f.ID); err != nil || info == nil || info.URL != secretURL {
			t.Errorf("frame %d HTTP info revealed = %+v, %v; want the URL %q", f.ID, info, err, secretURL)
		}
	}
}

// TestPlaintextSecretsOfOlderVersionsAreSealed: rows written before URLs
// were sealed (a plaintext servers.url, frame HTTP info with the plaintext
// URL, close reasons and transport notes that quote it) are sealed or
// redacted when the database is opened, and no trace of the plaintext is
// left in the files.
func TestPlaintextSecretsOfOlderVersionsAreSealed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	ctx := testContext(t)
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	id := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp"})
	stdio := MustCreateServer(t, d, stdioServer("local"))
	sid := MustCreateSession(t, d, id, "remote")
	reason := "connect failed: connect " + secretURL + ": connection refused"
	// A note longer than backend.MaxBodyPreview, kept whole in frame_bodies.
	long := "HTTP 500: " + strings.Repeat("x", backend.MaxBodyPreview) + " " + secretURL
	if err := d.EndSession(ctx, sid, backend.SessionFailed, reason, time.Now()); err != nil {
		t.Fatal(err)
	}
	// What an older version wrote.
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE servers SET url = ? WHERE id = ?`, []any{secretURL, id}},
		{`INSERT INTO frames (id, session_id, time, direction, kind, body, body_size, http) VALUES (1, ?, 1, 'out', 'message', '{}', 2, ?)`,
			[]any{sid, `{"method":"POST","url":"` + secretURL + `","status":200}`}},
		{`INSERT INTO frames (id, session_id, time, direction, kind, body, body_size, http) VALUES (2, ?, 2, 'in', 'transport', ?, ?, NULL)`,
			[]any{sid, []byte(reason), len(reason)}},
		{`INSERT INTO frames (id, session_id, time, direction, kind, body, body_size, http) VALUES (3, ?, 3, 'in', 'transport', ?, ?, NULL)`,
			[]any{sid, []byte(long[:backend.MaxBodyPreview]), len(long)}},
		{`INSERT INTO frame_bodies (frame_id, body) VALUES (3, ?)`, []any{[]byte(long)}},
		{`DELETE FROM settings`, nil},
	} {
		if _, err := d.db.ExecContext(ctx, q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = MustOpenPath(t, path)
	if found := findInFiles(t, path, urlSecrets); len(found) > 0 {
		t.Errorf("after Open, plaintext URL secrets remain: %v", found)
	}
	if s, err := d.GetServer(ctx, id); err != nil || s.URL != secretURL {
		t.Errorf("server URL read back = %q, %v; want %q", s.URL, err, secretURL)
	}
	if s, err := d.GetServer(ctx, stdio); err != nil || s.URL != "" {
		t.Errorf("stdio server URL read back = %q, %v; want none", s.URL, err)
	}
	fs, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
	if err != nil || len(fs) != 3 {
		t.Fatalf("ListFrames = %d frames, %v", len(fs), err)
	}
	if info, err := d.RevealFrameHTTP(ctx, fs[0].ID); err != nil || info == nil || info.URL != secretURL || info.Status != 200 {
		t.Errorf("frame HTTP info revealed = %+v, %v; want the URL %q", info, err, secretURL)
	}
	redacted := backend.RedactURLsIn(reason)
	if string(fs[1].Body) != redacted {
		t.Errorf("transport note = %q, want %q", fs[1].Body, redacted)
	}
	if want := backend.RedactURLsIn(long); string(fs[2].Body) != want || fs[2].BodySize != len(want) {
		t.Errorf("long transport note = %d bytes (size %d) ending %q, want %d bytes ending %q",
			len(fs[2].Body), fs[2].BodySize, fs[2].Body[max(0, len(fs[2].Body)-80):], len(want), want[len(want)-80:])
	}
	if s, err := d.GetSession(ctx, sid); err != nil || s.CloseReason != redacted {
		t.Errorf("close reason = %q, %v; want %q", s.CloseReason, err, redacted)
	}
	if !strings.Contains(redacted, "REDACTED") {
		t.Fatalf("the test's reason has nothing to redact: %q", redacted)
	}
}

// TestEnvironmentSecretsEncryptedAtRest: a secret environment value is in
// none of the database's files, is not listed, survives an edit that
// leaves it empty, and is handed out decrypted to run with.
func TestEnvironmentSecretsEncryptedAtRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	ctx := testContext(t)
	col, err := d.CreateCollection(ctx, collections.Collection{Name: "c", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	const secret = "env-s3cret-v4lue"
	env, err := d.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "prod",
		Values: []collections.EnvValue{{Name: "token", Value: secret, Secret: true}, {Name: "host", Value: "example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	if found := findInFiles(t, path, []string{secret}); len(found) > 0 {
		t.Errorf("an environment secret stored in plaintext: %v", found)
	}
	if len(env.Values) != 2 || env.Values[0].Name != "host" || env.Values[0].Value != "example.org" || env.Values[1].Value != "" {
		t.Errorf("listed values = %+v; the secret must be left empty", env.Values)
	}
	env.Name, env.Values[0].Value = "production", "example.com" // the secret stays empty: it is kept
	if _, err := d.SaveEnvironment(ctx, env); err != nil {
		t.Fatal(err)
	}
	values, err := d.EnvironmentValues(ctx, col.ID, env.ID)
	if err != nil || values["token"] != secret || values["host"] != "example.com" {
		t.Errorf("values to run with = %v, %v", values, err)
	}
	if _, err := d.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "production"}); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("a second environment named production = %v, want a conflict", err)
	}
	if err := d.DeleteCollection(ctx, col.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.EnvironmentValues(ctx, col.ID, env.ID); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("values of a deleted collection's environment = %v, want not found", err)
	}
}
