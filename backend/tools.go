package backend

import (
	"context"

	"github.com/mcp-playground/playground/mcpclient"
)

// Tools returns the session's tools, listing them from the server the first
// time, whenever refresh is set and after the server said they changed.
// Like Call, it refuses to list them while recording fails.
func (p *Pool) Tools(ctx context.Context, sessionID int64, refresh bool) ([]mcpclient.Tool, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return nil, err
	}
	return ls.tools.get(refresh, func() ([]mcpclient.Tool, error) {
		if _, err := p.writable(sessionID); err != nil {
			return nil, err
		}
		tools, err := ls.client.ListTools(ctx)
		if err != nil {
			return nil, ls.callError("tools/list", err)
		}
		return tools, nil
	})
}

// Tool returns one tool of the session by name, or an ENotFound *Error.
func (p *Pool) Tool(ctx context.Context, sessionID int64, name string) (mcpclient.Tool, error) {
	tools, err := p.Tools(ctx, sessionID, false)
	if err != nil {
		return mcpclient.Tool{}, err
	}
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	return mcpclient.Tool{}, Errorf(ENotFound, "The server has no tool named %q.", name)
}
