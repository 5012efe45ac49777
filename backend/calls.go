package backend

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// ErrCallCancelled is returned by CallWith when CancelCall ended the call.
var ErrCallCancelled = Errorf(EConflict, "The call was cancelled.")

// CallOptions tune one request made with CallWith.
type CallOptions struct {
	// ID names the call among the session's running calls, for CancelCall
	// and for the Progress events of the call. "" leaves the call
	// unregistered: it can then be neither cancelled nor followed.
	ID string
	// Progress asks the server for progress reports (a _meta.progressToken
	// unique to the call); each report is published on the hub as an Event
	// with Progress set. It needs ID.
	Progress bool
	// ResponseFrame asks for the ids of the request's and response's
	// frames in CallResult.RequestFrameID and ResponseFrameID, which the
	// recorder hands over as it classifies them: once the response came,
	// the call waits until the recorder has committed that frame (and no
	// other), so that the caller may link to it or store rows naming it. A
	// tool call that ran as a task has no one response frame, and gets
	// none.
	ResponseFrame bool
}

// CallProgress is one progress report of a running call, as published on
// the hub.
type CallProgress struct {
	CallID   string
	Progress float64
	Total    float64 // 0 when the server gave none
	Message  string
}

// callRegistry holds the running calls of one session and remembers the
// ids of the last finished ones, so that cancelling a call that just
// finished is told apart from cancelling one that never was.
type callRegistry struct {
	mu       sync.Mutex
	running  map[string]context.CancelCauseFunc
	finished []string // ring of the last maxFinishedCalls ids, oldest first
}

// maxFinishedCalls bounds how many finished call ids a session remembers.
const maxFinishedCalls = 256

// progressInterval is the least time between two Progress events of one
// call; reports that come faster are dropped, except the last step.
const progressInterval = 50 * time.Millisecond

func (r *callRegistry) add(id string, cancel context.CancelCauseFunc) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.running[id]; ok {
		return Errorf(EConflict, "A call with id %q is already running.", id)
	}
	if r.running == nil {
		r.running = map[string]context.CancelCauseFunc{}
	}
	r.running[id] = cancel
	return nil
}

func (r *callRegistry) done(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.running, id)
	if len(r.finished) == maxFinishedCalls {
		r.finished = append(r.finished[:0], r.finished[1:]...)
	}
	r.finished = append(r.finished, id)
}

func (r *callRegistry) cancel(id string) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cancel, ok := r.running[id]; ok {
		cancel(ErrCallCancelled)
		return true, nil
	}
	for _, f := range r.finished {
		if f == id {
			return false, nil
		}
	}
	return false, Errorf(ENotFound, "No call %q was made on this session.", id)
}

// CallWith is Call with options: a call with an ID is registered while it
// runs, so that CancelCall can end it, and with Progress its progress
// reports are published on the hub. Registering an ID that is already
// running is an EConflict *Error and sends nothing. A call ended by
// CancelCall returns ErrCallCancelled (and the client has sent
// notifications/cancelled).
func (p *Pool) CallWith(ctx context.Context, sessionID int64, method string, params json.RawMessage, o CallOptions) (CallResult, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return CallResult{}, err
	}
	ctx, opts, done, err := p.register(ctx, ls, o)
	if err != nil {
		return CallResult{}, err
	}
	defer done()
	opts, noteFrame, release := p.responseFrameNoter(ls, o, opts)
	defer release()
	res, err := p.call(ctx, ls, method, params, opts...)
	if err != nil && cancelled(ctx, o) {
		return CallResult{Latency: res.Latency}, ErrCallCancelled
	}
	if err == nil {
		noteFrame(ctx, &res)
	}
	return res, err
}

