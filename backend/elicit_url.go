package backend

import (
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// URLTarget is where a URL-mode elicitation wants to send the person, as
// the page shows it before opening it.
type URLTarget struct {
	URL string // the whole URL, as the server sent it
	// Host is the host as written (Unicode for an internationalised name);
	// ASCIIHost is its ASCII (punycode) form, the name the browser really
	// resolves. They differ only for internationalised names.
	Host      string
	ASCIIHost string
	// UserInfo is set when the URL carries a user name before the host
	// (https://bank.example@evil.example/), a classic way to mislead.
	UserInfo bool
}

// IDN reports whether the host is an internationalised name, whose
// Unicode form may imitate another domain.
func (t URLTarget) IDN() bool { return t.Host != t.ASCIIHost }

// ElicitURLTarget checks the URL of a URL-mode elicitation: only absolute
// http and https URLs with a host may be opened. Anything else (javascript:,
// data:, file:, a relative or malformed URL) is an EInvalid *Error saying
// why.
func ElicitURLTarget(raw string) (URLTarget, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return URLTarget{}, Errorf(EInvalid, "The server sent a URL that does not parse, so it is not offered: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return URLTarget{}, Errorf(EInvalid, "The server sent a %s URL; only http and https URLs are offered.", schemeName(u.Scheme))
	}
	host := u.Hostname()
	if host == "" {
		return URLTarget{}, Errorf(EInvalid, "The server sent a URL without a host, so it is not offered.")
	}
	ascii, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return URLTarget{}, Errorf(EInvalid, "The URL's host %q is not a valid domain name: %v", host, err)
	}
	unicode, err := idna.Display.ToUnicode(ascii)
	if err != nil {
		unicode = host
	}
	return URLTarget{URL: raw, Host: unicode, ASCIIHost: ascii, UserInfo: u.User != nil}, nil
}

func schemeName(s string) string {
	if s == "" {
		return "relative"
	}
	return strings.ToLower(s) + ":"
}
