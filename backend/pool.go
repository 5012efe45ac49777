package backend

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Pool owns the live connections to MCP servers. Each connection is a
// session, recorded from its first frame; the pool closes sessions on
// Disconnect and on Close, and notices servers that go away on their own.
type Pool struct {
	servers  ServerStore
	sessions SessionStore
	rec      *Recorder
	hub      Publisher
	inbox    *Inbox
	log      *slog.Logger
	info     mcpclient.Implementation
	// revisions, if not nil, keeps each server's interface revisions
	// (pool_revision.go).
	revisions RevisionStore
	// creds, if not nil, signs HTTP connections (pool_credentials.go).
	creds CredentialSource
	// keepAlive is how often a quiet HTTP server is pinged (pool_liveness.go).
	keepAlive time.Duration

	mu     sync.Mutex
	live   map[int64]*liveSession
	closed bool
	wg     sync.WaitGroup // per live session: its watcher and its revision taker
}

type liveSession struct {
	session      Session
	destinations []string // where it sends: Destinations of the server as it connected
	client       *mcpclient.Client
	redact       atomic.Pointer[Redactor] // hides the server's secrets, and those HideValues adds, in frames and close reasons
	closing      chan struct{}            // closed by requestClose
	closeOnce    sync.Once
	closeReason  string        // set once, before closing is closed
	ended        chan struct{} // closed once the session's end is stored

	tools   listCache[mcpclient.Tool]
	prompts listCache[Prompt]

	calls callRegistry // running calls, by the caller's id (calls.go)
	tasks sessionTasks // tasks the session created (tasks.go)

	resources resourceSubs // resource subscriptions (resources.go)
	// publish delivers an event of this session to its viewers.
	publish func(Event)

	logLevel atomic.Value // string: the level asked for by SetLogLevel (logging.go)

	// bg bounds the session's background work; watch cancels it (stopBg)
	// when the session ends.
	bg     context.Context
	stopBg context.CancelFunc
	// revision is the taking of the session's interface revision
	// (pool_revision.go).
	revision revisionTaking
}

// NewPool returns an empty pool. Servers' elicitation and sampling requests
// wait in inbox for a person's answer. clientInfo names the playground to
// servers.
func NewPool(servers ServerStore, sessions SessionStore, rec *Recorder, hub Publisher, inbox *Inbox, log *slog.Logger, clientInfo mcpclient.Implementation, opts ...PoolOption) *Pool {
	p := &Pool{servers: servers, sessions: sessions, rec: rec, hub: hub, inbox: inbox, log: log, info: clientInfo, live: map[int64]*liveSession{}, keepAlive: defaultKeepAlive}
	for _, o := range opts {
		o(p)
	}
	return p
}

// PoolOption configures a Pool at NewPool.
type PoolOption func(*Pool)

// ErrPoolClosed is returned by Connect after Close.
var ErrPoolClosed = Errorf(EUnavailable, "The playground is shutting down.")

