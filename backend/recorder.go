package backend

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

// Recorder persists every frame of every session in small batches and, once
// a batch is committed, publishes it on the hub: viewers are only ever shown
// what is already stored. Requests are linked to their responses with the
// latency between them.
//
// The recorder is the one place that decides what a frame is (see
// classify): its JSON-RPC shape, id, method, whether it is a tool's
// failure, which request it answers, whether its id clashed with a
// pending request, and what the protocol linter finds wrong with it. One goroutine classifies frames as they come, giving
// them their ids; another commits them in batches. A caller waiting for
// its own request's frames watches it (WatchRequest) rather than flushing.
//
// Record blocks when the queue is full, so a recorder that cannot write
// slows the sessions down instead of losing frames.
type Recorder struct {
	store FrameStore
	hub   Publisher
	log   *slog.Logger

	in         *intake
	classified chan []classifiedItem // batches, from classifyLoop to lintLoop, or to commitLoop when not linting
	toCommit   chan []classifiedItem // batches commitLoop commits: classified, or lintLoop's
	linting    bool
	stop       chan struct{}
	done       chan struct{}

	closeOnce sync.Once
	mu        sync.Mutex
	failure   error         // the last write failure, nil once a write succeeds again
	committed int64         // the id of the last frame committed; every earlier one is too
	commits   chan struct{} // closed (and replaced) on every commit

	watchMu  sync.Mutex
	watches  map[pendingKey]*RequestWatch // requests about to be sent, by their key
	watching atomic.Int32                 // len(watches), read without the lock
	// awaiting counts the watched requests classified and not yet
	// answered: while any is, frames are classified without lingering.
	awaiting atomic.Int32

	// nextID is the next frame id to hand out: classifyLoop takes them
	// one at a time, ReserveFrameIDs in blocks.
	nextID atomic.Int64

	pending pendingRequests // owned by classifyLoop
}

// RecorderOptions set up a Recorder; the zero value is the usual one.
type RecorderOptions struct {
	// NoLint records frames without judging them: Frame.Findings stay
	// nil.
	NoLint bool
}

// recordItem is a frame to store, or a control marker.
type recordItem struct {
	sessionID int64
	frame     mcpclient.Frame
	flushed   chan struct{} // marker: closed once every earlier item is committed
	forget    bool          // marker: drop the session's unanswered requests
}

const (
	// recorderQueue bounds the frames waiting to be classified; past it
	// Record waits.
	recorderQueue = 8192
	// recorderMaxBatch is the most frames committed in one transaction.
	recorderMaxBatch = 1024
	// maxPendingPerRun bounds the unanswered requests the recorder keeps
	// to pair; requests past it are recorded unpaired.
	maxPendingPerRun = 100000
	// recorderLinger is how long the recorder waits for more frames after
	// the first one queued while it was idle: a trickle of frames (a
	// request now, its response a moment later) then wakes it once and
	// costs one transaction, not one each, which keeps the recorder's
	// share of the CPU small and its work off the senders' path; viewers
	// see frames that much later. Nobody waits for the linger while a
	// watched request is on its way (see RequestWatch) or a Flush is
	// waiting.
	recorderLinger = 2 * time.Millisecond
)

// NewRecorder starts a recorder writing to store and publishing to hub. Close stops it.
func NewRecorder(ctx context.Context, store FrameStore, hub Publisher, log *slog.Logger, o RecorderOptions) (*Recorder, error) {
	maxID, err := store.MaxFrameID(ctx)
	if err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	r := &Recorder{
		store: store, hub: hub, log: log,
		in:         newIntake(),
		classified: make(chan []classifiedItem, 4),
		stop:       make(chan struct{}),
		done:       make(chan struct{}),
		commits:    make(chan struct{}),
		watches:    map[pendingKey]*RequestWatch{},
		pending:    newPendingRequests(),
	}
	r.nextID.Store(maxID + 1)
	r.committed = maxID
	r.toCommit, r.linting = r.classified, !o.NoLint
	go r.classifyLoop()
	if r.linting {
		r.toCommit = make(chan []classifiedItem, 4)
		go r.lintLoop(r.classified, r.toCommit)
	}
	go r.commitLoop()
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

// waitCommitted waits until the frame id, which the recorder has already
// classified, is committed (a classified frame's batch is committed
// without lingering); it fails when ctx ends or the recorder closes first.
func (r *Recorder) waitCommitted(ctx context.Context, id int64) error {
	for {
		r.mu.Lock()
		committed, commits := r.committed >= id, r.commits
		r.mu.Unlock()
		if committed {
			return nil
		}
		select {
		case <-commits:
		case <-ctx.Done():
			return ctx.Err()
		case <-r.done:
			return ErrRecorderClosed
		}
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
		r.in.close()
		close(r.stop)
	})
	<-r.done
	return r.Failure()
}

// enqueue queues it, or reports ErrRecorderClosed; an item it accepted is
// always processed. It wakes classifyLoop only when it must: for the
// first item of a burst, and at once for a marker or while a watched
// request is on its way.
func (r *Recorder) enqueue(it recordItem) error {
	urgent := it.flushed != nil || r.watching.Load() > 0 || r.awaiting.Load() > 0
	return r.in.put(it, urgent, r.stop)
}

