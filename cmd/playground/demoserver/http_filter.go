package demoserver

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
)

// checkPosts answers a JSON POST whose body checkFrame refuses with a 400
// and the JSON-RPC error, and one larger than limit bytes with a 413 and a
// JSON-RPC error, instead of the SDK's plain-text answers; it passes the
// other requests to next, with the body it read.
func checkPosts(next http.Handler, limit int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !isJSONContent(r.Header.Get("Content-Type")) {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(limit)))
		if err != nil {
			if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
				writeFrameError(w, http.StatusRequestEntityTooLarge, tooLarge(limit))
				return
			}
			http.Error(w, "reading the request body failed", http.StatusBadRequest)
			return
		}
		if refused := checkFrame(bytes.TrimSpace(body)); refused != nil {
			writeFrameError(w, http.StatusBadRequest, refused)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// isJSONContent reports whether a Content-Type is application/json, the
// only one the SDK reads.
func isJSONContent(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

func writeFrameError(w http.ResponseWriter, status int, e *frameError) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(e.response())
}
