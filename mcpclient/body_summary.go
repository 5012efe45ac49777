package mcpclient

import (
	"fmt"
	"html"
	"mime"
	"regexp"
	"strings"
	"sync"
)

// bodySummaryLen bounds the words BodySummary quotes.
const bodySummaryLen = 200

var (
	htmlTitle = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	})
	htmlHidden = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)<(head|script|style|template)\b.*?</(head|script|style|template)\s*>`)
	})
	htmlTag = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?s)<[^>]*>`)
	})
	looksLikeML = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(<!doctype|<html|<head|<body|<\?xml|<!--)`)
	})
)

// BodySummary says in a few words what an HTTP body that is not an MCP
// message holds, for error messages: "nothing" for an empty one; for a web
// page (an HTML Content-Type, or markup), `a web page titled "…"` or `a web
// page: first words…`, without markup; otherwise its start with runs of
// white space joined, at most 200 bytes (and "…"). It never returns markup
// of an HTML page.
func BodySummary(contentType string, body []byte) string {
	text := strings.TrimSpace(string(body))
	if text == "" {
		return "nothing"
	}
	mediaType, _, _ := mime.ParseMediaType(contentType)
	if mediaType == "text/html" || mediaType == "application/xhtml+xml" || looksLikeML().MatchString(text) {
		if m := htmlTitle().FindStringSubmatch(text); m != nil {
			if title := words(html.UnescapeString(htmlTag().ReplaceAllString(m[1], " "))); title != "" {
				return fmt.Sprintf("a web page titled %q", title)
			}
		}
		text = html.UnescapeString(htmlTag().ReplaceAllString(htmlHidden().ReplaceAllString(text, " "), " "))
		if w := words(text); w != "" {
			return "a web page: " + w
		}
		return "a web page without text"
	}
	return words(text)
}

// words joins runs of white space in s and bounds it to bodySummaryLen
// bytes, not inside a rune.
func words(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > bodySummaryLen {
		s = truncateUTF8(s, bodySummaryLen) + "…"
	}
	return s
}
