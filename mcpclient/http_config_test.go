package mcpclient

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestHTTPConfigTLS(t *testing.T) {
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newSDKServer() }, nil)
	srv := httptest.NewTLSServer(handler)
	t.Cleanup(srv.Close)
	caPEM := pemCertificate(srv.Certificate().Raw)

	tests := []struct {
		name    string
		cfg     HTTPConfig
		wantErr string
	}{
		{"system roots refuse a private CA", HTTPConfig{}, "certificate signed by unknown authority"},
		{"the server's CA bundle is trusted", HTTPConfig{CACertPEM: caPEM}, ""},
		{"verification skipped", HTTPConfig{InsecureSkipVerify: true}, ""},
		{"a bundle without certificates", HTTPConfig{CACertPEM: []byte("not pem")}, "hold no PEM certificate"},
		{"a proxy URL without a host", HTTPConfig{Proxy: "http://"}, "invalid proxy URL"},
		{"a caller's client with TLS settings", HTTPConfig{Client: srv.Client(), InsecureSkipVerify: true}, "cannot be combined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.URL = srv.URL
			c, err := ConnectHTTP(testContext(t), cfg, Options{})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				mustClose(t, c)
				return
			}
			if err == nil {
				c.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %q, want %q in it", err, tt.wantErr)
			}
		})
	}
}

func pemCertificate(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