// Connect opens a session on the registered server and returns it. A
// session that fails to open is still stored, with status failed and the
// reason; the returned error is then a *ConnectError that carries that
// reason (EUnavailable) and the connection doctor's diagnosis (probing
// takes up to 6 s more; Diagnosis keeps it for the session), and the
// returned Session its id. Close reasons and the recorded stderr, notes and
// non-JSON output have the server's secrets redacted, and the messages
// its secret values (Redactor). While recording fails, Connect refuses with an
// EUnavailable error and stores nothing. ctx bounds only the connection and
// handshake, and names who connects (ConnectingAs). A server that refuses
// the connection for want of an OAuth sign-in fails it with an
// *OAuthSignInNeededError.
func (p *Pool) Connect(ctx context.Context, serverID int64) (Session, error) {
	srv, err := p.servers.GetServer(ctx, serverID)
	if err != nil {
		return Session{}, err
	}
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return Session{}, ErrPoolClosed
	}
	if failure := p.rec.Failure(); failure != nil {
		return Session{}, Errorf(EUnavailable, "Recording is failing, so no session is opened: %v", failure)
	}
	sess := Session{ServerID: srv.ID, ServerName: srv.Name, Transport: srv.Transport, Status: SessionConnecting, StartedAt: time.Now()}
	if sess.ID, err = p.sessions.CreateSession(ctx, sess); err != nil {
		return Session{}, err
	}
	sessionID := sess.ID
	ls := &liveSession{destinations: Destinations(srv), closing: make(chan struct{}), ended: make(chan struct{}), revision: newRevisionTaking(),
		publish: func(e Event) { e.SessionID = sessionID; p.hub.Publish(e) }}
	redact := NewRedactor(srv)
	ls.redact.Store(&redact)
	record := p.rec.Tap(sess.ID)
	opts := mcpclient.Options{Tap: func(f mcpclient.Frame) { record(ls.redact.Load().Frame(f)) }, ClientInfo: p.info, OnNotification: func(n mcpclient.Notification) { ls.notified(n); p.taskNotified(sess.ID, ls, n) },
		Handler: p.serverRequests(sess.ID, srv.ID), Era: mcpclient.Era(srv.Era), KeepAlive: p.keepAlive}
	target, err := p.target(ctx, srv)
	var client *mcpclient.Client
	if err == nil {
		client, err = mcpclient.Dial(ctx, target, opts)
	}
	if err != nil {
		reason := ls.redacted("connect failed: " + err.Error())
		if errors.Is(err, ErrOAuthSignInNeeded) {
			reason = ls.redacted("connect failed: the server needs OAuth sign-in (sign in on the server's page): " + err.Error())
		}
		p.recordNote(sess.ID, reason)
		sess.Status, sess.CloseReason, sess.EndedAt = SessionFailed, reason, time.Now()
		p.end(sess)
		d := Diagnose(ctx, srv, err)
		if err := p.sessions.SaveDiagnosis(context.WithoutCancel(ctx), sess.ID, d); err != nil {
			p.log.Error("storing a failed connect's diagnosis", "session", sess.ID, "err", err)
		}
		return sess, &ConnectError{Err: connectError(srv.ID, err, reason), Diagnosis: d}
	}
	init := client.InitializeResult()
	sess.Status, sess.Era, sess.ProtocolVersion = SessionOpen, Era(client.Era()), client.ProtocolVersion()
	sess.PeerName, sess.PeerVersion = init.ServerInfo.Name, init.ServerInfo.Version
	if err := p.sessions.MarkSessionOpen(context.WithoutCancel(ctx), sess); err != nil {
		client.Close()
		sess.Status, sess.CloseReason, sess.EndedAt = SessionFailed, "the session could not be stored", time.Now()
		p.end(sess)
		return sess, err
	}
	ls.session, ls.client = sess, client
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		client.Close()
		sess.Status, sess.CloseReason, sess.EndedAt = SessionClosed, "the playground shut down", time.Now()
		p.end(sess)
		return sess, ErrPoolClosed
	}
	p.live[sess.ID] = ls
	ls.bg, ls.stopBg = context.WithCancel(context.Background())
	p.wg.Add(2)
	p.mu.Unlock()
	p.hub.Publish(Event{SessionID: sess.ID, Session: &sess})
	go p.watch(ls)
	go p.takeRevision(ls)
	return sess, nil
}

// serverRequests answers a session's server-to-client requests: roots/list
// with the roots registered for the server (rootsList); elicitation and
// sampling wait in the inbox for a person. It also declares the MCP Apps
// extension, which the dashboard renders.
func (p *Pool) serverRequests(sessionID, serverID int64) mcpclient.Handler {
	mux := &mcpclient.Mux{Extensions: map[string]json.RawMessage{AppsExtension: appsCapability}}
	mux.HandleFunc(MethodRootsList, p.rootsList(serverID))
	ask := func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
		res, err := p.inbox.Ask(ctx, sessionID, method, params)
		var appErr *Error
		if errors.As(err, &appErr) {
			// The server sees the safe message, not our error code.
			return nil, &mcpclient.RPCError{Code: -32603, Message: appErr.Message}
		}
		return res, err
	}
	mux.HandleFunc(MethodElicit, ask)
	mux.HandleFunc(MethodSample, ask)
	return mux
}

// watch waits for the session to end, by the user or by the server, and
// stores how it ended.
func (p *Pool) watch(ls *liveSession) {
	defer p.wg.Done()
	defer close(ls.ended)
	select {
	case <-ls.client.Done():
	case <-ls.closing:
		ls.client.Close()
	}
	ls.stopBg()
	ls.resources.stop()
	sess := ls.session
	sess.Status, sess.EndedAt = SessionClosed, time.Now()
	select {
	case <-ls.closing:
		sess.CloseReason = ls.closeReason
	default:
		sess.CloseReason = "server went away"
		if err := ls.client.Err(); err != nil {
			sess.CloseReason = ls.redacted("server went away: " + err.Error())
		}
		p.recordNote(sess.ID, sess.CloseReason)
	}
	p.mu.Lock()
	delete(p.live, sess.ID)
	p.mu.Unlock()
	p.end(sess)
}