// responseFrameNoter adds to opts, when o asks for the response frame,
// the option that watches each request the call sends (see
// Recorder.WatchRequest), and returns noteFrame, which sets the frame ids
// of res once the call has been answered, and release, which the caller
// must call when the call has ended. Both do nothing when o did not ask.
func (p *Pool) responseFrameNoter(ls *liveSession, o CallOptions, opts []mcpclient.CallOption) (_ []mcpclient.CallOption, noteFrame func(context.Context, *CallResult), release func()) {
	if !o.ResponseFrame {
		return opts, func(context.Context, *CallResult) {}, func() {}
	}
	var mu sync.Mutex
	var watch *RequestWatch // of the last request sent: its response is the call's
	watchSent := func(id int64) {
		w := p.rec.WatchRequest(ls.session.ID, strconv.FormatInt(id, 10))
		mu.Lock()
		old := watch
		watch = w
		mu.Unlock()
		if old != nil {
			old.Close()
		}
	}
	last := func() *RequestWatch {
		mu.Lock()
		defer mu.Unlock()
		return watch
	}
	noteFrame = func(ctx context.Context, res *CallResult) {
		if w := last(); w != nil {
			res.RequestFrameID, res.ResponseFrameID = p.frameIDs(context.WithoutCancel(ctx), ls.session.ID, w)
		}
	}
	release = func() {
		if w := last(); w != nil {
			w.Close()
		}
	}
	return append(opts, mcpclient.WithRequestID(watchSent)), noteFrame, release
}

// register registers a call with an ID among the session's running calls
// (see CallWith): it returns the call's context, which CancelCall ends, the
// client options for its progress, and done, which the caller must call
// when the call has ended. A call without an ID is not registered.
func (p *Pool) register(ctx context.Context, ls *liveSession, o CallOptions) (context.Context, []mcpclient.CallOption, func(), error) {
	if o.ID == "" {
		return ctx, nil, func() {}, nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	if err := ls.calls.add(o.ID, cancel); err != nil {
		cancel(nil)
		return nil, nil, nil, err
	}
	var opts []mcpclient.CallOption
	if o.Progress {
		opts = append(opts, mcpclient.WithProgress(p.progressPublisher(ls.session.ID, o.ID)))
	}
	return ctx, opts, func() { ls.calls.done(o.ID); cancel(nil) }, nil
}

// cancelled reports whether CancelCall ended the registered call whose
// context is ctx.
func cancelled(ctx context.Context, o CallOptions) bool {
	return o.ID != "" && errors.Is(context.Cause(ctx), ErrCallCancelled)
}

// responseFrameTimeout bounds the wait for a response frame's commit.
const responseFrameTimeout = 5 * time.Second

// frameIDs returns the ids of the watched request's frame and of its
// response's once that is committed, or zeros when that does not happen in
// time (recording fails): the caller then shows the result without links
// to the stored frames.
func (p *Pool) frameIDs(ctx context.Context, sessionID int64, w *RequestWatch) (request, response int64) {
	ctx, cancel := context.WithTimeout(ctx, responseFrameTimeout)
	defer cancel()
	request, response, err := w.Committed(ctx)
	if err != nil {
		p.log.Warn("response frame not stored", "session", sessionID, "err", err)
		return 0, 0
	}
	if response == 0 {
		return 0, 0
	}
	return request, response
}

// progressPublisher returns the progress callback of one call: it
// publishes the reports on the hub, at most one per progressInterval
// (and always the one that completes the total). It runs on the client's
// reader goroutine and never blocks.
func (p *Pool) progressPublisher(sessionID int64, callID string) func(mcpclient.Progress) {
	var last time.Time
	return func(pr mcpclient.Progress) {
		now := time.Now()
		if now.Sub(last) < progressInterval && (pr.Total == 0 || pr.Progress < pr.Total) {
			return
		}
		last = now
		p.hub.Publish(Event{SessionID: sessionID, Progress: &CallProgress{
			CallID: callID, Progress: pr.Progress, Total: pr.Total, Message: pr.Message,
		}})
	}
}

// CancelCall cancels the session's running call id: its request's context
// ends, the client sends notifications/cancelled, and the call returns
// ErrCallCancelled. It reports whether the call was running; cancelling a
// call that already finished does nothing and is no error. An id the
// session never ran is an ENotFound *Error; a session that is not live is
// an EConflict one.
func (p *Pool) CancelCall(sessionID int64, id string) (bool, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return false, err
	}
	return ls.calls.cancel(id)
}
