package backend

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// A live session's life: connecting, answering the server's requests,
// reacting to its notifications, and ending.

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
