package demoserver

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bonusTool is the tool that toggle_bonus adds and removes.
const bonusTool = "bonus"

// addDynamicTools registers toggle_bonus, which changes the server's tool
// list, so that clients receive notifications/tools/list_changed. The
// change is the server's, seen by every session.
func addDynamicTools(s *mcp.Server) {
	var mu sync.Mutex
	present := false
	mcp.AddTool(s, &mcp.Tool{Name: "toggle_bonus", Title: "Toggle bonus",
		Description: "Adds the tool \"bonus\" when it is missing and removes it when it is there; the server then sends notifications/tools/list_changed."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			mu.Lock()
			defer mu.Unlock()
			if present {
				s.RemoveTools(bonusTool)
				present = false
				return textResult("Removed the tool bonus."), nil, nil
			}
			mcp.AddTool(s, &mcp.Tool{Name: bonusTool, Title: "Bonus", Description: "A tool that toggle_bonus added."},
				func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
					return textResult("Bonus!"), nil, nil
				})
			present = true
			return textResult("Added the tool bonus."), nil, nil
		})
}
