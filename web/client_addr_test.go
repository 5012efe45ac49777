package web

import (
	"crypto/tls"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestClientAddr shows that forwarded headers count only when the
// connection's peer is a trusted proxy, and then only as far as the chain
// of trusted proxies goes.
func TestClientAddr(t *testing.T) {
	s := &Server{cfg: Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}}}
	tests := []struct {
		name       string
		peer       string
		forwarded  []string // X-Forwarded-For headers
		proto      []string // X-Forwarded-Proto headers
		tls        bool
		wantClient string
		wantHTTPS  bool
	}{
		{name: "direct", peer: "203.0.113.5:5000", wantClient: "203.0.113.5"},
		{name: "direct over TLS", peer: "203.0.113.5:5000", tls: true, wantClient: "203.0.113.5", wantHTTPS: true},
		{name: "untrusted peer's headers ignored", peer: "203.0.113.5:5000", forwarded: []string{"198.51.100.1"}, proto: []string{"https"},
			wantClient: "203.0.113.5"},
		{name: "trusted proxy", peer: "10.0.0.2:40000", forwarded: []string{"198.51.100.1"}, proto: []string{"https"},
			wantClient: "198.51.100.1", wantHTTPS: true},
		{name: "trusted proxy over plain HTTP", peer: "10.0.0.2:40000", forwarded: []string{"198.51.100.1"}, proto: []string{"http"},
			wantClient: "198.51.100.1"},
		{name: "trusted proxy without headers", peer: "10.0.0.2:40000", wantClient: "10.0.0.2"},
		{name: "spoofed chain: the client's own entries are passed over", peer: "10.0.0.2:40000",
			forwarded: []string{"1.1.1.1, 10.9.9.9", "198.51.100.1, 10.0.0.3"}, wantClient: "198.51.100.1"},
		{name: "spoofed proto: the trusted proxy's value counts", peer: "10.0.0.2:40000", forwarded: []string{"198.51.100.1"},
			proto: []string{"https, http"}, wantClient: "198.51.100.1"},
		{name: "all hops trusted", peer: "10.0.0.2:40000", forwarded: []string{"10.0.0.7, 10.0.0.3"}, wantClient: "10.0.0.7"},
		{name: "garbage from a trusted proxy stops at the last trusted hop", peer: "10.0.0.2:40000",
			forwarded: []string{"198.51.100.1, unknown, 10.0.0.3"}, wantClient: "10.0.0.3"},
		{name: "IPv6 proxy", peer: "[fd00::2]:443", forwarded: []string{"2001:db8::1"}, proto: []string{"HTTPS"},
			wantClient: "2001:db8::1", wantHTTPS: true},
		{name: "IPv4 peer mapped in IPv6", peer: "[::ffff:10.0.0.2]:40000", forwarded: []string{"198.51.100.1"}, wantClient: "198.51.100.1"},
		{name: "untrusted IPv6 peer", peer: "[2001:db8::9]:443", forwarded: []string{"198.51.100.1"}, proto: []string{"https"},
			wantClient: "2001:db8::9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			r.TLS = nil
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			for _, v := range tt.forwarded {
				r.Header.Add("X-Forwarded-For", v)
			}
			for _, v := range tt.proto {
				r.Header.Add("X-Forwarded-Proto", v)
			}
			if got := s.clientIP(r); got != tt.wantClient {
				t.Errorf("clientIP = %s, want %s", got, tt.wantClient)
			}
			if got := s.isHTTPS(r); got != tt.wantHTTPS {
				t.Errorf("isHTTPS = %v, want %v", got, tt.wantHTTPS)
			}
		})
	}

	t.Run("no trusted proxies", func(t *testing.T) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.0.0.2:40000"
		r.Header.Set("X-Forwarded-For", "198.51.100.1")
		r.Header.Set("X-Forwarded-Proto", "https")
		plain := &Server{}
		if got := plain.clientIP(r); got != "10.0.0.2" {
			t.Errorf("clientIP = %s, want the peer", got)
		}
		if plain.isHTTPS(r) {
			t.Error("isHTTPS believed X-Forwarded-Proto without trusted proxies")
		}
	})
}

func TestPublicURL(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"listener", Config{Addr: "127.0.0.1:8080"}, "http://127.0.0.1:8080/setup/x"},
		{"listener over TLS", Config{Addr: "127.0.0.1:8443", TLS: true}, "https://127.0.0.1:8443/setup/x"},
		{"base URL", Config{Addr: "0.0.0.0:8080", BaseURL: "https://playground.example.com"}, "https://playground.example.com/setup/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (&Server{cfg: tt.cfg}).PublicURL("/setup/x"); got != tt.want {
				t.Errorf("PublicURL = %s, want %s", got, tt.want)
			}
		})
	}
}
