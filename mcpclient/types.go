package mcpclient

import "encoding/json"

// Implementation names a client or server implementation, as exchanged in
// the initialize handshake.
type Implementation struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version"`
	Description string `json:"description,omitempty"`
	WebsiteURL  string `json:"websiteUrl,omitempty"`
	Icons       []Icon `json:"icons,omitempty"`
}

// Icon is an image that names an implementation, a tool or a resource. Src
// is an https URL or a data: URI; both come from the peer and are untrusted.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// InitializeResult is what the server answered to initialize.
// Capabilities is kept raw so that callers see exactly what the server
// declared.
type InitializeResult struct {
	ProtocolVersion string          `json:"protocolVersion"`
	ServerInfo      Implementation  `json:"serverInfo"`
	Capabilities    json.RawMessage `json:"capabilities,omitempty"`
	Instructions    string          `json:"instructions,omitempty"`
}

// Notification is a server-to-client JSON-RPC notification.
type Notification struct {
	Method string
	Params json.RawMessage // nil when the notification had no params
}

// Tool is one entry of a tools/list result. The schemas, annotations and
// _meta are kept raw: they are JSON Schema documents, hints and extension
// data (such as an MCP App's _meta.ui) that callers interpret.
type Tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	Execution    *ToolExecution  `json:"execution,omitempty"` // whether it runs as a task (tasks.go)
	Meta         json.RawMessage `json:"_meta,omitempty"`
}

// Content is one block of tool output. Type is "text", "image", "audio",
// "resource_link" or "resource"; which other fields are set depends on it:
// Text for text; Data (base64) and MimeType for image and audio; URI, Name,
// Description and MimeType for resource_link; Resource (the embedded resource contents,
// raw) for resource.
//
// Title, Description and Size describe a resource_link; Annotations and
// Meta (_meta) may come with any block.
type Content struct {
	Type        string          `json:"type"`
	Text        string          `json:"text,omitempty"`
	Data        string          `json:"data,omitempty"`
	MimeType    string          `json:"mimeType,omitempty"`
	URI         string          `json:"uri,omitempty"`
	Name        string          `json:"name,omitempty"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Resource    json.RawMessage `json:"resource,omitempty"`
	Annotations *Annotations    `json:"annotations,omitempty"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

// Annotations are hints about a content block or resource: who it is for
// ("user", "assistant"), how important it is (0 to 1) and when it last
// changed (ISO 8601).
type Annotations struct {
	Audience     []string `json:"audience,omitempty"`
	Priority     *float64 `json:"priority,omitempty"`
	LastModified string   `json:"lastModified,omitempty"`
}

// CallToolResult is the result of tools/call. IsError reports a failure of
// the tool itself, which is a normal result, not a protocol error.
type CallToolResult struct {
	Content           []Content       `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	Meta              json.RawMessage `json:"_meta,omitempty"`
}
