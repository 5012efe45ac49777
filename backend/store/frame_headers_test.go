package store

import (
	"crypto/cipher"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// countingAEAD counts the decryptions of the AEAD it wraps.
type countingAEAD struct {
	cipher.AEAD
	opens atomic.Int64
}

func (c *countingAEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	c.opens.Add(1)
	return c.AEAD.Open(dst, nonce, ciphertext, additionalData)
}

// TestFrameReadsDecryptNothing: frames' HTTP info is stored redacted beside
// its sealed original, so that the frame list, a single frame, the
// history search and an exchange read it redacted without decrypting
// anything; only RevealFrameHTTP decrypts, and gives the values as
// recorded. No secret is in the database's files in plaintext.
func TestFrameReadsDecryptNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	ctx := testContext(t)
	srv := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp"})
	sid := MustCreateSession(t, d, srv, "remote")
	recorded := http.Header{"Authorization": {"Bearer hdr-s3cret-token"}, "X-Api-Key": {"hdr-s3cret-key"}, "Dpop": {"hdr-s3cret-proof"},
		"Content-Type": {"application/json"}, "Mcp-Session-Id": {"sess-1"}}
	frames := []backend.Frame{
		{ID: 1, SessionID: sid, Time: time.Now(), Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, RPCType: backend.RPCRequest,
			RPCID: "1", Method: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
			HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp?api_key=url-s3cret", Header: recorded}},
		{ID: 2, SessionID: sid, Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, RPCType: backend.RPCResult,
			RPCID: "1", Method: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`),
			HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 200, Header: http.Header{"Set-Cookie": {"sid=hdr-s3cret-cookie"}}}},
	}
	exchanges := []backend.Exchange{{RequestFrameID: 1, ResponseFrameID: 2, SessionID: sid, Method: "tools/list", LatencyNS: 1000}}
	if err := d.InsertFrames(ctx, frames, exchanges); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"hdr-s3cret-token", "hdr-s3cret-key", "hdr-s3cret-proof", "hdr-s3cret-cookie", "url-s3cret"}
	if found := findInFiles(t, path, secrets); len(found) > 0 {
		t.Errorf("plaintext secrets in the database files: %v", found)
	}

	counter := &countingAEAD{AEAD: d.aead}
	d.aead = counter
	var shown []*mcpclient.HTTPInfo
	list, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
	if err != nil || len(list) != 2 {
		t.Fatalf("ListFrames = %d frames, %v", len(list), err)
	}
	one, err := d.GetFrame(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	found, err := d.SearchHistory(ctx, backend.HistoryQuery{}, 0, 10)
	if err != nil || len(found) != 1 {
		t.Fatalf("SearchHistory = %d entries, %v", len(found), err)
	}
	ex, err := d.GetExchange(ctx, sid, 1)
	if err != nil {
		t.Fatal(err)
	}
	shown = append(shown, list[0].HTTP, list[1].HTTP, one.HTTP, found[0].Request.HTTP, found[0].Response.HTTP, ex.Request.HTTP, ex.Response.HTTP)
	if n := counter.opens.Load(); n != 0 {
		t.Errorf("reading frames decrypted %d times, want none", n)
	}
	for i, info := range shown {
		if info == nil {
			t.Fatalf("read %d has no HTTP info", i)
		}
		for _, s := range secrets {
			if strings.Contains(info.URL, s) || strings.Contains(strings.Join(headerValues(info.Header), " "), s) {
				t.Errorf("read %d shows the secret %q: %+v", i, s, info)
			}
		}
	}
	if h := list[0].HTTP.Header; h.Get("Authorization") != backend.RedactedValue || h.Get("Dpop") != backend.RedactedValue ||
		h.Get("Content-Type") != "application/json" || h.Get("Mcp-Session-Id") != "sess-1" {
		t.Errorf("request header shown = %v, want secrets redacted and the protocol's headers kept", h)
	}

	info, err := d.RevealFrameHTTP(ctx, 1)
	if err != nil || info == nil || info.URL != frames[0].HTTP.URL || info.Header.Get("Authorization") != "Bearer hdr-s3cret-token" || info.Header.Get("X-Api-Key") != "hdr-s3cret-key" {
		t.Errorf("RevealFrameHTTP = %+v, %v; want the header and URL as recorded", info, err)
	}
	if counter.opens.Load() == 0 {
		t.Error("RevealFrameHTTP decrypted nothing")
	}
	if _, err := d.RevealFrameHTTP(ctx, 99); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("RevealFrameHTTP of a missing frame: %v, want ENotFound", err)
	}
}

// TestOlderFrameHeadersShownRedacted: a frame stored before the redacted
// header was kept beside the sealed one reads back with its header
// redacted.
func TestOlderFrameHeadersShownRedacted(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	srv := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp"})
	sid := MustCreateSession(t, d, srv, "remote")
	sealed, err := d.seal([]byte(`{"Authorization":["Bearer old-s3cret"],"Accept":["application/json"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.db.ExecContext(ctx, `INSERT INTO frames (id, session_id, time, direction, kind, rpc_type, method, body, body_size, http)
		VALUES (1, ?, 0, 'out', 'message', 'request', 'ping', '{}', 2, ?)`, sid, `{"method":"POST","url":"http://127.0.0.1:1/mcp","sealedHeader":"`+sealed+`"}`); err != nil {
		t.Fatal(err)
	}
	f, err := d.GetFrame(ctx, 1)
	if err != nil || f.HTTP == nil || f.HTTP.Header.Get("Authorization") != backend.RedactedValue || f.HTTP.Header.Get("Accept") != "application/json" {
		t.Errorf("older frame read back = %+v, %v; want its header redacted", f.HTTP, err)
	}
}

func headerValues(h http.Header) []string {
	var out []string
	for _, vs := range h {
		out = append(out, vs...)
	}
	return out
}

// TestFrameHTTPSecretsTellsSealedFromNeverRecorded: the store notes, as it
// stores a frame, which places of its HTTP exchange are sealed (a secret
// header, the URL's credentials) and which hold only the marker the
// server's Redactor left of a configured secret, and tells them without
// decrypting anything; a frame without HTTP info has none, a missing
// frame is not found.
func TestFrameHTTPSecretsTellsSealedFromNeverRecorded(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	srv := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp"})
	sid := MustCreateSession(t, d, srv, "remote")
	frames := []backend.Frame{
		{ID: 1, SessionID: sid, Time: time.Now(), Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`),
			HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: "http://ann:pw-s3cret@127.0.0.1:1/mcp", Header: http.Header{
				"Authorization": {backend.RedactedValue}, "X-Team": {backend.RedactedValue}, "X-Echo": {"got " + backend.RedactedValue},
				"Cookie": {"sid=s3cret"}, "Accept": {"application/json"}}}},
		{ID: 2, SessionID: sid, Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`),
			HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 200, Header: http.Header{"Content-Type": {"application/json"}}}},
		{ID: 3, SessionID: sid, Time: time.Now(), Direction: mcpclient.Stderr, Kind: mcpclient.KindLog, Body: []byte(`line`)},
	}
	if err := d.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}
	counter := &countingAEAD{AEAD: d.aead}
	d.aead = counter
	want := []backend.HTTPSecrets{
		{Sealed: []backend.SecretPlace{{Where: "URL", Name: "url"}, {Where: "header", Name: "Cookie"}},
			NotRecorded: []backend.SecretPlace{{Where: "header", Name: "Authorization"}, {Where: "header", Name: "X-Echo"}, {Where: "header", Name: "X-Team"}}},
		{},
		{},
	}
	for i, w := range want {
		got, err := d.FrameHTTPSecrets(ctx, int64(i+1))
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Errorf("FrameHTTPSecrets(%d) = %+v, %v; want %+v", i+1, got, err, w)
		}
	}
	if n := counter.opens.Load(); n != 0 {
		t.Errorf("FrameHTTPSecrets decrypted %d times, want none", n)
	}
	if _, err := d.FrameHTTPSecrets(ctx, 99); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("FrameHTTPSecrets of a missing frame: %v, want ENotFound", err)
	}
}

