package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// bigUploadSize is the file of the uploads below: as large as a session
// import may be, and more than a form is ever kept in memory.
const bigUploadSize = 60 << 20

// countedBody is a request body of a multipart form whose file part is
// size bytes that are made as they are read, so that the test holds none
// of them; read counts what the server read of it.
type countedBody struct {
	io.Reader
	read atomic.Int64
}

func (b *countedBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	b.read.Add(int64(n))
	return n, err
}

// fillerReader gives n bytes of 'x'.
type fillerReader struct{ n int64 }

func (f *fillerReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), f.n)]
	for i := range p {
		p[i] = 'x'
	}
	f.n -= int64(len(p))
	return len(p), nil
}

const uploadBoundary = "boundary-of-a-big-upload"

// newBigUpload is a multipart body with the _csrf field token (none when
// token is "") and then a file of size bytes.
func newBigUpload(token string, size int64) *countedBody {
	var head strings.Builder
	if token != "" {
		fmt.Fprintf(&head, "--%s\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n%s\r\n", uploadBoundary, token)
	}
	fmt.Fprintf(&head, "--%s\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.ndjson\"\r\nContent-Type: application/x-ndjson\r\n\r\n", uploadBoundary)
	tail := "\r\n--" + uploadBoundary + "--\r\n"
	return &countedBody{Reader: io.MultiReader(strings.NewReader(head.String()), &fillerReader{n: size}, strings.NewReader(tail))}
}

