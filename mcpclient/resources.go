package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
)

// Resource is one entry of a resources/list result. Annotations, icons and
// _meta are kept raw.
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Icons       json.RawMessage `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ResourceTemplate is one entry of a resources/templates/list result.
// URITemplate is an RFC 6570 URI template.
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	Icons       json.RawMessage `json:"icons,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// ResourceContents is one item of a resources/read result: text contents
// (Text) or binary contents (Blob, base64). An empty text resource has
// both empty; ReadResourceResult.Raw tells them apart if that matters.
type ResourceContents struct {
	URI      string          `json:"uri"`
	MimeType string          `json:"mimeType,omitempty"`
	Text     string          `json:"text,omitempty"`
	Blob     string          `json:"blob,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// ReadResourceResult is the result of resources/read.
type ReadResourceResult struct {
	Contents []ResourceContents `json:"contents"`
	Meta     json.RawMessage    `json:"_meta,omitempty"`
	Raw      json.RawMessage    `json:"-"` // the whole result, as the server sent it
}

// ReadResource reads the resource at uri (resources/read).
func (c *Client) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, error) {
	raw, err := c.Call(ctx, "resources/read", ResourceParams{uri})
	if err != nil {
		return nil, err
	}
	res := ReadResourceResult{Raw: raw}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("resources/read: malformed result: %w", err)
	}
	return &res, nil
}

// Subscribe asks the server for notifications/resources/updated about uri
// (resources/subscribe; legacy era). The notifications reach
// Options.OnNotification.
func (c *Client) Subscribe(ctx context.Context, uri string) error {
	_, err := c.Call(ctx, "resources/subscribe", ResourceParams{uri})
	return err
}

// Unsubscribe cancels a Subscribe (resources/unsubscribe; legacy era).
func (c *Client) Unsubscribe(ctx context.Context, uri string) error {
	_, err := c.Call(ctx, "resources/unsubscribe", ResourceParams{uri})
	return err
}

// ResourceParams are the params of resources/read, resources/subscribe and
// resources/unsubscribe: the resource's URI.
type ResourceParams struct {
	URI string `json:"uri"`
}

// SetLoggingLevel asks the server to send notifications/message at level
// and above (logging/setLevel; legacy era). Levels are the syslog names:
// debug, info, notice, warning, error, critical, alert, emergency.
func (c *Client) SetLoggingLevel(ctx context.Context, level string) error {
	_, err := c.Call(ctx, "logging/setLevel", struct {
		Level string `json:"level"`
	}{level})
	return err
}
