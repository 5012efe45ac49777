package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	_ "github.com/mattn/go-sqlite3" // the test reads the database directly
)

// e2eRoleEnv makes the test binary act as an MCP server over stdio instead
// of running the tests: "stream" runs e2eStreamServer, "idle" runs
// e2eIdleServer.
const e2eRoleEnv = "PLAYGROUND_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(e2eRoleEnv) {
	case "stream":
		os.Exit(e2eStreamServer(os.Stdin, os.Stdout, e2eStreamRate))
	case "idle":
		os.Exit(e2eIdleServer(os.Stdin, os.Stdout))
	}
	code := m.Run()
	e2eRemoveTemplate()
	e2eRemoveBinary()
	os.Exit(code)
}

// e2eIdleServer is an MCP server over stdio that answers initialize and
// ping, sends nothing of its own, and does not exit when stdin ends: it
// sleeps until it is killed (SIGTERM does).
func e2eIdleServer(in io.Reader, out io.Writer) int {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || len(m.ID) == 0 {
			continue
		}
		reply := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`
		switch m.Method {
		case "initialize":
			reply = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"idle","version":"1"}}}`
		case "ping":
			reply = `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`
		}
		if _, err := io.WriteString(out, reply+"\n"); err != nil {
			return 1
		}
	}
	time.Sleep(time.Hour)
	return 0
}

// e2eStreamRate is how many notifications a second e2eStreamServer sends.
const e2eStreamRate = 5000

