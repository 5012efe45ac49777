// Package doctor explains a failed connect in plain words: what was
// checked on the wire (DNS, TCP, TLS, HTTP, the transport and era the
// server speaks, the stdio command), what was seen, and what to try next,
// with the change to the target that tries it when one can be made
// automatically.
package doctor

import (
	"net/url"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// Diagnosis is what the doctor made of a failed connect.
type Diagnosis struct {
	// Summary says in one or two plain sentences why the connect failed.
	Summary string `json:"summary"`
	// Findings list what was checked and what was seen, in the order checked.
	Findings []Finding `json:"findings"`
	// Suggestions are the next things to try, the likeliest first.
	Suggestions []Suggestion `json:"suggestions"`
}

// Finding is one thing the doctor checked and what it saw.
type Finding struct {
	Check  string `json:"check"`  // such as "DNS", "TCP", "TLS certificate", "HTTP"
	Result string `json:"result"` // what was seen
}

// Suggestion is one next thing to try.
type Suggestion struct {
	Text string `json:"text"`
	// Change, when set, is the change to the target (and era) that tries
	// the suggestion automatically.
	Change *Change `json:"change,omitempty"`
	// SignIn marks the suggestion to sign in with OAuth, which a client
	// tries with its own sign-in (the dashboard's button, call --oauth).
	SignIn bool `json:"signIn,omitempty"`
}

// Change is a change to a server's settings that a suggestion tries. Zero
// fields are left as they are.
type Change struct {
	Transport mcpclient.Transport `json:"transport,omitempty"`
	Era       mcpclient.Era       `json:"era,omitempty"`
	// Path replaces the path of the server's URL (its scheme, host and
	// query stay, so no credential of the URL is repeated here).
	Path string `json:"path,omitempty"`
	// SkipTLSVerify turns off certificate verification, for test servers.
	SkipTLSVerify bool `json:"skipTLSVerify,omitempty"`
}

// Apply returns target and era with c made.
func (c Change) Apply(target mcpclient.Target, era mcpclient.Era) (mcpclient.Target, mcpclient.Era) {
	if c.Transport != "" {
		target.Transport = c.Transport
	}
	if c.Era != "" {
		era = c.Era
	}
	if c.Path != "" {
		target.HTTP.URL = WithPath(target.HTTP.URL, c.Path)
	}
	if c.SkipTLSVerify {
		target.HTTP.InsecureSkipVerify = true
	}
	return target, era
}

// WithPath returns raw with its path replaced by path; raw unchanged when
// it does not parse.
func WithPath(raw, path string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Path, u.RawPath = path, ""
	return u.String()
}

// Label names what c does, as a button says it: "Use HTTP+SSE",
// "Use era legacy", "Use path /mcp", "Skip TLS verification", joined with
// " and ".
func (c Change) Label() string {
	var parts []string
	switch c.Transport {
	case mcpclient.TransportSSE:
		parts = append(parts, "use HTTP+SSE")
	case mcpclient.TransportHTTP:
		parts = append(parts, "use Streamable HTTP")
	}
	if c.Path != "" {
		parts = append(parts, "use path "+c.Path)
	}
	if c.Era != "" {
		parts = append(parts, "use era "+string(c.Era))
	}
	if c.SkipTLSVerify {
		parts = append(parts, "skip TLS verification")
	}
	s := strings.Join(parts, " and ")
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// urlText is u without its credentials and query, for findings.
func urlText(u *url.URL) string {
	out := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	if u.RawQuery != "" {
		out += "?…"
	}
	return out
}
