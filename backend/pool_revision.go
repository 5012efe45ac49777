package backend

import (
	"context"
	"errors"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// WithRevisions makes the pool keep each server's interface revisions in
// store: after every connect it lists what the server offers and stores
// it as a new revision when it differs from the server's latest one.
func WithRevisions(store RevisionStore) PoolOption {
	return func(p *Pool) { p.revisions = store }
}

// revisionTimeout bounds the listing of a session's interface.
const revisionTimeout = 30 * time.Second

// revisionStoreTimeout bounds storing a revision once listed.
const revisionStoreTimeout = 5 * time.Second

// revisionTaking is the taking of a session's revisions: done is closed
// once the first is over, err is set (before that) when it failed; relist
// holds a pending list_changed notification.
type revisionTaking struct {
	done   chan struct{}
	err    error
	relist chan struct{}
}

func newRevisionTaking() revisionTaking {
	return revisionTaking{done: make(chan struct{}), relist: make(chan struct{}, 1)}
}

// changed notes that the server said a list changed. It never blocks:
// notifications that come while one is pending are folded into it.
func (r *revisionTaking) changed() {
	select {
	case r.relist <- struct{}{}:
	default:
	}
}

// takeRevision lists the session's interface right after connect and
// stores it as a revision when it changed; then, until the session ends,
// it does so again after each list_changed notification. Each listing is
// bounded by revisionTimeout and by the session's life (ls.bg). A listing
// that fails stores nothing: the next connect or notification tries again.
// It runs in the background, is the pool's (p.wg) and ends before Close
// returns.
func (p *Pool) takeRevision(ls *liveSession) {
	defer p.wg.Done()
	if p.revisions == nil {
		close(ls.revision.done)
		return
	}
	// The first listing covers notifications that came before it.
	select {
	case <-ls.revision.relist:
	default:
	}
	ls.revision.err = p.takeOneRevision(ls)
	close(ls.revision.done)
	for {
		select {
		case <-ls.bg.Done():
			return
		case <-ls.revision.relist:
			_ = p.takeOneRevision(ls) // logged; a later change tries again
		}
	}
}

// takeOneRevision lists and stores one revision; it logs and returns why
// that failed.
func (p *Pool) takeOneRevision(ls *liveSession) error {
	ctx, cancel := context.WithTimeout(ls.bg, revisionTimeout)
	defer cancel()
	listing, err := p.listInterface(ctx, ls)
	if err == nil {
		err = p.storeRevision(ls, listing)
	}
	if err != nil && ls.bg.Err() == nil {
		p.log.Warn("interface revision not taken", "session", ls.session.ID, "server", ls.session.ServerID, "err", err)
	}
	return err
}

// listInterface lists every page of each kind the server declares a
// capability for; a kind without one is an empty list.
func (p *Pool) listInterface(ctx context.Context, ls *liveSession) (InterfaceListing, error) {
	caps := ls.client.InitializeResult().Capabilities
	id := ls.session.ID
	var (
		tools     []Tool
		prompts   []Prompt
		resources []Resource
		templates []ResourceTemplate
		err       error
	)
	if hasCapability(caps, "tools") {
		if tools, err = p.Tools(ctx, id, false); err != nil {
			return InterfaceListing{}, err
		}
	}
	if hasCapability(caps, "prompts") {
		if prompts, err = p.Prompts(ctx, id, false); err != nil {
			return InterfaceListing{}, err
		}
	}
	if hasCapability(caps, "resources") {
		if _, err := p.writable(id); err != nil {
			return InterfaceListing{}, err
		}
		if resources, err = ls.client.ListResources(ctx); err != nil {
			return InterfaceListing{}, ls.callError("resources/list", err)
		}
		// A server may offer resources but no templates at all.
		var rpcErr *mcpclient.RPCError
		if templates, err = ls.client.ListResourceTemplates(ctx); errors.As(err, &rpcErr) && rpcErr.Code == methodNotFound {
			templates, err = nil, nil
		}
		if err != nil {
			return InterfaceListing{}, ls.callError("resources/templates/list", err)
		}
	}
	return NewInterfaceListing(tools, resources, templates, prompts)
}

// storeRevision stores listing as the server's next revision unless it is
// the server's latest one. A listing complete before the session ended is
// still stored.
func (p *Pool) storeRevision(ls *liveSession, listing InterfaceListing) error {
	body, hash, err := listing.Encode()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), revisionStoreTimeout)
	defer cancel()
	_, _, err = p.revisions.AddRevision(ctx, ls.session.ServerID, ls.session.ID, body, hash, time.Now())
	return err
}

// AwaitRevision waits until the live session's first interface revision
// was taken, or failed, or ctx ended, and returns why it failed (an *Error of
// the listing, or the store's error), or ctx's error. It returns an
// EConflict *Error when the session is not live in this pool.
func (p *Pool) AwaitRevision(ctx context.Context, sessionID int64) error {
	ls, err := p.get(sessionID)
	if err != nil {
		return err
	}
	select {
	case <-ls.revision.done:
		return ls.revision.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// methodNotFound is the JSON-RPC error code for an unknown method.
const methodNotFound = -32601
