package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

const (
	// listResourcesTimeout bounds listing one page of resources or of
	// templates.
	listResourcesTimeout = 10 * time.Second
	// subscribeTimeout bounds a Subscribe or Unsubscribe.
	subscribeTimeout = 15 * time.Second
	// findItemPages bounds how many pages the section reads looking for
	// the resource or template its URL names beyond the first page.
	findItemPages = 10
)

// templateVarPrefix prefixes the form names of a template's variables.
const templateVarPrefix = "var."

// showResources is a server's Resources section: the first page of its
// resources and of its templates (each with a More control for the next)
// beside the resource that ?uri= names or the template that ?template=
// names. ?q= filters the listed pages. The open resource's card shows its
// last read.
func (s *Server) showResources(c echo.Context) error {
	query := strings.TrimSpace(c.QueryParam("q"))
	uri, tmpl := c.QueryParam("uri"), c.QueryParam("template")
	if err := checkItemRef(uri); err != nil {
		return err
	}
	if err := checkItemRef(tmpl); err != nil {
		return err
	}
	return s.explorerPage(c, views.SectionResources, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		if live == nil {
			return views.NotConnected(page(c, ""), srv.ID, "resources"), nil
		}
		ctx := c.Request().Context()
		subs, err := s.deps.Pool.ResourceSubscriptions(live.ID)
		if err != nil {
			return views.Problem("resources-error", backend.ErrorMessageOf(err)), nil
		}
		if !subs.Offered {
			return views.Pick("This server offers no resources (it declares no resources capability)."), nil
		}
		v := views.ResourcesView{ServerID: srv.ID, SessionID: live.ID, CSRF: page(c, "").CSRF, Query: query}
		resources, found := s.resourcePage(ctx, srv.ID, live.ID, "", query, uri, subs)
		templates, foundTmpl := s.templatePage(ctx, srv.ID, live.ID, "", query, tmpl)
		v.Resources, v.Templates = resources, templates
		switch {
		case uri != "":
			if found == nil && resources.Next != "" {
				found = s.findResource(ctx, live.ID, resources.Next, uri)
			}
			d := views.ResourceDetail{Resource: backend.Resource{URI: uri}, CanSubscribe: subs.Supported,
				Subscribed: subs.Subscribed[uri], Updated: subs.Updated[uri]}
			if found != nil {
				d.Resource, d.Listed = *found, true
			}
			if err := s.withLastRead(ctx, srv.ID, &d); err != nil {
				return nil, err
			}
			v.Resource = &d
		case tmpl != "":
			if foundTmpl == nil && templates.Next != "" {
				foundTmpl = s.findTemplate(ctx, live.ID, templates.Next, tmpl)
			}
			d := views.TemplateDetail{Template: backend.ResourceTemplate{URITemplate: tmpl}}
			if foundTmpl != nil {
				d.Template = *foundTmpl
			} else {
				d.Error = "The server's template list (the pages read so far) names no template " + tmpl + "."
			}
			if d.Error == "" {
				if d.Variables, err = backend.TemplateVariables(tmpl); err != nil {
					d.Error = backend.ErrorMessageOf(err)
				}
			}
			v.Template = &d
		}
		return views.ResourcesSection(v), nil
	})
}

// resourcePage lists one page of resources as the list shows it: the
// entries that query keeps, the one whose URI is open marked (and returned
// when the page holds it), and those updated since subscribed marked.
func (s *Server) resourcePage(ctx context.Context, serverID, sessionID int64, cursor, query, open string, subs backend.ResourceSubscriptions) (views.ResourcePage, *backend.Resource) {
	ctx, cancel := context.WithTimeout(ctx, listResourcesTimeout)
	defer cancel()
	out := views.ResourcePage{ServerID: serverID, Query: query, More: cursor != ""}
	p, err := s.deps.Pool.ResourcesPage(ctx, sessionID, cursor)
	if err != nil {
		out.Error = backend.ErrorMessageOf(err)
		return out, nil
	}
	out.Next = p.NextCursor
	var found *backend.Resource
	for i, r := range p.Items {
		active := open != "" && r.URI == open
		if active {
			found = &p.Items[i]
		}
		if !active && !matchesQuery(query, r.Name, r.Title, r.URI, r.Description) {
			continue
		}
		_, updated := subs.Updated[r.URI]
		out.Items = append(out.Items, views.ResourceItem{Resource: r, Active: active, Updated: updated && subs.Subscribed[r.URI]})
	}
	return out, found
}

// templatePage is resourcePage for templates.
func (s *Server) templatePage(ctx context.Context, serverID, sessionID int64, cursor, query, open string) (views.TemplatePage, *backend.ResourceTemplate) {
	ctx, cancel := context.WithTimeout(ctx, listResourcesTimeout)
	defer cancel()
	out := views.TemplatePage{ServerID: serverID, Query: query, More: cursor != ""}
	p, err := s.deps.Pool.ResourceTemplatesPage(ctx, sessionID, cursor)
	if err != nil {
		out.Error = backend.ErrorMessageOf(err)
		return out, nil
	}
	out.Next = p.NextCursor
	var found *backend.ResourceTemplate
	for i, t := range p.Items {
		active := open != "" && t.URITemplate == open
		if active {
			found = &p.Items[i]
		}
		if !active && !matchesQuery(query, t.Name, t.Title, t.URITemplate, t.Description) {
			continue
		}
		out.Items = append(out.Items, views.TemplateItem{ResourceTemplate: t, Active: active})
	}
	return out, found
}

