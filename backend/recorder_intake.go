package backend

import "sync"

// intake is the recorder's queue of items to classify. Senders append
// under a lock and wake the classifier only for the first item of a
// burst, or for an urgent one while it lingers, so that a steady trickle
// of frames costs a sender no goroutine switch each.
type intake struct {
	mu     sync.Mutex
	items  []recordItem
	urgent bool          // an item taken next has someone waiting for it
	closed bool          // put refuses items
	room   chan struct{} // closed (and replaced) whenever the items are taken
	// wake holds a token when the classifier has something to take, or
	// something urgent; it may hold a stale one.
	wake chan struct{}
}

func newIntake() *intake {
	return &intake{room: make(chan struct{}), wake: make(chan struct{}, 1)}
}

// put queues it, waiting while recorderQueue items wait already; it
// returns ErrRecorderClosed after close, or when stop closes while it
// waits.
func (q *intake) put(it recordItem, urgent bool, stop <-chan struct{}) error {
	q.mu.Lock()
	for !q.closed && len(q.items) >= recorderQueue {
		room := q.room
		q.mu.Unlock()
		select {
		case <-room:
		case <-stop:
			return ErrRecorderClosed
		}
		q.mu.Lock()
	}
	if q.closed {
		q.mu.Unlock()
		return ErrRecorderClosed
	}
	q.items = append(q.items, it)
	wake := len(q.items) == 1 || urgent && !q.urgent
	q.urgent = q.urgent || urgent
	q.mu.Unlock()
	if wake {
		select {
		case q.wake <- struct{}{}:
		default: // a token is there already
		}
	}
	return nil
}

// isUrgent reports whether someone waits for an item queued now.
func (q *intake) isUrgent() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.urgent
}

// takeAll removes and returns every queued item, in order, in chunks of
// at most recorderMaxBatch.
func (q *intake) takeAll() [][]recordItem {
	q.mu.Lock()
	items := q.items
	q.items = make([]recordItem, 0, min(cap(items), recorderQueue))
	q.urgent = false
	close(q.room)
	q.room = make(chan struct{})
	q.mu.Unlock()
	var chunks [][]recordItem
	for len(items) > recorderMaxBatch {
		chunks = append(chunks, items[:recorderMaxBatch:recorderMaxBatch])
		items = items[recorderMaxBatch:]
	}
	if len(items) > 0 {
		chunks = append(chunks, items)
	}
	return chunks
}

// close makes put refuse items from now on; those queued stay to be taken.
func (q *intake) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}
