package backend

import (
	"context"

	"github.com/mcp-playground/playground/mcpclient"
)

// RequestWatch tells a caller the frame ids the recorder gives one request
// it is about to send and the response that answers it, as soon as the
// recorder has classified them, without a flush or a query: the ids are
// the recorder's, assigned in memory.
type RequestWatch struct {
	r        *Recorder
	key      pendingKey
	answered chan struct{}
	// Written by the recorder's goroutine before answered is closed.
	request, response int64
	done              bool
}

// WatchRequest watches the next outbound request of the session whose
// JSON-RPC id is rpcID (its JSON text). Call it before the request is
// sent; the last watch of a key wins. Close releases it.
func (r *Recorder) WatchRequest(sessionID int64, rpcID string) *RequestWatch {
	w := &RequestWatch{r: r, key: pendingKey{sessionID, mcpclient.Outbound, rpcID}, answered: make(chan struct{})}
	r.watchMu.Lock()
	if _, ok := r.watches[w.key]; !ok {
		r.watching.Add(1)
	}
	r.watches[w.key] = w
	r.watchMu.Unlock()
	return w
}

// takeWatch removes and returns the watch of the request key, or nil.
func (r *Recorder) takeWatch(key pendingKey) *RequestWatch {
	if key.dir != mcpclient.Outbound || r.watching.Load() == 0 {
		return nil
	}
	r.watchMu.Lock()
	defer r.watchMu.Unlock()
	w, ok := r.watches[key]
	if ok {
		delete(r.watches, key)
		r.watching.Add(-1)
	}
	return w
}

// Close stops watching a request that was never recorded. It is safe to
// call more than once, and after Wait.
func (w *RequestWatch) Close() {
	w.r.watchMu.Lock()
	if w.r.watches[w.key] == w {
		delete(w.r.watches, w.key)
		w.r.watching.Add(-1)
	}
	w.r.watchMu.Unlock()
}

// sent notes the request's frame id, and that the recorder must not
// linger until answer; a nil watch does nothing.
func (w *RequestWatch) sent(frameID int64) {
	if w != nil {
		w.request = frameID
		w.r.awaiting.Add(1)
	}
}

// answer tells the watcher the request's frame and its response's (0 when
// none will be paired). Only the first answer counts; a nil watch does
// nothing.
func (w *RequestWatch) answer(request, response int64) {
	if w == nil || w.done {
		return
	}
	w.request, w.response, w.done = request, response, true
	w.r.awaiting.Add(-1)
	close(w.answered)
}

// Answered returns the frame ids of the request and of its response as
// soon as the recorder has classified the response, which may be before
// either is stored. response is 0 when the session ended unanswered. It
// fails when ctx ends or the recorder closes first.
func (w *RequestWatch) Answered(ctx context.Context) (request, response int64, err error) {
	select {
	case <-w.answered:
		return w.request, w.response, nil
	case <-ctx.Done():
		return 0, 0, ctx.Err()
	case <-w.r.done:
		return 0, 0, ErrRecorderClosed
	}
}

// Committed is Answered, returning once the response is also stored, so
// that the caller may store rows that refer to it. It waits for that
// frame's commit alone, not for everything recorded before it; nothing
// lingers while a watched request waits for its answer.
func (w *RequestWatch) Committed(ctx context.Context) (request, response int64, err error) {
	request, response, err = w.Answered(ctx)
	if err != nil || response == 0 {
		return request, response, err
	}
	if err := w.r.waitCommitted(ctx, response); err != nil {
		return 0, 0, err
	}
	return request, response, nil
}
