package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserTaskTool runs server-everything's simulate-research-query,
// whose execution.taskSupport is required, from its card: the card is
// badged "task: required"; while the call runs it shows the task's status
// from the live stream; the answer is the tool's result, naming the
// completed task. The Tasks section then lists the task as completed and
// shows its result.
func TestBrowserTaskTool(t *testing.T) {
	everything := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(everything); err != nil {
		t.Skipf("needs @modelcontextprotocol/server-everything in node_modules: %v", err)
	}
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	var created struct {
		ID int64 `json:"id"`
	}
	e2ePostJSON(t, srv.URL+"/api/v1/servers", map[string]any{"name": "everything", "transport": "stdio",
		"command": "node", "args": []string{everything, "stdio"}}, http.StatusCreated, &created)
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, created.ID)
	p.do("open server-everything and connect", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	// The task tool is registered once the server saw the client's
	// capabilities; the Tools list follows the server's list_changed.
	card := e2eCard("simulate-research-query")
	link := `[data-testid="item-link"][data-item="simulate-research-query"]`
	for i := 0; ; i++ {
		p.openSection("tools")
		if e2eEval[bool](p, "look for the task tool in the list", "main", `!!document.querySelector(`+e2eJS(link)+`)`) {
			break
		}
		if i == 20 {
			t.Fatalf("no simulate-research-query in the tools list\n%s", p.dump("main"))
		}
		p.do("reload the server page", "main", chromedp.Navigate(serverPage), chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	}
	if n := e2eEval[int](p, "count the listed tools", "main", `document.querySelectorAll('[data-testid="item-link"]').length`); n != 19 {
		t.Errorf("%d tools listed, want server-everything's 19", n)
	}
	p.openTool("simulate-research-query")
	if got := p.text(card + ` [data-testid="task-support"]`); got != "task: required" {
		t.Errorf("the card's task badge reads %q", got)
	}

	p.setValue(card+` [name="arg.topic"]`, "otters")
	p.startTool("simulate-research-query")
	p.waitJS("wait for the task's status on the running card", card,
		`/^Task \S+ working/.test(document.querySelector(`+e2eJS(card+` [data-testid="call-task-status"]`)+`).textContent)`)
	if shots != "" {
		p.screenshot(shots, "task-running", card)
	}
	p.awaitTool("simulate-research-query")
	p.wantOutcome("simulate-research-query", "result")
	if got := p.text(card + ` [data-testid="outcome"]`); !strings.Contains(got, "Research Report: otters") {
		t.Errorf("the outcome reads %q", got)
	}
	taskLine := p.text(card + ` [data-testid="outcome-task"]`)
	if !strings.Contains(taskLine, "completed") {
		t.Errorf("the outcome's task line reads %q", taskLine)
	}
	if shots != "" {
		p.screenshot(shots, "task-completed", card)
	}

	// The Tasks section lists the task the card ran.
	cardTask := p.text(card + ` [data-testid="outcome-task"] .mono`)
	p.openSection("tasks")
	panel := `[data-testid="tasks-panel"]`
	p.waitJS("wait for the completed task in the panel", panel,
		`!!document.querySelector('[data-testid="task-row"][data-status="completed"]')`)
	rowTask := e2eEval[string](p, "read the task row's id", panel, `document.querySelector('[data-testid="task-row"]').dataset.task`)
	if row := p.text(`[data-testid="task-row"]`); !strings.Contains(row, "simulate-research-query") || rowTask == "" || rowTask != cardTask {
		t.Errorf("the task row %q reads %q; the card named task %q", rowTask, row, cardTask)
	}
	p.do("show the task's result", panel, chromedp.Click(chromedp.CSS(`[data-testid="task-row"] [data-testid="task-result"]`)))
	p.waitJS("wait for the task's result", panel,
		`!!document.querySelector('[data-testid="task-result-row"]') && document.querySelector('[data-testid="task-result-row"]').textContent.includes("Research Report: otters")`)
	if shots != "" {
		p.screenshot(shots, "tasks-panel", panel)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
