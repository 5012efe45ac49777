package web

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/check"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/oauth"
)

// Deps are the services the handlers use. Each is an interface of what the
// dashboard calls, so that a service can be replaced (a store on another
// database, a hub that crosses replicas) without touching a handler; the
// backend's services are what cmd/playground wires in.
type Deps struct {
	Registry Registry
	Pool     Pool
	Sessions backend.SessionStore
	Frames   backend.FrameStore
	Hub      Hub
	Inbox    Inbox
	Log      *slog.Logger
	// Recording, if not nil, says whether frames are being stored; while
	// it reports a failure every page carries a banner saying so.
	Recording RecordingHealth
	// LastCalls, if not nil, keeps each item's last call across reloads.
	LastCalls LastCallService
	// Collections keeps saved example calls and runs them.
	Collections Collections
	// Revisions, if not nil, holds servers' interface revisions, which the
	// Overview and the revisions page show (server_drift.go).
	Revisions backend.RevisionStore
	// History searches recorded exchanges.
	History backend.HistoryStore
	// Imports stores NDJSON exports as read-only sessions (history_io.go).
	Imports SessionImporter
	// Accounts signs people in; every route but signing in, static files
	// and the health check needs someone signed in (access.go).
	Accounts Accounts
	// Health, if not nil, is what /healthz asks whether the database
	// answers (health.go).
	Health Health
	// Audit records who changed what (audit.go) and shows it to admins.
	Audit AuditLog
	// OAuth, if not nil, signs people in to OAuth-protected HTTP servers
	// and shows each sign-in in a debugger (oauth.go).
	OAuth OAuth
	// Checks, if not nil, runs the active checks of a server's Protocol
	// section on a live session (protocol_report.go).
	Checks SessionChecks
}

// SessionChecks runs the active checks (backend/check) on a live session;
// *check.Checker implements it.
type SessionChecks interface {
	CheckSession(ctx context.Context, sessionID int64) (check.Report, error)
}

// Hub is what the dashboard uses of the event hub: it subscribes live
// streams to a session's events (or to backend.SessionStates) and
// publishes who watches a session (backend.Presence). *backend.Hub
// implements it; so may a hub that crosses replicas (see
// backend.Subscriber).
type Hub interface {
	backend.Subscriber
	backend.Publisher
}

// RecordingHealth reports the recorder's state; *backend.Recorder
// implements it.
type RecordingHealth interface {
	// Failure returns why frames cannot be stored, or nil while they are.
	Failure() error
}

// Registry keeps the registered servers; *backend.Registry is one.
type Registry interface {
	Create(ctx context.Context, s backend.Server) (int64, error)
	Get(ctx context.Context, id int64) (backend.Server, error)
	List(ctx context.Context) ([]backend.Server, error)
	Update(ctx context.Context, s backend.Server) (backend.ServerUpdate, error)
	Delete(ctx context.Context, id int64) error
}

// Pool is what the dashboard does with live sessions; *backend.Pool is one.
type Pool interface {
	LiveSessions
	Requests
	Catalog
	ResourceBrowser
	TaskRunner
}

// LiveSessions opens, finds and closes a server's live session.
type LiveSessions interface {
	Connect(ctx context.Context, serverID int64) (backend.Session, error)
	Disconnect(ctx context.Context, sessionID int64) error
	IsLive(sessionID int64) bool
	Open(sessionID int64) (backend.Session, bool)
	LiveSession(serverID int64) (backend.Session, bool)
	LiveSessions() []backend.Session
	Overview(sessionID int64) (backend.SessionOverview, error)
	AwaitRevision(ctx context.Context, sessionID int64) error
	Ping(ctx context.Context, sessionID int64) (time.Duration, error)
	LogLevel(sessionID int64) string
	SetLogLevel(ctx context.Context, sessionID int64, level string) error
}

// Requests sends what a person wrote, as it is, on a live session.
type Requests interface {
	Call(ctx context.Context, sessionID int64, method string, params json.RawMessage) (backend.CallResult, error)
	CallWith(ctx context.Context, sessionID int64, method string, params json.RawMessage, o backend.CallOptions) (backend.CallResult, error)
	CancelCall(sessionID int64, id string) (bool, error)
	Notify(ctx context.Context, sessionID int64, method string, params json.RawMessage) error
	SendRaw(ctx context.Context, sessionID int64, body []byte) error
}

