package backend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Recorder persists every frame of every session in small batches and, once
// a batch is committed, publishes it on the hub: viewers are only ever shown
// what is already stored. Requests are linked to their responses with the
// latency between them.
//
// Record blocks when the queue is full, so a recorder that cannot write
// slows the sessions down instead of losing frames.
type Recorder struct {
	store FrameStore
	hub   *Hub
	log   *slog.Logger

	queue chan recordItem
	stop  chan struct{}
	done  chan struct{}

	closeOnce sync.Once
	mu        sync.Mutex
	closed    bool
	failure   error          // the last write failure, nil once a write succeeds again
	senders   sync.WaitGroup // enqueue calls in progress; run drains after they finish

	// nextID is the next frame id to hand out: the run goroutine takes
	// them one at a time, ReserveFrameIDs in blocks.
	nextID atomic.Int64

	// Owned by the run goroutine.
	pending map[pendingKey]pendingRequest
	linger  *time.Timer // stopped between batches
}

// recordItem is a frame to store, or a control marker.
type recordItem struct {
	sessionID int64
	frame     mcpclient.Frame
	flushed   chan struct{} // marker: closed once every earlier item is committed
	forget    bool          // marker: drop the session's unanswered requests
}

type pendingKey struct {
	sessionID int64
	dir       mcpclient.Direction // direction of the request
	id        string
}

type pendingRequest struct {
	frameID int64
	time    time.Time
	method  string
}

const (
	recorderQueue    = 8192
	recorderMaxBatch = 1024
	maxPendingPerRun = 100000
	// recorderLinger is how long a batch waits for more frames after its
	// first: a trickle of frames (a request now, its response a moment
	// later) then costs one transaction, not one each, which keeps the
	// recorder's share of the CPU small; viewers see frames that much later.
	recorderLinger = 2 * time.Millisecond
)

// NewRecorder starts a recorder writing to store and publishing to hub. Close stops it.
func NewRecorder(ctx context.Context, store FrameStore, hub *Hub, log *slog.Logger) (*Recorder, error) {
	maxID, err := store.MaxFrameID(ctx)
	if err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	r := &Recorder{
		store: store, hub: hub, log: log,
		queue:   make(chan recordItem, recorderQueue),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		pending: map[pendingKey]pendingRequest{},
		linger:  time.NewTimer(time.Hour),
	}
	r.linger.Stop()
	r.nextID.Store(maxID + 1)
	go r.run()
	return r, nil
}

// ReserveFrameIDs hands out n frame ids that no recorded frame will take,
// first to first+n-1, for frames stored by other means (an import). It is
// safe for concurrent use.
func (r *Recorder) ReserveFrameIDs(n int64) (first int64) { return r.nextID.Add(n) - n }

// ErrRecorderClosed is returned for frames offered after Close.
var ErrRecorderClosed = errors.New("recorder: closed")

// Record queues f for the session. It blocks while the queue is full and
// returns ErrRecorderClosed after Close.
func (r *Recorder) Record(sessionID int64, f mcpclient.Frame) error {
	return r.enqueue(recordItem{sessionID: sessionID, frame: f})
}

// Tap returns an mcpclient.Tap that records the session's frames.
func (r *Recorder) Tap(sessionID int64) mcpclient.Tap {
	return func(f mcpclient.Frame) {
		if err := r.Record(sessionID, f); err != nil {
			r.log.Error("frame not recorded", "session", sessionID, "err", err)
		}
	}
}

// Flush waits until every frame recorded before the call is committed, or
// ctx ends.
func (r *Recorder) Flush(ctx context.Context) error {
	c := make(chan struct{})
	if err := r.enqueue(recordItem{flushed: c}); err != nil {
		return err
	}
	select {
	case <-c:
		return r.Failure()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Forget drops the unanswered requests of an ended session, after the
// session's queued frames are processed.
func (r *Recorder) Forget(sessionID int64) {
	_ = r.enqueue(recordItem{sessionID: sessionID, forget: true})
}

// Failure returns the last write failure, or nil when the last write succeeded.
func (r *Recorder) Failure() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failure
}

// Close commits every queued frame and stops the recorder. It is idempotent.
func (r *Recorder) Close() error {
	r.closeOnce.Do(func() {
		r.mu.Lock()
		r.closed = true
		r.mu.Unlock()
		close(r.stop)
	})
	<-r.done
	return r.Failure()
}

// enqueue queues it, or reports ErrRecorderClosed; an item it accepted is
// always processed, because run drains the queue only after every enqueue
// in progress has finished.
func (r *Recorder) enqueue(it recordItem) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrRecorderClosed
	}
	r.senders.Add(1)
	r.mu.Unlock()
	defer r.senders.Done()
	select {
	case r.queue <- it:
		return nil
	case <-r.stop:
		return ErrRecorderClosed
	}
}

func (r *Recorder) run() {
	defer close(r.done)
	for {
		select {
		case it := <-r.queue:
			r.handleBatch(it)
		case <-r.stop:
			// Drain what was queued before Close, once no enqueue can add more.
			r.senders.Wait()
			for {
				select {
				case it := <-r.queue:
					r.handleBatch(it)
				default:
					return
				}
			}
		}
	}
}

