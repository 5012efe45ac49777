package check

import (
	"context"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// LiveClients hands out the connection of a live session, as
// backend.Pool.Client does.
type LiveClients interface {
	Client(sessionID int64) (*mcpclient.Client, error)
}

// Checker runs the checks over live sessions of a pool, as the
// dashboard's "Check this server" does.
type Checker struct {
	clients LiveClients
	rec     Flusher
	store   FrameLister
	opts    Options
}

// NewChecker returns a Checker of the sessions clients hands out, whose
// frames rec records into store.
func NewChecker(clients LiveClients, rec Flusher, store FrameLister, o Options) *Checker {
	return &Checker{clients: clients, rec: rec, store: store, opts: o}
}

// CheckSession runs the checks over the live session sessionID: on its
// connection, recorded with the session's traffic. The evidence and the
// protocol-lint check are the frames recorded from the run's start (the
// session's earlier traffic is its own). It returns an EConflict
// *backend.Error for a session that is not live.
func (c *Checker) CheckSession(ctx context.Context, sessionID int64) (Report, error) {
	clients, rec, store := c.clients, c.rec, c.store
	client, err := clients.Client(sessionID)
	if err != nil {
		return Report{}, err
	}
	if err := rec.Flush(ctx); err != nil {
		return Report{}, err
	}
	newest, err := store.ListFrames(ctx, backend.FrameQuery{SessionID: sessionID, Newest: true, Limit: 1, BodyPreview: 1})
	if err != nil {
		return Report{}, err
	}
	var after int64
	if len(newest) > 0 {
		after = newest[0].ID
	}
	return Run(ctx, Conn{Client: client, Frames: StoredFramesAfter(rec, store, sessionID, after)}, c.opts)
}
