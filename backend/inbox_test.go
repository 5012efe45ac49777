package backend_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// asked is how an Ask run in its own goroutine ended.
type asked struct {
	result json.RawMessage
	err    error
}

// startAsk runs inbox.Ask in a goroutine, waits until the request is
// waiting in the inbox and returns it with a channel that gets the outcome
// of Ask. It must not run concurrently with another Ask on the session.
func startAsk(t *testing.T, inbox *backend.Inbox, ctx context.Context, sessionID int64, method, params string) (backend.InputRequest, <-chan asked) {
	t.Helper()
	known := map[int64]bool{}
	for _, r := range inbox.Pending(sessionID) {
		known[r.ID] = true
	}
	done := make(chan asked, 1)
	go func() {
		res, err := inbox.Ask(ctx, sessionID, method, json.RawMessage(params))
		done <- asked{res, err}
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, r := range inbox.Pending(sessionID) {
			if !known[r.ID] {
				return r, done
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the %s request of session %d never showed up in Pending", method, sessionID)
		}
		time.Sleep(time.Millisecond)
	}
}

// outcome waits for the end of an Ask started by startAsk.
func outcome(t *testing.T, done <-chan asked) asked {
	t.Helper()
	select {
	case a := <-done:
		return a
	case <-time.After(5 * time.Second):
		t.Fatal("Ask did not return within 5s")
		return asked{}
	}
}

// assertGone checks that request id is no longer waiting: Pending does not
// list it, and Get, Answer and Refuse answer ENotFound.
func assertGone(t *testing.T, inbox *backend.Inbox, req backend.InputRequest) {
	t.Helper()
	for _, r := range inbox.Pending(req.SessionID) {
		if r.ID == req.ID {
			t.Errorf("request %d is still pending", req.ID)
		}
	}
	if _, err := inbox.Get(req.ID); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("Get(%d) after the request ended: %v, want a %s error", req.ID, err, backend.ENotFound)
	}
	if err := inbox.Answer(req.ID, json.RawMessage(`{}`), ""); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("Answer(%d) after the request ended: %v, want a %s error", req.ID, err, backend.ENotFound)
	}
	if err := inbox.Refuse(req.ID, errors.New("no"), ""); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("Refuse(%d) after the request ended: %v, want a %s error", req.ID, err, backend.ENotFound)
	}
}

func TestInboxAnswerRoundTrip(t *testing.T) {
	inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
	const params = `{"mode":"form","message":"What is your name?","requestedSchema":{"type":"object"}}`
	before := time.Now()
	req, done := startAsk(t, inbox, t.Context(), 4, backend.MethodElicit, params)

	if req.ID == 0 || req.SessionID != 4 || req.Method != backend.MethodElicit || string(req.Params) != params {
		t.Errorf("pending request = %+v", req)
	}
	if req.Received.Before(before) || req.Received.After(time.Now()) {
		t.Errorf("Received = %v, want the time of the Ask (after %v)", req.Received, before)
	}
	got, err := inbox.Get(req.ID)
	if err != nil || got.ID != req.ID || got.Method != req.Method || string(got.Params) != params {
		t.Errorf("Get(%d) = %+v, %v", req.ID, got, err)
	}
	select {
	case a := <-done:
		t.Fatalf("Ask returned before an answer: %+v", a)
	default:
	}

	const answer = `{"action":"accept","content":{"name":"Ada"}}`
	if err := inbox.Answer(req.ID, json.RawMessage(answer), ""); err != nil {
		t.Fatalf("Answer: %v", err)
	}
	a := outcome(t, done)
	if a.err != nil || string(a.result) != answer {
		t.Errorf("Ask = %s, %v; want %s", a.result, a.err, answer)
	}
	assertGone(t, inbox, req)

	// A second answer finds nobody waiting.
	if err := inbox.Answer(req.ID, json.RawMessage(`{"action":"decline"}`), ""); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("second Answer: %v, want %s", err, backend.ENotFound)
	}
	if _, err := inbox.Get(12345); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("Get of an id never used: %v, want %s", err, backend.ENotFound)
	}
}

