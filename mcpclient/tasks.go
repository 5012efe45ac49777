package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Task statuses, in both the 2025-11-25 experimental tasks and the
// 2026-07-28 tasks extension.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// TasksExtension is the identifier of the 2026-07-28 tasks extension. A
// modern-era request made with WithTasks declares it in
// _meta["io.modelcontextprotocol/clientCapabilities"].extensions, which lets
// the server answer with a task (resultType "task") instead of a result.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Task status notifications: notifications/tasks/status in the legacy era,
// notifications/tasks in the modern one. Their params are a Task.
const (
	MethodTaskStatus       = "notifications/tasks/status"
	MethodTaskStatusModern = "notifications/tasks"
)

// Task is a task as the server reports it in a CreateTaskResult, a
// tasks/get, tasks/list or tasks/cancel result, or a status notification.
// The legacy era names the durations ttl and pollInterval, the modern era
// ttlMs and pollIntervalMs (all milliseconds); see TTL and PollEvery. In
// the modern era tasks/get carries the outcome inline: Result once
// completed, Error once failed, InputRequests while input_required.
type Task struct {
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt,omitempty"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt,omitempty"`
	TTLLegacy      *int64                     `json:"ttl,omitempty"`
	PollLegacy     *int64                     `json:"pollInterval,omitempty"`
	TTLMs          *int64                     `json:"ttlMs,omitempty"`
	PollIntervalMs *int64                     `json:"pollIntervalMs,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          *RPCError                  `json:"error,omitempty"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
}

// Terminal reports whether the task has ended: completed, failed or
// cancelled.
func (t Task) Terminal() bool {
	return t.Status == TaskCompleted || t.Status == TaskFailed || t.Status == TaskCancelled
}

// PollEvery returns the polling interval the server suggests, or 0 when
// it suggests none.
func (t Task) PollEvery() time.Duration {
	return millis(t.PollIntervalMs, t.PollLegacy)
}

// TTL returns the task's lifetime from its creation, or 0 when unlimited
// or not given.
func (t Task) TTL() time.Duration {
	return millis(t.TTLMs, t.TTLLegacy)
}

func millis(modern, legacy *int64) time.Duration {
	for _, v := range []*int64{modern, legacy} {
		if v != nil && *v > 0 {
			return time.Duration(*v) * time.Millisecond
		}
	}
	return 0
}

// ToolExecution is a tool's execution member: TaskSupport is "required",
// "optional", "forbidden" or "" (absent, which means forbidden).
type ToolExecution struct {
	TaskSupport string `json:"taskSupport,omitempty"`
}

// Tool task support values (ToolExecution.TaskSupport).
const (
	TaskSupportRequired  = "required"
	TaskSupportOptional  = "optional"
	TaskSupportForbidden = "forbidden"
)

// TaskSupport returns the tool's execution.taskSupport, "" when absent.
func (t Tool) TaskSupport() string {
	if t.Execution == nil {
		return ""
	}
	return t.Execution.TaskSupport
}

// WithTasks lets the request be answered by a task. In the modern era the
// request declares the tasks extension in its per-request capabilities and
// a result of resultType "task" is returned as it is (without it, such a
// result is an error). In the legacy era it changes nothing: augmenting a
// legacy request is done in its params (see StartToolCall).
func WithTasks() CallOption {
	return func(o *callOptions) { o.tasks = true }
}

// TaskParams is the task member of a task-augmented legacy request.
type TaskParams struct {
	TTL int64 `json:"ttl,omitempty"` // requested lifetime in milliseconds; 0 leaves it to the server
}

// StartToolCall calls the named tool so that the server may answer with a
// task. In the legacy era the request is augmented (params.task) when task
// is non-nil; in the modern era task is ignored, the request declares the
// tasks extension and the server decides. It returns either the tool's
// result (raw, as for a plain tools/call) or the task the server created,
// never both. opts are as for Call.
func (c *Client) StartToolCall(ctx context.Context, name string, args json.RawMessage, task *TaskParams, opts ...CallOption) (json.RawMessage, *Task, error) {
	params := struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments,omitempty"`
		Task      *TaskParams     `json:"task,omitempty"`
	}{Name: name, Arguments: args}
	if !c.isModern() {
		params.Task = task
	}
	raw, err := c.Call(ctx, "tools/call", params, append(opts, WithTasks())...)
	if err != nil {
		return nil, nil, err
	}
	t, err := createdTask(raw)
	if err != nil || t != nil {
		return nil, t, err
	}
	return raw, nil, nil
}

