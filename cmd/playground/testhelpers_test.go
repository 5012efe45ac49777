package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Helpers for end-to-end tests that run the real playground binary. Their
// names start with e2e so that they do not clash with the unit tests of this
// package.

const (
	e2eBuildTimeout    = 5 * time.Minute
	e2eStartTimeout    = 20 * time.Second
	e2eShutdownTimeout = 15 * time.Second
)

// e2eBuildPlayground returns the path of the playground binary built from
// this package (the test's working directory). It is built once per test
// process, on first use, into a directory that TestMain removes; every test
// runs that one binary, which none of them changes.
func e2eBuildPlayground(t *testing.T) string {
	t.Helper()
	e2eBinary.once.Do(func() { e2eBinary.path, e2eBinary.err = e2eBuild() })
	if e2eBinary.err != nil {
		t.Fatal(e2eBinary.err)
	}
	return e2eBinary.path
}

// e2eBinary is the binary that e2eBuildPlayground builds.
var e2eBinary struct {
	once      sync.Once
	dir, path string
	err       error
}

// e2eBuild builds this package into a new temporary directory.
func e2eBuild() (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("the go command is needed to build the playground: %v", err)
	}
	dir, err := os.MkdirTemp("", "playground-e2e-bin-")
	if err != nil {
		return "", err
	}
	e2eBinary.dir = dir
	bin := filepath.Join(dir, "playground")
	ctx, cancel := context.WithTimeout(context.Background(), e2eBuildTimeout)
	defer cancel()
	// sqlite_fts5: history search needs FTS5 (see the Makefile).
	cmd := exec.CommandContext(ctx, goTool, "build", "-tags", "sqlite_fts5", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1") // go-sqlite3 needs cgo
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build -o %s . failed: %v\n%s", bin, err, out)
	}
	return bin, nil
}

// e2eRemoveBinary removes the built binary's directory, if one was made.
func e2eRemoveBinary() {
	if e2eBinary.dir != "" {
		os.RemoveAll(e2eBinary.dir)
	}
}

// e2eLog is a concurrency-safe buffer for a child process's output.
type e2eLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *e2eLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *e2eLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// e2eServer is a running `playground serve`.
type e2eServer struct {
	URL string // http://127.0.0.1:PORT, no trailing slash
	Bin string
	Log *e2eLog // the process's stderr (its slog output)
	// Token is an API token of the admin account (e2eAdmin).
	Token string

	// transport is what client uses (nil: http.DefaultTransport), e.g.
	// one that trusts the dashboard's test certificate.
	transport http.RoundTripper

	client  *http.Client // signed in as the admin (signIn)
	cmd     *exec.Cmd
	exited  chan struct{} // closed when the process has been waited for
	waitErr error         // valid after exited is closed
	ended   bool          // by stop or kill; stop has nothing more to do
}

var e2eListeningRE = regexp.MustCompile(`msg="dashboard listening" url=(https?://\S+)`)

// e2eServe starts `bin serve` on a free loopback port with a fresh database,
// waits until it answers, and registers a cleanup that stops it with SIGINT
// and checks that it shuts down cleanly. Its stderr goes to the test log when
// the test fails.
func e2eServe(t *testing.T, bin string) *e2eServer {
	t.Helper()
	return e2eServeDB(t, bin, filepath.Join(t.TempDir(), "playground.db"))
}

// e2eServeDB is e2eServe on the database file db.
func e2eServeDB(t *testing.T, bin, db string) *e2eServer {
	t.Helper()
	return e2eServeWith(t, bin, db, e2eServeOptions{})
}

// e2eServeOptions tune e2eServeWith.
type e2eServeOptions struct {
	client *http.Client // waited for to get an answer; http.DefaultClient if nil
	flags  []string     // further serve flags
	// noAccount starts the dashboard without creating the admin first, so
	// that it logs its first-admin setup link; the server then has no Token
	// and no signed-in Go client, and e2eHTTPDo does not know it.
	noAccount bool
}