func TestInboxRefuse(t *testing.T) {
	inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
	req, done := startAsk(t, inbox, t.Context(), 1, backend.MethodSample, `{"messages":[],"maxTokens":10}`)

	refusal := &backend.JSONRPCError{Code: -1, Message: "The user refused the sampling request."}
	if err := inbox.Refuse(req.ID, refusal, ""); err != nil {
		t.Fatalf("Refuse: %v", err)
	}
	a := outcome(t, done)
	var rpcErr *backend.JSONRPCError
	if !errors.As(a.err, &rpcErr) || rpcErr.Code != -1 || rpcErr.Message != refusal.Message {
		t.Errorf("Ask error = %#v, want the JSON-RPC error %+v", a.err, refusal)
	}
	if a.result != nil {
		t.Errorf("Ask result with a refusal = %s, want none", a.result)
	}
	assertGone(t, inbox, req)
}

func TestInboxPendingOrderAndSessions(t *testing.T) {
	inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()

	asks := []struct {
		session int64
		method  string
	}{
		{1, backend.MethodElicit},
		{2, backend.MethodSample},
		{1, backend.MethodSample},
		{1, backend.MethodElicit},
		{2, backend.MethodElicit},
	}
	var reqs []backend.InputRequest
	var dones []<-chan asked
	for i, a := range asks {
		req, done := startAsk(t, inbox, ctx, a.session, a.method, fmt.Sprintf(`{"n":%d}`, i))
		reqs, dones = append(reqs, req), append(dones, done)
	}
	for i := 1; i < len(reqs); i++ {
		if reqs[i].ID <= reqs[i-1].ID {
			t.Errorf("request ids not increasing: %d then %d", reqs[i-1].ID, reqs[i].ID)
		}
	}

	ids := func(sessionID int64) []int64 {
		var out []int64
		for _, r := range inbox.Pending(sessionID) {
			if r.SessionID != sessionID {
				t.Errorf("Pending(%d) lists request %d of session %d", sessionID, r.ID, r.SessionID)
			}
			out = append(out, r.ID)
		}
		return out
	}
	tests := []struct {
		name    string
		session int64
		want    []int64
	}{
		{"session 1, oldest first", 1, []int64{reqs[0].ID, reqs[2].ID, reqs[3].ID}},
		{"session 2, oldest first", 2, []int64{reqs[1].ID, reqs[4].ID}},
		{"session without requests", 3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ids(tt.session); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Pending(%d) ids = %v, want %v", tt.session, got, tt.want)
			}
		})
	}
	// Params are what each Ask passed, not another request's.
	for _, r := range inbox.Pending(1) {
		for i, q := range reqs {
			if q.ID == r.ID && string(r.Params) != fmt.Sprintf(`{"n":%d}`, i) {
				t.Errorf("request %d params = %s, want n=%d", r.ID, r.Params, i)
			}
		}
	}

	// Answering one from the middle keeps the others in order.
	if err := inbox.Answer(reqs[2].ID, json.RawMessage(`{}`), ""); err != nil {
		t.Fatal(err)
	}
	outcome(t, dones[2])
	if got, want := ids(1), []int64{reqs[0].ID, reqs[3].ID}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after answering %d, Pending(1) ids = %v, want %v", reqs[2].ID, got, want)
	}
	if got := ids(2); len(got) != 2 {
		t.Errorf("answering a request of session 1 changed session 2's: %v", got)
	}

	cancel()
	for i, done := range dones {
		if i != 2 {
			outcome(t, done)
		}
	}
	for _, s := range []int64{1, 2} {
		if got := ids(s); len(got) != 0 {
			t.Errorf("Pending(%d) after every Ask returned = %v", s, got)
		}
	}
}

