package mcpclient

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"time"
)

// In the legacy era the client may run a server's sampling and elicitation
// requests as tasks (2025-11-25): it declares tasks.requests for the ones
// its Handler answers, answers a task-augmented request at once with a
// CreateTaskResult, has the Handler answer in the background, and serves
// the server's tasks/get, tasks/result, tasks/list and tasks/cancel. The
// modern era has no client-hosted tasks.

// hostedTasks are the tasks a Client runs for its server.
type hostedTasks struct {
	mu    sync.Mutex
	tasks map[string]*hostedTask
	order []string // ids, oldest first
}

type hostedTask struct {
	task   Task            // guarded by hostedTasks.mu
	result json.RawMessage // set before done is closed
	err    *RPCError       // set before done is closed
	done   chan struct{}
	cancel context.CancelFunc
}

// maxHostedTasks bounds how many tasks a Client keeps; the oldest ended
// ones are forgotten first.
const maxHostedTasks = 64

// hostedTaskTTL is the lifetime the client reports for its tasks;
// hostedTaskPoll the poll interval it suggests.
const (
	hostedTaskTTL  = 30 * time.Minute
	hostedTaskPoll = 500 * time.Millisecond
)

// hostedTasksCapabilities returns caps with the legacy tasks capability
// added for the task-augmentable requests caps declares (sampling,
// elicitation), and whether it added it: caps are unchanged when they
// declare neither, or declare tasks already (the Handler then serves its
// own tasks).
func hostedTasksCapabilities(caps json.RawMessage) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(caps, &m) != nil || m["tasks"] != nil {
		return caps, false
	}
	requests := map[string]any{}
	if m["sampling"] != nil {
		requests["sampling"] = map[string]any{"createMessage": struct{}{}}
	}
	if m["elicitation"] != nil {
		requests["elicitation"] = map[string]any{"create": struct{}{}}
	}
	if len(requests) == 0 {
		return caps, false
	}
	tasks, _ := marshal(map[string]any{"list": struct{}{}, "cancel": struct{}{}, "requests": requests})
	out, err := setMember(caps, "tasks", tasks, false)
	if err != nil {
		return caps, false
	}
	return out, true
}

// hostedTaskMethods are the requests a server may augment with a task.
var hostedTaskMethods = []string{MethodSample, MethodElicit}

// hostRequest answers the server requests that concern client-hosted
// tasks; handled is false for any other request, and for every request
// when the client hosts no tasks.
func (c *Client) hostRequest(method string, params json.RawMessage) (res json.RawMessage, rpcErr *RPCError, handled bool) {
	if !c.hosting || c.isModern() {
		return nil, nil, false
	}
	if family, name, ok := strings.Cut(method, "/"); ok && slices.Contains(hostedTaskMethods, method) {
		task, _, _ := getMember(params, "task")
		if len(task) == 0 || task[0] != '{' || !HasCapability(c.legacyCaps, "tasks", "requests", family, name) {
			return nil, nil, false // answered normally, as the spec asks of undeclared ones
		}
		inner, err := deleteMember(params, "task")
		if err != nil {
			return nil, nil, false
		}
		res, rpcErr = c.startHosted(method, inner)
		return res, rpcErr, true
	}
	var p struct {
		TaskID string `json:"taskId"`
	}
	_ = json.Unmarshal(params, &p)
	switch method {
	case "tasks/list":
		res, rpcErr = c.host.list()
	case "tasks/get":
		res, rpcErr = c.host.get(p.TaskID)
	case "tasks/cancel":
		res, rpcErr = c.host.cancelTask(p.TaskID)
	case "tasks/result":
		res, rpcErr = c.host.result(c.ctx, p.TaskID)
	default:
		return nil, nil, false
	}
	return res, rpcErr, true
}

