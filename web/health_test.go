package web_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/web"
)

// failingRecorder is a recorder that cannot store frames.
type failingRecorder struct{}

func (failingRecorder) Failure() error { return errors.New("database or disk is full") }

// failingDB is a database that does not answer.
type failingDB struct{}

func (failingDB) Ping(context.Context) error { return errors.New("disk I/O error") }

func TestHealthz(t *testing.T) {
	tests := []struct {
		name      string
		configure func(*web.Config, *web.Deps)
		method    string
		host      string
		status    int
		body      string
	}{
		{name: "healthy", method: http.MethodGet, status: http.StatusOK, body: "ok"},
		{name: "any host: probes use the pod's address", method: http.MethodGet, host: "10.1.2.3:8080", status: http.StatusOK, body: "ok"},
		{name: "rebinding name", method: http.MethodGet, host: "evil.example", status: http.StatusOK, body: "ok"},
		{name: "POST from a foreign host is refused", method: http.MethodPost, host: "evil.example", status: http.StatusMisdirectedRequest},
		{name: "recorder failing", configure: func(_ *web.Config, d *web.Deps) { d.Recording = failingRecorder{} },
			method: http.MethodGet, host: "10.1.2.3:8080", status: http.StatusServiceUnavailable, body: "recording failing"},
		{name: "database not answering", configure: func(_ *web.Config, d *web.Deps) { d.Health = failingDB{} },
			method: http.MethodGet, status: http.StatusServiceUnavailable, body: "database unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustDashboardWith(t, dashboardOptions{configure: tt.configure})
			req := d.newRequest(t, tt.method, "/healthz", nil)
			if tt.host != "" {
				req.Host = tt.host
			}
			req.Header.Set("Origin", "http://evil.example")
			r := d.do(t, req)
			if r.Status != tt.status || (tt.body != "" && strings.TrimSpace(r.Body) != tt.body) {
				t.Errorf("%s /healthz with Host %q = %d %q, want %d %q", tt.method, req.Host, r.Status, r.Body, tt.status, tt.body)
			}
			if strings.Contains(r.Body, "disk") {
				t.Errorf("the answer tells the cause: %q", r.Body)
			}
		})
	}
}