// handleBatch takes first and what else is queued or arrives within
// recorderLinger (up to the batch size), commits the frames among them in
// one transaction, publishes them, then serves the markers.
func (r *Recorder) handleBatch(first recordItem) {
	items := r.gather(first)
	var frames []Frame
	var exchanges []Exchange
	for _, it := range items {
		switch {
		case it.flushed != nil:
		case it.forget:
			for k := range r.pending {
				if k.sessionID == it.sessionID {
					delete(r.pending, k)
				}
			}
		default:
			f, ex := r.classify(it.sessionID, it.frame)
			frames = append(frames, f)
			if ex != nil {
				exchanges = append(exchanges, *ex)
			}
		}
	}
	if len(frames) > 0 {
		r.commit(frames, exchanges)
	}
	for _, it := range items {
		if it.flushed != nil {
			close(it.flushed)
		}
	}
}

// gather returns first and the items queued after it: whatever is queued
// at once and, unless a Flush is waiting or the recorder is stopping,
// whatever arrives within recorderLinger, up to recorderMaxBatch items.
func (r *Recorder) gather(first recordItem) []recordItem {
	items := []recordItem{first}
	urgent := first.flushed != nil
	lingering := false
	defer func() {
		if lingering {
			r.linger.Stop()
		}
	}()
	for len(items) < recorderMaxBatch {
		var it recordItem
		select {
		case it = <-r.queue:
		default:
			if urgent {
				return items
			}
			if !lingering {
				r.linger.Reset(recorderLinger)
				lingering = true
			}
			select {
			case it = <-r.queue:
			case <-r.linger.C:
				lingering = false
				return items
			case <-r.stop:
				return items
			}
		}
		items = append(items, it)
		urgent = urgent || it.flushed != nil
	}
	return items
}

// commit writes the batch, retrying while the database refuses it and the
// recorder is not stopping. Frames are published only once stored.
func (r *Recorder) commit(frames []Frame, exchanges []Exchange) {
	backoff := 50 * time.Millisecond
	for {
		err := r.store.InsertFrames(context.Background(), frames, exchanges)
		r.mu.Lock()
		r.failure = err
		r.mu.Unlock()
		if err == nil {
			break
		}
		r.log.Error("recording failed", "frames", len(frames), "err", err)
		select {
		case <-r.stop:
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
	start := 0
	for i := 1; i <= len(frames); i++ {
		if i == len(frames) || frames[i].SessionID != frames[start].SessionID {
			r.hub.Publish(Event{SessionID: frames[start].SessionID, Frames: frames[start:i:i]})
			start = i
		}
	}
}

// rpcEnvelope is the part of a JSON-RPC message the recorder reads.
type rpcEnvelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// classify gives the frame its id and JSON-RPC shape and, for a response,
// the exchange linking it to its request.
func (r *Recorder) classify(sessionID int64, in mcpclient.Frame) (Frame, *Exchange) {
	f := Frame{
		ID: r.nextID.Add(1) - 1, SessionID: sessionID, Time: in.Time, Direction: in.Direction,
		Kind: in.Kind, Body: in.Body, HTTP: in.HTTP,
	}
	if in.Kind != mcpclient.KindMessage {
		return f, nil
	}
	var env rpcEnvelope
	if json.Unmarshal(in.Body, &env) != nil {
		return f, nil
	}
	hasID := len(env.ID) > 0 && string(env.ID) != "null"
	if hasID && !isRPCID(env.ID) {
		return f, nil // an object or array id names no request: not a well-formed message
	}
	if hasID {
		f.RPCID = string(env.ID)
	}
	switch {
	case env.Method != nil && hasID:
		f.RPCType, f.Method = RPCRequest, *env.Method
		if len(r.pending) < maxPendingPerRun {
			r.pending[pendingKey{sessionID, in.Direction, f.RPCID}] = pendingRequest{frameID: f.ID, time: in.Time, method: f.Method}
		}
	case env.Method != nil:
		f.RPCType, f.Method = RPCNotification, *env.Method
	case hasID && (env.Result != nil || env.Error != nil):
		f.RPCType = RPCResult
		if env.Error != nil {
			f.RPCType = RPCError
		}
		key := pendingKey{sessionID, opposite(in.Direction), f.RPCID}
		if req, ok := r.pending[key]; ok {
			delete(r.pending, key)
			f.Method, f.PairID, f.LatencyNS = req.method, req.frameID, in.Time.Sub(req.time).Nanoseconds()
			return f, &Exchange{RequestFrameID: req.frameID, ResponseFrameID: f.ID, SessionID: sessionID, Method: req.method, LatencyNS: f.LatencyNS}
		}
	case env.Error != nil:
		f.RPCType = RPCError // an error without an id, e.g. a parse error reply
	}
	return f, nil
}

func opposite(d mcpclient.Direction) mcpclient.Direction {
	if d == mcpclient.Outbound {
		return mcpclient.Inbound
	}
	return mcpclient.Outbound
}
