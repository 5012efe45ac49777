package mcpclient

import (
	"context"
	"encoding/json"
	"time"
)

// NotificationSubscriptions says which change notifications a client wants
// on a subscriptions/listen stream (modern era). Each member opts in; a
// server sends nothing the client did not ask for.
type NotificationSubscriptions struct {
	ToolsListChanged     bool `json:"toolsListChanged,omitempty"`
	PromptsListChanged   bool `json:"promptsListChanged,omitempty"`
	ResourcesListChanged bool `json:"resourcesListChanged,omitempty"`
	// ResourceSubscriptions are the resource URIs whose
	// notifications/resources/updated the client wants; it replaces the
	// legacy resources/subscribe.
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// ResourceUpdated is the params of notifications/resources/updated.
type ResourceUpdated struct {
	URI  string          `json:"uri"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// Listen sends subscriptions/listen (modern era) and holds the request open
// until ctx ends, the server ends the subscription (it answers the request)
// or the connection closes. The server first sends
// notifications/subscriptions/acknowledged with the subset it honours, then
// the notifications asked for; all reach Options.OnNotification. Listen
// returns nil when the server ended the subscription, else why it ended
// (ctx's error once ctx is done: the client has then told the server it
// gave up, which ends the stream). Unlike other requests, a ctx without
// deadline gets no timeout: the stream is meant to last.
func (c *Client) Listen(ctx context.Context, subs NotificationSubscriptions) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Now().Add(listenLifetime))
		defer cancel()
	}
	_, err := c.Call(ctx, "subscriptions/listen", struct {
		Notifications NotificationSubscriptions `json:"notifications"`
	}{subs})
	return err
}

// listenLifetime stands for "no timeout" on a Listen whose ctx has no
// deadline (Call would otherwise give it the default request timeout).
const listenLifetime = 100 * 365 * 24 * time.Hour
