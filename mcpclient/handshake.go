package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// supportedVersions are the protocol versions of the legacy era, which this
// client speaks; a server choosing any other version is refused.
var supportedVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

// handshake starts the connection in the era Options.Era asks for (see
// start in era.go): initialize and notifications/initialized, or
// server/discover, within ctx and Options.InitializeTimeout. On failure it
// closes c and explains why.
func (c *Client) handshake(ctx context.Context) (*Client, error) {
	if err := c.start(ctx); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// initializeAgain runs the initialize handshake again, for a new session.
func (c *Client) initializeAgain(ctx context.Context) error { return c.initialize(ctx, true) }

// initialize runs the initialize handshake: the initialize request, then
// notifications/initialized. The first handshake of a connection records
// the InitializeResult; a later one (again), after the server lost the
// session, keeps the first result and only updates the version.
func (c *Client) initialize(ctx context.Context, again bool) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.InitializeTimeout)
	defer cancel()
	raw, err := c.Call(ctx, "initialize", struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      Implementation  `json:"clientInfo"`
	}{ProtocolVersion: c.opts.ProtocolVersion, Capabilities: c.legacyCaps, ClientInfo: c.opts.ClientInfo})
	if err != nil {
		return exitedDuring("initialize", err)
	}
	var res InitializeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("initialize: malformed result: %w", err)
	}
	if !slices.Contains(supportedVersions, res.ProtocolVersion) {
		return fmt.Errorf("initialize: server chose protocol version %q; this client speaks %s",
			res.ProtocolVersion, strings.Join(supportedVersions, ", "))
	}
	if !again {
		c.initRes = res
	}
	c.mu.Lock()
	c.protocolVersion = res.ProtocolVersion
	c.mu.Unlock()
	return c.Notify(ctx, "notifications/initialized", nil)
}
