package backend

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Task is a task of a server as the playground knows it: its last known
// state, and for the tasks this session created the tool that started it
// and when. Every string in it comes from the server.
type Task struct {
	mcpclient.Task
	Tool    string    // the tool whose call created it; "" for a task only tasks/list named
	Started time.Time // when this session created it; zero for others
}

// TaskStatus is a status change of a task that a running call follows, as
// published on the hub.
type TaskStatus struct {
	CallID  string
	TaskID  string
	Status  string
	Message string
}

// Polling bounds: a task is polled every pollInterval the server suggests,
// but never more often than minTaskPoll nor less often than maxTaskPoll
// (status notifications are published as they come, see taskNotified);
// defaultTaskPoll serves when it suggests none. taskTTL is the lifetime the
// playground asks for its tasks.
const (
	minTaskPoll     = 100 * time.Millisecond
	maxTaskPoll     = 5 * time.Second
	defaultTaskPoll = time.Second
	taskTTL         = 10 * time.Minute
	// taskCancelTimeout bounds the tasks/cancel sent when a person cancels
	// a task call, which outlives the call's own context.
	taskCancelTimeout = 10 * time.Second
)

// sessionTasks remembers the tasks a session created, newest last, and
// which running call follows which task.
type sessionTasks struct {
	mu        sync.Mutex
	tasks     []Task
	followers map[string]string // call id by task id, while CallTool follows the task
}

// follow records that call callID follows taskID, until the returned
// function is called.
func (st *sessionTasks) follow(taskID, callID string) (stop func()) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.followers == nil {
		st.followers = map[string]string{}
	}
	st.followers[taskID] = callID
	return func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		delete(st.followers, taskID)
	}
}

func (st *sessionTasks) follower(taskID string) string {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.followers[taskID]
}

// taskNotified publishes a task status notification (both eras) of a task
// that a running call follows, at once rather than at the next poll. It
// runs on the client's reader goroutine and never blocks.
func (p *Pool) taskNotified(sessionID int64, ls *liveSession, n mcpclient.Notification) {
	if n.Method != mcpclient.MethodTaskStatus && n.Method != mcpclient.MethodTaskStatusModern {
		return
	}
	var t mcpclient.Task
	if json.Unmarshal(n.Params, &t) != nil || t.TaskID == "" {
		return
	}
	if callID := ls.tasks.follower(t.TaskID); callID != "" {
		p.publishTask(sessionID, callID, t)
	}
}

// maxSessionTasks bounds how many created tasks a session remembers.
const maxSessionTasks = 256

func (st *sessionTasks) put(t Task) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for i := range st.tasks {
		if st.tasks[i].TaskID == t.TaskID {
			st.tasks[i].Task = t.Task
			return
		}
	}
	if len(st.tasks) == maxSessionTasks {
		st.tasks = append(st.tasks[:0], st.tasks[1:]...)
	}
	st.tasks = append(st.tasks, t)
}

func (st *sessionTasks) list() []Task {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]Task(nil), st.tasks...)
}

// RunsAsTask reports whether a call of tool on the session is augmented
// with a task in the legacy era: when the server declares
// tasks.requests.tools.call and the tool's execution.taskSupport is
// "required", or "optional" and the person asked for it (wanted). In the
// modern era the server decides: every tool call declares the tasks
// extension, and this reports false.
func (p *Pool) RunsAsTask(sessionID int64, tool Tool, wanted bool) bool {
	ls, err := p.get(sessionID)
	if err != nil || ls.client.Era() == mcpclient.EraModern {
		return false
	}
	if !mcpclient.HasCapability(ls.client.InitializeResult().Capabilities, "tasks", "requests", "tools", "call") {
		return false
	}
	switch tool.TaskSupport() {
	case mcpclient.TaskSupportRequired:
		return true
	case mcpclient.TaskSupportOptional:
		return wanted
	}
	return false
}