// endFlushTimeout bounds how long ending a session waits for its last
// frames to be committed.
const endFlushTimeout = 5 * time.Second

// end stores the session's last frames and its final state, and tells its
// viewers.
func (p *Pool) end(sess Session) {
	ctx, cancel := context.WithTimeout(context.Background(), endFlushTimeout)
	defer cancel()
	if err := p.rec.Flush(ctx); err != nil {
		p.log.Error("storing a session's last frames", "session", sess.ID, "err", err)
	}
	p.rec.Forget(sess.ID)
	if err := p.sessions.EndSession(context.Background(), sess.ID, sess.Status, sess.CloseReason, sess.EndedAt); err != nil {
		p.log.Error("ending session", "session", sess.ID, "err", err)
	}
	p.hub.Publish(Event{SessionID: sess.ID, Session: &sess})
}

// recordNote records a transport frame with a human-readable note.
func (p *Pool) recordNote(sessionID int64, text string) {
	f := mcpclient.Frame{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindTransport, Body: []byte(text)}
	if err := p.rec.Record(sessionID, f); err != nil {
		p.log.Error("note not recorded", "session", sessionID, "err", err)
	}
}

// Disconnect closes a live session and waits until its end is stored.
func (p *Pool) Disconnect(ctx context.Context, sessionID int64) error {
	ls, err := p.get(sessionID)
	if err != nil {
		return err
	}
	ls.requestClose("closed by the user")
	select {
	case <-ls.ended:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// requestClose asks the session's watcher to close it; the first reason wins.
func (ls *liveSession) requestClose(reason string) {
	ls.closeOnce.Do(func() {
		ls.closeReason = reason
		close(ls.closing)
	})
}

// LiveSession returns the open session of a server, if it has one.
func (p *Pool) LiveSession(serverID int64) (Session, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var best *liveSession
	for _, ls := range p.live {
		if ls.session.ServerID == serverID && (best == nil || ls.session.ID > best.session.ID) {
			best = ls
		}
	}
	if best == nil {
		return Session{}, false
	}
	return best.session, true
}

// LiveSessions returns the pool's open sessions, ordered by server name
// and then by session id.
func (p *Pool) LiveSessions() []Session {
	p.mu.Lock()
	out := make([]Session, 0, len(p.live))
	for _, ls := range p.live {
		out = append(out, ls.session)
	}
	p.mu.Unlock()
	slices.SortFunc(out, func(a, b Session) int {
		if c := strings.Compare(a.ServerName, b.ServerName); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// Open returns the session sessionID when it is open in this pool.
func (p *Pool) Open(sessionID int64) (Session, bool) {
	ls, err := p.get(sessionID)
	if err != nil {
		return Session{}, false
	}
	return ls.session, true
}

// IsLive reports whether the session is open in this pool.
func (p *Pool) IsLive(sessionID int64) bool {
	_, err := p.get(sessionID)
	return err == nil
}

func (p *Pool) get(sessionID int64) (*liveSession, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ls, ok := p.live[sessionID]
	if !ok {
		return nil, Errorf(EConflict, "Session %d is not connected.", sessionID)
	}
	return ls, nil
}

// notified reacts to server notifications; every notification is recorded
// by the tap regardless.
func (ls *liveSession) notified(n mcpclient.Notification) {
	// Called from the client's reader goroutine: it must not wait for a
	// list cache's lock, whose holder may be waiting for that reader.
	switch n.Method {
	case "notifications/tools/list_changed":
		ls.tools.markStale()
		ls.revision.changed()
	case "notifications/prompts/list_changed":
		ls.prompts.markStale()
		ls.revision.changed()
	case "notifications/resources/list_changed":
		ls.revision.changed()
	}
	if u, ok := ls.resources.notified(n); ok {
		ls.publish(Event{Resource: &u})
	}
}

// redacted returns text with the session's secrets hidden.
func (ls *liveSession) redacted(text string) string { return ls.redact.Load().Text(text) }

// HideValues adds secret values to those the live session hides in what it
// records from now on (a collection run's secret variables, sent in
// params); they stay hidden until the session ends. A session that is not
// live is left alone.
func (p *Pool) HideValues(sessionID int64, values []string) {
	p.mu.Lock()
	ls := p.live[sessionID]
	p.mu.Unlock()
	if ls == nil || len(values) == 0 {
		return
	}
	for {
		old := ls.redact.Load()
		if next := old.With(values...); ls.redact.CompareAndSwap(old, &next) {
			return
		}
	}
}

// Destinations implements collections.Caller: where the live session
// sends, from the server's settings when it connected (an edit since does
// not move it).
func (p *Pool) Destinations(sessionID int64) ([]string, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return nil, err
	}
	return ls.destinations, nil
}

// CallResult is the outcome of a request that got a response.
type CallResult struct {
	Result  json.RawMessage     // set on success
	Error   *mcpclient.RPCError // set when the server answered with a JSON-RPC error
	Latency time.Duration
	// RequestFrameID and ResponseFrameID are the stored request and
	// response frames when the call asked for them
	// (CallOptions.ResponseFrame) and they were recorded in time, else 0.
	RequestFrameID, ResponseFrameID int64
}

// Call sends a request on a live session. A JSON-RPC error response is a
// CallResult with Error set, not a Go error; Go errors mean no response came
// (timeout, connection lost) and are EUnavailable *Errors.
func (p *Pool) Call(ctx context.Context, sessionID int64, method string, params json.RawMessage) (CallResult, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return CallResult{}, err
	}
	return p.call(ctx, ls, method, params)
}

func (p *Pool) call(ctx context.Context, ls *liveSession, method string, params json.RawMessage, opts ...mcpclient.CallOption) (CallResult, error) {
	params = ls.withLogLevel(params)
	var ps any
	if len(params) > 0 {
		ps = params
	}
	start := time.Now()
	res, err := ls.client.Call(ctx, method, ps, opts...)
	latency := time.Since(start)
	var rpcErr *mcpclient.RPCError
	if errors.As(err, &rpcErr) {
		return CallResult{Error: rpcErr, Latency: latency}, nil
	}
	if err != nil {
		return CallResult{Latency: latency}, ls.callError(method, err)
	}
	return CallResult{Result: res, Latency: latency}, nil
}

// writable returns a live session that may send: traffic that cannot be
// recorded is refused rather than sent unrecorded.
func (p *Pool) writable(sessionID int64) (*liveSession, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return nil, err
	}
	if failure := p.rec.Failure(); failure != nil {
		return nil, Errorf(EUnavailable, "Recording is failing, so nothing is sent: %v", failure)
	}
	return ls, nil
}

// SendRaw writes body to a live session as one frame, exactly as given:
// malformed JSON, a wrong jsonrpc value, a duplicate id. Whatever the server
// answers is recorded like all traffic.
func (p *Pool) SendRaw(ctx context.Context, sessionID int64, body []byte) error {
	ls, err := p.writable(sessionID)
	if err != nil {
		return err
	}
	if err := ls.client.SendRaw(ctx, body); err != nil {
		return Errorf(EUnavailable, "The raw frame could not be sent: %s", ls.redacted(err.Error()))
	}
	return nil
}

// Notify sends a notification of any method on a live session; params may
// be nil. Like SendRaw it goes out as the user wrote it.
func (p *Pool) Notify(ctx context.Context, sessionID int64, method string, params json.RawMessage) error {
	ls, err := p.writable(sessionID)
	if err != nil {
		return err
	}
	var body any
	if len(params) > 0 {
		body = params
	}
	if err := ls.client.Notify(ctx, method, body); err != nil {
		return Errorf(EUnavailable, "The notification could not be sent: %s", ls.redacted(err.Error()))
	}
	return nil
}

// callError describes the failure of a request on the session for the
// user, with the server's secrets redacted (an exit error quotes stderr).
func (ls *liveSession) callError(method string, err error) error {
	var rpcErr *mcpclient.RPCError
	if errors.As(err, &rpcErr) {
		return Errorf(EUnavailable, "%s failed: the server answered with JSON-RPC error %d: %s", method, rpcErr.Code, rpcErr.Message)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Errorf(EUnavailable, "%s timed out: the server did not answer in time.", method)
	}
	return Errorf(EUnavailable, "%s failed: %s", method, ls.redacted(err.Error()))
}

// Close closes every live session and waits until their ends are stored.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	for _, ls := range p.live {
		ls.requestClose("the playground shut down")
	}
	p.mu.Unlock()
	p.wg.Wait()
}
