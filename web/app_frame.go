package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// appReadTimeout bounds reading an app's resource after its tool answered.
const appReadTimeout = 30 * time.Second

// appFrame renders the MCP App of a tool that has one, for a call that
// got a result: it reads the tool's ui:// resource from the server
// (recorded like every call) and keeps it for the apps origin. It returns
// nil for a tool without an app, and a view with Error set when the app
// cannot be shown. host is the dashboard's host as the browser reached it.
func (s *Server) appFrame(ctx context.Context, host string, sessionID int64, tool backend.Tool, args, result json.RawMessage) *views.AppFrameView {
	uri := backend.AppResourceURI(tool)
	if uri == "" {
		return nil
	}
	v := &views.AppFrameView{URI: uri}
	if s.appsOrigin == nil {
		v.Error = "This tool has an MCP App, but this dashboard serves no apps origin to run it on."
		return v
	}
	if strings.HasPrefix(host, "[") {
		// See cspSourceOrigins: the app's policy cannot let this page frame it.
		v.Error = "MCP Apps cannot be shown on a dashboard opened at an IPv6 address (" + host + "): a Content-Security-Policy has no way to name it as the page that may frame the app. Open the dashboard at localhost or 127.0.0.1 instead."
		return v
	}
	ctx, cancel := context.WithTimeout(ctx, appReadTimeout)
	defer cancel()
	app, err := s.deps.Pool.ReadAppResource(ctx, sessionID, uri)
	if err != nil {
		v.Error = backend.ErrorMessageOf(err)
		return v
	}
	toolJSON, err := json.Marshal(tool)
	if err != nil {
		v.Error = err.Error()
		return v
	}
	cspJSON, err := json.Marshal(app.CSP)
	if err != nil {
		v.Error = err.Error()
		return v
	}
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	s.deps.Log.Info("rendering an MCP App", "session", sessionID, "uri", uri, "csp", string(cspJSON), "refused", app.Refused)
	v.Token = s.apps.add(sessionID, app)
	v.Src = s.appsURL + "/apps/" + v.Token
	v.Bridge = "/sessions/" + strconv.FormatInt(sessionID, 10) + "/apps/bridge"
	v.ToolJSON, v.InputJSON, v.ResultJSON, v.CSPJSON = string(toolJSON), string(args), string(result), string(cspJSON)
	v.Refused = app.Refused
	return v
}
