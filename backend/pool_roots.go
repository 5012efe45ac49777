package backend

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Roots methods of the protocol.
const (
	// MethodRootsList is the server's request for the client's roots.
	MethodRootsList = mcpclient.MethodRootsList
	// MethodRootsChanged is the client's notification that its roots changed.
	MethodRootsChanged = "notifications/roots/list_changed"
)

// rootsList answers roots/list with the roots registered for the server
// at the time of the request, so that an edit reaches live sessions.
func (p *Pool) rootsList(serverID int64) mcpclient.HandlerFunc {
	return func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
		srv, err := p.servers.GetServer(ctx, serverID)
		if err != nil {
			p.log.Error("reading roots for roots/list", "server", serverID, "err", err)
			return nil, &mcpclient.RPCError{Code: -32603, Message: "The playground could not read this server's roots."}
		}
		var res mcpclient.ListRootsResult
		for _, r := range srv.Roots {
			res.Roots = append(res.Roots, mcpclient.Root{URI: r.URI, Name: r.Name})
		}
		return json.Marshal(res)
	}
}

// rootsNotifyTimeout bounds sending notifications/roots/list_changed to one session.
const rootsNotifyTimeout = 5 * time.Second

// RootsChanged tells every live legacy-era session of the server that its
// roots changed (notifications/roots/list_changed), so that the server asks
// again. The modern era has no such notification: a server reads roots
// when it needs them. A session that cannot be told gets a note in its
// recorded traffic saying so.
func (p *Pool) RootsChanged(ctx context.Context, serverID int64) {
	p.mu.Lock()
	var targets []*liveSession
	for _, ls := range p.live {
		if ls.session.ServerID == serverID && ls.client.Era() == mcpclient.EraLegacy {
			targets = append(targets, ls)
		}
	}
	p.mu.Unlock()
	for _, ls := range targets {
		nctx, cancel := context.WithTimeout(ctx, rootsNotifyTimeout)
		err := ls.client.Notify(nctx, MethodRootsChanged, nil)
		cancel()
		if err != nil {
			p.recordNote(ls.session.ID, ls.redacted("the roots changed, but the server could not be told: "+err.Error()))
		}
	}
}
