package demoserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// deleteNoteSchema is delete_note's input: the note to delete.
var deleteNoteSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "id": {"type": "string", "description": "The note to delete.", "minLength": 1, "default": "note-1"}
  },
  "required": ["id"]
}`)

// addDestructiveTools registers delete_note, a tool annotated
// destructiveHint true, so that a client's confirmation step can be tried.
// It is harmless: the server keeps no notes, so nothing is lost.
func addDestructiveTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "delete_note", Title: "Delete note",
		Description: "Pretends to delete a note (the server keeps none, so nothing is lost); annotated destructiveHint true.",
		InputSchema: deleteNoteSchema, Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true}}, deleteNote)
}

type deleteNoteIn struct {
	ID string `json:"id"`
}

// deleteNote says which note it would have deleted.
func deleteNote(_ context.Context, _ *mcp.CallToolRequest, in deleteNoteIn) (*mcp.CallToolResult, any, error) {
	return textResult("Deleted note " + in.ID + "."), nil, nil
}