// e2eStreamServer is an MCP server over stdio, written by hand, that
// answers initialize and ping and, once initialized, sends rate
// notifications/message a second, each with its sequence number, until
// stdin ends or a write fails (as when the client is killed).
func e2eStreamServer(in io.Reader, out io.Writer, rate int) int {
	var mu sync.Mutex
	w := bufio.NewWriterSize(out, 64<<10)
	write := func(lines ...string) error {
		mu.Lock()
		defer mu.Unlock()
		for _, l := range lines {
			w.WriteString(l)
			w.WriteByte('\n')
		}
		return w.Flush()
	}
	stream := func() {
		start := time.Now()
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		sent := 0
		for range tick.C {
			due := int(time.Since(start).Seconds() * float64(rate))
			var lines []string
			for ; sent < due; sent++ {
				lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"stream","data":{"seq":%d}}}`, sent))
			}
			if write(lines...) != nil {
				os.Exit(1)
			}
		}
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		var err error
		switch m.Method {
		case "initialize":
			err = write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{}},"serverInfo":{"name":"stream","version":"1"}}}`)
		case "notifications/initialized":
			go stream()
		case "ping":
			err = write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`)
		default:
			if len(m.ID) > 0 {
				err = write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
			}
		}
		if err != nil {
			return 1
		}
	}
	return 0
}

// e2eViewer watches a session's live stream as a browser does and
// remembers every frame id it is shown. When the dashboard cuts it off for
// falling behind, it reconnects after the last id it saw.
type e2eViewer struct {
	url    string            // ws://host/sessions/ID/live
	dialer *websocket.Dialer // with the signed-in admin's cookies

	mu    sync.Mutex
	shown map[int64]bool
	last  int64
	err   error // why watching ended
}

var e2eFrameIDRE = regexp.MustCompile(`id="frame-(\d+)"`)

func (v *e2eViewer) count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.shown)
}

// watch reads the stream until the connection fails in a way other than
// being cut off, or ctx ends.
func (v *e2eViewer) watch(ctx context.Context) {
	for ctx.Err() == nil {
		v.mu.Lock()
		after := v.last
		v.mu.Unlock()
		conn, _, err := v.dialer.DialContext(ctx, fmt.Sprintf("%s?after=%d", v.url, after), nil)
		if err != nil {
			v.fail(err)
			return
		}
		stop := context.AfterFunc(ctx, func() { conn.Close() })
		err = v.read(conn)
		stop()
		conn.Close()
		if !websocket.IsCloseError(err, websocket.CloseTryAgainLater) {
			v.fail(err)
			return
		}
	}
}

func (v *e2eViewer) read(conn *websocket.Conn) error {
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return err
		}
		v.mu.Lock()
		for _, m := range e2eFrameIDRE.FindAllSubmatch(msg, -1) {
			id, _ := strconv.ParseInt(string(m[1]), 10, 64)
			v.shown[id] = true
			v.last = max(v.last, id)
		}
		v.mu.Unlock()
	}
}

func (v *e2eViewer) fail(err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.err = err
}

// TestSIGKILLWhileRecording kills the dashboard while it records a server
// that sends 5,000 notifications a second to two live viewers. The
// database must survive intact, hold every frame a viewer was shown (the
// dashboard publishes only committed frames), and, after a restart, say
// that the session ended with the dashboard.
func TestSIGKILLWhileRecording(t *testing.T) {
	bin := e2eBuildPlayground(t)
	db := filepath.Join(t.TempDir(), "playground.db")
	s := e2eServeDB(t, bin, db)

	var srv struct {
		ID int64 `json:"id"`
	}
	e2ePostJSON(t, s.URL+"/api/v1/servers", map[string]any{"name": "stream", "transport": "stdio", "command": os.Args[0],
		"env": map[string]string{e2eRoleEnv: "stream", "GORACE": "atexit_sleep_ms=0"}}, http.StatusCreated, &srv)
	var sess struct {
		ID int64 `json:"id"`
	}
	e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", s.URL, srv.ID), nil, http.StatusCreated, &sess)
	streamers := e2eProcessesOf(os.Args[0], os.Getpid())
	t.Cleanup(func() {
		// Without the dashboard the server sees stdin end and exits.
		for _, pid := range streamers {
			for deadline := time.Now().Add(10 * time.Second); e2eAlive(pid, os.Args[0]) && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			if e2eAlive(pid, os.Args[0]) {
				t.Logf("the stream server %d outlived the dashboard; killing it", pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	liveURL := fmt.Sprintf("ws%s/sessions/%d/live", strings.TrimPrefix(s.URL, "http"), sess.ID)
	dialer := &websocket.Dialer{Jar: s.client.Jar}
	viewers := []*e2eViewer{{url: liveURL, dialer: dialer, shown: map[int64]bool{}}, {url: liveURL, dialer: dialer, shown: map[int64]bool{}}}
	var watching sync.WaitGroup
	for _, v := range viewers {
		watching.Go(func() { v.watch(ctx) })
	}

	// Kill it in full flow, once each viewer has been shown a second's worth.
	start := time.Now()
	for deadline := start.Add(60 * time.Second); viewers[0].count() < e2eStreamRate || viewers[1].count() < e2eStreamRate; {
		if time.Now().After(deadline) {
			t.Fatalf("the viewers were shown %d and %d frames in %v", viewers[0].count(), viewers[1].count(), time.Since(start))
		}
		for _, v := range viewers {
			v.mu.Lock()
			err := v.err
			v.mu.Unlock()
			if err != nil {
				t.Fatalf("a viewer stopped watching: %v", err)
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.kill(t)
	watching.Wait()
	shown := map[int64]bool{}
	for _, v := range viewers {
		for id := range v.shown {
			shown[id] = true
		}
	}

	// The database, as the killed dashboard left it.
	sdb, err := sql.Open("sqlite3", "file:"+db+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer sdb.Close()
	var integrity string
	if err := sdb.QueryRow(`PRAGMA integrity_check`).Scan(&integrity); err != nil || integrity != "ok" {
		t.Fatalf("PRAGMA integrity_check = %q, %v", integrity, err)
	}
	stored := map[int64]bool{}
	rows, err := sdb.Query(`SELECT id FROM frames WHERE session_id = ?`, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		stored[id] = true
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	var first, last int64
	var notes int
	if err := sdb.QueryRow(`SELECT COUNT(*), MIN(time), MAX(time) FROM frames WHERE session_id = ? AND method = 'notifications/message'`, sess.ID).Scan(&notes, &first, &last); err != nil {
		t.Fatal(err)
	}
	t.Logf("the viewers were shown %d frames; %d are stored, %d of them notifications, at %.0f a second",
		len(shown), len(stored), notes, float64(notes)/time.Duration(last-first).Seconds())
	missing := 0
	for id := range shown {
		if !stored[id] {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d frames shown to a viewer are not in the database", missing)
	}
	// Batches are whole or absent: the session's frames, the only ones
	// recorded, are numbered from 1 without a gap.
	for id := int64(1); id <= int64(len(stored)); id++ {
		if !stored[id] {
			t.Errorf("frame %d is missing from the %d stored frames", id, len(stored))
			break
		}
	}
	sdb.Close()

	// Restarted, the dashboard closes the session the killed one left open.
	s2 := e2eServeDB(t, bin, db)
	var after struct {
		Status      string `json:"status"`
		CloseReason string `json:"closeReason"`
	}
	e2eGetJSON(t, fmt.Sprintf("%s/api/v1/sessions/%d", s2.URL, sess.ID), &after)
	if after.Status != "closed" || after.CloseReason != "the playground stopped while the session was open" {
		t.Errorf("after the restart the session is %q (%q)", after.Status, after.CloseReason)
	}
	if !strings.Contains(s2.Log.String(), `msg="ended what the last run left going" sessions=1`) {
		t.Errorf("the restarted dashboard did not log the session it closed:\n%s", s2.Log.String())
	}
}

// TestDashboardEndLeavesNoServerProcess ends the dashboard while it runs a
// stdio server, gracefully and by SIGKILL, and checks that no process of
// the server is left.
func TestDashboardEndLeavesNoServerProcess(t *testing.T) {
	bin := e2eBuildPlayground(t)
	// tag is unique to the run: it finds the processes in /proc.
	tag := fmt.Sprintf("577.%d%d", os.Getpid(), time.Now().UnixNano()%1e6)
	idle := []string{os.Args[0], "idle-" + tag}
	sleep := []string{"sleep", tag}
	// wrap runs args from a shell that first starts the sleep in the
	// background: a member of the server's process group that the server
	// did not start itself.
	wrap := func(args []string) []string {
		return append([]string{"sh", "-c", `sleep ` + tag + ` & exec "$0" "$@"`}, args...)
	}
	tests := []struct {
		name   string
		server []string   // the command line
		procs  [][]string // the processes that must be gone
		end    func(t *testing.T, s *e2eServer)
	}{
		// The dashboard closes its sessions: the whole group is stopped,
		// however the server takes the end of its input.
		{"graceful shutdown, server exits on stdin EOF", wrap([]string{bin, "demo-server"}), [][]string{sleep},
			func(t *testing.T, s *e2eServer) { s.stop(t) }},
		{"graceful shutdown, server ignores stdin EOF", wrap(idle), [][]string{idle, sleep},
			func(t *testing.T, s *e2eServer) { s.stop(t) }},
		// Only the parent-death signal can stop the server. The rest of its
		// group is out of reach once the dashboard is gone.
		{"SIGKILL, server ignores stdin EOF", idle, [][]string{idle},
			func(t *testing.T, s *e2eServer) { s.kill(t) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := e2eServe(t, bin)
			t.Cleanup(func() {
				for _, args := range tt.procs {
					if pid := e2eProcessWithArgs(args...); pid != 0 {
						_ = syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			})
			var srv struct {
				ID int64 `json:"id"`
			}
			e2ePostJSON(t, s.URL+"/api/v1/servers", map[string]any{"name": "under test", "transport": "stdio",
				"command": tt.server[0], "args": tt.server[1:], "env": map[string]string{e2eRoleEnv: "idle", "GORACE": "atexit_sleep_ms=0"},
			}, http.StatusCreated, &srv)
			var sess struct {
				ID int64 `json:"id"`
			}
			e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", s.URL, srv.ID), nil, http.StatusCreated, &sess)
			for _, args := range tt.procs {
				if e2eProcessWithArgs(args...) == 0 {
					t.Fatalf("no process %q is running", args)
				}
			}
			tt.end(t, s)
			for _, args := range tt.procs {
				for deadline := time.Now().Add(5 * time.Second); e2eProcessWithArgs(args...) != 0 && time.Now().Before(deadline); {
					time.Sleep(20 * time.Millisecond)
				}
				if pid := e2eProcessWithArgs(args...); pid != 0 {
					t.Errorf("process %d %q outlived the dashboard", pid, args)
				}
			}
		})
	}
}

// e2eProcessWithArgs returns the pid of a live (not zombie) process whose
// command line is exactly args, or 0. It reads /proc.
func e2eProcessWithArgs(args ...string) int {
	var want []byte
	for _, a := range args {
		want = append(append(want, a...), 0)
	}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(cmdline) == string(want) && e2eLive(pid) {
			return pid
		}
	}
	return 0
}
