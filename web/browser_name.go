package web

import "strings"

// browserName summarises a User-Agent as "Browser on OS" for people's list
// of their signed-in browsers; an unknown agent is kept, cut to 60 bytes.
func browserName(ua string) string {
	browsers := []struct{ token, name string }{
		{"Edg/", "Edge"}, {"OPR/", "Opera"}, {"Firefox/", "Firefox"}, {"HeadlessChrome/", "Headless Chrome"},
		{"Chromium/", "Chromium"}, {"Chrome/", "Chrome"}, {"Safari/", "Safari"}, {"curl/", "curl"},
	}
	systems := []struct{ token, name string }{
		{"Android", "Android"}, {"iPhone", "iOS"}, {"iPad", "iPadOS"}, {"Windows", "Windows"},
		{"Mac OS X", "macOS"}, {"CrOS", "ChromeOS"}, {"Linux", "Linux"},
	}
	name := ""
	for _, b := range browsers {
		if strings.Contains(ua, b.token) {
			name = b.name
			break
		}
	}
	if name == "" {
		if ua == "" {
			return "unknown browser"
		}
		if len(ua) > 60 {
			ua = ua[:60]
		}
		return ua
	}
	for _, s := range systems {
		if strings.Contains(ua, s.token) {
			return name + " on " + s.name
		}
	}
	return name
}
