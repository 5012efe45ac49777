package backend

import "github.com/mcp-playground/playground/mcpclient"

// Client returns the connection of the live session sessionID, for a
// caller that speaks to the server in ways the pool's own methods do not
// (the active checks of backend/check: HTTP probes, requests built to be
// refused). Everything sent on it is recorded with the session's traffic,
// secrets redacted, as the pool's own requests are. The pool still owns
// the connection: the caller must not close it, and must not use it once
// the session has ended. Like Call, it refuses while recording fails, and
// returns an EConflict *Error for a session that is not live.
func (p *Pool) Client(sessionID int64) (*mcpclient.Client, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return nil, err
	}
	return ls.client, nil
}
