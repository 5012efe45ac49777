// Package web is the dashboard's HTTP layer: routes, middleware, handlers
// that render views, the live-traffic WebSocket and the JSON API.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/static"
)

// Deps are the services the handlers use.
type Deps struct {
	Registry *backend.Registry
	Pool     *backend.Pool
	Sessions backend.SessionStore
	Frames   backend.FrameStore
	Hub      *backend.Hub
	Inbox    *backend.Inbox
	Log      *slog.Logger
	// Recording, if not nil, says whether frames are being stored; while
	// it reports a failure every page carries a banner saying so.
	Recording RecordingHealth
	// LastCalls, if not nil, keeps each item's last call across reloads.
	LastCalls LastCallService
	// Collections keeps saved example calls and runs them.
	Collections *backend.Collections
	// Revisions, if not nil, holds servers' interface revisions, which the
	// Overview and the revisions page show (server_drift.go).
	Revisions backend.RevisionStore
	// History searches recorded exchanges.
	History backend.HistoryStore
	// Imports stores NDJSON exports as read-only sessions (history_io.go).
	Imports *backend.SessionImporter
	// Health, if not nil, is what /healthz asks whether the database
	// answers (health.go).
	Health Health
}

// RecordingHealth reports the recorder's state; *backend.Recorder
// implements it.
type RecordingHealth interface {
	// Failure returns why frames cannot be stored, or nil while they are.
	Failure() error
}

// Config says where the dashboard is reachable.
type Config struct {
	// Addr is the address the dashboard listens on (host:port, after any
	// port 0 was resolved). Requests must name it, or a loopback alias of it,
	// in their Host header.
	Addr string
	// AllowedHosts are further Host values to accept (host or host:port).
	AllowedHosts []string
	// AppsAddr is the address (host:port, resolved) of the listener that
	// serves Server.AppsOrigin, or "" to render no MCP Apps.
	AppsAddr string
	// TLS says both listeners serve HTTPS (with the same certificate), so
	// their URLs are https ones.
	TLS bool
	// BaseURL is the dashboard's public URL (scheme://host[:port], no
	// trailing slash) when people reach it through another address, such
	// as a reverse proxy's; "" when they use the listener's. Its host is
	// accepted in the Host check (public_url.go).
	BaseURL string
	// AppsBaseURL is the apps origin's public URL, in the form of BaseURL;
	// the dashboard frames apps from it, and the apps origin accepts its
	// host.
	AppsBaseURL string
	// TrustedProxies are the peers whose X-Forwarded-For and
	// X-Forwarded-Proto headers are believed (client_addr.go).
	TrustedProxies []netip.Prefix
}

// Server is the dashboard's http.Handler. Close ends its WebSocket streams.
type Server struct {
	echo  *echo.Echo
	cfg   Config
	deps  Deps
	hosts hostPolicy

	ctx    context.Context // cancelled by Close; bounds hijacked connections
	cancel context.CancelFunc
	wsWG   sync.WaitGroup

	toolViews toolViewCache // see server_page.go

	apps       *appStore   // MCP Apps' pages, shared with appsOrigin
	appsOrigin *AppsOrigin // nil without Config.AppsAddr
	appsURL    string      // the apps origin's URL, "" without it
}

