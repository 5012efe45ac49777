package web

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// showTools is a server's Tools section: the searchable list of its tools
// beside one tool's card, the one the URL names (/servers/ID/tools/NAME) or
// else the first that the search keeps.
func (s *Server) showTools(c echo.Context) error {
	return s.showToolSection(c, toolSection{
		section: views.SectionTools, what: "tools", label: "tools",
		keep: func(backend.Tool) bool { return true }, none: "This server offers no tools.",
	})
}

// showApps is a server's Apps section: the Tools section kept to the tools
// that are MCP Apps (their _meta.ui.resourceUri names a ui:// resource),
// under /servers/ID/apps/NAME, where the app has the width of the page.
func (s *Server) showApps(c echo.Context) error {
	return s.showToolSection(c, toolSection{
		section: views.SectionApps, what: "apps", label: "apps",
		keep: func(t backend.Tool) bool { return backend.AppResourceURI(t) != "" },
		none: "This server offers no MCP Apps: none of its tools names a ui:// resource in _meta.ui.resourceUri.",
	})
}

// toolSection is what a section that lists tools keeps of them and says.
type toolSection struct {
	section views.Section
	what    string // what NotConnected says the section shows
	label   string // names the list's items
	keep    func(backend.Tool) bool
	none    string // said when the server has no tool that keep keeps
}

// showToolSection is a section listing the live session's tools that
// sec keeps, beside the card of the one the URL names or else the first
// that the search keeps.
func (s *Server) showToolSection(c echo.Context, sec toolSection) error {
	name, err := itemParam(c)
	if err != nil {
		return err
	}
	query := strings.TrimSpace(c.QueryParam("q"))
	return s.explorerPage(c, sec.section, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		if live == nil {
			return views.NotConnected(page(c, ""), srv.ID, sec.what), nil
		}
		lctx, cancel := context.WithTimeout(c.Request().Context(), listToolsTimeout)
		tools, err := s.deps.Pool.Tools(lctx, live.ID, false)
		cancel()
		if err != nil {
			return views.Problem("tools-error", backend.ErrorMessageOf(err)), nil
		}
		if !slices.ContainsFunc(tools, sec.keep) {
			return views.Pick(sec.none), nil
		}
		cached := s.toolViews.get(live.ID, tools, s.deps.Pool.IsLive)
		open := -1
		if name != "" {
			if open = toolIndex(cached, name); open < 0 || !sec.keep(tools[open]) {
				return nil, backend.Errorf(backend.ENotFound, "The server has no %s named %q.", strings.TrimSuffix(sec.label, "s"), name)
			}
		}
		base := views.SectionURL(srv.ID, sec.section)
		var links []views.ItemLink
		listed := 0
		for i, t := range cached {
			if !sec.keep(tools[i]) {
				continue
			}
			listed++
			if i != open && !matchesQuery(query, t.Name, t.Title, t.Description) {
				continue
			}
			if open < 0 {
				open = i
			}
			link := views.ItemLink{Name: t.Name, Title: t.Title, Description: t.Description, Href: base + "/" + url.PathEscape(t.Name), Active: i == open}
			if t.Destructive {
				link.Badges = []string{"destructive"}
			}
			links = append(links, link)
		}
		list := views.ItemList(sec.label, base, query, links, listed)
		if open < 0 {
			return views.ListAndDetail(list, views.Pick("No tool matches the search.")), nil
		}
		card := cached[open]
		card.CallID = newCallID()
		if err := s.withLastCall(c.Request().Context(), srv.ID, live.ID, tools[open], &card); err != nil {
			return nil, err
		}
		return views.ListAndDetail(list, views.ToolCard(live.ID, 0, card, page(c, "").CSRF)), nil
	})
}

// toolIndex returns the index of the named tool's view, or -1.
func toolIndex(tools []views.ToolView, name string) int {
	for i, t := range tools {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// matchesQuery reports whether any of the texts holds the query, ignoring
// case; an empty query matches everything.
func matchesQuery(query string, texts ...string) bool {
	if query == "" {
		return true
	}
	q := strings.ToLower(query)
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), q) {
			return true
		}
	}
	return false
}

// itemParam is the :name path parameter naming a tool or a prompt, ""
// when the route has none. Names may hold any character: a name with
// characters that a path escapes arrives escaped, and is unescaped here.
func itemParam(c echo.Context) (string, error) {
	name := c.Param("name")
	if c.Request().URL.RawPath != "" {
		unescaped, err := url.PathUnescape(name)
		if err != nil {
			return "", backend.Errorf(backend.EInvalid, "The item's name in the address is not valid.")
		}
		name = unescaped
	}
	return name, checkItemRef(name)
}

// maxItemRef bounds the name, URI or URI template by which an address
// names an item; no server's item needs more, and a longer one would be
// echoed in the page that says it is unknown.
const maxItemRef = 4 << 10

// checkItemRef refuses an item's name, URI or template longer than
// maxItemRef.
func checkItemRef(ref string) error {
	if len(ref) > maxItemRef {
		return backend.Errorf(backend.EInvalid, "The address names an item by %d bytes; at most %d are accepted.", len(ref), maxItemRef)
	}
	return nil
}