// e2eServeWith is e2eServeDB with options.
func e2eServeWith(t *testing.T, bin, db string, o e2eServeOptions) *e2eServer {
	t.Helper()
	client := o.client
	if client == nil {
		client = http.DefaultClient
	}
	var token string
	if !o.noAccount {
		token = e2eAdminToken(t, bin, db)
	}
	// Port 0: the kernel picks a free port and the dashboard logs the URL it
	// listens on, so there is no window in which another process can take a
	// port chosen in advance.
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, o.flags...)...)
	cmd.Env = e2eEnvWithout(e2eEnviron(), "PLAYGROUND_ADDR", "PLAYGROUND_DB", "PLAYGROUND_ALLOW_HOSTS", "PLAYGROUND_TLS_CERT", "PLAYGROUND_TLS_KEY",
		"PLAYGROUND_TRUSTED_PROXIES", "PLAYGROUND_BASE_URL", "PLAYGROUND_APPS_BASE_URL")
	s := &e2eServer{Bin: bin, Log: &e2eLog{}, Token: token, transport: client.Transport, cmd: cmd, exited: make(chan struct{})}
	cmd.Stdout = s.Log
	cmd.Stderr = s.Log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s serve: %v", bin, err)
	}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		s.stop(t)
		if t.Failed() {
			t.Logf("playground serve stderr:\n%s", s.Log.String())
		}
	})

	deadline := time.Now().Add(e2eStartTimeout)
	for s.URL == "" {
		if m := e2eListeningRE.FindStringSubmatch(s.Log.String()); m != nil {
			s.URL = m[1]
			break
		}
		select {
		case <-s.exited:
			t.Fatalf("playground serve exited before listening: %v", s.waitErr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("playground serve did not log %q within %v", "dashboard listening", e2eStartTimeout)
		}
	}
	for {
		resp, err := client.Get(s.URL + "/signin")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
			err = fmt.Errorf("status %s", resp.Status)
		}
		if time.Now().After(deadline) {
			t.Fatalf("playground serve at %s does not answer GET /signin: %v", s.URL, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if o.noAccount {
		return s
	}
	s.signIn(t)
	e2eServers.Store(s.URL, s)
	t.Cleanup(func() { e2eServers.Delete(s.URL) })
	return s
}

// e2eEnviron is the environment of the processes the tests start: this
// one's, without the key settings that would point them at another key.
func e2eEnviron() []string {
	return e2eEnvWithout(os.Environ(), "PLAYGROUND_KEY", "PLAYGROUND_KEY_FILE")
}

// stop sends SIGINT and checks that the dashboard exits with status 0 within
// e2eShutdownTimeout, and that it leaves no child process of its binary
// (such as the demo server) behind. Only the first stop or kill acts.
func (s *e2eServer) stop(t *testing.T) {
	t.Helper()
	if s.ended {
		return
	}
	s.ended = true
	select {
	case <-s.exited:
		t.Errorf("playground serve exited before the test stopped it: %v", s.waitErr)
		return
	default:
	}
	children := e2eProcessesOf(s.Bin, s.cmd.Process.Pid)
	start := time.Now()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Errorf("sending SIGINT to playground serve: %v", err)
	}
	select {
	case <-s.exited:
		t.Logf("playground serve stopped %v after SIGINT (it had %d child processes running %s)",
			time.Since(start).Round(time.Millisecond), len(children), filepath.Base(s.Bin))
	case <-time.After(e2eShutdownTimeout):
		t.Errorf("playground serve did not exit within %v of SIGINT; killing it", e2eShutdownTimeout)
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
	if s.waitErr != nil {
		t.Errorf("playground serve exited with %v after SIGINT, want status 0", s.waitErr)
	}
	if !strings.Contains(s.Log.String(), `msg="shutting down"`) {
		t.Errorf("playground serve did not log its graceful shutdown")
	}
	for _, line := range strings.Split(s.Log.String(), "\n") {
		if strings.Contains(line, " level=ERROR ") {
			t.Errorf("playground serve logged an error: %s", line)
		}
	}
	// The demo server runs in its own process group, so the SIGINT did not
	// reach it: only the dashboard's shutdown can have ended it.
	for _, pid := range children {
		deadline := time.Now().Add(5 * time.Second)
		for e2eAlive(pid, s.Bin) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if e2eAlive(pid, s.Bin) {
			t.Errorf("process %d (%s) outlived playground serve; killing it", pid, s.Bin)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// kill ends the dashboard with SIGKILL, as a crash or the OOM killer
// would, and waits until it has exited. Its child processes are left
// running.
func (s *e2eServer) kill(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("sending SIGKILL to playground serve: %v", err)
	}
	select {
	case <-s.exited:
	case <-time.After(e2eShutdownTimeout):
		t.Fatalf("playground serve did not exit within %v of SIGKILL", e2eShutdownTimeout)
	}
	s.ended = true
}

// e2eProcessesOf lists the processes, other than skip, that run the binary
// bin. It reads /proc and returns nothing where there is none.
func e2eProcessesOf(bin string, skip int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == skip {
			continue
		}
		if e2eAlive(pid, bin) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// e2eAlive reports whether process pid exists, runs bin, and is not a zombie.
func e2eAlive(pid int, bin string) bool {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil || strings.TrimSuffix(exe, " (deleted)") != bin {
		return false
	}
	return e2eLive(pid)
}

// e2eLive reports whether process pid exists and is not a zombie.
func e2eLive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name in parentheses: "pid (comm) S ...".
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

// e2eStopProcess ends cmd, which the caller started: SIGINT, then SIGKILL
// if it has not exited within e2eShutdownTimeout. It returns once cmd has
// been waited for.
func e2eStopProcess(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(os.Interrupt)
	escalate := time.AfterFunc(e2eShutdownTimeout, func() { _ = cmd.Process.Kill() })
	defer escalate.Stop()
	_ = cmd.Wait()
}

// e2eKillGroupOnCancel makes cmd, made by exec.CommandContext, lead a
// process group of its own that the context's end kills as a whole, and
// bounds how long Wait then waits for descendants that keep its output
// open: a harness that runs other programs does not leave them behind.
func e2eKillGroupOnCancel(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
}

func e2eEnvWithout(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, n := range names {
			drop = drop || name == n
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}

// e2eAPIFrame is a frame as GET /api/v1/sessions/ID/frames lists it.
type e2eAPIFrame struct {
	ID        int64           `json:"id"`
	Direction string          `json:"direction"`
	Kind      string          `json:"kind"`
	RPCType   string          `json:"rpcType"`
	RPCID     json.RawMessage `json:"rpcId"`
	Method    string          `json:"method"`
	Body      json.RawMessage `json:"body"`
	BodyText  string          `json:"bodyText"`
}

// apiFrames returns the session's recorded frames from the JSON API.
func (s *e2eServer) apiFrames(t *testing.T, sessionID string) []e2eAPIFrame {
	t.Helper()
	url := s.URL + "/api/v1/sessions/" + sessionID + "/frames"
	resp, err := e2eHTTPGet(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: reading the body: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, body)
	}
	var frames []e2eAPIFrame
	if err := json.Unmarshal(body, &frames); err != nil {
		t.Fatalf("GET %s: decoding %q: %v", url, body, err)
	}
	return frames
}

// apiCreateServer registers a server through the JSON API and returns its id.
func (s *e2eServer) apiCreateServer(t *testing.T, in map[string]any) int64 {
	t.Helper()
	var out struct {
		ID int64 `json:"id"`
	}
	e2ePostJSON(t, s.URL+"/api/v1/servers", in, http.StatusCreated, &out)
	return out.ID
}

// e2eGet fetches url and returns the body of its 200 answer.
func e2eGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := e2eHTTPGet(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s, %v", url, resp.Status, err)
	}
	return string(body)
}

// e2eCountFrames counts the frames with the given direction, JSON-RPC type
// and method.
func e2eCountFrames(frames []e2eAPIFrame, direction, rpcType, method string) int {
	n := 0
	for _, f := range frames {
		if f.Direction == direction && f.RPCType == rpcType && f.Method == method {
			n++
		}
	}
	return n
}

// e2eChromium returns the Chromium to drive, from PLAYGROUND_CHROMIUM. Without
// it the test is skipped, except under CI (CI set), where a missing browser
// is a failure: CI must run the browser tests.
func e2eChromium(t *testing.T) string {
	t.Helper()
	path := os.Getenv("PLAYGROUND_CHROMIUM")
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but PLAYGROUND_CHROMIUM is empty: install Chromium " +
				"(apt-get install -y --no-install-recommends chromium) and set PLAYGROUND_CHROMIUM to its path")
		}
		t.Skip("PLAYGROUND_CHROMIUM is not set; set it to a Chromium binary (e.g. /usr/bin/chromium) to run the browser tests")
	}
	if _, err := exec.LookPath(path); err != nil {
		t.Fatalf("PLAYGROUND_CHROMIUM=%s is not an executable: %v", path, err)
	}
	return path
}

// e2eRemoveAllRetry removes dir, retrying for a few seconds: Chromium's
// helper processes can still write into the profile just after it exits.
func e2eRemoveAllRetry(dir string) error {
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; {
		if err = os.RemoveAll(dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// e2ePostJSON posts in as JSON and decodes the answer, which must have
// status want, into out.
func e2ePostJSON(t *testing.T, url string, in any, want int, out any) {
	t.Helper()
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e2eHTTPDo(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	e2eDecode(t, resp, want, out)
}

// e2eGetJSON gets url and decodes its 200 answer into out.
func e2eGetJSON(t *testing.T, url string, out any) {
	t.Helper()
	resp, err := e2eHTTPGet(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	e2eDecode(t, resp, http.StatusOK, out)
}

func e2eDecode(t *testing.T, resp *http.Response, want int, out any) {
	t.Helper()
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", resp.Request.Method, resp.Request.URL, err)
	}
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %s, want %d\n%s", resp.Request.Method, resp.Request.URL, resp.Status, want, body)
	}
	if out == nil {
		return
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("%s %s: decoding %q: %v", resp.Request.Method, resp.Request.URL, body, err)
	}
}
