package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// showSignIn shows the sign-in form, or says how to create the first
// admin while no account exists. Someone signed in goes on to next.
func (s *Server) showSignIn(c echo.Context) error {
	next := localPath(c.QueryParam("next"))
	if _, ok := principalOf(c); ok {
		return c.Redirect(http.StatusSeeOther, orHome(next))
	}
	need, err := s.deps.Accounts.NeedsSetup(c.Request().Context())
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SignInPage(page(c, "Sign in"),
		views.SignInForm{Next: next, NeedsSetup: need, SignedOut: c.QueryParam("signed_out") != ""}))
}

// signIn checks the name and password and starts a browser session: a new
// session token and a new CSRF token, the old session (if any) ended.
func (s *Server) signIn(c echo.Context) error {
	ctx := c.Request().Context()
	f := views.SignInForm{Name: c.FormValue("name"), Next: localPath(c.FormValue("next"))}
	p, token, err := s.deps.Accounts.SignIn(ctx, f.Name, c.FormValue("password"), s.clientDescription(c), s.clientIP(c.Request()))
	if err != nil {
		code := backend.ErrorCodeOf(err)
		if code != backend.EUnauthenticated && code != backend.ETooManyAttempts {
			return err
		}
		s.deps.Log.Warn("refused a sign-in", "name", f.Name, "client", s.clientIP(c.Request()), "reason", code)
		f.Message = backend.ErrorMessageOf(err)
		noteAudit(c, auditNote{Action: "signin.failed", ActorName: f.Name, Outcome: f.Message})
		return render(c, statusOf(err), views.SignInPage(page(c, "Sign in"), f))
	}
	if err := s.endBrowserSession(c); err != nil {
		return err
	}
	s.startBrowserSession(c, token)
	noteAudit(c, auditNote{ActorID: p.User.ID, ActorName: p.User.Name})
	s.deps.Log.Info("signed in", "user", p.User.Name, "client", s.clientIP(c.Request()))
	return c.Redirect(http.StatusSeeOther, orHome(f.Next))
}

// signOut ends the browser's session.
func (s *Server) signOut(c echo.Context) error {
	if err := s.endBrowserSession(c); err != nil {
		return err
	}
	s.clearSessionCookie(c)
	s.newCSRFToken(c)
	return c.Redirect(http.StatusSeeOther, "/signin?signed_out=1")
}

// startBrowserSession gives the browser its new session token and, since
// its privileges changed, a new CSRF token.
func (s *Server) startBrowserSession(c echo.Context, token string) {
	s.setSessionCookie(c, token)
	s.newCSRFToken(c)
}

// endBrowserSession ends the session the request was made in, if any.
func (s *Server) endBrowserSession(c echo.Context) error {
	if p, ok := principalOf(c); ok && p.SessionID != 0 {
		return s.deps.Accounts.SignOut(c.Request().Context(), p.SessionID)
	}
	return nil
}

// clientDescription names the browser of a request for the person's list
// of signed-in browsers.
func (s *Server) clientDescription(c echo.Context) string {
	return browserName(c.Request().UserAgent()) + " from " + s.clientIP(c.Request())
}

func orHome(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

// showSetup shows the form that creates the first admin, for the one-time
// link printed to the log.
func (s *Server) showSetup(c echo.Context) error {
	token := c.QueryParam("token")
	if !s.deps.Accounts.ValidSetupToken(c.Request().Context(), token) {
		return backend.Errorf(backend.ENotFound, "This setup link is not valid: an account exists already (sign in), or the dashboard restarted and printed a new link to its log.")
	}
	return render(c, http.StatusOK, views.SetupPage(page(c, "Set up"), views.SetupForm{Token: token}))
}

// setUp creates the first admin and signs them in.
func (s *Server) setUp(c echo.Context) error {
	f := views.SetupForm{Token: c.FormValue("token"), Name: c.FormValue("name")}
	password := c.FormValue("password")
	if password != c.FormValue("confirm") {
		f.Errors = map[string]string{"confirm": "The two passwords differ."}
		return render(c, http.StatusUnprocessableEntity, views.SetupPage(page(c, "Set up"), f))
	}
	p, token, err := s.deps.Accounts.SetUp(c.Request().Context(), f.Token, f.Name, password, s.clientDescription(c))
	if err != nil {
		if backend.ErrorCodeOf(err) != backend.EInvalid && backend.ErrorCodeOf(err) != backend.EConflict {
			return err
		}
		f.Errors, f.Message = fieldsOf(err), formMessage(err)
		return render(c, statusOf(err), views.SetupPage(page(c, "Set up"), f))
	}
	s.startBrowserSession(c, token)
	noteAudit(c, auditNote{ActorID: p.User.ID, ActorName: p.User.Name})
	s.deps.Log.Info("created the first admin", "user", p.User.Name)
	return c.Redirect(http.StatusSeeOther, "/")
}

// formMessage is err's message for the top of a form, "" when it is only
// about fields (shown at each field).
func formMessage(err error) string {
	if len(fieldsOf(err)) > 0 {
		return ""
	}
	return backend.ErrorMessageOf(err)
}
