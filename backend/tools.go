package backend

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Tools returns the session's tools, listing them from the server the first
// time, whenever refresh is set and after the server said they changed.
// Like Call, it refuses to list them while recording fails.
func (p *Pool) Tools(ctx context.Context, sessionID int64, refresh bool) ([]mcpclient.Tool, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return nil, err
	}
	return ls.tools.get(refresh, func() ([]mcpclient.Tool, error) {
		if _, err := p.writable(sessionID); err != nil {
			return nil, err
		}
		tools, err := ls.client.ListTools(ctx)
		if err != nil {
			return nil, ls.callError("tools/list", err)
		}
		return tools, nil
	})
}

// Tool returns one tool of the session by name, or an ENotFound *Error.
func (p *Pool) Tool(ctx context.Context, sessionID int64, name string) (mcpclient.Tool, error) {
	tools, err := p.Tools(ctx, sessionID, false)
	if err != nil {
		return mcpclient.Tool{}, err
	}
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	return mcpclient.Tool{}, Errorf(ENotFound, "The server has no tool named %q.", name)
}

// ToolCallResult is the outcome of CallTool: the tool's result (or the
// JSON-RPC error) as for Call, and, when the call ran as a task, the task
// in its last known state.
type ToolCallResult struct {
	CallResult
	Task *Task
}

// CallTool calls a tool on a live session, registered and followed as
// CallWith does with o. With asTask (see RunsAsTask) the legacy request is
// task-augmented; in the modern era the request declares the tasks
// extension and the server may answer with a task either way. A task is
// then followed to its end: tasks/get every poll interval (bounded by
// minTaskPoll and maxTaskPoll), each change of status published on the hub
// as an Event with Task set; a modern input_required task has its input
// requests answered (the inbox asks a person) with tasks/update; the legacy
// era fetches the result with tasks/result, which the server answers once
// the task ends (sending its own requests meanwhile). CancelCall sends
// tasks/cancel and the call returns ErrCallCancelled; ctx's deadline ends
// the wait but leaves the task to the server. A failed task is a
// CallResult with Error set, as a JSON-RPC error answer is.
func (p *Pool) CallTool(ctx context.Context, sessionID int64, tool Tool, args json.RawMessage, asTask bool, o CallOptions) (ToolCallResult, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return ToolCallResult{}, err
	}
	ctx, opts, done, err := p.register(ctx, ls, o)
	if err != nil {
		return ToolCallResult{}, err
	}
	defer done()
	var augment *mcpclient.TaskParams
	if asTask {
		augment = &mcpclient.TaskParams{TTL: taskTTL.Milliseconds()}
	}
	opts, noteFrame, release := p.responseFrameNoter(ls, o, opts)
	defer release()
	start := time.Now()
	raw, created, err := ls.client.StartToolCall(ctx, tool.Name, args, augment, opts...)
	res, err := p.answer(ctx, ls, o, "tools/call", raw, err, start)
	if err != nil || created == nil {
		if err == nil {
			noteFrame(ctx, &res)
		}
		return ToolCallResult{CallResult: res}, err
	}
	t := &Task{Task: *created, Tool: tool.Name, Started: start}
	ls.tasks.put(*t)
	if o.ID != "" {
		defer ls.tasks.follow(t.TaskID, o.ID)()
	}
	p.publishTask(sessionID, o.ID, t.Task)
	res, err = p.followTask(ctx, ls, o, t)
	res.Latency = time.Since(start)
	return ToolCallResult{CallResult: res, Task: t}, err
}
