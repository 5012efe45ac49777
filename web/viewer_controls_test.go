package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/net/html"

	"github.com/mcp-playground/playground/backend"
)

// TestPagesOfferOnlyWhatTheirReaderMayDo signs in a viewer and an editor
// on a dashboard with live sessions of servers with tools, MCP Apps, resources,
// prompts and logs, a closed session, recorded exchanges and a collection
// with an environment and a run. As each, it fetches every page route of
// the router (and every page and fragment those link to or load with htmx,
// and the fragments the live stream sends) and fails for each control —
// form, htmx request, link — whose route the reader's role may not use:
// a page shows nobody a control that would only be refused.
func TestPagesOfferOnlyWhatTheirReaderMayDo(t *testing.T) {
	d := MustDashboard(t)
	seeds := mustControlsSite(t, d)
	for _, role := range []backend.Role{backend.RoleViewer, backend.RoleEditor} {
		t.Run(string(role), func(t *testing.T) {
			name := "someone-" + string(role)
			d.mustAccount(t, name, role)
			client := newClient()
			d.mustSignIn(t, client, name)
			c := &controlCrawl{d: d, client: client, role: role, queued: map[string]bool{}, perRoute: map[string]int{}, refused: map[string]bool{}}
			for _, start := range seeds.starts(d, role) {
				c.queue(start, false)
			}
			c.run(t)
			for _, sessionID := range seeds.sessions {
				c.inspectLive(t, sessionID)
			}
			t.Logf("as %s: %d pages and fragments read, %d controls checked, %d refused controls shown", role, c.pages, c.controls, len(c.refused))
			for _, missed := range c.unvisited(role) {
				t.Errorf("as %s, no page led to %s: give the test content that reaches it", role, missed)
			}
		})
	}
}

// controlsSite is what mustControlsSite made: the ids that fill route
// parameters, once per server (with its session).
type controlsSite struct {
	servers    []string // ids of servers, each with its session at the same index
	sessions   []string
	collection string
	frame      string
	run        string // the path of the collection's run
}

