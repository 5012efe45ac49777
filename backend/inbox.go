package backend

import (
	"context"
	"encoding/json"
	"sort"
	"sync"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// InputRequest is a request from a server that only a person can answer:
// an elicitation (the server asks the user for input) or a sampling request
// (the server asks the client's model, played here by the user).
type InputRequest struct {
	ID        int64
	SessionID int64
	Method    string // "elicitation/create" or "sampling/createMessage"
	Params    json.RawMessage
	Received  time.Time
}

// Input request methods.
const (
	MethodElicit = mcpclient.MethodElicit
	MethodSample = mcpclient.MethodSample
)

// Inbox holds the input requests of every session until someone answers
// them, the server gives up, or the wait times out. It is safe for
// concurrent use.
type Inbox struct {
	hub     Publisher
	timeout time.Duration

	mu      sync.Mutex
	nextID  int64
	waiting map[int64]*waitingInput
	// answered remembers who answered the latest requests (id → name),
	// at most answeredKept of them, oldest dropped first (answeredOrder).
	answered      map[int64]string
	answeredOrder []int64
}

// answeredKept bounds how many answerers the inbox remembers: enough for
// every page watching a session to learn who answered before it asks.
const answeredKept = 1024

type waitingInput struct {
	req    InputRequest
	answer chan answer // buffered: Answer never blocks
}

type answer struct {
	result json.RawMessage
	err    error
}

// NewInbox returns an inbox that tells the hub when a session's waiting
// requests change. A request nobody answers within timeout fails.
func NewInbox(hub Publisher, timeout time.Duration) *Inbox {
	return &Inbox{hub: hub, timeout: timeout, waiting: map[int64]*waitingInput{}, answered: map[int64]string{}}
}

// Ask queues a request and waits for its answer. It returns the answer's
// result, or an error when the answer is a refusal, ctx ends (the server
// cancelled or the session closed) or the wait times out.
func (in *Inbox) Ask(ctx context.Context, sessionID int64, method string, params json.RawMessage) (json.RawMessage, error) {
	w := &waitingInput{answer: make(chan answer, 1)}
	in.mu.Lock()
	in.nextID++
	w.req = InputRequest{ID: in.nextID, SessionID: sessionID, Method: method, Params: params, Received: time.Now()}
	in.waiting[w.req.ID] = w
	in.mu.Unlock()
	in.changed(sessionID)
	defer func() {
		in.mu.Lock()
		delete(in.waiting, w.req.ID)
		in.mu.Unlock()
		in.changed(sessionID)
	}()

	timer := time.NewTimer(in.timeout)
	defer timer.Stop()
	select {
	case a := <-w.answer:
		return a.result, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-timer.C:
		return nil, Errorf(EUnavailable, "Nobody answered the server's %s request within %s.", method, in.timeout)
	}
}

// Pending returns the session's waiting requests, oldest first.
func (in *Inbox) Pending(sessionID int64) []InputRequest {
	in.mu.Lock()
	defer in.mu.Unlock()
	var out []InputRequest
	for _, w := range in.waiting {
		if w.req.SessionID == sessionID {
			out = append(out, w.req)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Get returns a waiting request, or an ENotFound *Error when it was
// answered (saying by whom, when known) or abandoned meanwhile.
func (in *Inbox) Get(id int64) (InputRequest, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	w, ok := in.waiting[id]
	if !ok {
		return InputRequest{}, in.goneLocked(id)
	}
	return w.req, nil
}

// goneLocked is the error for request id, no longer waiting.
func (in *Inbox) goneLocked(id int64) error {
	if by := in.answered[id]; by != "" {
		return Errorf(ENotFound, "%s answered this request first.", by)
	}
	return Errorf(ENotFound, "The server is no longer waiting for this answer.")
}

// AnsweredBy returns who answered request id, "" when that is not known
// (it was abandoned, answered by a script without a name, or long ago).
func (in *Inbox) AnsweredBy(id int64) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.answered[id]
}

// Answer sends result as the reply to request id, given by the person by
// ("" when unknown). Only the first answer to a request counts; later
// ones get ENotFound naming who answered.
func (in *Inbox) Answer(id int64, result json.RawMessage, by string) error {
	return in.deliver(id, answer{result: result}, by)
}

// Refuse replies to request id with err, which the client sends as a
// JSON-RPC error (an *mcpclient.RPCError keeps its code), as Answer does.
func (in *Inbox) Refuse(id int64, err error, by string) error {
	return in.deliver(id, answer{err: err}, by)
}

func (in *Inbox) deliver(id int64, a answer, by string) error {
	in.mu.Lock()
	w, ok := in.waiting[id]
	if !ok {
		err := in.goneLocked(id)
		in.mu.Unlock()
		return err
	}
	delete(in.waiting, id)
	if by != "" {
		in.answered[id] = by
		in.answeredOrder = append(in.answeredOrder, id)
		if len(in.answeredOrder) > answeredKept {
			delete(in.answered, in.answeredOrder[0])
			in.answeredOrder = in.answeredOrder[1:]
		}
	}
	in.mu.Unlock()
	w.answer <- a
	return nil
}

func (in *Inbox) changed(sessionID int64) {
	in.hub.Publish(Event{SessionID: sessionID, InputsChanged: true})
}
