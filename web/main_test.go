package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/crypto/bcrypt"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/check"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/web"
)

// roleEnv makes the test binary act as an MCP server instead of running
// the tests: "sdk" runs newSDKServer over stdio, "sdk-http" serves it over
// Streamable HTTP on a loopback port (see mustSDKHTTPProcess), "fault" runs
// runFaultServer.
const roleEnv = "WEB_TEST_ROLE"

func TestMain(m *testing.M) {
	if os.Getenv(roleEnv) == "fault" {
		os.Exit(runFaultServer(os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv(roleEnv) == "sdk" {
		if err := newSDKServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(roleEnv) == "sdk-http" {
		os.Exit(serveSDKHTTP())
	}
	os.Exit(m.Run())
}

type echoArgs struct {
	Text string `json:"text"`
}

// sdkInstructions are newSDKServer's instructions, with markup that the
// dashboard must show as text.
const sdkInstructions = "Call echo first.\n<script>alert(\"instructions\")</script>"

// newSDKServer returns an official Go SDK server with the tools echo and
// wait (which waits until cancelled), and instructions (sdkInstructions).
func newSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-test", Version: "1.0"}, &mcp.ServerOptions{Instructions: sdkInstructions})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes <b>text</b>"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "wait", Description: "waits until cancelled"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	return s
}

// serveSDKHTTP serves newSDKServer over Streamable HTTP on a free loopback
// port, whose MCP URL it prints as the first line of its output, until the
// process is killed.
func serveSDKHTTP() int {
	server := newSDKServer()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	err = http.Serve(ln, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// mustSDKHTTPProcess runs the test binary as serveSDKHTTP in a child
// process, as a real server runs beside the dashboard, and returns its MCP
// URL. The process is killed when the test ends.
func mustSDKHTTPProcess(tb testing.TB) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=sdk-http")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		tb.Fatalf("the SDK HTTP server process did not print its URL: %v", err)
	}
	return strings.TrimSpace(line)
}

// MustSDKHTTPServer serves newSDKServer over Streamable HTTP on loopback
// and returns its MCP URL. If headers is not nil, each request's headers
// are stored there.
func MustSDKHTTPServer(tb testing.TB, headers chan<- http.Header) string {
	tb.Helper()
	server := newSDKServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if headers != nil {
			select {
			case headers <- r.Header.Clone():
			default:
			}
		}
		h.ServeHTTP(w, r)
	}))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// dashboard is the web app over a real store, recorder, pool and a
// loopback listener.
type dashboard struct {
	URL    string // http://127.0.0.1:port
	Host   string // 127.0.0.1:port
	db     *store.DB
	dbPath string // the SQLite file of db
	hub    *backend.Hub
	rec    *backend.Recorder
	pool   *backend.Pool
	reg    *backend.Registry
	web    *web.Server
	client *http.Client // keeps cookies, does not follow redirects

	accounts *accounts.Service
	audit    *audit.Log // Flush it before reading audit events from db
	token    string     // the API token api sends, "" for none

	// AppsURL and AppsHost are the apps origin's, like URL and Host.
	AppsURL, AppsHost string
}

// MustDashboard starts the dashboard on a temp-file database. When the
// test ends it shuts down in the order the binary does.
func MustDashboard(tb testing.TB) *dashboard {
	tb.Helper()
	return mustDashboardWith(tb, dashboardOptions{})
}

// dashboardOptions tune mustDashboardWith.
type dashboardOptions struct {
	store []store.Option // passed to store.Open
	log   io.Writer      // receives the slog output too, if not nil
	// anonymous leaves the database without accounts and the client
	// signed out; otherwise testAdmin exists, the client is signed in as
	// them and api sends their token.
	anonymous bool
	// configure, if not nil, changes the configuration and dependencies
	// before the dashboard is built.
	configure func(*web.Config, *web.Deps)
}

// mustDashboardWith is MustDashboard with options.
func mustDashboardWith(tb testing.TB, o dashboardOptions) *dashboard {
	tb.Helper()
	ctx := context.Background()
	var logOut io.Writer = io.Discard
	if testing.Verbose() {
		logOut = os.Stderr
	}
	if o.log != nil {
		logOut = io.MultiWriter(logOut, o.log)
	}
	log := slog.New(slog.NewTextHandler(logOut, nil))
	dbPath := filepath.Join(tb.TempDir(), "playground.db")
	db, err := store.Open(ctx, dbPath, o.store...)
	if err != nil {
		tb.Fatalf("store.Open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(ctx, db, hub, log, backend.RecorderOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { rec.Close() })
	inbox := backend.NewInbox(hub, time.Minute)
	oauthService := oauth.New(db, db, log, nil)
	tb.Cleanup(oauthService.Close)
	pool := backend.NewPool(db, db, rec, hub, inbox, log, backend.Implementation{Name: "playground-test", Version: "0"},
		backend.WithRevisions(db), backend.WithCredentials(oauthService))
	tb.Cleanup(pool.Close)
	reg := backend.NewRegistry(db, db, pool)
	auditLog := audit.NewWriter(db, log)
	tb.Cleanup(auditLog.Close) // before the database closes
	accts, err := accounts.New(db, accounts.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		tb.Fatal(err)
	}

	ts := httptest.NewUnstartedServer(nil)
	apps := httptest.NewUnstartedServer(nil)
	host, appsHost := ts.Listener.Addr().String(), apps.Listener.Addr().String()
	cfg := web.Config{Addr: host, AppsAddr: appsHost}
	deps := web.Deps{Registry: reg, Pool: pool, Sessions: db, Frames: db, Hub: hub, Inbox: inbox, Log: log, Recording: rec, LastCalls: backend.NewLastCalls(db, db), Collections: collections.New(db, db, db, pool, log), Revisions: db, History: db, Imports: backend.NewSessionImporter(db, rec), Accounts: accts, Health: db, Audit: auditLog, OAuth: oauthService,
		Checks: check.NewChecker(pool, rec, db, check.Options{})}
	if o.configure != nil {
		o.configure(&cfg, &deps)
	}
	h := web.New(cfg, deps)
	ts.Config.Handler = h
	apps.Config.Handler = h.AppsOrigin()
	ts.Start()
	apps.Start()
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		apps.Close()
	})
	tb.Cleanup(h.Close)

	client := newClient()
	d := &dashboard{URL: "http://" + host, Host: host, AppsURL: "http://" + appsHost, AppsHost: appsHost, db: db, dbPath: dbPath, hub: hub, rec: rec, pool: pool, reg: reg, web: h, client: client, accounts: accts, audit: auditLog}
	if !o.anonymous {
		d.token = d.mustAccount(tb, testAdmin, backend.RoleAdmin).token
		d.mustSignIn(tb, d.client, testAdmin)
	}
	return d
}

// response is a read HTTP response.
type response struct {
	Status int
	Header http.Header
	Body   string
}

// do sends req with the dashboard's client and reads the whole response.
func (d *dashboard) do(tb testing.TB, req *http.Request) response {
	tb.Helper()
	return d.doWith(tb, d.client, req)
}

// doWith sends req with client and reads the whole response.
func (d *dashboard) doWith(tb testing.TB, client *http.Client, req *http.Request) response {
	tb.Helper()
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s %s: reading body: %v", req.Method, req.URL, err)
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: string(body)}
}

