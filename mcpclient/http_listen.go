package mcpclient

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// listenWait bounds how long the handshake waits for the standalone GET
// stream to be answered.
const listenWait = time.Second

// maxUnreachable is how many attempts in a row to reopen an event stream
// that was open may get no HTTP answer before the server is taken for gone.
const maxUnreachable = 2

// watchingStream reports whether the standalone event stream is held,
// whose end tells that the server went away.
func (t *httpTransport) watchingStream() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.listening
}

// startListening starts the standalone GET loop unless it runs already.
// The channel it returns (nil if it started nothing) is closed when the
// first GET has been answered or has failed.
func (t *httpTransport) startListening() <-chan struct{} {
	t.mu.Lock()
	if t.listening || t.closed {
		t.mu.Unlock()
		return nil
	}
	t.listening = true
	t.wg.Add(1)
	t.mu.Unlock()
	ready := make(chan struct{})
	go t.listen(ready)
	return ready
}

// listen holds the optional standalone GET event stream open, on which the
// server may send requests and notifications. Whenever the stream ends it
// is reopened with Last-Event-ID after the server's retry interval (longer
// after failures), until the server refuses it (405: no such stream; any
// other 4xx, such as a session it no longer knows), five attempts in a row
// fail, or the transport closes. When the stream ended and then
// maxUnreachable attempts in a row get no HTTP answer at all, the server
// is taken for gone and the connection ends.
func (t *httpTransport) listen(ready chan struct{}) {
	defer t.wg.Done()
	defer func() {
		t.mu.Lock()
		t.listening = false
		t.mu.Unlock()
	}()
	var once sync.Once
	opened := func() { once.Do(func() { close(ready) }) }
	defer opened()
	st := &streamState{retry: -1, opened: opened}
	failures, unreachable := 0, 0
	held := false // a GET was answered with an event stream
	for {
		before := st.events
		status, err := t.openStream(t.ctx, st, nil)
		if t.ctx.Err() != nil {
			return
		}
		held = held || status/100 == 2
		if status == 0 && err != nil && held {
			if unreachable++; unreachable >= maxUnreachable {
				cause := fmt.Errorf("the server is gone: its event stream ended and could not be reopened: %w", err)
				t.peer.note(&HTTPInfo{Method: http.MethodGet, URL: t.url}, "%v", cause)
				t.peer.connectionLost(cause)
				return
			}
		} else {
			unreachable = 0
		}
		switch {
		case status == http.StatusMethodNotAllowed:
			t.peer.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status}, "server offers no standalone event stream (HTTP 405)")
			return
		case status >= 400 && status < 500:
			t.peer.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status}, "standalone event stream refused: %v", err)
			return
		case status/100 == 2 && st.events > before:
			failures = 0
		default:
			failures++
		}
		if failures >= maxStreamFailures {
			t.peer.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status},
				"standalone event stream given up after %d failed attempts: %v", failures, err)
			return
		}
		wait := st.wait(failures)
		if unreachable > 0 {
			wait = min(wait, defaultRetry) // make sure soon that the server is gone
		}
		msg := "standalone event stream ended"
		if err != nil {
			msg += ": " + err.Error()
		}
		t.peer.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status, Retry: max(st.retry, 0)},
			"%s; reopening in %v%s", msg, wait, lastEventNote(st.lastID))
		if !sleepCtx(t.ctx, wait) {
			return
		}
	}
}