// it ran; t is kept up to date.
func (p *Pool) followTask(ctx context.Context, ls *liveSession, o CallOptions, t *Task) (CallResult, error) {
	modern := ls.client.Era() == mcpclient.EraModern
	answered := map[string]bool{} // input request keys already answered (modern)
	for {
		switch {
		case t.Status == mcpclient.TaskCompleted && modern:
			return CallResult{Result: t.Result}, nil
		case t.Status == mcpclient.TaskFailed && modern:
			if t.Error != nil {
				return CallResult{Error: t.Error}, nil
			}
			return CallResult{}, Errorf(EUnavailable, "Task %s failed: %s", t.TaskID, t.StatusMessage)
		case t.Status == mcpclient.TaskCancelled:
			return CallResult{}, Errorf(EConflict, "Task %s was cancelled.", t.TaskID)
		case !modern && (t.Terminal() || t.Status == mcpclient.TaskInputRequired):
			// tasks/result waits for the end; the server asks its
			// questions meanwhile.
			raw, err := ls.client.TaskResult(ctx, t.TaskID)
			res, err := p.answer(ctx, ls, o, "tasks/result", raw, err, time.Now())
			if errors.Is(err, ErrCallCancelled) {
				p.cancelTask(ls, t)
			} else if err == nil {
				p.refreshTask(ctx, ls, o.ID, t)
			}
			return res, err
		case modern && t.Status == mcpclient.TaskInputRequired:
			pending := map[string]json.RawMessage{}
			for k, v := range t.InputRequests {
				if !answered[k] {
					pending[k], answered[k] = v, true
				}
			}
			if len(pending) > 0 {
				if err := ls.client.UpdateTask(ctx, t.TaskID, pending); err != nil {
					if cancelled(ctx, o) {
						p.cancelTask(ls, t)
						return CallResult{}, ErrCallCancelled
					}
					return CallResult{}, ls.callError("tasks/update", err)
				}
			}
		}
		timer := time.NewTimer(pollDelay(t.Task))
		select {
		case <-ctx.Done():
			timer.Stop()
			if cancelled(ctx, o) {
				p.cancelTask(ls, t)
				return CallResult{}, ErrCallCancelled
			}
			return CallResult{}, Errorf(EUnavailable, "Task %s is still %s on the server; the call stopped waiting for it (%v). Its result can be fetched from the Tasks list.", t.TaskID, t.Status, context.Cause(ctx))
		case <-timer.C:
		}
		if err := p.refreshTask(ctx, ls, o.ID, t); err != nil {
			if cancelled(ctx, o) {
				p.cancelTask(ls, t)
				return CallResult{}, ErrCallCancelled
			}
			return CallResult{}, err
		}
	}
}

// refreshTask sends tasks/get for t, updates it and publishes a change of
// its status or status message.
func (p *Pool) refreshTask(ctx context.Context, ls *liveSession, callID string, t *Task) error {
	got, err := ls.client.GetTask(ctx, t.TaskID)
	if err != nil {
		return ls.callError("tasks/get", err)
	}
	changed := got.Status != t.Status || got.StatusMessage != t.StatusMessage
	t.Task = got
	ls.tasks.put(*t)
	if changed {
		p.publishTask(ls.session.ID, callID, got)
	}
	return nil
}

// cancelTask sends tasks/cancel for t after its call was cancelled, under a
// context of its own. A failure is recorded as a note of the session.
func (p *Pool) cancelTask(ls *liveSession, t *Task) {
	ctx, cancel := context.WithTimeout(context.Background(), taskCancelTimeout)
	defer cancel()
	got, err := ls.client.CancelTask(ctx, t.TaskID)
	if err != nil {
		p.recordNote(ls.session.ID, "tasks/cancel "+t.TaskID+" failed: "+ls.redacted(err.Error()))
		return
	}
	if got != nil {
		t.Task = *got
	} else {
		t.Status = mcpclient.TaskCancelled
	}
	ls.tasks.put(*t)
}

// pollDelay is how long to wait before polling t again.
func pollDelay(t mcpclient.Task) time.Duration {
	d := t.PollEvery()
	if d == 0 {
		d = defaultTaskPoll
	}
	return min(max(d, minTaskPoll), maxTaskPoll)
}