// New builds the dashboard.
func New(cfg Config, deps Deps) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{echo: echo.New(), cfg: cfg, deps: deps, hosts: newHostPolicy(cfg.Addr, append(urlHosts(cfg.BaseURL), cfg.AllowedHosts...)),
		ctx: ctx, cancel: cancel, apps: newAppStore()}
	if cfg.AppsAddr != "" {
		s.appsURL = cfg.appsURL()
		s.appsOrigin = newAppsOrigin(cfg, s.hosts, s.apps, s)
	}
	e := s.echo
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.Pre(securityHeaders(s.appsURL)) // first: every answer carries them
	e.Pre(s.strictTransport)
	e.Use(middleware.Recover())
	e.Use(s.checkHostAndOrigin)
	e.Use(s.recordingStatus)
	e.Use(s.connectedSessions)
	e.Use(bodyLimits())
	e.Use(readForm) // before the CSRF check reads the token from the form
	e.Use(s.checkCSRF)
	e.Use(s.refuseImported) // imported sessions are read-only (session_readonly.go)

	e.StaticFS("/static", static.FS)
	e.GET(healthPath, s.healthz)

	e.GET("/", s.listServers)
	e.GET("/servers/new", s.newServerForm)
	e.POST("/servers", s.createServer)
	e.GET("/servers/:id", s.showServer)
	e.GET("/servers/:id/tools", s.showTools)
	e.GET("/servers/:id/tools/:name", s.showTools)
	e.GET("/servers/:id/prompts", s.showPrompts)
	e.GET("/servers/:id/prompts/:name", s.showPrompts)
	e.GET("/servers/:id/console", s.showConsole)
	e.GET("/servers/:id/tasks", s.showTasks)
	e.GET("/servers/:id/logs", s.showLogs)
	e.GET("/servers/:id/resources", s.showResources)
	e.GET("/servers/:id/resources/more", s.moreResources)
	e.GET("/servers/:id/revisions", s.showRevisions)
	e.GET("/servers/:id/edit", s.editServerForm)
	e.POST("/servers/:id", s.updateServer)
	e.POST("/servers/:id/delete", s.deleteServer)
	e.POST("/servers/:id/connect", s.connectServer)
	e.POST("/sessions/:id/disconnect", s.disconnectSession)
	e.POST("/sessions/:id/tools/call", s.callTool)
	e.POST("/sessions/:id/prompts/get", s.getPrompt)
	e.POST("/sessions/:id/complete", s.completeArgument)
	e.POST("/sessions/:id/resources/read", s.readResource)
	e.POST("/sessions/:id/calls/:call/cancel", s.cancelCall)
	e.GET("/sessions/:id/tasks", s.listTasks)
	e.POST("/sessions/:id/tasks/:task/result", s.taskResult)
	e.POST("/sessions/:id/tasks/:task/cancel", s.cancelTask)
	e.POST("/sessions/:id/inputs/:input", s.answerInput)
	e.POST("/sessions/:id/console", s.consoleSend)
	e.POST("/sessions/:id/ping", s.pingSession)
	e.POST("/sessions/:id/resources/template", s.readTemplate)
	e.POST("/sessions/:id/resources/subscribe", s.subscribeResource)
	e.POST("/sessions/:id/resources/unsubscribe", s.unsubscribeResource)
	e.POST("/sessions/:id/apps/bridge", s.appsBridge)
	e.POST("/sessions/:id/logging/level", s.setLogLevel)
	e.GET("/sessions", s.listSessions)
	e.GET("/sessions/:id", s.showSession)
	e.GET("/sessions/:id/live", s.streamSession)
	e.GET("/sessions/:id/frames", s.olderFrames)
	e.GET("/sessions/:id/traffic", s.traffic)
	e.GET("/sessions/:id/export", s.exportFrames)
	e.GET("/sessions/:id/logs", s.sessionLogs)
	e.GET("/history", s.searchHistory)
	e.GET("/history/export", s.exportHistory)
	e.GET(importPath, s.showImport)
	e.POST(importPath, s.importSession)
	e.GET("/sessions/:id/exchanges/:exchange", s.showExchange)
	e.POST("/sessions/:id/exchanges/:exchange/replay", s.replayExchange)
	e.GET("/frames/:id/body", s.frameBody)
	e.GET("/frames/:id/raw", s.frameRaw)

	e.GET("/collections", s.listCollections)
	e.POST("/collections", s.createCollection)
	e.GET("/collections/save", s.saveExampleForm)
	e.POST("/collections/save", s.saveExample)
	e.POST("/collections/import", s.importCollection)
	e.GET("/collections/:id/export", s.exportCollection)
	e.GET("/collections/:id", s.showCollection)
	e.POST("/collections/:id", s.renameCollection)
	e.POST("/collections/:id/delete", s.deleteCollection)
	e.POST("/collections/:id/run", s.runCollection)
	e.GET("/collections/:id/runs/:run", s.showRun)
	e.GET("/collections/:id/runs/:run/report", s.runReport)
	e.POST("/collections/:id/environments", s.saveEnvironment)
	e.POST("/collections/:id/environments/:env", s.saveEnvironment)
	e.POST("/collections/:id/environments/:env/delete", s.deleteEnvironment)
	e.POST("/collections/:id/examples/:ex", s.updateExample)
	e.POST("/collections/:id/examples/:ex/move", s.moveExample)
	e.POST("/collections/:id/examples/:ex/delete", s.deleteExample)

	api := e.Group("/api/v1")
	api.GET("/servers", s.apiListServers)
	api.POST("/servers", s.apiCreateServer)
	api.POST("/servers/:id/sessions", s.apiOpenSession)
	api.GET("/sessions/:id", s.apiGetSession)
	api.DELETE("/sessions/:id", s.apiCloseSession)
	api.POST("/sessions/:id/requests", s.apiSendRequest)
	api.POST("/sessions/:id/raw", s.apiSendRaw)
	api.GET("/sessions/:id/frames", s.apiListFrames)
	api.GET("/sessions/:id/inputs", s.apiListInputs)
	api.POST("/sessions/:id/inputs/:input", s.apiAnswerInput)
	api.GET("/collections/:id/export", s.exportCollection)
	api.POST("/collections/import", s.apiImportCollection)
	return s
}

// AppsOrigin returns the handler to serve on Config.AppsAddr, or nil when
// there is none. It shares the pages of the apps this Server renders.
func (s *Server) AppsOrigin() *AppsOrigin { return s.appsOrigin }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Close ends every WebSocket stream and waits for their goroutines. It is
// idempotent. Ordinary requests are drained by http.Server.Shutdown.
func (s *Server) Close() {
	s.cancel()
	s.wsWG.Wait()
}
