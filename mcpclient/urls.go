package mcpclient

import (
	"net/url"
	"strings"
)

// SameOrigin reports whether a and b have the same scheme and host, port
// included (an omitted default port counts as given).
func SameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// originOf is scheme://host[:port] of u, without userinfo, path or query.
func originOf(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// urlText is u as error messages and notes name it: without userinfo,
// query or fragment, which can hold credentials (a query is shown as
// "?…"). Such texts are shown to people, stored and printed; the HTTP info
// of frames carries the whole URL.
func urlText(u *url.URL) string {
	out := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath, Opaque: u.Opaque}).String()
	if u.RawQuery != "" || u.ForceQuery {
		out += "?…"
	}
	return out
}

// rawURLText is urlText of raw, or "the server URL" when raw does not
// parse.
func rawURLText(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the server URL"
	}
	return urlText(u)
}