// newRequest builds a request for path on the dashboard; one for the JSON
// API carries the dashboard's API token, if it has one.
func (d *dashboard) newRequest(tb testing.TB, method, path string, body io.Reader) *http.Request {
	tb.Helper()
	req, err := http.NewRequest(method, d.URL+path, body)
	if err != nil {
		tb.Fatal(err)
	}
	if d.token != "" && strings.HasPrefix(path, "/api/") {
		req.Header.Set("Authorization", "Bearer "+d.token)
	}
	return req
}

// get fetches path.
func (d *dashboard) get(tb testing.TB, path string) response {
	tb.Helper()
	return d.do(tb, d.newRequest(tb, http.MethodGet, path, nil))
}

// postForm posts form values to path as a browser form would.
func (d *dashboard) postForm(tb testing.TB, path string, values url.Values) response {
	tb.Helper()
	return d.postFormWith(tb, d.client, path, values)
}

// postFormWith posts form values to path with client.
func (d *dashboard) postFormWith(tb testing.TB, client *http.Client, path string, values url.Values) response {
	tb.Helper()
	req := d.newRequest(tb, http.MethodPost, path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return d.doWith(tb, client, req)
}

var csrfField = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// MustCSRF loads a page with a form and returns its CSRF token; the client
// keeps the matching cookie.
func (d *dashboard) MustCSRF(tb testing.TB) string {
	tb.Helper()
	r := d.get(tb, "/servers/new")
	if r.Status != http.StatusOK {
		tb.Fatalf("GET /servers/new: %d", r.Status)
	}
	m := csrfField.FindStringSubmatch(r.Body)
	if m == nil {
		tb.Fatalf("no CSRF field in the form:\n%s", r.Body)
	}
	return m[1]
}

// api sends a JSON API request and decodes the JSON answer into out (if not nil).
func (d *dashboard) api(tb testing.TB, method, path string, in any, out any) response {
	tb.Helper()
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			tb.Fatal(err)
		}
		body = bytes.NewReader(b)
	}
	req := d.newRequest(tb, method, path, body)
	if method != http.MethodGet {
		// Scripts declare JSON even without a body: a POST without it
		// is treated as a browser form and must carry a CSRF token.
		req.Header.Set("Content-Type", "application/json")
	}
	r := d.do(tb, req)
	if out != nil && r.Body != "" {
		if err := json.Unmarshal([]byte(r.Body), out); err != nil {
			tb.Fatalf("%s %s: %d %q is not the expected JSON: %v", method, path, r.Status, r.Body, err)
		}
	}
	return r
}

