package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/views"
)

// oauthCallbackPath is where authorization servers send the browser back
// after a sign-in: the redirect URI of every client the dashboard uses.
const oauthCallbackPath = "/oauth/callback"

// oauthStartTimeout bounds a sign-in's discovery and registration, before
// the browser is sent to the authorization server.
const oauthStartTimeout = 30 * time.Second

// oauthFlowPath is the debugger page of a server's sign-in.
func oauthFlowPath(serverID, flowID int64) string {
	return "/servers/" + itoa(serverID) + "/oauth/flows/" + itoa(flowID)
}

// oauthSignIn starts a sign-in of the person to the server's
// authorization server and answers with the page that sends their
// browser there (views.OAuthContinuePage says why not a redirect); when
// the sign-in fails before that, it sends them to its debugger page,
// which says why.
func (s *Server) oauthSignIn(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	p, _ := principalOf(c)
	ctx, cancel := context.WithTimeout(c.Request().Context(), oauthStartTimeout)
	defer cancel()
	start, err := s.deps.OAuth.Start(ctx, p.User, id, s.PublicURL(oauthCallbackPath))
	if err != nil {
		if start.FlowID == 0 {
			return err
		}
		return c.Redirect(http.StatusSeeOther, oauthFlowPath(id, start.FlowID))
	}
	return render(c, http.StatusOK, views.OAuthContinuePage("Signing in", start.URL, oauthFlowPath(id, start.FlowID)))
}

// oauthCallback receives the authorization server's redirect (a top-level
// navigation, so the Lax session cookie comes with it), hands the code to
// the sign-in its state names, which must be the signed-in person's, and
// shows the sign-in's debugger once it has ended.
func (s *Server) oauthCallback(c echo.Context) error {
	p, _ := principalOf(c)
	q := c.Request().URL.Query()
	cb := oauth.Callback{URL: s.PublicURL(c.Request().URL.RequestURI()), State: q.Get("state"), Code: q.Get("code"),
		Iss: q.Get("iss"), Error: q.Get("error"), ErrorDescription: q.Get("error_description")}
	flow, err := s.deps.OAuth.Complete(c.Request().Context(), p.User.ID, cb)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, oauthFlowPath(flow.ServerID, flow.ID))
}

// showOAuthFlow is the debugger of one sign-in: every step with its
// request, response and checks.
func (s *Server) showOAuthFlow(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	flowID, err := pathID(c, "flow")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	srv, err := s.deps.Registry.Get(ctx, id)
	if err != nil {
		return err
	}
	flow, err := s.deps.OAuth.Flow(ctx, id, flowID)
	if err != nil {
		return err
	}
	p, _ := principalOf(c)
	pg := page(c, "Sign-in to "+srv.Name)
	v := views.OAuthFlowView{ServerID: id, ServerName: srv.Name, CSRF: pg.CSRF, Flow: flow, CanRerun: p.Role.Allows(editorRole)}
	return render(c, http.StatusOK, views.OAuthFlowPage(pg, v))
}

// rerunOAuthStep sends a recorded exchange again and shows the debugger,
// with the new step under the original.
func (s *Server) rerunOAuthStep(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	stepID, err := pathID(c, "step")
	if err != nil {
		return err
	}
	p, _ := principalOf(c)
	flow, err := s.deps.OAuth.Rerun(c.Request().Context(), p.User, id, stepID)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, oauthFlowPath(id, flow.ID)+"#oauth-step-"+itoa(stepID))
}

// oauthSignOut forgets the person's sign-in to the server.
func (s *Server) oauthSignOut(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	p, _ := principalOf(c)
	if err := s.deps.OAuth.SignOut(c.Request().Context(), id, p.User.ID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/servers/"+itoa(id))
}

// oauthShare shares the person's own sign-in with the team (shared=1) or
// stops sharing it.
func (s *Server) oauthShare(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	p, _ := principalOf(c)
	if err := s.deps.OAuth.Share(c.Request().Context(), id, p.User.ID, c.FormValue("shared") == "1"); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/servers/"+itoa(id))
}

// saveOAuthSettings stores how the playground obtains the server's
// tokens: the grant, the client and its secret or private key, DPoP and
// scopes (an empty secret or key keeps the stored one; an admin's save
// confirms the authorization server they may go to). Settings that do
// not pass validation show again on the server's page, the reasons at
// their fields.
func (s *Server) saveOAuthSettings(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	next := oauth.Settings{GrantType: oauth.GrantType(c.FormValue("grant_type")),
		ClientAuth: oauth.ClientAuth(c.FormValue("client_auth")), ClientID: strings.TrimSpace(c.FormValue("client_id")),
		ClientSecret: c.FormValue("client_secret"), PrivateKeyPEM: c.FormValue("private_key"), DPoP: c.FormValue("dpop") == "1",
		Scopes: strings.Fields(c.FormValue("scopes"))}
	p, _ := principalOf(c)
	err = s.deps.OAuth.SaveSettings(c.Request().Context(), id, next, p.Role.Allows(backend.RoleAdmin))
	if fields := fieldsOf(err); fields != nil {
		return s.overviewPage(c, http.StatusUnprocessableEntity, &views.OAuthSettingsForm{GrantType: next.Grant(), ClientAuth: next.ClientAuth,
			ClientID: next.ClientID, DPoP: next.DPoP, Scopes: strings.Join(next.Scopes, " "), Errors: fields, Message: backend.ErrorMessageOf(err)})
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/servers/"+itoa(id)+"#authorization")
}

// oauthCard is the Authorization card of an HTTP server's page for the
// person viewing it; nil for a stdio server. refused, when set, is a
// settings form a save refused, shown in place of the stored settings.
func (s *Server) oauthCard(c echo.Context, srv backend.Server, refused *views.OAuthSettingsForm) (*views.OAuthCardView, error) {
	if srv.Transport == backend.TransportStdio || s.deps.OAuth == nil {
		return nil, nil
	}
	ctx := c.Request().Context()
	p, _ := principalOf(c)
	v := &views.OAuthCardView{ServerID: srv.ID, CSRF: page(c, "").CSRF, CanEdit: p.Role.Allows(editorRole), UserID: p.User.ID, Now: time.Now()}
	grants, err := s.deps.OAuth.Grants(ctx, srv.ID)
	if err != nil {
		return nil, err
	}
	for _, g := range grants {
		if g.UserID == p.User.ID {
			v.Mine = &g
		} else if g.Shared && v.Shared == nil {
			v.Shared = &g
		}
	}
	if v.Flows, err = s.deps.OAuth.Flows(ctx, srv.ID); err != nil {
		return nil, err
	}
	settings, err := s.deps.OAuth.Settings(ctx, srv.ID)
	if err != nil {
		return nil, err
	}
	v.Settings = views.OAuthSettingsForm{GrantType: settings.Grant(), ClientAuth: settings.ClientAuth, ClientID: settings.ClientID,
		HasClientSecret: settings.ClientSecret != "", KeyID: settings.KeyID, Issuer: settings.Issuer, DPoP: settings.DPoP, Scopes: strings.Join(settings.Scopes, " ")}
	if refused != nil {
		refused.HasClientSecret, refused.KeyID, refused.Issuer = v.Settings.HasClientSecret, v.Settings.KeyID, v.Settings.Issuer
		v.Settings = *refused
	}
	return v, nil
}

// connectingAs names the signed-in person as who connects: the pool
// signs the session with their OAuth grant.
func connectingAs(ctx context.Context, c echo.Context) context.Context {
	p, _ := principalOf(c)
	return backend.ConnectingAs(ctx, p.User.ID)
}