// serveUpload sends body to method path of the dashboard in-process, with
// client's cookies (nil for none) and the API token token (if not ""), its
// length unknown (as when a client streams it), and returns the status.
func serveUpload(t *testing.T, d *dashboard, client *http.Client, token, method, path string, body io.Reader) int {
	t.Helper()
	req := httptest.NewRequest(method, d.URL+path, body)
	req.ContentLength = -1
	req.Header.Set("Content-Type", "multipart/form-data; boundary="+uploadBoundary)
	if client != nil {
		u, _ := url.Parse(d.URL)
		for _, ck := range client.Jar.Cookies(u) {
			req.AddCookie(ck)
		}
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	d.web.ServeHTTP(rec, req)
	return rec.Code
}

// TestRefusedRequestsAreNeverRead enumerates the router and sends every
// route a 60 MB upload that it must refuse: from nobody signed in, from a
// person (or an API token) whose role is too low, and, for the
// state-changing browser routes, from an admin whose form carries a wrong
// CSRF token or none before its file. Nothing of the body may be read
// before the request is known to be allowed, and of a refused form no more
// than the fields before its file. The routes that answer anyone read at
// most their small limit. Then eight refused uploads to the session import
// must leave the heap as it was.
func TestRefusedRequestsAreNeverRead(t *testing.T) {
	d := MustDashboard(t)
	viewer := d.mustAccount(t, "vera", backend.RoleViewer)
	editor := d.mustAccount(t, "eddie", backend.RoleEditor)
	signedIn := map[backend.Role]*http.Client{}
	for role, name := range map[backend.Role]string{backend.RoleViewer: "vera", backend.RoleEditor: "eddie"} {
		signedIn[role] = newClient()
		d.mustSignIn(t, signedIn[role], name)
	}
	tokens := map[backend.Role]string{backend.RoleViewer: viewer.token, backend.RoleEditor: editor.token}
	below := map[backend.Role]backend.Role{backend.RoleEditor: backend.RoleViewer, backend.RoleAdmin: backend.RoleEditor}
	csrfOf(t, d, d.client) // the admin's browser has its CSRF cookie
	const forged = "AAAAAAAAAAAAAAAAAAAAAAAAAA"
	// A refused form is read up to its file, at most csrfScanLimit.
	const scanned = 64<<10 + 4<<10

	var tried int
	for _, r := range d.web.Routes() {
		key := r.Method + " " + r.Path
		need, _ := d.web.RouteRole(r.Method, r.Path)
		path := routePath(r.Path, map[string]string{}, "x")
		api := strings.HasPrefix(r.Path, "/api/")
		if slices.Contains(publicRoutes, key) {
			if isSafeMethod(r.Method) {
				continue
			}
			t.Run(key+"/anonymous", func(t *testing.T) {
				body := newBigUpload("", bigUploadSize)
				status := serveUpload(t, d, newClient(), "", r.Method, path, body)
				if status < 400 || body.read.Load() > 64<<10+32<<10 {
					t.Errorf("an anonymous upload to %s = %d, having read %d bytes; want it refused past its 64 KiB limit", key, status, body.read.Load())
				}
			})
			continue
		}
		tried++
		t.Run(key+"/anonymous", func(t *testing.T) {
			body := newBigUpload(forged, bigUploadSize)
			status := serveUpload(t, d, nil, "", r.Method, path, body)
			if status < 300 || body.read.Load() != 0 {
				t.Errorf("an anonymous upload to %s = %d, having read %d bytes; want it refused unread", key, status, body.read.Load())
			}
		})
		if low, ok := below[need]; ok {
			t.Run(key+"/role "+string(low), func(t *testing.T) {
				body := newBigUpload(csrfOf(t, d, signedIn[low]), bigUploadSize)
				var status int
				if api {
					status = serveUpload(t, d, nil, tokens[low], r.Method, path, body)
				} else {
					status = serveUpload(t, d, signedIn[low], "", r.Method, path, body)
				}
				if status != http.StatusForbidden || body.read.Load() != 0 {
					t.Errorf("an upload to %s as %s = %d, having read %d bytes; want 403 unread", key, low, status, body.read.Load())
				}
			})
		}
		if api || isSafeMethod(r.Method) {
			continue
		}
		for name, token := range map[string]string{"wrong CSRF token": forged, "no CSRF token": ""} {
			t.Run(key+"/"+name, func(t *testing.T) {
				body := newBigUpload(token, bigUploadSize)
				status := serveUpload(t, d, d.client, "", r.Method, path, body)
				if status != http.StatusForbidden || body.read.Load() > scanned {
					t.Errorf("an upload to %s with a %s = %d, having read %d bytes; want 403 with at most %d read", key, name, status, body.read.Load(), scanned)
				}
			})
		}
	}
	if tried < 60 {
		t.Errorf("only %d routes were tried; does the router list its routes?", tried)
	}

	t.Run("the heap after eight refused imports", func(t *testing.T) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range 8 {
			client, token := []*http.Client{nil, signedIn[backend.RoleViewer], d.client, d.client}[i%4], []string{"", "", forged, ""}[i%4]
			serveUpload(t, d, client, "", http.MethodPost, "/sessions/import", newBigUpload(token, bigUploadSize))
		}
		runtime.ReadMemStats(&after)
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("eight refused 60 MB imports allocated %d KiB; the heap in use went from %d to %d KiB", allocated>>10, before.HeapInuse>>10, after.HeapInuse>>10)
		if allocated > 32<<20 {
			t.Errorf("eight refused 60 MB imports allocated %d MiB", allocated>>20)
		}
	})
}

// TestAllowedUploadStreamsToATemporaryFile imports a session from a file
// larger than a form is kept in memory, and finds the session imported and
// no temporary file left behind.
func TestAllowedUploadStreamsToATemporaryFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	d := MustDashboard(t)
	sid := d.mustSession(t, "streamed")
	d.recordExchange(t, sid, time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	file, _ := d.mustExport(t, fmt.Sprintf("/sessions/%d/export", sid))
	// More than a form was ever kept in memory (32 MiB): lines of spaces,
	// which an import skips.
	big := append(file, strings.Repeat(strings.Repeat(" ", 1<<20-1)+"\n", 40)...)
	imported := d.mustImport(t, "streamed.ndjson", big)
	frames := d.allFrames(t, imported)
	if len(frames) != 2 {
		t.Errorf("the imported session has %d frames, want 2", len(frames))
	}
	sess, err := d.db.GetSession(context.Background(), imported)
	if err != nil || sess.ImportedFrom != "streamed.ndjson" {
		t.Errorf("the imported session: %+v, %v", sess, err)
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "multipart-") {
			t.Errorf("the upload left %s in the temporary folder", e.Name())
		}
	}
}
