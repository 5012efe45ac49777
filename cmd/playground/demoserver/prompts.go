package demoserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// languages are the completions offered for code_review's language argument.
var languages = []string{
	"bash", "c", "cpp", "csharp", "go", "haskell", "java", "javascript", "kotlin",
	"python", "ruby", "rust", "sql", "swift", "typescript",
}

// maxCompletions is the most values one completion/complete result carries.
const maxCompletions = 100

// addPrompts registers the demo prompts on s.
func addPrompts(s *mcp.Server) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "code_review",
		Title:       "Code review",
		Description: "Asks the model to review a piece of code.",
		Arguments: []*mcp.PromptArgument{
			{Name: "language", Title: "Language", Description: "Programming language (completable).", Required: true},
			{Name: "code", Title: "Code", Description: "The code to review.", Required: true},
		},
	}, codeReview)
	s.AddPrompt(&mcp.Prompt{
		Name:        "greeting",
		Title:       "Greeting",
		Description: "A friendly greeting; the name is optional.",
		Arguments: []*mcp.PromptArgument{
			{Name: "name", Title: "Name", Description: "Who to greet (completable from the demo users); defaults to \"world\"."},
		},
	}, greetingPrompt)
}

// codeReview returns one user message asking for a review of the code. It
// fails with an invalid-params error when language or code is missing.
func codeReview(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	args := req.Params.Arguments
	for _, name := range []string{"language", "code"} {
		if strings.TrimSpace(args[name]) == "" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("code_review: missing required argument %q", name)}
		}
	}
	text := fmt.Sprintf("Please review this %s code. Point out bugs, unclear names and missing tests.\n\n```%s\n%s\n```",
		args["language"], args["language"], args["code"])
	return &mcp.GetPromptResult{
		Description: "Review of " + args["language"] + " code",
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}},
	}, nil
}

// greetingPrompt returns a user message and an assistant reply greeting
// name, or "world" when it is empty.
func greetingPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	name := strings.TrimSpace(req.Params.Arguments["name"])
	if name == "" {
		name = "world"
	}
	return &mcp.GetPromptResult{
		Description: "Greeting for " + name,
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: "Please greet " + name + " warmly."}},
			{Role: "assistant", Content: &mcp.TextContent{Text: "Hello, " + name + "! It is lovely to see you."}},
		},
	}, nil
}

// complete is the server's CompletionHandler. It completes code_review's
// language, greeting's name and the users template's id by case-insensitive
// prefix; anything else completes to no values.
func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref, arg := req.Params.Ref, req.Params.Argument
	if ref == nil {
		ref = &mcp.CompleteReference{}
	}
	var candidates []string
	switch {
	case ref.Type == "ref/prompt" && ref.Name == "code_review" && arg.Name == "language":
		candidates = languages
	case ref.Type == "ref/prompt" && ref.Name == "greeting" && arg.Name == "name":
		for _, u := range users {
			candidates = append(candidates, u.Name)
		}
	case ref.Type == "ref/resource" && ref.URI == userTemplate && arg.Name == "id":
		for _, u := range users {
			candidates = append(candidates, u.ID)
		}
	}
	values := []string{} // never null on the wire
	prefix := strings.ToLower(arg.Value)
	for _, c := range candidates {
		if strings.HasPrefix(strings.ToLower(c), prefix) {
			values = append(values, c)
		}
	}
	total := len(values)
	if total > maxCompletions {
		values = values[:maxCompletions]
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{
		Values:  values,
		Total:   total,
		HasMore: total > maxCompletions,
	}}, nil
}
