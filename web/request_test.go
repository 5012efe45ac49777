package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// chunked hides a body's length, so that it is sent without a
// Content-Length, in chunks.
type chunked struct{ io.Reader }

// TestRequestInputEdges sends the API and the forms numbers and bodies at
// the edges: overflowing, negative, with trailing bytes, over the body
// limit with and without a Content-Length.
func TestRequestInputEdges(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, sdkStdioServer("edges"))
	sess := d.MustAPISession(t, srv.ID)
	base := fmt.Sprintf("/api/v1/sessions/%d", sess.ID)
	token := d.MustCSRF(t)
	overLimit := strings.Repeat("x", 9<<20) // the body limit is 8 MiB

	echo := `{"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}`
	tests := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        io.Reader
		status      int
		want        string // in the body
	}{
		{"timeoutMs that overflows a Duration", http.MethodPost, base + "/requests", "application/json",
			strings.NewReader(echo + `,"timeoutMs":9223372036855}`), http.StatusOK, "echo: hi"},
		{"largest timeoutMs", http.MethodPost, base + "/requests", "application/json",
			strings.NewReader(echo + `,"timeoutMs":9223372036854775807}`), http.StatusOK, "echo: hi"},
		{"negative timeoutMs", http.MethodPost, base + "/requests", "application/json",
			strings.NewReader(echo + `,"timeoutMs":-1}`), http.StatusUnprocessableEntity, `"timeoutMs"`},
		{"trailing bytes after the body", http.MethodPost, base + "/requests", "application/json",
			strings.NewReader(echo + `} x`), http.StatusUnprocessableEntity, "nothing after it"},
		{"two JSON values", http.MethodPost, base + "/requests", "application/json",
			strings.NewReader(echo + `}{"method":"ping"}`), http.StatusUnprocessableEntity, "nothing after it"},
		{"trailing white space", http.MethodPost, base + "/requests", "application/json",
			strings.NewReader(echo + "}\r\n\t "), http.StatusOK, "echo: hi"},
		{"JSON body over the limit, chunked", http.MethodPost, base + "/requests", "application/json",
			chunked{strings.NewReader(`{"method":"` + overLimit + `"}`)}, http.StatusRequestEntityTooLarge, "larger than the 8 MiB limit"},
		{"JSON body over the limit, with its length", http.MethodPost, base + "/requests", "application/json",
			strings.NewReader(`{"method":"` + overLimit + `"}`), http.StatusRequestEntityTooLarge, "larger than the 8 MiB limit"},
		{"server body over the limit, chunked", http.MethodPost, "/api/v1/servers", "application/json",
			chunked{strings.NewReader(`{"name":"` + overLimit + `"}`)}, http.StatusRequestEntityTooLarge, "larger than the 8 MiB limit"},
		{"raw frame over the limit, chunked", http.MethodPost, base + "/raw", "application/json",
			chunked{strings.NewReader(overLimit)}, http.StatusRequestEntityTooLarge, "at most 4194304 bytes"},
		{"raw frame over its own limit", http.MethodPost, base + "/raw", "application/json",
			strings.NewReader(strings.Repeat("x", 4<<20+1)), http.StatusRequestEntityTooLarge, "at most 4194304 bytes"},
		{"form over the limit, chunked", http.MethodPost, "/servers", "application/x-www-form-urlencoded",
			chunked{strings.NewReader(url.Values{"_csrf": {token}, "name": {overLimit}}.Encode())}, http.StatusRequestEntityTooLarge, "larger than the 8 MiB limit"},
		{"frames after a non-number", http.MethodGet, base + "/frames?after=abc", "", nil, http.StatusUnprocessableEntity, `"after"`},
		{"frames after a negative id", http.MethodGet, base + "/frames?after=-1", "", nil, http.StatusUnprocessableEntity, `"after"`},
		{"frames after an overflowing id", http.MethodGet, base + "/frames?after=9223372036854775808", "", nil, http.StatusUnprocessableEntity, `"after"`},
		{"frames after the largest id", http.MethodGet, base + "/frames?after=9223372036854775807", "", nil, http.StatusOK, "[]"},
		{"frames limit a non-number", http.MethodGet, base + "/frames?limit=ten", "", nil, http.StatusUnprocessableEntity, `"limit"`},
		{"frames limit negative", http.MethodGet, base + "/frames?limit=-5", "", nil, http.StatusUnprocessableEntity, `"limit"`},
		{"frames limit overflowing", http.MethodGet, base + "/frames?limit=99999999999999999999", "", nil, http.StatusUnprocessableEntity, `"limit"`},
		{"frames limit 1", http.MethodGet, base + "/frames?limit=1", "", nil, http.StatusOK, `"id":1,`},
		{"answer to an input id that is not a number", http.MethodPost, base + "/inputs/abc", "application/json",
			strings.NewReader(`{"result":{}}`), http.StatusNotFound, "nothing at this address"},
		{"live stream after a non-number", http.MethodGet, fmt.Sprintf("/sessions/%d/live?after=abc", sess.ID), "", nil, http.StatusUnprocessableEntity, "after"},
		{"live stream after an overflowing id", http.MethodGet, fmt.Sprintf("/sessions/%d/live?after=9223372036854775808", sess.ID), "", nil, http.StatusUnprocessableEntity, "after"},
		{"tool card a non-number", http.MethodPost, fmt.Sprintf("/sessions/%d/tools/call?card=x", sess.ID), "application/x-www-form-urlencoded",
			strings.NewReader(url.Values{"_csrf": {token}, "_tool": {"echo"}, "arg.text": {"hi"}}.Encode()), http.StatusUnprocessableEntity, "card"},
		{"tool card negative", http.MethodPost, fmt.Sprintf("/sessions/%d/tools/call?card=-1", sess.ID), "application/x-www-form-urlencoded",
			strings.NewReader(url.Values{"_csrf": {token}, "_tool": {"echo"}, "arg.text": {"hi"}}.Encode()), http.StatusUnprocessableEntity, "card"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := d.newRequest(t, tt.method, tt.path, tt.body)
			if tt.contentType != "" {
				req.Header.Set("Content-Type", tt.contentType)
			}
			if _, ok := tt.body.(chunked); ok && req.ContentLength != 0 {
				t.Fatalf("the body has a length: %d", req.ContentLength)
			}
			r := d.do(t, req)
			if r.Status != tt.status || !strings.Contains(r.Body, tt.want) {
				t.Errorf("%s %s: %d %.300s\nwant %d and %q", tt.method, tt.path, r.Status, r.Body, tt.status, tt.want)
			}
		})
	}
}