// Catalog lists a session's tools and prompts and calls them.
type Catalog interface {
	Tools(ctx context.Context, sessionID int64, refresh bool) ([]backend.Tool, error)
	Tool(ctx context.Context, sessionID int64, name string) (backend.Tool, error)
	RunsAsTask(sessionID int64, tool backend.Tool, wanted bool) bool
	CallTool(ctx context.Context, sessionID int64, tool backend.Tool, args json.RawMessage, asTask bool, o backend.CallOptions) (backend.ToolCallResult, error)
	Prompts(ctx context.Context, sessionID int64, refresh bool) ([]backend.Prompt, error)
	Prompt(ctx context.Context, sessionID int64, name string) (backend.Prompt, error)
	GetPrompt(ctx context.Context, sessionID int64, name string, args map[string]string, o backend.CallOptions) (backend.CallResult, error)
	Complete(ctx context.Context, sessionID int64, ref backend.CompletionRef, argName, value string, contextArgs map[string]string) (backend.CompleteResult, error)
}

// ResourceBrowser pages through a session's resources, reads MCP Apps'
// resources and keeps its resource subscriptions.
type ResourceBrowser interface {
	ResourcesPage(ctx context.Context, sessionID int64, cursor string) (backend.ResourcePage, error)
	ResourceTemplatesPage(ctx context.Context, sessionID int64, cursor string) (backend.ResourceTemplatePage, error)
	ReadAppResource(ctx context.Context, sessionID int64, uri string) (backend.AppResource, error)
	ResourceSubscriptions(sessionID int64) (backend.ResourceSubscriptions, error)
	Subscribe(ctx context.Context, sessionID int64, uri string) error
	Unsubscribe(ctx context.Context, sessionID int64, uri string) error
}

// TaskRunner follows the tasks a session's server runs.
type TaskRunner interface {
	Tasks(ctx context.Context, sessionID int64) ([]backend.Task, error)
	TaskResult(ctx context.Context, sessionID int64, taskID string) (backend.CallResult, error)
	CancelTask(ctx context.Context, sessionID int64, taskID string) error
}

// Inbox holds the server requests that wait for a person's answer;
// *backend.Inbox is one. by names who answered, for the audit log.
type Inbox interface {
	Pending(sessionID int64) []backend.InputRequest
	Get(id int64) (backend.InputRequest, error)
	AnsweredBy(id int64) string
	Answer(id int64, result json.RawMessage, by string) error
	Refuse(id int64, err error, by string) error
	AcceptElicit(id int64, content json.RawMessage, by string) error
	DismissElicit(id int64, action, by string) error
	ReplySample(id int64, reply backend.SampleReply, by string) error
	DeclineSample(id int64, by string) error
}

// SessionImporter stores an exported session's frames as a read-only
// session; *backend.SessionImporter is one.
type SessionImporter interface {
	Import(ctx context.Context, file string, at time.Time, frames iter.Seq2[backend.ImportedFrame, error]) (int64, error)
}

// Collections keeps saved examples, their environments and their runs;
// *collections.Service is one.
type Collections interface {
	List(ctx context.Context) ([]collections.Collection, error)
	ListPage(ctx context.Context, after string, size int) (collections.Page[collections.Collection], error)
	Collection(ctx context.Context, id int64) (collections.Collection, error)
	Create(ctx context.Context, name, description string) (collections.Collection, error)
	Rename(ctx context.Context, id int64, name, description string) error
	Delete(ctx context.Context, id int64) error
	Import(ctx context.Context, f collections.File) (collections.Collection, error)
	Export(ctx context.Context, collectionID int64, listing *backend.InterfaceListing) (collections.File, error)

	Save(ctx context.Context, r collections.SaveRequest) (collections.Collection, collections.Example, error)
	SuggestedName(ctx context.Context, frameID int64) (string, error)
	ExamplesPage(ctx context.Context, collectionID int64, afterPosition, size int) (collections.Page[collections.Example], error)
	UpdateExample(ctx context.Context, collectionID, id int64, edit collections.ExampleEdit) error
	MoveExample(ctx context.Context, collectionID, id int64, up bool) error
	DeleteExample(ctx context.Context, collectionID, id int64) error

	Environments(ctx context.Context, collectionID int64) ([]collections.Environment, error)
	SaveEnvironment(ctx context.Context, e collections.Environment, who backend.Role) (collections.Environment, error)
	DeleteEnvironment(ctx context.Context, collectionID, id int64) error

	DefaultSession(ctx context.Context, collectionID int64, live []backend.Session) (int64, error)
	Start(ctx context.Context, req collections.RunRequest) (collections.Run, error)
	RunsPage(ctx context.Context, collectionID, before int64, size int) (collections.Page[collections.Run], error)
	GetRun(ctx context.Context, collectionID, runID int64) (collections.Run, []collections.RunResult, error)
	AcceptAnswer(ctx context.Context, collectionID, runID, resultID int64) (collections.Example, error)
	Replay(ctx context.Context, responseFrameID, sessionID int64) (collections.RunResult, error)
}

