package backend

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// SessionOverview is what a live session knows of its server and of the
// terms both sides agreed on: the server's self-description, the era and
// protocol version, the capabilities each side declared and, in the modern
// era, the server/discover result. Every string in it comes from the
// server, except ClientCapabilities, and is untrusted.
type SessionOverview struct {
	Session         Session
	Server          mcpclient.Implementation
	Era             Era
	ProtocolVersion string
	Instructions    string
	// ServerCapabilities and ClientCapabilities are the capabilities objects
	// as declared (JSON objects, or nil when the server declared none).
	ServerCapabilities json.RawMessage
	ClientCapabilities json.RawMessage
	// Discovery is the server/discover result as received; nil in the
	// legacy era.
	Discovery json.RawMessage
}

// Overview returns the overview of a live session; an EConflict *Error
// when the session is not live in this pool.
func (p *Pool) Overview(sessionID int64) (SessionOverview, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return SessionOverview{}, err
	}
	init := ls.client.InitializeResult()
	o := SessionOverview{
		Session: ls.session, Server: init.ServerInfo, Era: Era(ls.client.Era()),
		ProtocolVersion: ls.client.ProtocolVersion(), Instructions: init.Instructions,
		ServerCapabilities: init.Capabilities, ClientCapabilities: ls.client.ClientCapabilities(),
	}
	if d := ls.client.Discovery(); d != nil {
		o.Discovery = d.Raw
	}
	return o, nil
}

// Ping sends ping on a live session, recorded like every request, and
// returns the round-trip time. Any failure, a JSON-RPC error answer
// included, is an *Error with a message fit to show (see Call).
func (p *Pool) Ping(ctx context.Context, sessionID int64) (time.Duration, error) {
	res, err := p.Call(ctx, sessionID, "ping", nil)
	if err != nil {
		return 0, err
	}
	if res.Error != nil {
		return res.Latency, Errorf(EUnavailable, "ping failed: the server answered with JSON-RPC error %d: %s", res.Error.Code, res.Error.Message)
	}
	return res.Latency, nil
}

// Capability is one capability of a capabilities object: its name
// ("tools", "resources") and what it says under it ("listChanged",
// "subscribe"; for experimental and extensions, the names of what is
// declared; nested flags as "requests.tools.call").
type Capability struct {
	Name     string
	Features []string
}

// capabilityOrder puts the capabilities the spec names first, in the
// spec's order; any other follows by name.
var capabilityOrder = []string{"tools", "resources", "prompts", "logging", "completions", "tasks",
	"roots", "sampling", "elicitation", "experimental", "extensions"}

// Capabilities lists the capabilities in a capabilities object. A
// capability set to false or null is not declared and not listed; anything
// that is not a JSON object lists nothing.
func Capabilities(raw json.RawMessage) []Capability {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return nil
	}
	names := make([]string, 0, len(members))
	for name, v := range members {
		if declared(v) {
			names = append(names, name)
		}
	}
	rank := func(name string) int {
		if i := slices.Index(capabilityOrder, name); i >= 0 {
			return i
		}
		return len(capabilityOrder)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank(names[i]), rank(names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	out := make([]Capability, 0, len(names))
	for _, name := range names {
		c := Capability{Name: name}
		if name == "experimental" || name == "extensions" {
			c.Features = memberNames(members[name])
		} else {
			c.Features = flags(members[name], "")
		}
		out = append(out, c)
	}
	return out
}

// declared reports whether a capability value declares something.
func declared(v json.RawMessage) bool {
	s := strings.TrimSpace(string(v))
	return s != "" && s != "false" && s != "null"
}

// memberNames returns the declared member names of a JSON object, sorted.
func memberNames(raw json.RawMessage) []string {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return nil
	}
	var out []string
	for k, v := range members {
		if declared(v) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// flags returns the features set in a capability's object: members that
// are true or an empty object by name, members that are non-empty objects
// as their own flags under "name.".
func flags(raw json.RawMessage, prefix string) []string {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return nil
	}
	var out []string
	for k, v := range members {
		if !declared(v) {
			continue
		}
		if sub := flags(v, prefix+k+"."); len(sub) > 0 {
			out = append(out, sub...)
		} else {
			out = append(out, prefix+k)
		}
	}
	sort.Strings(out)
	return out
}

// maxIconData bounds the size of a data: icon shown inline.
const maxIconData = 64 << 10

// maxIcons bounds how many icons an overview shows.
const maxIcons = 4

// safeRasterPrefixes are the data: URI prefixes of icons shown as images:
// raster formats only, base64-encoded. SVG is left out: it is a document,
// not a picture.
var safeRasterPrefixes = []string{"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/gif;base64,", "data:image/webp;base64,"}

// IconImages returns the server's icons that may be shown as images: data:
// URIs of raster images, base64-encoded, at most 64 KiB each. Nothing a
// server names is ever fetched, from the dashboard's origin or elsewhere.
func (o SessionOverview) IconImages() []string {
	var out []string
	for _, ic := range o.Server.Icons {
		if len(out) == maxIcons {
			break
		}
		if len(ic.Src) <= maxIconData && isRasterDataURI(ic.Src) {
			out = append(out, ic.Src)
		}
	}
	return out
}

func isRasterDataURI(src string) bool {
	for _, p := range safeRasterPrefixes {
		if rest, ok := strings.CutPrefix(src, p); ok {
			return rest != "" && strings.Trim(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") == ""
		}
	}
	return false
}

// IconLinks returns the server's https icons, which the page offers as
// links rather than loading them.
func (o SessionOverview) IconLinks() []string {
	var out []string
	for _, ic := range o.Server.Icons {
		if len(out) == maxIcons {
			break
		}
		if u, ok := webURL(ic.Src); ok && u.Scheme == "https" {
			out = append(out, u.String())
		}
	}
	return out
}

// Website returns the server's website URL when it is an http or https
// URL, the only kinds the page links to.
func (o SessionOverview) Website() (string, bool) {
	u, ok := webURL(o.Server.WebsiteURL)
	if !ok {
		return "", false
	}
	return u.String(), true
}

func webURL(s string) (*url.URL, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil {
		return nil, false
	}
	return u, true
}
