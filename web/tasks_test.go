package web_test

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// everythingStdio registers server-everything over stdio, or skips (fails
// under CI) when node or the package is missing.
func everythingStdio(t *testing.T, d *dashboard) apiServer {
	t.Helper()
	dir := os.Getenv("PLAYGROUND_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", "node_modules")
	}
	script, _ := filepath.Abs(filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(script)
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("needs node and server-everything: %v", err)
	}
	return d.MustAPIServer(t, map[string]any{"name": "everything", "transport": "stdio", "command": node, "args": []string{script, "stdio"}})
}

// htmxGet makes a GET as htmx does.
func (d *dashboard) htmxGet(t *testing.T, path string) response {
	t.Helper()
	req := d.newRequest(t, http.MethodGet, path, nil)
	req.Header.Set("HX-Request", "true")
	return d.do(t, req)
}

// TestTaskToolAndTasksPanel runs server-everything's task tool from its
// card: the card is marked "task: required", the call runs as a task to
// its result and names the task; the tasks panel lists it as completed,
// shows its result and reports the server's refusal to cancel it. The
// panel's routes want the CSRF token on posts and name bad ids clearly.
func TestTaskToolAndTasksPanel(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := everythingStdio(t, d)
	sess := d.MustAPISession(t, srv.ID)
	tasksPath := fmt.Sprintf("/sessions/%d/tasks", sess.ID)
	taskPath := func(task, action string) string { return tasksPath + "/" + url.PathEscape(task) + "/" + action }

	if r := d.htmxGet(t, tasksPath); r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="tasks-empty"`) {
		t.Fatalf("the tasks of a new session: %d\n%s", r.Status, r.Body)
	}

	var page response
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		page = d.get(t, fmt.Sprintf("/servers/%d/tools/simulate-research-query", srv.ID))
		if strings.Contains(page.Body, `data-tool="simulate-research-query"`) || time.Now().After(deadline) {
			break
		}
	}
	if !strings.Contains(page.Body, `data-testid="task-support">task: required</span>`) {
		t.Fatalf("the server page has no task badge:\n%s", page.Body)
	}

	r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID), token,
		url.Values{"_tool": {"simulate-research-query"}, "arg.topic": {"gophers"}, "_call": {rand.Text()}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="result"`) || !strings.Contains(r.Body, "Research Report: gophers") {
		t.Fatalf("the task tool's card: %d\n%s", r.Status, r.Body)
	}
	if !strings.Contains(r.Body, `data-testid="outcome-task"`) || !strings.Contains(r.Body, `task-completed`) {
		t.Errorf("the card does not name the completed task:\n%s", r.Body)
	}

	list := d.htmxGet(t, tasksPath)
	start := strings.Index(list.Body, `data-task="`)
	if list.Status != http.StatusOK || start < 0 || !strings.Contains(list.Body, `data-status="completed"`) || !strings.Contains(list.Body, "simulate-research-query") {
		t.Fatalf("the tasks panel: %d\n%s", list.Status, list.Body)
	}
	taskID := list.Body[start+len(`data-task="`):]
	taskID = taskID[:strings.IndexByte(taskID, '"')]

	t.Run("result", func(t *testing.T) {
		r := d.htmxPost(t, taskPath(taskID, "result"), token, nil)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="task-result-row"`) || !strings.Contains(r.Body, "Research Report: gophers") {
			t.Errorf("the task's result: %d\n%s", r.Status, r.Body)
		}
	})

	t.Run("cancel a completed task", func(t *testing.T) {
		r := d.htmxPost(t, taskPath(taskID, "cancel"), token, nil)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="tasks-error"`) || !strings.Contains(r.Body, "refused to cancel") {
			t.Errorf("cancel a completed task: %d\n%s", r.Status, r.Body)
		}
	})

	t.Run("without the CSRF token", func(t *testing.T) {
		for _, action := range []string{"cancel", "result"} {
			if r := d.postForm(t, taskPath(taskID, action), nil); r.Status != http.StatusForbidden {
				t.Errorf("%s without token: %d, want 403", action, r.Status)
			}
		}
	})

	t.Run("bad ids", func(t *testing.T) {
		if r := d.postForm(t, tasksPath+"/%01/cancel", url.Values{"_csrf": {token}}); r.Status != http.StatusNotFound || !strings.Contains(r.Body, "No such task") {
			t.Errorf("a control character as task id: %d %s", r.Status, r.Body)
		}
		if r := d.postForm(t, taskPath(strings.Repeat("x", 300), "cancel"), url.Values{"_csrf": {token}}); r.Status != http.StatusNotFound {
			t.Errorf("a 300-character task id: %d", r.Status)
		}
		r := d.htmxPost(t, taskPath("no-such-task", "result"), token, nil)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="tasks-error"`) {
			t.Errorf("the result of an unknown task: %d\n%s", r.Status, r.Body)
		}
		if r := d.get(t, "/sessions/999999/tasks"); r.Status != http.StatusConflict && r.Status != http.StatusNotFound {
			t.Errorf("the tasks of an unknown session: %d", r.Status)
		}
		if r := d.get(t, "/sessions/abc/tasks"); r.Status != http.StatusNotFound && r.Status != http.StatusBadRequest {
			t.Errorf("a session id that is no number: %d", r.Status)
		}
	})
}