// apiServer is a server as the API returns it.
type apiServer struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Transport   string   `json:"transport"`
	URL         string   `json:"url"`
	Command     string   `json:"command"`
	Args        []string `json:"args"`
	EnvNames    []string `json:"envNames"`
	HeaderNames []string `json:"headerNames"`
}

type apiSession struct {
	ID              int64  `json:"id"`
	ServerID        int64  `json:"serverId"`
	ServerName      string `json:"serverName"`
	Status          string `json:"status"`
	CloseReason     string `json:"closeReason"`
	ProtocolVersion string `json:"protocolVersion"`
	PeerName        string `json:"peerName"`
}

type apiError struct {
	Error     string            `json:"error"`
	Fields    map[string]string `json:"fields"`
	Session   *apiSession       `json:"session"`
	SignInURL string            `json:"signInUrl"`
}

type apiFrame struct {
	ID           int64           `json:"id"`
	Direction    string          `json:"direction"`
	Kind         string          `json:"kind"`
	RPCType      string          `json:"rpcType"`
	RPCID        json.RawMessage `json:"rpcId"`
	Method       string          `json:"method"`
	Body         json.RawMessage `json:"body"`
	BodyText     string          `json:"bodyText"`
	HTTP         json.RawMessage `json:"http"`
	PairID       int64           `json:"pairId"`
	LatencyMS    float64         `json:"latencyMs"`
	IDClash      string          `json:"idClash"`
	IDClashFrame int64           `json:"idClashFrame"`
	Findings     []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
		Pointer  string `json:"pointer"`
		Message  string `json:"message"`
		Fix      string `json:"fix"`
	} `json:"findings"`
}

// MustAPIServer registers a server through the API.
func (d *dashboard) MustAPIServer(tb testing.TB, in map[string]any) apiServer {
	tb.Helper()
	var out apiServer
	if r := d.api(tb, http.MethodPost, "/api/v1/servers", in, &out); r.Status != http.StatusCreated {
		tb.Fatalf("create server: %d %s", r.Status, r.Body)
	}
	return out
}

// MustAPISession opens a session through the API.
func (d *dashboard) MustAPISession(tb testing.TB, serverID int64) apiSession {
	tb.Helper()
	var out apiSession
	if r := d.api(tb, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", serverID), nil, &out); r.Status != http.StatusCreated {
		tb.Fatalf("open session: %d %s", r.Status, r.Body)
	}
	// The pool lists the server's interface after connect; tests that
	// count frames start once that listing is over.
	if err := d.pool.AwaitRevision(context.Background(), out.ID); err != nil {
		tb.Fatalf("the interface revision of session %d: %v", out.ID, err)
	}
	return out
}

// sdkStdioServer registers a stdio server that re-runs this test binary
// as newSDKServer.
func sdkStdioServer(name string) map[string]any {
	return map[string]any{"name": name, "transport": "stdio", "command": os.Args[0],
		"env": map[string]string{roleEnv: "sdk", "GORACE": "atexit_sleep_ms=0"}}
}

func newJar() (*cookiejar.Jar, error) { return cookiejar.New(nil) }
