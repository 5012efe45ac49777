package backend

import "github.com/mcp-playground/playground/mcpclient"

// MCP wire types that the layers above the backend show to people. They
// are the mcpclient types themselves, named here so that web and views
// depend on the backend only.
type (
	Tool           = mcpclient.Tool
	Content        = mcpclient.Content
	CallToolResult = mcpclient.CallToolResult
	JSONRPCError   = mcpclient.RPCError
	HTTPInfo       = mcpclient.HTTPInfo
	Annotations    = mcpclient.Annotations
	Implementation = mcpclient.Implementation

	ResourceContents   = mcpclient.ResourceContents
	ReadResourceResult = mcpclient.ReadResourceResult

	// ResourcePage and ResourceTemplatePage are one page of a server's
	// resources/list and resources/templates/list.
	ResourcePage         = mcpclient.Page[mcpclient.Resource]
	ResourceTemplatePage = mcpclient.Page[mcpclient.ResourceTemplate]

	// WireFrame is one unit of traffic as the wire layer taps it, before
	// the recorder classifies and stores it as a Frame.
	WireFrame = mcpclient.Frame
	// Direction says which way a frame travelled, seen from the client.
	Direction = mcpclient.Direction
	// FrameKind says what a frame holds: a message, unparsable bytes, a
	// stderr line or a transport event.
	FrameKind = mcpclient.FrameKind
)

// Frame directions and kinds, as the wire layer names them.
const (
	Outbound = mcpclient.Outbound
	Inbound  = mcpclient.Inbound
	Stderr   = mcpclient.Stderr

	KindMessage    = mcpclient.KindMessage
	KindParseError = mcpclient.KindParseError
	KindLog        = mcpclient.KindLog
	KindTransport  = mcpclient.KindTransport
)