// mustControlsSite registers and connects servers with tools, resources,
// prompts and logs, records exchanges, closes one session, and saves a
// collection with an environment and a run, all as the admin.
func mustControlsSite(t *testing.T, d *dashboard) controlsSite {
	t.Helper()
	var site controlsSite
	connect := func(name, mcpURL string) int64 {
		srv := d.MustAPIServer(t, map[string]any{"name": name, "transport": "http", "url": mcpURL})
		sess := d.MustAPISession(t, srv.ID)
		site.servers = append(site.servers, fmt.Sprint(srv.ID))
		site.sessions = append(site.sessions, fmt.Sprint(sess.ID))
		return sess.ID
	}
	sdk := connect("sdk", MustSDKHTTPServer(t, nil))
	connect("resources", mustResourceServer(t, false).url)
	connect("prompts", mustPromptServer(t, false))
	logging := connect("logging", MustLoggingServer(t))
	connect("app", mustAppServer(t))
	d.mustEcho(t, sdk, "recorded for the history")
	d.callTool(t, logging, "log", map[string]any{}, 0)
	closed := connect("closed", MustSDKHTTPServer(t, nil))
	if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", closed), nil, nil); r.Status >= 300 {
		t.Fatalf("closing session %d: %d %s", closed, r.Status, r.Body)
	}

	token := d.MustCSRF(t)
	// A sign-in to a server that asks for none fails at its first step,
	// and leaves a flow for the debugger to show.
	if r := d.postForm(t, "/servers/"+site.servers[0]+"/oauth/signin", url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
		t.Fatalf("signing in to a server without OAuth: %d\n%s", r.Status, r.Body)
	}
	r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/console", sdk), token, url.Values{
		"mode": {"request"}, "method": {"tools/call"}, "params": {`{"name":"echo","arguments":{"text":"saved"}}`}})
	m := saveFrameRe.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("the console's answer has no Save to collection control:\n%s", r.Body)
	}
	site.frame = m[1]
	r = d.htmxPost(t, "/collections/save", token, url.Values{"frame": {site.frame}, "collection": {"0"}, "new_collection": {"shared"}, "name": {"echo"}})
	if m = collectionRe.FindStringSubmatch(r.Body); m == nil {
		t.Fatalf("saving an example: %d\n%s", r.Status, r.Body)
	}
	site.collection = m[1]
	colPath := "/collections/" + site.collection
	if r := d.postForm(t, colPath+"/environments", url.Values{"_csrf": {token}, "name": {"staging"},
		"v_name": {"greeting"}, "v_value": {"hello"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("saving an environment: %d\n%s", r.Status, r.Body)
	}
	r = d.postForm(t, colPath+"/run", url.Values{"_csrf": {token}, "session": {fmt.Sprint(sdk)}, "example": {"0"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("running the collection: %d\n%s", r.Status, r.Body)
	}
	site.run = r.Header.Get("Location")
	d.finishedReport(t, site.run)
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return site
}

// starts lists every GET route role may use, once for each server and
// session (and the collection and frame), with parameters the site can
// fill; routes with other parameters are reached through links, but for
// the report of a run, which only a running run's page loads.
func (s controlsSite) starts(d *dashboard, role backend.Role) []string {
	out := []string{s.run + "/report"}
	for _, r := range d.web.Routes() {
		need, _ := d.web.RouteRole(r.Method, r.Path)
		if r.Method != http.MethodGet || need == "" || !role.Allows(need) || strings.HasPrefix(r.Path, "/api/") {
			continue
		}
		for i := range s.servers {
			ids := map[string]string{"servers": s.servers[i], "sessions": s.sessions[i], "collections": s.collection, "frames": s.frame}
			if p, ok := fillRoute(r.Path, ids); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// fillRoute fills each parameter of a route path from ids, keyed by the
// segment before it; it reports false when one has no value.
func fillRoute(path string, ids map[string]string) (string, bool) {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, ":") || strings.Contains(s, "*") {
			id, ok := ids[segs[i-1]]
			if !ok || s != ":id" {
				return "", false
			}
			segs[i] = id
		}
	}
	return strings.Join(segs, "/"), true
}

// controlCrawl reads the pages one person (of role) can reach and checks
// their controls.
type controlCrawl struct {
	d      *dashboard
	client *http.Client
	role   backend.Role

	todo     []pageRequest
	queued   map[string]bool // by URL
	perRoute map[string]int  // pages read per route, to bound the crawl
	visited  []string        // routes read, "GET /path/:id"
	refused  map[string]bool // controls reported, by page route, control and target route
	pages    int
	controls int
}

// pageRequest is a page or fragment to fetch, as a link (htmx false) or
// as htmx loads it.
type pageRequest struct {
	url  string
	htmx bool
}

// maxPagesPerRoute bounds the crawl: enough to see each server's sections
// and items, not every page of every list.
const maxPagesPerRoute = 12

func (c *controlCrawl) queue(u string, htmx bool) {
	key := fmt.Sprint(htmx, u)
	if c.queued[key] {
		return
	}
	c.queued[key] = true
	c.todo = append(c.todo, pageRequest{url: u, htmx: htmx})
}

// run fetches what is queued, checking each HTML answer's controls and
// queueing the GET routes they lead to that the role may use.
func (c *controlCrawl) run(t *testing.T) {
	t.Helper()
	for len(c.todo) > 0 {
		p := c.todo[0]
		c.todo = c.todo[1:]
		u, _ := url.Parse(p.url)
		route, ok := c.d.routeOf(http.MethodGet, u.Path)
		if !ok || strings.HasSuffix(route, "/live") || c.perRoute[route] >= maxPagesPerRoute {
			continue
		}
		c.perRoute[route]++
		req := c.d.newRequest(t, http.MethodGet, p.url, nil)
		if p.htmx {
			req.Header.Set("HX-Request", "true")
		}
		resp := c.d.doWith(t, c.client, req)
		if resp.Status == http.StatusForbidden || resp.Status >= 500 {
			t.Errorf("as %s, GET %s (route %s) = %d: %.300s", c.role, p.url, route, resp.Status, resp.Body)
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			continue
		}
		if !slices.Contains(c.visited, route) {
			c.visited = append(c.visited, route)
		}
		c.pages++
		c.check(t, p.url, route, resp.Body)
	}
}

// inspectLive reads what the live stream of a session sends for a moment
// and checks the controls of its fragments.
func (c *controlCrawl) inspectLive(t *testing.T, sessionID string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	dialer := websocket.Dialer{Jar: c.client.Jar, HandshakeTimeout: 5 * time.Second}
	conn, _, err := dialer.DialContext(ctx, fmt.Sprintf("ws://%s/sessions/%s/live", c.d.Host, sessionID), nil)
	if err != nil {
		t.Errorf("as %s, the live stream of session %s: %v", c.role, sessionID, err)
		return
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(time.Second))
	page := "/sessions/" + sessionID + " (live stream)"
	for {
		_, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		c.check(t, page, "GET /sessions/:id/live", string(msg))
	}
}

// check fails for each control in body (read at pageURL, of route) whose
// target route the role may not use, and queues the GET targets it may.
func (c *controlCrawl) check(t *testing.T, pageURL, route, body string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Errorf("%s: %v", pageURL, err)
		return
	}
	base, _ := url.Parse(pageURL)
	for _, ctl := range controlsIn(doc) {
		target, err := base.Parse(ctl.target)
		if err != nil || (target.Host != "" && target.Host != c.d.Host) || target.Path == "" {
			continue
		}
		targetRoute, ok := c.d.routeOf(ctl.method, target.Path)
		if !ok {
			continue
		}
		c.controls++
		need, _ := c.d.web.RouteRole(ctl.method, strings.TrimPrefix(targetRoute, ctl.method+" "))
		if c.role.Allows(need) {
			if ctl.method == http.MethodGet && need != "" {
				c.queue(target.String(), ctl.htmx)
			}
			continue
		}
		key := route + "|" + ctl.what + "|" + targetRoute
		if c.refused[key] {
			continue
		}
		c.refused[key] = true
		t.Errorf("as %s, %s (route %s) shows %s → %s %s, which needs the %s role", c.role, pageURL, route, ctl.what, ctl.method, target.Path, need)
	}
}

// unvisited lists the GET routes of HTML pages the role may read that the
// crawl never reached (downloads, the live stream and the JSON API aside).
func (c *controlCrawl) unvisited(role backend.Role) []string {
	notPages := []string{"/sessions/:id/live", "/live/sessions", "/sessions/:id/export", "/history/export", "/collections/:id/export", "/servers/:id/export", "/frames/:id/raw"}
	var out []string
	for _, r := range c.d.web.Routes() {
		need, _ := c.d.web.RouteRole(r.Method, r.Path)
		if r.Method != http.MethodGet || need == "" || !role.Allows(need) || strings.HasPrefix(r.Path, "/api/") || slices.Contains(notPages, r.Path) {
			continue
		}
		if !slices.Contains(c.visited, r.Method+" "+r.Path) {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

// routeOf returns the route ("METHOD /path/:param") that serves method
// and path, preferring, as the router does, static segments to
// parameters.
func (d *dashboard) routeOf(method, path string) (string, bool) {
	best, bestScore := "", -1
	for _, r := range d.web.Routes() {
		if r.Method != method {
			continue
		}
		if score, ok := matchRoute(r.Path, path); ok && score > bestScore {
			best, bestScore = r.Method+" "+r.Path, score
		}
	}
	return best, bestScore >= 0
}

// matchRoute reports whether path matches the route pattern, and how many
// of its segments matched literally.
func matchRoute(pattern, path string) (int, bool) {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	score := 0
	for i, p := range ps {
		if prefix, wild := strings.CutSuffix(p, "*"); wild {
			return score, i < len(xs) && strings.HasPrefix(xs[i], prefix)
		}
		if i >= len(xs) {
			return 0, false
		}
		switch {
		case strings.HasPrefix(p, ":"):
			if xs[i] == "" {
				return 0, false
			}
		case p == xs[i]:
			score++
		default:
			return 0, false
		}
	}
	return score, len(ps) == len(xs)
}

// control is something on a page that sends a request: a form, an
// element with an hx- request attribute, a link.
type control struct {
	what   string // how a person would find it: its element, test id and text
	method string
	target string // as written, relative to the page
	htmx   bool
}

// htmxMethods are the hx- attributes that send requests, with the method
// each sends.
var htmxMethods = map[string]string{"hx-get": http.MethodGet, "hx-post": http.MethodPost,
	"hx-put": http.MethodPut, "hx-patch": http.MethodPatch, "hx-delete": http.MethodDelete}

// controlsIn lists the controls of an HTML document or fragment. A form
// sends to its action (the page itself when it has none) unless htmx
// sends it instead; an input offering completions (data-complete-ref)
// posts, through static/complete.js, to the completion route of the
// session its closest data-session-id names.
func controlsIn(doc *html.Node) []control {
	var out []control
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		viaHTMX := false
		for _, a := range n.Attr {
			if m, ok := htmxMethods[a.Key]; ok {
				viaHTMX = true
				out = append(out, control{what: describe(n), method: m, target: a.Val, htmx: true})
			}
		}
		switch {
		case n.Data == "form" && !viaHTMX:
			method := strings.ToUpper(attr(n, "method"))
			if method == "" {
				method = http.MethodGet
			}
			out = append(out, control{what: describe(n), method: method, target: attr(n, "action")})
		case n.Data == "a" && attr(n, "href") != "" && !strings.HasPrefix(attr(n, "href"), "#"):
			out = append(out, control{what: describe(n), method: http.MethodGet, target: attr(n, "href")})
		case attr(n, "data-complete-ref") != "":
			for holder := n.Parent; holder != nil; holder = holder.Parent {
				if id := attr(holder, "data-session-id"); id != "" {
					out = append(out, control{what: describe(n) + " (completions)", method: http.MethodPost, target: "/sessions/" + id + "/complete"})
					break
				}
			}
		}
	}
	return out
}

// describe names an element by its tag, test id and first words.
func describe(n *html.Node) string {
	var text strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			text.WriteString(d.Data + " ")
		}
	}
	words := strings.Join(strings.Fields(text.String()), " ")
	if len(words) > 50 {
		words = words[:50] + "…"
	}
	s := "<" + n.Data
	if id := attr(n, "data-testid"); id != "" {
		s += ` data-testid="` + id + `"`
	}
	return s + `> "` + words + `"`
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
