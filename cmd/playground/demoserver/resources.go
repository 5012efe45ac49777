package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource URIs.
const (
	readmeURI        = "demo://readme"
	configURI        = "demo://config.json"
	logoURI          = "demo://logo.png"
	clockURI         = "demo://clock"
	userTemplate     = "demo://users/{id}"
	userTemplateBase = "demo://users/"
)

const readme = `# MCP Playground demo server

This server exists to exercise every MCP feature from the playground.

- **Tools**: echo, add, greet, create_user, weather, tiny_image, fail, slow, ask_name, summarize, log.
- **Resources**: this readme, ` + "`demo://config.json`" + `, a binary PNG (` + "`demo://logo.png`" + `),
  a clock (` + "`demo://clock`" + `) you can subscribe to, and users at ` + "`demo://users/{id}`" + `.
- **Prompts**: code_review and greeting, with completion of their arguments.
`

const config = `{
  "name": "playground-demo",
  "version": "1.0.0",
  "features": {"tools": true, "resources": true, "prompts": true, "completions": true, "logging": true},
  "limits": {"maxSlowSeconds": 60, "maxSlowSteps": 100}
}
`

// logoPNG returns the binary resource, a 32x32 PNG square, encoded on
// first use.
var logoPNG = sync.OnceValue(func() []byte { return pngSquare(32, color.RGBA{R: 0x8e, G: 0x24, B: 0xaa, A: 0xff}) })

// user is one entry of the demo://users/{id} template.
type user struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
}

// users are the ids the demo://users/{id} template knows, in completion order.
var users = []user{
	{ID: "ada", Name: "Ada Lovelace", Role: "owner"},
	{ID: "alan", Name: "Alan Turing", Role: "editor"},
	{ID: "grace", Name: "Grace Hopper", Role: "editor"},
	{ID: "linus", Name: "Linus Torvalds", Role: "viewer"},
}

// addResources registers the static resources, the clock and the users
// template on s.
func addResources(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: readmeURI, Name: "readme", Title: "Read me",
		Description: "What this server offers.", MIMEType: "text/markdown", Size: int64(len(readme))},
		staticText(readme))
	s.AddResource(&mcp.Resource{URI: configURI, Name: "config", Title: "Configuration",
		Description: "A static JSON document.", MIMEType: "application/json", Size: int64(len(config))},
		staticText(config))
	s.AddResource(&mcp.Resource{URI: logoURI, Name: "logo", Title: "Logo",
		Description: "A binary (blob) resource: a 32x32 PNG.", MIMEType: "image/png", Size: int64(len(logoPNG()))},
		readLogo)
	s.AddResource(&mcp.Resource{URI: clockURI, Name: "clock", Title: "Clock",
		Description: "The current UTC time; subscribers are notified of updates every few seconds.", MIMEType: "text/plain"},
		readClock)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: userTemplate, Name: "user", Title: "User",
		Description: "A demo user as JSON; ids: ada, alan, grace, linus.", MIMEType: "application/json"},
		readUser)
}

// staticText returns a handler that reads text; the SDK fills in the URI and
// MIME type from the registered resource.
func staticText(text string) mcp.ResourceHandler {
	return func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: text}}}, nil
	}
}

func readLogo(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Blob: logoPNG()}}}, nil
}

// readClock returns the current UTC time in RFC 3339 form.
func readClock(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: now}}}, nil
}

// readUser returns the user named by demo://users/{id} as JSON, or a
// resource-not-found error for an unknown id.
func readUser(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	id := strings.TrimPrefix(req.Params.URI, userTemplateBase)
	i := slices.IndexFunc(users, func(u user) bool { return u.ID == id })
	if i < 0 {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	data, err := json.MarshalIndent(users[i], "", "  ")
	if err != nil {
		return nil, fmt.Errorf("demoserver: encoding user %q: %w", id, err)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{Text: string(data)}}}, nil
}

// clock sends notifications/resources/updated for demo://clock to its
// subscribers every interval.
//
// Its goroutine starts with the first subscription and stops when no live
// session is subscribed any more, or when life is done; wait joins it. A
// later subscription starts it again (until wait is called).
type clock struct {
	server   *mcp.Server // set once, before any session connects
	life     context.Context
	interval time.Duration

	mu      sync.Mutex
	subs    map[*mcp.ServerSession]bool
	running bool
	closed  bool // set by wait; no goroutine starts afterwards
	wg      sync.WaitGroup
}

func newClock(life context.Context, interval time.Duration) *clock {
	return &clock{life: life, interval: interval, subs: make(map[*mcp.ServerSession]bool)}
}

// subscribe is the server's SubscribeHandler. Any registered resource may be
// subscribed to, but only demo://clock ever changes.
func (c *clock) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	if req.Params.URI != clockURI {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subs[req.Session] = true
	if !c.running && !c.closed && c.life.Err() == nil {
		c.running = true
		c.wg.Go(c.run)
	}
	return nil
}

// unsubscribe is the server's UnsubscribeHandler.
func (c *clock) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	if req.Params.URI == clockURI {
		c.mu.Lock()
		delete(c.subs, req.Session)
		c.mu.Unlock()
	}
	return nil
}

// run ticks until life is done or no live session is subscribed.
func (c *clock) run() {
	t := time.NewTicker(c.interval)
	defer t.Stop()
	for {
		select {
		case <-c.life.Done():
			c.mu.Lock()
			c.running = false
			c.mu.Unlock()
			return
		case <-t.C:
		}
		if !c.pruneSubscribers() {
			return
		}
		// ResourceUpdated only logs delivery failures; it reports no error.
		_ = c.server.ResourceUpdated(c.life, &mcp.ResourceUpdatedNotificationParams{URI: clockURI})
	}
}

// pruneSubscribers forgets subscribers whose session has ended (sessions do
// not unsubscribe when they close). It reports whether any remain; if none
// do, it marks the clock stopped, and the caller must return.
func (c *clock) pruneSubscribers() bool {
	live := make(map[*mcp.ServerSession]bool)
	for ss := range c.server.Sessions() {
		live[ss] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for ss := range c.subs {
		if !live[ss] {
			delete(c.subs, ss)
		}
	}
	if len(c.subs) == 0 {
		c.running = false
		return false
	}
	return true
}

// wait blocks until the clock goroutine, if any, has returned, and keeps new
// subscriptions from starting another. Call it only after life is done.
func (c *clock) wait() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.wg.Wait()
}