func (p *Pool) publishTask(sessionID int64, callID string, t mcpclient.Task) {
	if callID == "" {
		return
	}
	p.hub.Publish(Event{SessionID: sessionID, Task: &TaskStatus{
		CallID: callID, TaskID: t.TaskID, Status: t.Status, Message: t.StatusMessage,
	}})
}

// Tasks returns the tasks of a live session, newest first: those the
// server lists (tasks/list, legacy era, when the server declares
// tasks.list; up to maxSessionTasks) and those this session created,
// merged by id. A failing tasks/list is an *Error, as Call's are.
func (p *Pool) Tasks(ctx context.Context, sessionID int64) ([]Task, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return nil, err
	}
	byID := map[string]Task{}
	for _, t := range ls.tasks.list() {
		byID[t.TaskID] = t
	}
	if ls.client.Era() != mcpclient.EraModern && mcpclient.HasCapability(ls.client.InitializeResult().Capabilities, "tasks", "list") {
		cursor := ""
		for n := 0; n < maxSessionTasks; {
			page, err := ls.client.ListTasksPage(ctx, cursor)
			if err != nil {
				return nil, ls.callError("tasks/list", err)
			}
			for _, t := range page.Items {
				known := byID[t.TaskID]
				known.Task = t
				byID[t.TaskID] = known
				n++
			}
			if page.NextCursor == "" || page.NextCursor == cursor {
				break
			}
			cursor = page.NextCursor
		}
	}
	out := make([]Task, 0, len(byID))
	for _, t := range byID {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].CreatedAt != out[j].CreatedAt {
			return out[i].CreatedAt > out[j].CreatedAt
		}
		return out[i].TaskID > out[j].TaskID
	})
	return out, nil
}

// TaskResult returns the outcome of a session's task that has ended: in
// the legacy era from tasks/result, in the modern one from tasks/get. A
// task that has not ended is an EConflict *Error, and nothing waits for it;
// one the server does not know (tasks/get answers an error), ENotFound.
func (p *Pool) TaskResult(ctx context.Context, sessionID int64, taskID string) (CallResult, error) {
	ls, err := p.writable(sessionID)
	if err != nil {
		return CallResult{}, err
	}
	start := time.Now()
	t, err := ls.client.GetTask(ctx, taskID)
	var rpcErr *mcpclient.RPCError
	switch {
	case errors.As(err, &rpcErr):
		return CallResult{}, Errorf(ENotFound, "The server has no task %s to give a result of: %s", taskID, rpcErr.Message)
	case err != nil:
		return CallResult{}, ls.callError("tasks/get", err)
	case !t.Terminal():
		return CallResult{}, Errorf(EConflict, "Task %s is %s: it has no result yet.", taskID, t.Status)
	case ls.client.Era() != mcpclient.EraModern:
		raw, err := ls.client.TaskResult(ctx, taskID)
		return p.answer(ctx, ls, CallOptions{}, "tasks/result", raw, err, start)
	case t.Status == mcpclient.TaskCompleted:
		return CallResult{Result: t.Result, Latency: time.Since(start)}, nil
	case t.Error != nil:
		return CallResult{Error: t.Error, Latency: time.Since(start)}, nil
	}
	return CallResult{}, Errorf(EConflict, "Task %s is %s: it has no result.", taskID, t.Status)
}

// CancelTask sends tasks/cancel for a session's task. A JSON-RPC error
// answer is an EConflict *Error with the server's message.
func (p *Pool) CancelTask(ctx context.Context, sessionID int64, taskID string) error {
	ls, err := p.writable(sessionID)
	if err != nil {
		return err
	}
	got, err := ls.client.CancelTask(ctx, taskID)
	var rpcErr *mcpclient.RPCError
	if errors.As(err, &rpcErr) {
		return Errorf(EConflict, "The server refused to cancel task %s: %s", taskID, rpcErr.Message)
	}
	if err != nil {
		return ls.callError("tasks/cancel", err)
	}
	for _, t := range ls.tasks.list() {
		if t.TaskID == taskID {
			if got != nil {
				t.Task = *got
			} else {
				t.Status = mcpclient.TaskCancelled
			}
			ls.tasks.put(t)
		}
	}
	return nil
}