// classifyLoop is the first of the recorder's two goroutines: woken by
// the intake, it lingers for more frames unless someone waits, takes
// every queued item, classifies the frames (so that a watched request
// learns its frame ids without waiting for any commit) and hands them on
// to commitLoop as one batch, in order.
func (r *Recorder) classifyLoop() {
	defer close(r.classified)
	linger := time.NewTimer(time.Hour)
	linger.Stop()
	for {
		select {
		case <-r.in.wake:
		case <-r.stop:
			r.classifyQueued() // what was queued before Close
			return
		}
		if !r.in.isUrgent() {
			linger.Reset(recorderLinger)
			select {
			case <-linger.C:
			case <-r.in.wake: // an urgent item came
				linger.Stop()
			case <-r.stop:
				linger.Stop()
			}
		}
		r.classifyQueued()
	}
}

// classifyQueued takes every queued item and hands on what it makes of
// them, in batches of at most recorderMaxBatch.
func (r *Recorder) classifyQueued() {
	for _, items := range r.in.takeAll() {
		batch := make([]classifiedItem, 0, len(items))
		for _, it := range items {
			if c, ok := r.take(it); ok {
				batch = append(batch, c)
			}
		}
		if len(batch) > 0 {
			r.classified <- batch
		}
	}
}

// classifiedItem is a classified frame (with the exchange it completes
// and, when the recorder lints, what the linter is to judge of it), a
// flush marker, or a forget marker (the session whose linter to drop), on
// its way to commitLoop.
type classifiedItem struct {
	frame    Frame
	exchange *Exchange
	lint     lint.Frame
	flushed  chan struct{}
	forget   int64
}

// take handles one queued item, returning what the next goroutine is to
// have of it (nothing for a forget marker when the recorder does not lint).
func (r *Recorder) take(it recordItem) (classifiedItem, bool) {
	switch {
	case it.forget:
		r.forget(it.sessionID)
		return classifiedItem{forget: it.sessionID}, r.linting
	case it.flushed != nil:
		return classifiedItem{flushed: it.flushed}, true
	default:
		f, ex := r.classify(it.sessionID, it.frame)
		c := classifiedItem{frame: f, exchange: ex}
		if r.linting {
			c.lint = lint.FrameOf(it.frame)
		}
		return c, true
	}
}

// commitLoop is the second goroutine: it commits the batches
// classifyLoop hands on, joining those already waiting (up to
// recorderMaxBatch frames a transaction), until classifyLoop has stopped.
func (r *Recorder) commitLoop() {
	defer close(r.done)
	var next []classifiedItem // taken, for the next transaction
	for {
		if next == nil {
			var ok bool
			if next, ok = <-r.toCommit; !ok {
				return
			}
		}
		var b batch
		b.addAll(next)
		next = nil
	gather:
		for len(b.frames) < recorderMaxBatch {
			select {
			case more, ok := <-r.toCommit:
				if !ok {
					break gather
				}
				if len(b.frames)+len(more) > recorderMaxBatch {
					next = more
					break gather
				}
				b.addAll(more)
			default:
				break gather
			}
		}
		r.handleBatch(b)
	}
}

// handleBatch commits the frames of b in one transaction, publishes them,
// then serves the flush markers.
func (r *Recorder) handleBatch(b batch) {
	if len(b.frames) > 0 {
		r.commit(b.frames, b.exchanges)
	}
	for _, c := range b.flushed {
		close(c)
	}
}

// batch is what commitLoop commits at once.
type batch struct {
	frames    []Frame
	exchanges []Exchange
	flushed   []chan struct{}
}

func (b *batch) addAll(items []classifiedItem) {
	for _, it := range items {
		if it.flushed != nil {
			b.flushed = append(b.flushed, it.flushed)
			continue
		}
		if it.forget != 0 {
			continue
		}
		b.frames = append(b.frames, it.frame)
		if it.exchange != nil {
			b.exchanges = append(b.exchanges, *it.exchange)
		}
	}
}

// commit writes the batch, retrying while the database refuses it and the
// recorder is not stopping. Frames are published only once stored, and
// with their HTTP info as people are shown it (Frame.Shown), as the store
// reads them back: no event carries a secret header.
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
	r.mu.Lock()
	r.committed = frames[len(frames)-1].ID
	close(r.commits)
	r.commits = make(chan struct{})
	r.mu.Unlock()
	for i := range frames {
		if frames[i].Shown != nil {
			frames[i].HTTP = frames[i].Shown.Info
		} else {
			frames[i].HTTP = RedactHTTP(frames[i].HTTP)
		}
		frames[i].Shown = nil
	}
	start := 0
	for i := 1; i <= len(frames); i++ {
		if i == len(frames) || frames[i].SessionID != frames[start].SessionID {
			r.hub.Publish(Event{SessionID: frames[start].SessionID, Frames: frames[start:i:i]})
			start = i
		}
	}
}