func TestInboxAskEndsWithItsContext(t *testing.T) {
	tests := []struct {
		name   string
		ctx    func(context.Context) (context.Context, context.CancelFunc)
		cancel bool // cancel the context rather than let its deadline pass
		want   error
	}{
		{"cancelled", context.WithCancel, true, context.Canceled},
		{"deadline", func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, 50*time.Millisecond)
		}, false, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
			ctx, cancel := tt.ctx(t.Context())
			defer cancel()
			req, done := startAsk(t, inbox, ctx, 1, backend.MethodElicit, `{}`)
			other, otherDone := startAsk(t, inbox, t.Context(), 1, backend.MethodSample, `{}`)

			if tt.cancel {
				cancel()
			}
			a := outcome(t, done)
			if !errors.Is(a.err, tt.want) || a.result != nil {
				t.Errorf("Ask = %s, %v; want %v", a.result, a.err, tt.want)
			}
			assertGone(t, inbox, req)
			// The other request of the session still waits.
			if p := inbox.Pending(1); len(p) != 1 || p[0].ID != other.ID {
				t.Errorf("Pending after one Ask ended = %+v, want only request %d", p, other.ID)
			}
			if err := inbox.Answer(other.ID, json.RawMessage(`{"ok":true}`), ""); err != nil {
				t.Fatal(err)
			}
			if a := outcome(t, otherDone); a.err != nil || string(a.result) != `{"ok":true}` {
				t.Errorf("the other Ask = %s, %v", a.result, a.err)
			}
		})
	}
}

func TestInboxTimeout(t *testing.T) {
	const timeout = 100 * time.Millisecond
	inbox := backend.NewInbox(backend.NewHub(0), timeout)
	start := time.Now()
	req, done := startAsk(t, inbox, t.Context(), 1, backend.MethodSample, `{}`)
	a := outcome(t, done)
	if elapsed := time.Since(start); elapsed < timeout {
		t.Errorf("Ask gave up after %v, before the %v timeout", elapsed, timeout)
	}
	if backend.ErrorCodeOf(a.err) != backend.EUnavailable || a.result != nil {
		t.Fatalf("Ask after the timeout = %s, %v; want a %s error", a.result, a.err, backend.EUnavailable)
	}
	if msg := backend.ErrorMessageOf(a.err); !strings.Contains(msg, backend.MethodSample) {
		t.Errorf("timeout message %q does not name the request", msg)
	}
	assertGone(t, inbox, req)
}

func TestInboxPublishesChanges(t *testing.T) {
	hub := backend.NewHub(16)
	sub := hub.Subscribe(7)
	defer sub.Close()
	other := hub.Subscribe(8)
	defer other.Close()

	// expect receives the next event of session 7, checks it is an
	// inputs change only, and that Pending already shows the change.
	expect := func(t *testing.T, inbox *backend.Inbox, what string, pending int) {
		t.Helper()
		ev, ok := receive(t, sub)
		if !ok || ev.SessionID != 7 || !ev.InputsChanged || ev.Session != nil || len(ev.Frames) != 0 {
			t.Fatalf("%s: event %+v (open %v), want an inputs change of session 7", what, ev, ok)
		}
		if n := len(inbox.Pending(7)); n != pending {
			t.Errorf("%s: when the event arrives Pending lists %d requests, want %d", what, n, pending)
		}
	}

	tests := []struct {
		name    string
		timeout time.Duration
		// end ends the request; cancel cancels the context of its Ask.
		end func(inbox *backend.Inbox, req backend.InputRequest, cancel context.CancelFunc)
	}{
		{"answered", time.Minute, func(inbox *backend.Inbox, req backend.InputRequest, _ context.CancelFunc) {
			inbox.Answer(req.ID, json.RawMessage(`{}`), "")
		}},
		{"refused", time.Minute, func(inbox *backend.Inbox, req backend.InputRequest, _ context.CancelFunc) {
			inbox.Refuse(req.ID, errors.New("no"), "")
		}},
		{"cancelled", time.Minute, func(_ *backend.Inbox, _ backend.InputRequest, cancel context.CancelFunc) { cancel() }},
		{"timed out", 50 * time.Millisecond, func(*backend.Inbox, backend.InputRequest, context.CancelFunc) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inbox := backend.NewInbox(hub, tt.timeout)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			req, done := startAsk(t, inbox, ctx, 7, backend.MethodElicit, `{}`)
			expect(t, inbox, "arrival", 1)
			tt.end(inbox, req, cancel)
			outcome(t, done)
			expect(t, inbox, "departure", 0)
			assertNothing(t, sub)
		})
	}
	assertNothing(t, other)
}

