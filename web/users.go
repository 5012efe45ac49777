package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// Actions on the page answer with the page itself and a notice.

// listUsers shows the admins' page of accounts.
func (s *Server) listUsers(c echo.Context) error {
	return s.renderUsers(c, http.StatusOK, views.UsersView{})
}

func (s *Server) renderUsers(c echo.Context, status int, v views.UsersView) error {
	p, _ := principalOf(c)
	var err error
	if v.Users, err = s.deps.Accounts.ListUsers(c.Request().Context()); err != nil {
		return err
	}
	v.Me = p.User.ID
	return render(c, status, views.UsersPage(page(c, "People"), v))
}

// addUser creates an account with the password the admin chose.
func (s *Server) addUser(c echo.Context) error {
	p, _ := principalOf(c)
	f := views.NewUserForm{Name: c.FormValue("name"), Role: c.FormValue("role")}
	var err error
	var u backend.User
	if c.FormValue("password") != c.FormValue("confirm") {
		err = &backend.Error{Code: backend.EInvalid, Message: "The two passwords differ.", Fields: map[string]string{"confirm": "The two passwords differ."}}
	} else {
		u, err = s.deps.Accounts.AddUser(c.Request().Context(), f.Name, c.FormValue("password"), backend.Role(f.Role))
	}
	if code := backend.ErrorCodeOf(err); code == backend.EInvalid || code == backend.EConflict {
		f.Errors, f.Message = fieldsOf(err), formMessage(err)
		return s.renderUsers(c, statusOf(err), views.UsersView{Form: f})
	} else if err != nil {
		return err
	}
	s.deps.Log.Info("added an account", "by", p.User.Name, "user", u.Name, "role", u.Role)
	return s.renderUsers(c, http.StatusCreated, views.UsersView{Notice: u.Name + " can now sign in as " + string(u.Role) + "."})
}

// updateUser sets an account's role and whether it is disabled.
func (s *Server) updateUser(c echo.Context) error {
	p, _ := principalOf(c)
	id, err := idParam(c)
	if err != nil {
		return err
	}
	u, err := s.deps.Accounts.UpdateUser(c.Request().Context(), p, id, backend.Role(c.FormValue("role")), c.FormValue("disabled") == "yes")
	if err != nil {
		return s.refuseChange(c, err)
	}
	s.deps.Log.Info("changed an account", "by", p.User.Name, "user", u.Name, "role", u.Role, "disabled", u.Disabled)
	state := "enabled"
	if u.Disabled {
		state = "disabled"
	}
	return s.renderUsers(c, http.StatusOK, views.UsersView{Notice: u.Name + " is now " + string(u.Role) + ", " + state + "."})
}

// setUserPassword sets an account's password and signs it out everywhere.
func (s *Server) setUserPassword(c echo.Context) error {
	p, _ := principalOf(c)
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if err := s.deps.Accounts.ResetPassword(c.Request().Context(), id, c.FormValue("password")); err != nil {
		return s.refuseChange(c, err)
	}
	s.deps.Log.Info("set an account's password", "by", p.User.Name, "user_id", id)
	return s.renderUsers(c, http.StatusOK, views.UsersView{Notice: "The password is set; that person is signed out everywhere."})
}

// refuseChange answers a refused change to an account in the list with the
// people page and why, above the list, when the admin can fix it (a short
// password, changing their own role); any other error goes to the error page.
func (s *Server) refuseChange(c echo.Context, err error) error {
	if code := backend.ErrorCodeOf(err); code != backend.EInvalid && code != backend.EConflict {
		return err
	}
	return s.renderUsers(c, statusOf(err), views.UsersView{Refused: backend.ErrorMessageOf(err)})
}