// Accounts is the dashboard's sign-in and account keeping;
// *accounts.Service is one.
type Accounts interface {
	SignIns
	AccountAdmin
	OwnAccount
}

// SignIns sets up the first admin, signs people in and out, and tells who
// a browser session or API token belongs to.
type SignIns interface {
	NeedsSetup(ctx context.Context) (bool, error)
	ValidSetupToken(ctx context.Context, token string) bool
	SetUp(ctx context.Context, token, name, password, client string) (accounts.Principal, string, error)
	SignIn(ctx context.Context, name, password, client, addr string) (accounts.Principal, string, error)
	SignOut(ctx context.Context, id int64) error
	Authenticate(ctx context.Context, token string) (accounts.Principal, error)
	AuthenticateToken(ctx context.Context, token string) (accounts.Principal, error)
}

// AccountAdmin is what an admin does with everyone's accounts.
type AccountAdmin interface {
	ListUsers(ctx context.Context) ([]backend.User, error)
	User(ctx context.Context, id int64) (backend.User, error)
	UserByName(ctx context.Context, name string) (backend.User, error)
	AddUser(ctx context.Context, name, password string, role backend.Role) (backend.User, error)
	UpdateUser(ctx context.Context, by accounts.Principal, id int64, role backend.Role, disabled bool) (backend.User, error)
	ResetPassword(ctx context.Context, userID int64, password string) error
}

// OwnAccount is what a person does with their own account: password,
// API tokens and browser sessions.
type OwnAccount interface {
	ChangePassword(ctx context.Context, p accounts.Principal, current, next string) error
	ListTokens(ctx context.Context, userID int64) ([]accounts.APIToken, error)
	CreateToken(ctx context.Context, p accounts.Principal, name string, role backend.Role, ttl time.Duration) (accounts.APIToken, string, error)
	RevokeToken(ctx context.Context, userID, id int64) error
	ListSessions(ctx context.Context, userID int64) ([]accounts.WebSession, error)
	SignOutEverywhere(ctx context.Context, userID, keep int64) error
}

// AuditLog records who changed what and reads it back; *audit.Log is one.
type AuditLog interface {
	// RecordLater records e once finish has completed it, which may run
	// after RecordLater returned, on another goroutine.
	RecordLater(ctx context.Context, e audit.Event, finish func(*audit.Event)) error
	Page(ctx context.Context, f audit.Filter) (audit.Page, error)
	Each(ctx context.Context, f audit.Filter, fn func(audit.Event) error) error
}

// OAuth signs people in to OAuth-protected servers and keeps each sign-in
// for the debugger; *oauth.Service is one.
type OAuth interface {
	Settings(ctx context.Context, serverID int64) (oauth.Settings, error)
	SaveSettings(ctx context.Context, serverID int64, s oauth.Settings, confirm bool) error
	Start(ctx context.Context, user backend.User, serverID int64, redirectURL string) (oauth.Started, error)
	Complete(ctx context.Context, userID int64, cb oauth.Callback) (oauth.Flow, error)
	Grants(ctx context.Context, serverID int64) ([]oauth.Grant, error)
	Share(ctx context.Context, serverID, userID int64, shared bool) error
	SignOut(ctx context.Context, serverID, userID int64) error
	Flows(ctx context.Context, serverID int64) ([]oauth.Flow, error)
	Flow(ctx context.Context, serverID, flowID int64) (oauth.Flow, error)
	Rerun(ctx context.Context, user backend.User, serverID, stepID int64) (oauth.Flow, error)
}
