package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestCanceledRequestIsNotAnError: a request the browser gave up on (its
// context canceled while the dashboard reads the database) is not logged
// as a failure; nothing failed and nobody reads the answer.
func TestCanceledRequestIsNotAnError(t *testing.T) {
	var log syncBuffer
	d := mustDashboardWith(t, dashboardOptions{log: &log})
	u, _ := url.Parse(d.URL)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodGet, d.URL+"/favicon.ico", nil).WithContext(ctx)
	req.Host = d.Host
	for _, c := range d.client.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	d.web.ServeHTTP(httptest.NewRecorder(), req)
	if strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("a canceled request was logged as an error:\n%s", log.String())
	}
}
