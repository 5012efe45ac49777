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

	ResourceContents   = mcpclient.ResourceContents
	ReadResourceResult = mcpclient.ReadResourceResult
)
