package store

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

const (
	proxyPassword = "pr0xy-pa55word"
	secretProxy   = "http://proxyuser:" + proxyPassword + "@127.0.0.1:3128"
	testCAPEM     = "-----BEGIN CERTIFICATE-----\nnot parsed by the store\n-----END CERTIFICATE-----"
)

// TestServerTLSProxyRoundTrip: the TLS and proxy settings are stored and
// read back; the proxy URL is sealed in its column, is nowhere in the
// database's files in plaintext, and is re-sealed by key rotation.
func TestServerTLSProxyRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d, err := Open(testContext(t), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	want := backend.Server{Name: "tls", Transport: backend.TransportHTTP, URL: "https://127.0.0.1:1/mcp",
		CACertPEM: testCAPEM, InsecureSkipVerify: true, Proxy: secretProxy}
	id := MustCreateServer(t, d, want)
	other := MustCreateServer(t, d, backend.Server{Name: "plain", Transport: backend.TransportHTTP, URL: "https://127.0.0.1:2/mcp"})

	var raw []struct {
		Proxy    string `db:"proxy"`
		Insecure int    `db:"insecure_skip_verify"`
		CACert   string `db:"ca_cert"`
	}
	if err := d.db.SelectContext(ctx, &raw, `SELECT proxy, insecure_skip_verify, ca_cert FROM servers ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if len(raw) != 2 || !isSealed(raw[0].Proxy) || strings.Contains(raw[0].Proxy, proxyPassword) || raw[0].Insecure != 1 || raw[0].CACert != testCAPEM {
		t.Errorf("raw row of the server with a proxy = %+v; want the proxy sealed, the flag 1, the PEM as typed", raw[0])
	}
	if len(raw) == 2 && (raw[1].Proxy != "" || raw[1].Insecure != 0 || raw[1].CACert != "") {
		t.Errorf("raw row of the server without TLS settings = %+v; want all empty", raw[1])
	}
	if found := findInFiles(t, path, []string{proxyPassword}); len(found) > 0 {
		t.Errorf("proxy password stored in plaintext: %v", found)
	}
	checkTLSSettings(t, d, id, want)
	checkTLSSettings(t, d, other, backend.Server{})

	updated := want
	updated.ID, updated.InsecureSkipVerify, updated.Proxy = id, false, secretProxy+"/v2"
	if err := d.UpdateServer(ctx, updated); err != nil {
		t.Fatal(err)
	}
	checkTLSSettings(t, d, id, updated)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	rot, err := RotateKey(testContext(t), path, KeySource{}, nil)
	if err != nil || rot.Foreign != 0 {
		t.Fatalf("RotateKey = %+v, %v", rot, err)
	}
	if found := findInFiles(t, path, []string{proxyPassword}); len(found) > 0 {
		t.Errorf("proxy password in plaintext after rotation: %v", found)
	}
	checkTLSSettings(t, MustOpenPath(t, path), id, updated)
}

// checkTLSSettings fails unless server id reads back with want's CA
// certificates, skip flag and proxy.
func checkTLSSettings(t *testing.T, d *DB, id int64, want backend.Server) {
	t.Helper()
	got, err := d.GetServer(testContext(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if got.CACertPEM != want.CACertPEM || got.InsecureSkipVerify != want.InsecureSkipVerify || got.Proxy != want.Proxy {
		t.Errorf("server %d TLS settings = %q, %v, %q; want %q, %v, %q", id,
			got.CACertPEM, got.InsecureSkipVerify, got.Proxy, want.CACertPEM, want.InsecureSkipVerify, want.Proxy)
	}
}
