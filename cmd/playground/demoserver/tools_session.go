//lint:file-ignore SA1019 the demo deliberately exercises sampling and logging, which SEP-2577 deprecates.

package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools in this file talk back to the client during a call: progress
// notifications, log messages, elicitation and sampling.
//
// Elicitation and sampling are requested by returning inputRequests from the
// handler (multi round-trip, SEP-2322) rather than by calling
// ServerSession.Elicit or CreateMessage directly: the SDK then delivers them
// inline to clients on protocol 2026-07-28, and, for older clients, sends
// elicitation/create or sampling/createMessage itself and calls the handler
// again with the answers. ServerSession.Elicit would fail on 2026-07-28
// sessions, which forbid server-initiated requests.

var (
	slowSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "seconds": {"type": "integer", "description": "Total duration in seconds.", "default": 3, "minimum": 0, "maximum": 60},
    "steps": {"type": "integer", "description": "Number of progress steps.", "default": 5, "minimum": 1, "maximum": 100}
  }
}`)

	summarizeSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "text": {"type": "string", "description": "Text for the client's model to summarise.", "minLength": 1}
  },
  "required": ["text"]
}`)

	logSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "level": {"type": "string", "description": "Log level.", "enum": ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"], "default": "info"},
    "message": {"type": "string", "description": "Log message."}
  },
  "required": ["message"]
}`)

	// askNameSchema is the form ask_name requests; elicitation schemas are
	// flat objects of primitive properties.
	askNameSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "title": "Your name", "description": "What should the server call you?", "minLength": 1},
    "formal": {"type": "boolean", "title": "Formal greeting", "default": false}
  },
  "required": ["name"]
}`)
)

// Input-request keys used by ask_name and summarize.
const (
	askNameKey   = "name"
	summarizeKey = "summary"
)

// addSessionTools registers slow, ask_name, summarize and log on s.
func addSessionTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Title: "Slow", Description: "Sleeps in steps, reporting progress when given a progressToken; stops early when cancelled.",
		InputSchema: slowSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, slow)
	mcp.AddTool(s, &mcp.Tool{Name: "ask_name", Title: "Ask name", Description: "Asks the user for their name through elicitation, then greets them.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, askName)
	mcp.AddTool(s, &mcp.Tool{Name: "summarize", Title: "Summarize", Description: "Asks the client's model, through sampling, to summarise the text.",
		InputSchema: summarizeSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, summarize)
	mcp.AddTool(s, &mcp.Tool{Name: "log", Title: "Log", Description: "Sends a notifications/message log entry at the given level.",
		InputSchema: logSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, logMessage)
}

type slowIn struct {
	Seconds int `json:"seconds"`
	Steps   int `json:"steps"`
}

// slow sleeps for seconds, split into steps. After each step it sends
// notifications/progress if the caller gave a progressToken. When ctx is
// cancelled it returns at once with an error wrapping ctx.Err().
func slow(ctx context.Context, req *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
	steps := max(in.Steps, 1)
	step := time.Duration(in.Seconds) * time.Second / time.Duration(steps)
	token := req.Params.GetProgressToken()
	timer := time.NewTimer(step)
	defer timer.Stop()
	for i := 1; i <= steps; i++ {
		select {
		case <-ctx.Done():
			return nil, nil, fmt.Errorf("slow: cancelled after %d of %d steps: %w", i-1, steps, ctx.Err())
		case <-timer.C:
		}
		if token != nil {
			err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(i),
				Total:         float64(steps),
				Message:       fmt.Sprintf("step %d of %d", i, steps),
			})
			if err != nil {
				return nil, nil, fmt.Errorf("slow: sending progress: %w", err)
			}
		}
		timer.Reset(step)
	}
	return textResult(fmt.Sprintf("Finished %d steps in %ds.", steps, in.Seconds)), nil, nil
}

// askName asks the user for a name and a formality preference through
// elicitation, then greets them. Declining or cancelling the form is a normal
// (non-error) result; a client without the elicitation capability gets an
// isError result.
func askName(_ context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
	if resp, ok := req.Params.InputResponses[askNameKey]; ok {
		res, ok := resp.(*mcp.ElicitResult)
		if !ok {
			return nil, nil, fmt.Errorf("ask_name: expected an elicitation result, got %T", resp)
		}
		if res.Action != "accept" {
			return textResult(fmt.Sprintf("No name given (the user chose %q).", res.Action)), nil, nil
		}
		name, _ := res.Content["name"].(string)
		if formal, _ := res.Content["formal"].(bool); formal {
			return textResult(fmt.Sprintf("Good day, %s.", name)), nil, nil
		}
		return textResult(fmt.Sprintf("Hi %s!", name)), nil, nil
	}
	if caps := clientCapabilities(req.Session); caps == nil || caps.Elicitation == nil {
		return errorResult("ask_name needs elicitation, but the client did not declare the elicitation capability."), nil, nil
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
		askNameKey: &mcp.ElicitParams{Mode: "form", Message: "What is your name?", RequestedSchema: askNameSchema},
	}}, nil, nil
}