// findResource reads further pages of resources from cursor, at most
// findItemPages, for the one with uri; nil when they do not hold it.
func (s *Server) findResource(ctx context.Context, sessionID int64, cursor, uri string) *backend.Resource {
	for range findItemPages {
		lctx, cancel := context.WithTimeout(ctx, listResourcesTimeout)
		p, err := s.deps.Pool.ResourcesPage(lctx, sessionID, cursor)
		cancel()
		if err != nil {
			return nil
		}
		for i := range p.Items {
			if p.Items[i].URI == uri {
				return &p.Items[i]
			}
		}
		if p.NextCursor == "" || p.NextCursor == cursor {
			return nil
		}
		cursor = p.NextCursor
	}
	return nil
}

// findTemplate is findResource for templates.
func (s *Server) findTemplate(ctx context.Context, sessionID int64, cursor, uriTemplate string) *backend.ResourceTemplate {
	for range findItemPages {
		lctx, cancel := context.WithTimeout(ctx, listResourcesTimeout)
		p, err := s.deps.Pool.ResourceTemplatesPage(lctx, sessionID, cursor)
		cancel()
		if err != nil {
			return nil
		}
		for i := range p.Items {
			if p.Items[i].URITemplate == uriTemplate {
				return &p.Items[i]
			}
		}
		if p.NextCursor == "" || p.NextCursor == cursor {
			return nil
		}
		cursor = p.NextCursor
	}
	return nil
}

// moreResources answers a list's More control with the next page of
// resources (?kind=resources) or templates (?kind=templates) from ?cursor=,
// ending with the control for the page after it.
func (s *Server) moreResources(c echo.Context) error {
	serverID, err := idParam(c)
	if err != nil {
		return err
	}
	kind, cursor, query := c.QueryParam("kind"), c.QueryParam("cursor"), strings.TrimSpace(c.QueryParam("q"))
	if cursor == "" || (kind != "resources" && kind != "templates") {
		return backend.Errorf(backend.EInvalid, "More needs a kind (resources or templates) and a cursor.")
	}
	live, ok := s.deps.Pool.LiveSession(serverID)
	if !ok {
		return render(c, http.StatusOK, views.ResourceItems(views.ResourcePage{ServerID: serverID, Error: "The server is not connected."}))
	}
	ctx := c.Request().Context()
	if kind == "templates" {
		p, _ := s.templatePage(ctx, serverID, live.ID, cursor, query, "")
		return render(c, http.StatusOK, views.TemplateItems(p))
	}
	subs, err := s.deps.Pool.ResourceSubscriptions(live.ID)
	if err != nil {
		return err
	}
	p, _ := s.resourcePage(ctx, serverID, live.ID, cursor, query, "", subs)
	return render(c, http.StatusOK, views.ResourceItems(p))
}

// readTemplate expands the form's template with its variables and reads
// the resulting URI, answering like readResource with the
// expanded URI and a link to it as a resource. The read is remembered as
// the last read of the expanded URI, which that link shows again.
func (s *Server) readTemplate(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sess, err := s.deps.Sessions.GetSession(ctx, sessionID)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	values := map[string]string{}
	for name, vs := range form {
		if v, ok := strings.CutPrefix(name, templateVarPrefix); ok && len(vs) > 0 {
			values[v] = vs[0]
		}
	}
	uri, err := backend.ExpandTemplate(c.FormValue("_template"), values)
	if err != nil {
		return render(c, http.StatusOK, views.ResourceRead(views.ResourceReadView{Error: backend.ErrorMessageOf(err)}))
	}
	v := views.ResourceReadView{URI: uri, Expanded: true, Href: views.ResourceURL(sess.ServerID, uri)}
	return render(c, http.StatusOK, views.ResourceRead(s.resourceRead(ctx, sessionID, v, true)))
}

// subscribeResource and unsubscribeResource turn the updates of the
// form's uri on or off and answer with the resource's subscription
// control, saying why when that failed.
func (s *Server) subscribeResource(c echo.Context) error   { return s.changeSubscription(c, true) }
func (s *Server) unsubscribeResource(c echo.Context) error { return s.changeSubscription(c, false) }

func (s *Server) changeSubscription(c echo.Context, on bool) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	uri := c.FormValue("uri")
	d := views.ResourceDetail{Resource: backend.Resource{URI: uri}, CanSubscribe: true}
	ctx, cancel := context.WithTimeout(c.Request().Context(), subscribeTimeout)
	defer cancel()
	switch {
	case uri == "":
		err = backend.Errorf(backend.EInvalid, "Which resource? The form names no URI.")
	case on:
		err = s.deps.Pool.Subscribe(ctx, sessionID, uri)
	default:
		err = s.deps.Pool.Unsubscribe(ctx, sessionID, uri)
	}
	if err != nil {
		d.SubscribeErr = backend.ErrorMessageOf(err)
	}
	if subs, serr := s.deps.Pool.ResourceSubscriptions(sessionID); serr == nil {
		d.Subscribed = subs.Subscribed[uri]
	}
	return render(c, http.StatusOK, views.ResourceSubscription(sessionID, d, page(c, "").CSRF))
}