// TestOlderFrameSecretsCountAsSealed: of a frame stored before its secret
// places were noted, its sealed URL and every header shown redacted count
// as sealed, since only a reveal tells them from values never recorded.
func TestOlderFrameSecretsCountAsSealed(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	srv := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp"})
	sid := MustCreateSession(t, d, srv, "remote")
	sealedURL, err := d.seal([]byte("http://ann:pw-s3cret@127.0.0.1:1/mcp"))
	if err != nil {
		t.Fatal(err)
	}
	col := `{"method":"POST","url":"http://REDACTED:REDACTED@127.0.0.1:1/mcp","header":{"Authorization":["[redacted]"],"Accept":["application/json"]},"sealedURL":"` + sealedURL + `"}`
	if _, err := d.db.ExecContext(ctx, `INSERT INTO frames (id, session_id, time, direction, kind, rpc_type, method, body, body_size, http)
		VALUES (1, ?, 0, 'out', 'message', 'request', 'ping', '{}', 2, ?)`, sid, col); err != nil {
		t.Fatal(err)
	}
	got, err := d.FrameHTTPSecrets(ctx, 1)
	want := backend.HTTPSecrets{Sealed: []backend.SecretPlace{{Where: "URL", Name: "url"}, {Where: "header", Name: "Authorization"}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("FrameHTTPSecrets = %+v, %v; want %+v", got, err, want)
	}
}

// TestOnlyAHeaderThatHidesSomethingIsSealed: a recorded header with a
// secret value is sealed beside its redacted copy and revealed whole; one
// that hides nothing (its redacted copy is the same) is not sealed, and
// its reveal is that copy.
func TestOnlyAHeaderThatHidesSomethingIsSealed(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	srv := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp"})
	sid := MustCreateSession(t, d, srv, "remote")
	secret := http.Header{"Cookie": {"sid=s3cret"}, "Accept": {"application/json"}}
	plain := http.Header{"Content-Type": {"application/json"}, "Mcp-Session-Id": {"4f1c"}}
	frames := []backend.Frame{
		{ID: 1, SessionID: sid, Time: time.Now(), Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`),
			HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp", Header: secret}},
		{ID: 2, SessionID: sid, Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`),
			HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 200, Header: plain}},
	}
	if err := d.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]struct {
		sealed bool
		header http.Header
	}{1: {true, secret}, 2: {false, plain}} {
		var col string
		if err := d.db.GetContext(ctx, &col, `SELECT http FROM frames WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
		if sealed := strings.Contains(col, `"sealedHeader"`); sealed != want.sealed {
			t.Errorf("frame %d: header sealed %v, want %v: %s", id, sealed, want.sealed, col)
		}
		info, err := d.RevealFrameHTTP(ctx, id)
		if err != nil || !reflect.DeepEqual(info.Header, want.header) {
			t.Errorf("frame %d revealed %+v, %v; want header %v", id, info, err, want.header)
		}
	}
}
