package views

import (
	"context"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
)

// viewerKey holds, in a request's context, who is signed in.
type viewerKey struct{}

// WithViewer returns ctx noting that p is signed in; pages read it to show
// who is signed in and to offer only what their role may do.
func WithViewer(ctx context.Context, p accounts.Principal) context.Context {
	return context.WithValue(ctx, viewerKey{}, p)
}

// ViewerOf returns who is signed in, if anyone.
func ViewerOf(ctx context.Context) (accounts.Principal, bool) {
	p, ok := ctx.Value(viewerKey{}).(accounts.Principal)
	return p, ok
}

// may reports whether the person signed in has at least the role need.
// Pages hide controls they may not use; the server refuses them anyway.
func may(ctx context.Context, need backend.Role) bool {
	p, ok := ViewerOf(ctx)
	return ok && p.Role.Allows(need)
}

// CanEdit reports whether the person signed in may connect, call and
// change things (editor or admin).
func CanEdit(ctx context.Context) bool { return may(ctx, backend.RoleEditor) }

// IsAdmin reports whether the person signed in is an admin.
func IsAdmin(ctx context.Context) bool { return may(ctx, backend.RoleAdmin) }

// mayFix reports whether the person may change srv's settings: editors
// may change HTTP servers, only admins stdio servers.
func mayFix(ctx context.Context, srv backend.Server) bool {
	if srv.Transport == backend.TransportStdio {
		return IsAdmin(ctx)
	}
	return CanEdit(ctx)
}