// createdTask decodes a CreateTaskResult: {"task": Task} in the legacy era,
// a Task with resultType "task" in the modern one. It returns nil for any
// other result.
func createdTask(raw json.RawMessage) (*Task, error) {
	var head struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
	}
	if json.Unmarshal(raw, &head) != nil {
		return nil, nil
	}
	body := raw
	switch {
	case head.ResultType == "task":
		if len(head.Task) > 0 && head.Task[0] == '{' {
			body = head.Task // drafts that nest the task
		}
	case len(head.Task) > 0 && head.Task[0] == '{':
		body = head.Task
	default:
		return nil, nil
	}
	var t Task
	if err := json.Unmarshal(body, &t); err != nil {
		return nil, fmt.Errorf("tools/call: malformed task: %w", err)
	}
	if t.TaskID == "" {
		return nil, errors.New("tools/call: the server's task has no taskId")
	}
	return &t, nil
}

type taskIDParams struct {
	TaskID string `json:"taskId"`
}

// GetTask sends tasks/get and returns the task's state.
func (c *Client) GetTask(ctx context.Context, taskID string) (Task, error) {
	raw, err := c.Call(ctx, "tasks/get", taskIDParams{taskID})
	if err != nil {
		return Task{}, err
	}
	var t Task
	if err := json.Unmarshal(raw, &t); err != nil {
		return Task{}, fmt.Errorf("tasks/get: malformed result: %w", err)
	}
	return t, nil
}

// TaskResult sends tasks/result (legacy era), which the server answers once
// the task has ended, with the result of the request the task ran (for
// tools/call, a CallToolResult), returned raw. A failed or cancelled task
// comes back as the server's error. The modern era has no tasks/result: its
// tasks/get carries the result (Task.Result).
func (c *Client) TaskResult(ctx context.Context, taskID string) (json.RawMessage, error) {
	if c.isModern() {
		return nil, errors.New("tasks/result: the modern era has no tasks/result; the result comes with tasks/get")
	}
	return c.Call(ctx, "tasks/result", taskIDParams{taskID})
}

// CancelTask sends tasks/cancel. The legacy era answers with the task
// (returned); the modern era with an empty acknowledgement (nil Task).
func (c *Client) CancelTask(ctx context.Context, taskID string) (*Task, error) {
	raw, err := c.Call(ctx, "tasks/cancel", taskIDParams{taskID})
	if err != nil {
		return nil, err
	}
	var t Task
	if json.Unmarshal(raw, &t) != nil || t.TaskID == "" {
		return nil, nil
	}
	return &t, nil
}

// ListTasksPage sends one tasks/list (legacy era): the first page when
// cursor is "", else the one it names.
func (c *Client) ListTasksPage(ctx context.Context, cursor string) (Page[Task], error) {
	return listPage[Task](ctx, c, "tasks/list", "tasks", cursor)
}

// UpdateTask answers the inputRequests of a modern-era input_required task:
// Options.Handler answers each (as for an input_required result) and the
// answers go to the server in tasks/update.
func (c *Client) UpdateTask(ctx context.Context, taskID string, inputRequests map[string]json.RawMessage) error {
	responses, err := c.answerInputRequests(ctx, "tasks/update", inputRequests)
	if err != nil {
		return err
	}
	_, err = c.Call(ctx, "tasks/update", struct {
		TaskID         string          `json:"taskId"`
		InputResponses json.RawMessage `json:"inputResponses"`
	}{taskID, responses})
	return err
}

// HasCapability reports whether the capabilities object caps declares the
// member at path, such as ("tasks", "requests", "tools", "call"): whether
// there is a JSON object there.
func HasCapability(caps json.RawMessage, path ...string) bool {
	cur := caps
	for _, key := range path {
		v, ok, err := getMember(cur, key)
		if err != nil || !ok || len(v) == 0 || v[0] != '{' {
			return false
		}
		cur = v
	}
	return true
}

// tasksCapabilities returns caps (a JSON object) with the tasks extension
// declared under extensions, for the modern requests made WithTasks.
func tasksCapabilities(caps json.RawMessage) json.RawMessage {
	ext, _, err := getMember(caps, "extensions")
	if err != nil || ext == nil || ext[0] != '{' {
		ext = json.RawMessage(`{}`)
	}
	if ext, err = setMember(ext, TasksExtension, json.RawMessage(`{}`), true); err != nil {
		return caps
	}
	out, err := setMember(caps, "extensions", ext, true)
	if err != nil {
		return caps
	}
	return out
}
