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
)

// Recorder persists every frame of every session in small batches and, once
// a batch is committed, publishes it on the hub: viewers are only ever shown
// what is already stored. Requests are linked to their responses with the
// latency between them.
//
// The recorder is the one place that decides what a frame is (see
// classify): its JSON-RPC shape, id, method, whether it is a tool's
// failure, which request it answers and whether its id clashed with a
// pending request. One goroutine classifies frames as they come, giving
// them their ids; another commits them in batches. A caller waiting for
// its own request's frames watches it (WatchRequest) rather than flushing.
//
// Record blocks when the queue is full, so a recorder that cannot write
// slows the sessions down instead of losing frames.
type Recorder struct {
	store FrameStore
	hub   Publisher
	log   *slog.Logger

	queue      chan recordItem
	classified chan classifiedItem // from classifyLoop to commitLoop
	stop       chan struct{}
	done       chan struct{}

	closeOnce sync.Once
	mu        sync.Mutex
	closed    bool
	failure   error          // the last write failure, nil once a write succeeds again
	senders   sync.WaitGroup // enqueue calls in progress; run drains after they finish
	committed int64          // the id of the last frame committed; every earlier one is too
	commits   chan struct{}  // closed (and replaced) on every commit
	// hurry asks the batch being gathered to be committed without
	// lingering, for someone waiting for one of its frames.
	hurry chan struct{}

	watchMu  sync.Mutex
	watches  map[pendingKey]*RequestWatch // requests about to be sent, by their key
	watching atomic.Int32                 // len(watches), read without the lock

	// nextID is the next frame id to hand out: classifyLoop takes them
	// one at a time, ReserveFrameIDs in blocks.
	nextID atomic.Int64

	pending pendingRequests // owned by classifyLoop
	linger  *time.Timer     // owned by commitLoop; stopped between batches
}

// recordItem is a frame to store, or a control marker.
type recordItem struct {
	sessionID int64
	frame     mcpclient.Frame
	flushed   chan struct{} // marker: closed once every earlier item is committed
	forget    bool          // marker: drop the session's unanswered requests
}

const (
	recorderQueue    = 8192
	recorderMaxBatch = 1024
	// maxPendingPerRun bounds the unanswered requests the recorder keeps
	// to pair; requests past it are recorded unpaired.
	maxPendingPerRun = 100000
	// recorderLinger is how long a batch waits for more frames after its
	// first: a trickle of frames (a request now, its response a moment
	// later) then costs one transaction, not one each, which keeps the
	// recorder's share of the CPU small; viewers see frames that much later.
	recorderLinger = 2 * time.Millisecond
)

