package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// resourceReadTimeout bounds a resources/read sent from the page.
const resourceReadTimeout = 30 * time.Second

// readResource sends resources/read for the form's uri on the live
// session and answers with the contents, or with why there are none, as
// a fragment for the place the read was asked from. A read from the
// resource's card (the form's _remember set) is remembered as the
// resource's last read.
func (s *Server) readResource(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	uri := strings.TrimSpace(c.FormValue("uri"))
	if uri == "" {
		return render(c, http.StatusOK, views.ResourceRead(views.ResourceReadView{Error: "Which resource? The form names no URI."}))
	}
	remember := c.FormValue("_remember") != ""
	return render(c, http.StatusOK, views.ResourceRead(s.resourceRead(c.Request().Context(), sessionID, views.ResourceReadView{URI: uri}, remember)))
}

// resourceRead reads v.URI on the session and fills in v with what came;
// with remember, the read is stored as the resource's last read, under
// its URI.
func (s *Server) resourceRead(ctx context.Context, sessionID int64, v views.ResourceReadView, remember bool) views.ResourceReadView {
	rctx, cancel := context.WithTimeout(ctx, resourceReadTimeout)
	defer cancel()
	params, err := json.Marshal(map[string]string{"uri": v.URI})
	if err != nil {
		v.Error = err.Error()
		return v
	}
	res, err := s.deps.Pool.CallWith(rctx, sessionID, "resources/read", params, backend.CallOptions{ResponseFrame: true})
	v = resourceReadView(v, res, err)
	if remember {
		v.RememberError = s.rememberCall(ctx, sessionID, backend.ItemResource, v.URI, params, res, err)
	}
	return v
}

// resourceReadView shows the answer to a resources/read.
func resourceReadView(v views.ResourceReadView, res backend.CallResult, err error) views.ResourceReadView {
	v.FrameID, v.Latency = res.ResponseFrameID, res.Latency
	switch {
	case err != nil:
		v.Error = backend.ErrorMessageOf(err)
		return v
	case res.Error != nil:
		v.Error = "JSON-RPC error " + itoa(int64(res.Error.Code)) + ": " + res.Error.Message
		return v
	}
	var r backend.ReadResourceResult
	if err := json.Unmarshal(res.Result, &r); err != nil {
		v.Error = "The server's result is not a valid resources/read result: " + err.Error()
		return v
	}
	b := budgetFor(len(res.Result))
	for i, rc := range r.Contents {
		if b.limited && i >= maxShownBlocks {
			v.Hidden = len(r.Contents) - i
			break
		}
		v.Contents = append(v.Contents, resourceContentsView(rc, b))
	}
	return v
}
