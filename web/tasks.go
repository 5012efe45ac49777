package web

import (
	"context"
	"net/http"
	"net/url"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// taskActionTimeout bounds the requests the tasks panel sends.
const taskActionTimeout = 30 * time.Second

// maxTaskIDLen bounds the task ids the tasks routes accept.
const maxTaskIDLen = 256

// listTasks answers with the tasks panel of a live session: the tasks the
// server lists and those the session created. A failure to list them shows
// in the panel.
func (s *Server) listTasks(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	return s.renderTasks(c, sessionID, views.TasksView{})
}

// taskResult answers with the tasks panel showing the result of one task
// that has ended, as a tool result is shown.
func (s *Server) taskResult(c echo.Context) error {
	sessionID, taskID, err := taskParams(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), taskActionTimeout)
	defer cancel()
	res, err := s.deps.Pool.TaskResult(ctx, sessionID, taskID)
	v := views.TasksView{}
	if err != nil {
		v.Error = backend.ErrorMessageOf(err)
	} else {
		v.ResultFor, v.Result = taskID, outcomeOf(res, nil, backend.Tool{}, sessionID)
	}
	return s.renderTasks(c, sessionID, v)
}

// cancelTask sends tasks/cancel for one task and answers with the tasks
// panel, which says what happened.
func (s *Server) cancelTask(c echo.Context) error {
	sessionID, taskID, err := taskParams(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), taskActionTimeout)
	defer cancel()
	v := views.TasksView{Notice: "Asked the server to cancel task " + taskID + "."}
	if err := s.deps.Pool.CancelTask(ctx, sessionID, taskID); err != nil {
		v.Notice, v.Error = "", backend.ErrorMessageOf(err)
	}
	return s.renderTasks(c, sessionID, v)
}

// renderTasks lists the session's tasks into v and renders the panel. A
// session that is not live is an error for the error handler.
func (s *Server) renderTasks(c echo.Context, sessionID int64, v views.TasksView) error {
	if !s.deps.Pool.IsLive(sessionID) {
		return backend.Errorf(backend.EConflict, "Session %d is not connected.", sessionID)
	}
	return render(c, http.StatusOK, views.TasksPanel(sessionID, page(c, "").CSRF, s.listedTasks(c.Request().Context(), sessionID, v)))
}

// showTasks is a server's Tasks section: the live session's tasks panel.
func (s *Server) showTasks(c echo.Context) error {
	return s.explorerPage(c, views.SectionTasks, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		if live == nil {
			return views.NotConnected(page(c, ""), srv.ID, "tasks"), nil
		}
		return views.TasksPanel(live.ID, page(c, "").CSRF, s.listedTasks(c.Request().Context(), live.ID, views.TasksView{})), nil
	})
}

// listedTasks adds the session's tasks to v; a failing list shows in the
// panel, after any error v already holds.
func (s *Server) listedTasks(ctx context.Context, sessionID int64, v views.TasksView) views.TasksView {
	ctx, cancel := context.WithTimeout(ctx, taskActionTimeout)
	defer cancel()
	tasks, err := s.deps.Pool.Tasks(ctx, sessionID)
	if err != nil && v.Error == "" {
		v.Error = backend.ErrorMessageOf(err)
	}
	for _, t := range tasks {
		v.Rows = append(v.Rows, views.TaskRow{ID: t.TaskID, Status: t.Status, Message: t.StatusMessage,
			Tool: t.Tool, Created: taskTime(t.CreatedAt), Terminal: t.Terminal()})
	}
	return v
}

// taskTime shows a task's ISO 8601 timestamp in UTC to the second, or as
// the server wrote it when it is no such timestamp.
func taskTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// taskParams reads the session id and the task id of a task route. A task
// id that is empty, too long or holds control characters names no task.
func taskParams(c echo.Context) (int64, string, error) {
	sessionID, err := idParam(c)
	if err != nil {
		return 0, "", err
	}
	taskID, err := url.PathUnescape(c.Param("task"))
	if err != nil || !validTaskID(taskID) {
		return 0, "", backend.Errorf(backend.ENotFound, "No such task: a task id is 1 to %d printable characters.", maxTaskIDLen)
	}
	return sessionID, taskID, nil
}

func validTaskID(id string) bool {
	if id == "" || len(id) > maxTaskIDLen || !utf8.ValidString(id) {
		return false
	}
	for _, r := range id {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// taskRef names the task a tool call ran as; nil when it ran as none.
func taskRef(t *backend.Task) *views.TaskRef {
	if t == nil {
		return nil
	}
	return &views.TaskRef{ID: t.TaskID, Status: t.Status, Message: t.StatusMessage}
}

// taskStatusMessage is the live stream's message about the task a running
// call follows, which static/tasks.js shows on the card whose call it is.
type taskStatusMessage struct {
	TaskStatus struct {
		Call    string `json:"call"`
		Task    string `json:"task"`
		Status  string `json:"status"`
		Message string `json:"message,omitempty"`
	} `json:"taskStatus"`
}

// sendTaskStatus writes a task's status change as one JSON message.
func sendTaskStatus(conn *websocket.Conn, t backend.TaskStatus) bool {
	var m taskStatusMessage
	m.TaskStatus.Call, m.TaskStatus.Task, m.TaskStatus.Status, m.TaskStatus.Message = t.CallID, t.TaskID, t.Status, t.Message
	return sendJSON(conn, m)
}