// NewRecorder starts a recorder writing to store and publishing to hub. Close stops it.
func NewRecorder(ctx context.Context, store FrameStore, hub Publisher, log *slog.Logger) (*Recorder, error) {
	maxID, err := store.MaxFrameID(ctx)
	if err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	r := &Recorder{
		store: store, hub: hub, log: log,
		queue:      make(chan recordItem, recorderQueue),
		classified: make(chan classifiedItem, recorderMaxBatch),
		stop:       make(chan struct{}),
		done:       make(chan struct{}),
		commits:    make(chan struct{}),
		hurry:      make(chan struct{}, 1),
		watches:    map[pendingKey]*RequestWatch{},
		pending:    newPendingRequests(),
		linger:     time.NewTimer(time.Hour),
	}
	r.linger.Stop()
	r.nextID.Store(maxID + 1)
	r.committed = maxID
	go r.classifyLoop()
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
// classified, is committed, hurrying the batch that holds it; it fails
// when ctx ends or the recorder closes first.
func (r *Recorder) waitCommitted(ctx context.Context, id int64) error {
	for {
		r.mu.Lock()
		committed, commits := r.committed >= id, r.commits
		r.mu.Unlock()
		if committed {
			return nil
		}
		select {
		case r.hurry <- struct{}{}:
		default: // a hurry is pending already
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

// classifyLoop is the first of the recorder's two goroutines: it
// classifies each frame the moment it is queued (so that a watched request
// learns its frame ids without waiting for any commit) and hands it on to
// commitLoop, in order.
func (r *Recorder) classifyLoop() {
	defer close(r.classified)
	for {
		select {
		case it := <-r.queue:
			r.take(it)
		case <-r.stop:
			// Drain what was queued before Close, once no enqueue can add more.
			r.senders.Wait()
			for {
				select {
				case it := <-r.queue:
					r.take(it)
				default:
					return
				}
			}
		}
	}
}

// classifiedItem is a classified frame (with the exchange it completes)
// or a flush marker, on its way to commitLoop.
type classifiedItem struct {
	frame    Frame
	exchange *Exchange
	flushed  chan struct{}
}

// take handles one queued item.
func (r *Recorder) take(it recordItem) {
	switch {
	case it.forget:
		r.forget(it.sessionID)
	case it.flushed != nil:
		r.classified <- classifiedItem{flushed: it.flushed}
	default:
		f, ex := r.classify(it.sessionID, it.frame)
		r.classified <- classifiedItem{frame: f, exchange: ex}
	}
}

// commitLoop is the second goroutine: it commits what classifyLoop hands
// on, in batches, until classifyLoop has stopped.
func (r *Recorder) commitLoop() {
	defer close(r.done)
	for it := range r.classified {
		r.handleBatch(it)
	}
}

// handleBatch takes first and what else is handed on at once or within
// recorderLinger (up to the batch size), commits the frames among them in
// one transaction, publishes them, then serves the flush markers.
func (r *Recorder) handleBatch(first classifiedItem) {
	var b batch
	r.gather(first, &b)
	if len(b.frames) > 0 {
		r.commit(b.frames, b.exchanges)
	}
	for _, c := range b.flushed {
		close(c)
	}
}

// batch is what handleBatch has taken so far.
type batch struct {
	frames    []Frame
	exchanges []Exchange
	flushed   []chan struct{}
}

func (b *batch) add(it classifiedItem) {
	if it.flushed != nil {
		b.flushed = append(b.flushed, it.flushed)
		return
	}
	b.frames = append(b.frames, it.frame)
	if it.exchange != nil {
		b.exchanges = append(b.exchanges, *it.exchange)
	}
}

// gather takes first and the items handed on after it: whatever is there
// at once and, unless a Flush or a commit waiter (see waitCommitted) is
// waiting or the recorder is stopping, whatever arrives within
// recorderLinger, up to recorderMaxBatch items.
func (r *Recorder) gather(first classifiedItem, b *batch) {
	b.add(first)
	n := 1
	urgent := first.flushed != nil
	lingering := false
	defer func() {
		if lingering {
			r.linger.Stop()
		}
	}()
	for n < recorderMaxBatch {
		var it classifiedItem
		var ok bool
		select {
		case it, ok = <-r.classified:
		default:
			if urgent {
				return
			}
			if !lingering {
				r.linger.Reset(recorderLinger)
				lingering = true
			}
			select {
			case it, ok = <-r.classified:
			case <-r.hurry:
				urgent = true
				continue // take what is there already, then commit
			case <-r.linger.C:
				lingering = false
				return
			case <-r.stop:
				return
			}
		}
		if !ok {
			return // classifyLoop has stopped; commitLoop ends after this batch
		}
		b.add(it)
		n++
		urgent = urgent || it.flushed != nil
	}
}

// commit writes the batch, retrying while the database refuses it and the
// recorder is not stopping. Frames are published only once stored, and
// with their HTTP info as people are shown it (RedactHTTP), as the store
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
		frames[i].HTTP = RedactHTTP(frames[i].HTTP)
	}
	start := 0
	for i := 1; i <= len(frames); i++ {
		if i == len(frames) || frames[i].SessionID != frames[start].SessionID {
			r.hub.Publish(Event{SessionID: frames[start].SessionID, Frames: frames[start:i:i]})
			start = i
		}
	}
}
