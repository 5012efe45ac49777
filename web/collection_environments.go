package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/views"
)

// environmentOf reads an environment form: rows post as the parallel
// lists v_name and v_value, and v_secret lists the indexes of the secret
// rows; a row with neither name nor value is ignored. origins holds the
// places its secrets may go, one a line.
func environmentOf(c echo.Context, collectionID, envID int64) (collections.Environment, error) {
	values, err := c.FormParams()
	if err != nil {
		return collections.Environment{}, err
	}
	secret := map[int]bool{}
	for _, v := range values["v_secret"] {
		if i, err := strconv.Atoi(v); err == nil {
			secret[i] = true
		}
	}
	e := collections.Environment{ID: envID, CollectionID: collectionID, Name: values.Get("name"), Origins: strings.Split(values.Get("origins"), "\n")}
	for i, name := range values["v_name"] {
		v := collections.EnvValue{Name: strings.TrimSpace(name), Value: nth(values["v_value"], i), Secret: secret[i]}
		if v.Name == "" && v.Value == "" {
			continue
		}
		e.Values = append(e.Values, v)
	}
	return e, nil
}

// saveEnvironment creates an environment (no :env) or replaces one; a
// refusal shows the collection's page with the form as typed, secret
// values left out.
func (s *Server) saveEnvironment(c echo.Context) error {
	colID, err := idParam(c)
	if err != nil {
		return err
	}
	var envID int64
	if c.Param("env") != "" {
		if envID, err = pathID(c, "env"); err != nil {
			return err
		}
	}
	e, err := environmentOf(c, colID, envID)
	if err != nil {
		return err
	}
	p, _ := principalOf(c)
	_, err = s.deps.Collections.SaveEnvironment(c.Request().Context(), e, p.Role)
	if fields := fieldsOf(err); fields != nil {
		form := views.EnvironmentFormOf(e)
		form.Errors, form.Message = fields, messageOf(err)
		return s.renderCollection(c, http.StatusUnprocessableEntity, colID, func(d *views.CollectionPageData) { d.EnvForm = &form })
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, views.CollectionPageURL(colID, 0, 0)+"#environments")
}

// deleteEnvironment removes an environment.
func (s *Server) deleteEnvironment(c echo.Context) error {
	colID, err := idParam(c)
	if err != nil {
		return err
	}
	envID, err := pathID(c, "env")
	if err != nil {
		return err
	}
	if err := s.deps.Collections.DeleteEnvironment(c.Request().Context(), colID, envID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, views.CollectionPageURL(colID, 0, 0)+"#environments")
}
