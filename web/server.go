// Package web is the dashboard's HTTP layer: routes, middleware, handlers
// that render views, the live-traffic WebSocket and the JSON API.
package web

import (
	"context"
	"net/http"
	"net/netip"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/static"
)

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

	access   routeAccess       // who may use each route (access.go)
	presence *backend.Presence // who watches each session's live traffic

	toolViews toolViewCache // see server_page.go

	apps       *appStore   // MCP Apps' pages, shared with appsOrigin
	appsOrigin *AppsOrigin // nil without Config.AppsAddr
	appsURL    string      // the apps origin's URL, "" without it
}

// New builds the dashboard.
func New(cfg Config, deps Deps) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{echo: echo.New(), cfg: cfg, deps: deps, hosts: newHostPolicy(cfg.Addr, append(urlHosts(cfg.BaseURL), cfg.AllowedHosts...)),
		ctx: ctx, cancel: cancel, apps: newAppStore(), access: routeAccess{}, presence: backend.NewPresence(deps.Hub)}
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
	e.Use(s.authenticate)
	e.Use(s.recordingStatus)
	e.Use(s.connectedSessions)
	e.Use(readSessionOnce) // a session page reads its session once (session_once.go)
	e.Use(s.tlsOffServer)
	e.Use(s.giveCSRFToken) // for the forms of every page, refusals' included
	e.Use(s.authorize)     // before anything reads the body: refused requests are never read
	e.Use(s.bodyLimits())
	e.Use(requireJSON)      // the JSON API's bodies (api_content_type.go)
	e.Use(s.checkCSRF)      // reads no more of a form than its token (csrf_form.go)
	e.Use(readForm)         // once the request is allowed
	e.Use(s.refuseImported) // imported sessions are read-only (session_readonly.go)
	e.Use(s.audit)          // after authorize: refused requests changed nothing

	e.StaticFS("/static", static.FS)
	for _, r := range e.Routes() {
		s.access[r.Method+" "+r.Path] = anyone
	}
	s.get(healthPath, anyone, s.healthz)
	s.get("/signin", anyone, s.showSignIn)
	s.post("/signin", anyone, s.signIn)
	s.get("/setup", anyone, s.showSetup)
	s.post("/setup", anyone, s.setUp)
	s.post("/signout", viewerRole, s.signOut)
	s.get("/account", viewerRole, s.showAccount)
	s.post("/account/password", viewerRole, s.changePassword)
	s.post("/account/tokens", viewerRole, s.createToken)
	s.post("/account/tokens/:token/revoke", viewerRole, s.revokeToken)
	s.post("/account/sessions/end-others", viewerRole, s.endOtherSessions)
	s.get("/users", adminRole, s.listUsers)
	s.post("/users", adminRole, s.addUser)
	s.post("/users/:id", adminRole, s.updateUser)
	s.post("/users/:id/password", adminRole, s.setUserPassword)
	s.get("/audit", adminRole, s.showAudit)
	s.get("/audit/export", adminRole, s.exportAudit)

	s.get("/", viewerRole, s.listServers)
	s.get("/servers/new", editorRole, s.newServerForm)
	s.get(serverImportPath, editorRole, s.showServerImport)
	s.post(serverImportPath+"/preview", editorRole, s.previewServerImport)
	s.post(serverImportPath, editorRole, s.importServers)
	s.post("/servers", editorRole, s.createServer)
	s.get("/servers/:id", viewerRole, s.showServer)
	s.get("/servers/:id/tools", viewerRole, s.showTools)
	s.get("/servers/:id/tools/:name", viewerRole, s.showTools)
	s.get("/servers/:id/apps", viewerRole, s.showApps)
	s.get("/servers/:id/apps/:name", viewerRole, s.showApps)
	s.get("/servers/:id/prompts", viewerRole, s.showPrompts)
	s.get("/servers/:id/prompts/:name", viewerRole, s.showPrompts)
	s.get("/servers/:id/console", editorRole, s.showConsole)
	s.get("/servers/:id/tasks", viewerRole, s.showTasks)
	s.get("/servers/:id/logs", viewerRole, s.showLogs)
	s.get("/servers/:id/protocol", viewerRole, s.showProtocol)
	s.post("/sessions/:id/check", editorRole, s.checkSession)
	s.get("/servers/:id/resources", viewerRole, s.showResources)
	s.get("/servers/:id/resources/more", viewerRole, s.moreResources)
	s.get("/servers/:id/revisions", viewerRole, s.showRevisions)
	s.get("/servers/:id/edit", editorRole, s.editServerForm)
	s.get("/servers/:id/export", editorRole, s.exportServer)
	s.post("/servers/:id", editorRole, s.updateServer)
	s.post("/servers/:id/delete", editorRole, s.deleteServer)
	s.post("/servers/:id/reveal", adminRole, s.revealSecrets)
	s.post("/servers/:id/connect", editorRole, s.connectServer)
	s.post("/servers/:id/fix", editorRole, s.fixServer)
	if deps.OAuth != nil {
		s.post("/servers/:id/oauth/signin", editorRole, s.oauthSignIn)
		s.get(oauthCallbackPath, editorRole, s.oauthCallback)
		s.get("/servers/:id/oauth/flows/:flow", viewerRole, s.showOAuthFlow)
		s.post("/servers/:id/oauth/flows/:flow/steps/:step/rerun", editorRole, s.rerunOAuthStep)
		s.post("/servers/:id/oauth/signout", editorRole, s.oauthSignOut)
		s.post("/servers/:id/oauth/share", editorRole, s.oauthShare)
		s.post("/servers/:id/oauth/settings", editorRole, s.saveOAuthSettings)
	}
	s.post("/sessions/:id/disconnect", editorRole, s.disconnectSession)
	s.post("/sessions/:id/tools/call", editorRole, s.callTool)
	s.post("/sessions/:id/prompts/get", editorRole, s.getPrompt)
	s.post("/sessions/:id/complete", editorRole, s.completeArgument)
	s.post("/sessions/:id/resources/read", editorRole, s.readResource)
	s.post("/sessions/:id/calls/:call/cancel", editorRole, s.cancelCall)
	s.get("/sessions/:id/tasks", viewerRole, s.listTasks)
	s.post("/sessions/:id/tasks/:task/result", editorRole, s.taskResult)
	s.post("/sessions/:id/tasks/:task/cancel", editorRole, s.cancelTask)
	s.post("/sessions/:id/inputs/:input", editorRole, s.answerInput)
	s.post("/sessions/:id/console", editorRole, s.consoleSend)
	s.post("/sessions/:id/ping", editorRole, s.pingSession)
	s.post("/sessions/:id/resources/template", editorRole, s.readTemplate)
	s.post("/sessions/:id/resources/subscribe", editorRole, s.subscribeResource)
	s.post("/sessions/:id/resources/unsubscribe", editorRole, s.unsubscribeResource)
	s.post("/sessions/:id/apps/bridge", editorRole, s.appsBridge)
	s.post("/sessions/:id/logging/level", editorRole, s.setLogLevel)
	s.get("/sessions", viewerRole, s.listSessions)
	s.get("/sessions/:id", viewerRole, s.showSession)
	s.get("/sessions/:id/live", viewerRole, s.streamSession)
	s.get("/live/sessions", viewerRole, s.streamSessionStates)
	s.get("/sessions/:id/frames", viewerRole, s.olderFrames)
	s.get("/sessions/:id/traffic", viewerRole, s.traffic)
	s.get("/sessions/:id/export", viewerRole, s.exportFrames)
	s.get("/sessions/:id/logs", viewerRole, s.sessionLogs)
	s.get("/history", viewerRole, s.searchHistory)
	s.get("/history/export", viewerRole, s.exportHistory)
	s.get(importPath, editorRole, s.showImport)
	s.post(importPath, editorRole, s.importSession)
	s.get("/sessions/:id/exchanges/:exchange", viewerRole, s.showExchange)
	s.post("/sessions/:id/exchanges/:exchange/replay", editorRole, s.replayExchange)
	s.get("/sessions/:id/exchanges/:exchange/edit", editorRole, s.editRequest)
	s.post("/sessions/:id/exchanges/:exchange/edit", editorRole, s.sendEditedRequest)
	s.get("/frames/:id/body", viewerRole, s.frameBody)
	s.get("/frames/:id/raw", viewerRole, s.frameRaw)
	s.post("/frames/:id/reveal", adminRole, s.revealFrameHTTP)

	s.get("/collections", viewerRole, s.listCollections)
	s.post("/collections", editorRole, s.createCollection)
	s.get("/collections/save", editorRole, s.saveExampleForm)
	s.post("/collections/save", editorRole, s.saveExample)
	s.post("/collections/import", editorRole, s.importCollection)
	s.get("/collections/:id/export", viewerRole, s.exportCollection)
	s.get("/collections/:id", viewerRole, s.showCollection)
	s.post("/collections/:id", editorRole, s.renameCollection)
	s.post("/collections/:id/delete", editorRole, s.deleteCollection)
	s.post("/collections/:id/run", editorRole, s.runCollection)
	s.get("/collections/:id/runs/:run", viewerRole, s.showRun)
	s.get("/collections/:id/runs/:run/report", viewerRole, s.runReport)
	s.post("/collections/:id/runs/:run/results/:result/accept", editorRole, s.acceptAnswer)
	s.post("/collections/:id/environments", editorRole, s.saveEnvironment)
	s.post("/collections/:id/environments/:env", editorRole, s.saveEnvironment)
	s.post("/collections/:id/environments/:env/delete", editorRole, s.deleteEnvironment)
	s.post("/collections/:id/examples/:ex", editorRole, s.updateExample)
	s.post("/collections/:id/examples/:ex/move", editorRole, s.moveExample)
	s.post("/collections/:id/examples/:ex/delete", editorRole, s.deleteExample)

	s.get("/api/v1/servers", viewerRole, s.apiListServers)
	s.post("/api/v1/servers", editorRole, s.apiCreateServer)
	s.post("/api/v1/servers/:id/sessions", editorRole, s.apiOpenSession)
	s.get("/api/v1/servers/:id/protocol", viewerRole, s.apiProtocolReport)
	s.get("/api/v1/sessions/:id", viewerRole, s.apiGetSession)
	s.add(http.MethodDelete, "/api/v1/sessions/:id", editorRole, s.apiCloseSession)
	s.post("/api/v1/sessions/:id/requests", editorRole, s.apiSendRequest)
	s.post("/api/v1/sessions/:id/raw", editorRole, s.apiSendRaw)
	s.get("/api/v1/sessions/:id/frames", viewerRole, s.apiListFrames)
	s.get("/api/v1/sessions/:id/inputs", viewerRole, s.apiListInputs)
	s.post("/api/v1/sessions/:id/inputs/:input", editorRole, s.apiAnswerInput)
	s.get("/api/v1/collections/:id/export", viewerRole, s.exportCollection)
	s.post("/api/v1/collections/import", editorRole, s.apiImportCollection)
	s.requireAccessForEveryRoute()
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
