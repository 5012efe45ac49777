package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBrowserServersThatGoAway connects two Streamable HTTP servers (the
// official Go SDK's, in process) and a stdio server. One HTTP server is
// closed under its page, which says that the session ended and why. On the
// sessions list, the other is closed: without a reload, the top bar stops listing
// it and its row says that the session closed and why. On the servers
// list, the second is killed: the top bar empties and its row turns
// disconnected, with Connect. When PLAYGROUND_SCREENSHOT_DIR is set,
// screenshots go there (server-page-gone.png, servers-gone.png, servers-list-gone.png and their
// -full versions). It needs PLAYGROUND_CHROMIUM.
func TestBrowserServersThatGoAway(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")

	sdk := mcp.NewServer(&mcp.Implementation{Name: "sdk-http", Version: "1"}, nil)
	startHTTP := func() *httptest.Server {
		hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk }, nil))
		t.Cleanup(func() {
			hs.CloseClientConnections()
			hs.Close()
		})
		return hs
	}
	httpServer, watchedServer := startHTTP(), startHTTP()
	pidFile := filepath.Join(t.TempDir(), "pid")
	httpID := srv.apiCreateServer(t, map[string]any{"name": "Going HTTP", "transport": "http", "url": httpServer.URL + "/mcp"})
	watchedID := srv.apiCreateServer(t, map[string]any{"name": "Watched HTTP", "transport": "http", "url": watchedServer.URL + "/mcp"})
	stdioID := srv.apiCreateServer(t, map[string]any{"name": "Killed stdio", "transport": "stdio", "command": "sh",
		"args": []string{"-c", `echo $$ > "$0"; exec "$1" demo-server`, pidFile, srv.Bin}})
	sessionOf := map[int64]int64{}
	for _, id := range []int64{httpID, stdioID, watchedID} {
		var out struct {
			ID int64 `json:"id"`
		}
		e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", srv.URL, id), map[string]any{}, http.StatusCreated, &out)
		sessionOf[id] = out.ID
	}

	const bar = `[data-testid="connected-servers"]`
	// The server's own page says that its session ended, and why.
	e2eNavigate(p, "open the watched server's page", fmt.Sprintf("%s/servers/%d", srv.URL, watchedID), `[data-testid="traffic-panel"]`)
	p.waitLive()
	watchedServer.CloseClientConnections()
	watchedServer.Close()
	p.waitJS("the watched server's page says its session ended", "main", `(() => {
		const ended = document.querySelector('[data-testid="session-ended"]');
		return !!ended && ended.textContent.includes("server went away: the server is gone") &&
			!document.querySelector('`+bar+`').textContent.includes("Watched HTTP"); })()`)
	if shots != "" {
		p.screenshot(shots, "server-page-gone", `[data-testid="session-ended"]`)
	}

	e2eNavigate(p, "open the sessions list", srv.URL+"/sessions", `[data-testid="session-list"]`)
	for _, name := range []string{"Going HTTP", "Killed stdio"} {
		if got := p.text(bar); !strings.Contains(got, name) {
			t.Fatalf("the top bar reads %q, want %q in it", got, name)
		}
	}
	rowState := func(sessionID int64) string {
		return fmt.Sprintf(`document.getElementById("session-state-%d").textContent`, sessionID)
	}
	waitGone := func(name string, serverID int64) {
		t.Helper()
		p.waitJS(name+" leaves the top bar and its row says it closed", "main", fmt.Sprintf(
			`!document.querySelector('%s').textContent.includes(%q) && %s.includes("closed") && %s.includes("server went away")`,
			bar, name, rowState(sessionOf[serverID]), rowState(sessionOf[serverID])))
	}

	httpServer.CloseClientConnections()
	httpServer.Close()
	waitGone("Going HTTP", httpID)
	if got := p.text(bar); !strings.Contains(got, "Killed stdio") {
		t.Errorf("the top bar lost the stdio server too: %q", got)
	}

	if shots != "" {
		p.screenshot(shots, "servers-gone", `[data-testid="session-list"]`)
	}

	// The servers list follows too: the stdio server's row turns from
	// connected to disconnected, with Connect.
	serverRow := fmt.Sprintf(`[data-testid="server-row"][data-server-id="%d"]`, stdioID)
	e2eNavigate(p, "open the servers list", srv.URL+"/", serverRow)
	if got := p.text(serverRow + ` [data-testid="server-state"]`); !strings.Contains(got, "connected") {
		t.Errorf("the stdio server's row reads %q", got)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %d: %v", pid, err)
	}
	p.waitJS("the stdio server leaves the top bar and its row offers Connect", "main", fmt.Sprintf(
		`!document.querySelector('%s').textContent.includes("Killed stdio") && !!document.querySelector('%s [data-testid="list-connect"]') && document.querySelector('%s [data-testid="server-state"]').textContent.includes("disconnected")`,
		bar, serverRow, serverRow))
	if got := strings.TrimSpace(p.text(bar)); got != "" {
		t.Errorf("the top bar reads %q with no server connected", got)
	}
	if shots != "" {
		time.Sleep(200 * time.Millisecond)
		p.screenshot(shots, "servers-list-gone", `[data-testid="server-list"]`)
	}
	// The Connect the feed brought carries a valid CSRF token.
	p.follow("connect the stdio server again from its updated row", serverRow+` [data-testid="list-connect"]`)
	if got := p.text(serverRow + ` [data-testid="server-state"]`); !strings.Contains(got, "connected") || strings.Contains(got, "disconnected") {
		t.Errorf("after Connect, the stdio server's row reads %q", got)
	}
	e2eNavigate(p, "open the sessions list again", srv.URL+"/sessions", `[data-testid="session-list"]`)
	for id, want := range map[int64]string{httpID: "the server is gone", stdioID: "server process exited"} {
		if reason := e2eEval[string](p, "read a session's row", "main", rowState(sessionOf[id])); !strings.Contains(reason, want) {
			t.Errorf("session %d's row reads %q, want %q", sessionOf[id], reason, want)
		}
	}
	if errs := p.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %v", errs)
	}
}