type summarizeIn struct {
	Text string `json:"text"`
}

// summarize asks the client's model, through sampling, for a one-sentence
// summary of the text and returns it. A client without the sampling
// capability gets an isError result.
func summarize(_ context.Context, req *mcp.CallToolRequest, in summarizeIn) (*mcp.CallToolResult, any, error) {
	if resp, ok := req.Params.InputResponses[summarizeKey]; ok {
		model, content, err := samplingReply(resp)
		if err != nil {
			return nil, nil, fmt.Errorf("summarize: %w", err)
		}
		return textResult(fmt.Sprintf("Summary from %s: %s", model, content)), nil, nil
	}
	if caps := clientCapabilities(req.Session); caps == nil || caps.Sampling == nil {
		return errorResult("summarize needs sampling, but the client did not declare the sampling capability."), nil, nil
	}
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
		summarizeKey: &mcp.CreateMessageParams{
			SystemPrompt: "You summarise text in one sentence.",
			Messages: []*mcp.SamplingMessage{{
				Role:    "user",
				Content: &mcp.TextContent{Text: "Summarise in one sentence:\n\n" + in.Text},
			}},
			MaxTokens: 200,
		},
	}}, nil, nil
}

// samplingReply returns the model name and the text of a sampling response;
// non-text content is described by its type.
func samplingReply(resp mcp.InputResponse) (model, text string, err error) {
	var contents []mcp.Content
	switch r := resp.(type) {
	case *mcp.CreateMessageResult:
		model, contents = r.Model, []mcp.Content{r.Content}
	case *mcp.CreateMessageWithToolsResult:
		model, contents = r.Model, r.Content
	default:
		return "", "", fmt.Errorf("expected a sampling result, got %T", resp)
	}
	for _, c := range contents {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		} else if c != nil {
			text += fmt.Sprintf("[%T]", c)
		}
	}
	return model, text, nil
}

type logIn struct {
	Level   string `json:"level"`
	Message string `json:"message"`
}

// logMessage sends a notifications/message with the given level and message
// (logger "playground-demo"). The SDK drops it unless the client asked for
// that level or a lower one (logging/setLevel, or the per-request log level
// on protocol 2026-07-28).
func logMessage(ctx context.Context, req *mcp.CallToolRequest, in logIn) (*mcp.CallToolResult, any, error) {
	err := req.Session.Log(ctx, &mcp.LoggingMessageParams{
		Level:  mcp.LoggingLevel(in.Level),
		Logger: serverName,
		Data:   in.Message,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("log: %w", err)
	}
	return textResult(fmt.Sprintf("Sent a %s log message (delivered only if the client's log level is %s or lower).", in.Level, in.Level)), nil, nil
}

// clientCapabilities returns the capabilities the client declared, or nil.
func clientCapabilities(ss *mcp.ServerSession) *mcp.ClientCapabilities {
	if p := ss.InitializeParams(); p != nil {
		return p.Capabilities
	}
	return nil
}

// errorResult is an isError result holding one text content block.
func errorResult(text string) *mcp.CallToolResult {
	res := textResult(text)
	res.IsError = true
	return res
}