// startHosted creates a task for a task-augmented server request (params
// without their task member) and has the Handler answer it in a goroutine that Close waits for.
func (c *Client) startHosted(method string, params json.RawMessage) (json.RawMessage, *RPCError) {
	c.mu.Lock()
	if c.closing || c.ended {
		c.mu.Unlock()
		return nil, &RPCError{Code: codeInternalError, Message: "the client is closing"}
	}
	c.handlers.Add(1)
	c.mu.Unlock()
	now := time.Now().UTC().Format(time.RFC3339Nano)
	ttl, poll := hostedTaskTTL.Milliseconds(), hostedTaskPoll.Milliseconds()
	ctx, cancel := context.WithCancel(c.ctx)
	ht := &hostedTask{
		task:   Task{TaskID: rand.Text(), Status: TaskWorking, CreatedAt: now, LastUpdatedAt: now, TTLLegacy: &ttl, PollLegacy: &poll},
		done:   make(chan struct{}),
		cancel: cancel,
	}
	c.host.add(ht)
	created, _ := marshal(map[string]any{"task": ht.task})
	go func() {
		defer c.handlers.Done()
		defer cancel()
		res, rpcErr := c.handleRequest(ctx, method, params)
		c.host.finish(ht, res, rpcErr)
	}()
	return created, nil
}

func (h *hostedTasks) add(ht *hostedTask) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tasks == nil {
		h.tasks = map[string]*hostedTask{}
	}
	if len(h.order) >= maxHostedTasks {
		for i, id := range h.order {
			if old := h.tasks[id]; old.task.Terminal() {
				delete(h.tasks, id)
				h.order = slices.Delete(h.order, i, i+1)
				break
			}
		}
	}
	h.tasks[ht.task.TaskID] = ht
	h.order = append(h.order, ht.task.TaskID)
}

// finish records the Handler's answer, unless the task was cancelled.
func (h *hostedTasks) finish(ht *hostedTask, res json.RawMessage, rpcErr *RPCError) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ht.task.Status != TaskCancelled {
		ht.result, ht.err = res, rpcErr
		ht.task.Status = TaskCompleted
		if rpcErr != nil {
			ht.task.Status, ht.task.StatusMessage = TaskFailed, rpcErr.Message
		}
		ht.task.LastUpdatedAt = time.Now().UTC().Format(time.RFC3339Nano)
	}
	close(ht.done)
}

var errNoTask = &RPCError{Code: -32602, Message: "Failed to retrieve task: Task not found"}

func (h *hostedTasks) lookup(id string) *hostedTask {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tasks[id]
}

func (h *hostedTasks) get(id string) (json.RawMessage, *RPCError) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ht := h.tasks[id]
	if ht == nil {
		return nil, errNoTask
	}
	b, _ := marshal(ht.task)
	return b, nil
}

func (h *hostedTasks) list() (json.RawMessage, *RPCError) {
	h.mu.Lock()
	defer h.mu.Unlock()
	tasks := make([]Task, 0, len(h.order))
	for _, id := range h.order {
		tasks = append(tasks, h.tasks[id].task)
	}
	b, _ := marshal(map[string]any{"tasks": tasks})
	return b, nil
}

func (h *hostedTasks) cancelTask(id string) (json.RawMessage, *RPCError) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ht := h.tasks[id]
	if ht == nil {
		return nil, errNoTask
	}
	if ht.task.Terminal() {
		return nil, &RPCError{Code: -32602, Message: "Cannot cancel task: already in terminal status " + ht.task.Status}
	}
	ht.task.Status, ht.task.StatusMessage = TaskCancelled, "Cancelled by the server."
	ht.task.LastUpdatedAt = time.Now().UTC().Format(time.RFC3339Nano)
	ht.cancel()
	b, _ := marshal(ht.task)
	return b, nil
}

// result waits until the task ends (or the Client closes) and returns the
// Handler's answer, with the related-task _meta the spec asks for.
func (h *hostedTasks) result(ctx context.Context, id string) (json.RawMessage, *RPCError) {
	ht := h.lookup(id)
	if ht == nil {
		return nil, errNoTask
	}
	select {
	case <-ht.done:
	case <-ctx.Done():
		return nil, &RPCError{Code: codeInternalError, Message: "the client is closing"}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case ht.task.Status == TaskCancelled:
		return nil, &RPCError{Code: codeInternalError, Message: "Task " + id + " was cancelled"}
	case ht.err != nil:
		return nil, ht.err
	}
	related, _ := marshal(map[string]string{"taskId": id})
	meta, _ := marshal(map[string]json.RawMessage{"io.modelcontextprotocol/related-task": related})
	out, err := setMember(ht.result, "_meta", meta, false)
	if err != nil {
		return ht.result, nil
	}
	return out, nil
}