// TestInboxConcurrent has many requests asked, answered, refused and
// looked up at once, with several answerers racing for each request: run
// with -race.
func TestInboxConcurrent(t *testing.T) {
	const (
		sessions  = 4
		perSess   = 25
		answerers = 4
	)
	hub := backend.NewHub(0)
	inbox := backend.NewInbox(hub, time.Minute)
	// A viewer per session, reading everything, as the live pages do.
	var viewers sync.WaitGroup
	t.Cleanup(viewers.Wait) // after the subscriptions' Close below
	for s := range int64(sessions) {
		sub := hub.Subscribe(s)
		t.Cleanup(sub.Close)
		viewers.Add(1)
		go func() {
			defer viewers.Done()
			for range sub.C {
			}
		}()
	}

	// Every Ask gets back its own params: as the result when n is even, in
	// a refusal's message when n is odd.
	var asks sync.WaitGroup
	errs := make(chan error, sessions*perSess)
	for s := range int64(sessions) {
		for i := range perSess {
			asks.Add(1)
			go func() {
				defer asks.Done()
				params := fmt.Sprintf(`{"n":%d,"session":%d}`, i, s)
				method := backend.MethodElicit
				if i%2 == 1 {
					method = backend.MethodSample
				}
				res, err := inbox.Ask(t.Context(), s, method, json.RawMessage(params))
				switch {
				case i%2 == 0 && (err != nil || string(res) != params):
					errs <- fmt.Errorf("Ask %s = %s, %v; want its params back", params, res, err)
				case i%2 == 1 && (err == nil || err.Error() != params):
					errs <- fmt.Errorf("Ask %s = %s, %v; want a refusal with its params", params, res, err)
				}
			}()
		}
	}

	var delivered atomic.Int64
	stop := make(chan struct{})
	var workers sync.WaitGroup
	for range answerers {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for s := range int64(sessions) {
					for _, r := range inbox.Pending(s) {
						if got, err := inbox.Get(r.ID); err == nil && got.ID != r.ID {
							errs <- fmt.Errorf("Get(%d) returned request %d", r.ID, got.ID)
						}
						var err error
						if r.Method == backend.MethodSample {
							err = inbox.Refuse(r.ID, errors.New(string(r.Params)), "")
						} else {
							err = inbox.Answer(r.ID, r.Params, "")
						}
						switch backend.ErrorCodeOf(err) {
						case "":
							delivered.Add(1)
						case backend.ENotFound: // another answerer was first
						default:
							errs <- fmt.Errorf("answering %d: %v", r.ID, err)
						}
					}
				}
			}
		}()
	}

	asksDone := make(chan struct{})
	go func() { asks.Wait(); close(asksDone) }()
	select {
	case <-asksDone:
	case <-time.After(20 * time.Second):
		t.Fatal("not every Ask returned within 20s")
	}
	close(stop)
	workers.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := delivered.Load(); n != sessions*perSess {
		t.Errorf("%d answers delivered, want exactly one per request (%d)", n, sessions*perSess)
	}
	for s := range int64(sessions) {
		if p := inbox.Pending(s); len(p) != 0 {
			t.Errorf("session %d still has %d pending requests", s, len(p))
		}
	}
}
