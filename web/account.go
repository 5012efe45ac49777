package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// showAccount shows the signed-in person's own page.
func (s *Server) showAccount(c echo.Context) error {
	return s.renderAccount(c, http.StatusOK, views.AccountView{Notice: accountNotice(c.QueryParam("done"))})
}

// accountNotice is what an action on the account page did, by the done
// parameter it redirects with.
func accountNotice(done string) string {
	switch done {
	case "password":
		return "Your password is changed; every other browser is signed out."
	case "revoked":
		return "The token is revoked: it no longer works."
	case "ended":
		return "Every other browser is signed out."
	}
	return ""
}

// renderAccount renders the account page with v's forms and notices.
func (s *Server) renderAccount(c echo.Context, status int, v views.AccountView) error {
	p, _ := principalOf(c)
	ctx := c.Request().Context()
	var err error
	if v.User, err = s.deps.Accounts.UserByName(ctx, p.User.Name); err != nil {
		return err
	}
	if v.Sessions, err = s.deps.Accounts.ListSessions(ctx, p.User.ID); err != nil {
		return err
	}
	if v.Tokens, err = s.deps.Accounts.ListTokens(ctx, p.User.ID); err != nil {
		return err
	}
	v.CurrentSession, v.Now = p.SessionID, time.Now()
	if v.TokenForm.Expires == "" {
		v.TokenForm.Expires = "90"
	}
	if v.TokenForm.Role == "" {
		v.TokenForm.Role = string(p.User.Role.Lower(backend.RoleEditor))
	}
	return render(c, status, views.AccountPage(page(c, "Your account"), v))
}

// changePassword changes the person's password.
func (s *Server) changePassword(c echo.Context) error {
	p, _ := principalOf(c)
	next := c.FormValue("password")
	var err error
	if next != c.FormValue("confirm") {
		err = &backend.Error{Code: backend.EInvalid, Message: "The two passwords differ.", Fields: map[string]string{"confirm": "The two passwords differ."}}
	} else {
		err = s.deps.Accounts.ChangePassword(c.Request().Context(), p, c.FormValue("current"), next)
	}
	if backend.ErrorCodeOf(err) == backend.EInvalid {
		return s.renderAccount(c, http.StatusUnprocessableEntity, views.AccountView{Password: views.PasswordForm{Errors: fieldsOf(err)}})
	} else if err != nil {
		return err
	}
	s.deps.Log.Info("changed password", "user", p.User.Name)
	return c.Redirect(http.StatusSeeOther, "/account?done=password")
}

// createToken makes an API token and shows it once.
func (s *Server) createToken(c echo.Context) error {
	p, _ := principalOf(c)
	f := views.TokenForm{Name: c.FormValue("name"), Role: c.FormValue("role"), Expires: c.FormValue("expires")}
	days, err := strconv.Atoi(f.Expires)
	if err != nil || days < 0 || days > 3650 {
		f.Errors = map[string]string{"expires": "Choose when the token expires."}
		return s.renderAccount(c, http.StatusUnprocessableEntity, views.AccountView{TokenForm: f})
	}
	t, token, err := s.deps.Accounts.CreateToken(c.Request().Context(), p, f.Name, backend.Role(f.Role), time.Duration(days)*24*time.Hour)
	if backend.ErrorCodeOf(err) == backend.EInvalid {
		f.Errors = fieldsOf(err)
		return s.renderAccount(c, http.StatusUnprocessableEntity, views.AccountView{TokenForm: f})
	} else if err != nil {
		return err
	}
	s.deps.Log.Info("created an API token", "user", p.User.Name, "token", t.Name, "role", t.Role)
	// The token is shown in this answer only; it must not stay in a cache.
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return s.renderAccount(c, http.StatusOK, views.AccountView{NewToken: token, Notice: "Token " + t.Name + " created."})
}

// revokeToken revokes one of the person's tokens.
func (s *Server) revokeToken(c echo.Context) error {
	p, _ := principalOf(c)
	id, err := pathID(c, "token")
	if err != nil {
		return err
	}
	if err := s.deps.Accounts.RevokeToken(c.Request().Context(), p.User.ID, id); err != nil {
		return err
	}
	s.deps.Log.Info("revoked an API token", "user", p.User.Name, "token_id", id)
	return c.Redirect(http.StatusSeeOther, "/account?done=revoked")
}

// endOtherSessions signs the person out of every other browser.
func (s *Server) endOtherSessions(c echo.Context) error {
	p, _ := principalOf(c)
	if err := s.deps.Accounts.SignOutEverywhere(c.Request().Context(), p.User.ID, p.SessionID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/account?done=ended")
}
