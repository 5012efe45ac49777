package views

import (
	"bytes"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcp-playground/playground/backend"
)

// HistoryPageData is the history page: the search as typed, its results
// (newest first) and the link to older ones.
type HistoryPageData struct {
	Query   string // the search box's text
	Server  string // the server select's value, "" for all
	Outcome string // the outcome select's value, "" for all
	Servers []string
	Entries []backend.HistoryEntry
	// Terms are the query's words and phrases, marked in the excerpts.
	Terms []string
	// Error is why the query cannot run, shown at the search box.
	Error string
	// OlderURL, when set, loads the page after Entries; Paged says that
	// this is not the first page.
	OlderURL string
	Paged    bool
}

// historyOutcomes are the outcome select's choices.
var historyOutcomes = []struct{ value, label string }{
	{"", "any outcome"}, {string(backend.OutcomeOK), "ok"}, {string(backend.OutcomeFailed), "error (any)"},
	{string(backend.OutcomeToolError), "isError result"}, {string(backend.OutcomeRPCError), "JSON-RPC error"},
}

// ExchangeURL is the permalink of an exchange.
func ExchangeURL(e backend.HistoryEntry) string {
	return "/sessions/" + itoa(e.Session.ID) + "/exchanges/" + itoa(e.ExchangeID())
}

// outcomeLabel names how an exchange ended, with the error code.
func outcomeLabel(e backend.HistoryEntry) string {
	switch e.Outcome() {
	case backend.OutcomeRPCError:
		if code, ok := e.ErrorCode(); ok {
			return "error " + itoa(code)
		}
		return "error"
	case backend.OutcomeToolError:
		return "isError"
	}
	return "ok"
}

// excerptSpan is a part of an excerpt; Mark says it matched a term.
type excerptSpan struct {
	Text string
	Mark bool
}

// excerptRadius is how many bytes of context an excerpt shows on each side.
const excerptRadius = 60

// excerpt returns the text around the first term found (case-insensitive)
// in the response's body, else the request's, with the term marked; with
// no terms or none found, the start of the response's body.
func excerpt(e backend.HistoryEntry, terms []string) []excerptSpan {
	for _, body := range [][]byte{e.Response.Body, e.Request.Body} {
		lower, fold := bytes.ToLower(body), bytes.ToLower
		if len(lower) != len(body) { // offsets in lower would not be offsets in body
			lower, fold = body, func(b []byte) []byte { return b }
		}
		for _, t := range terms {
			if i := bytes.Index(lower, fold([]byte(t))); i >= 0 && t != "" && len(fold([]byte(t))) == len(t) {
				end := i + len(t)
				from, to := max(0, i-excerptRadius), min(len(body), end+excerptRadius)
				from, to = runeStart(body, from), runeStart(body, to)
				return []excerptSpan{{Text: ellipsis(from > 0) + string(body[from:i])}, {Text: string(body[i:end]), Mark: true},
					{Text: string(body[end:to]) + ellipsis(to < len(body))}}
			}
		}
	}
	body := e.Response.Body
	to := runeStart(body, min(len(body), 2*excerptRadius))
	return []excerptSpan{{Text: string(body[:to]) + ellipsis(to < len(body))}}
}

// runeStart moves i back to the start of the UTF-8 character it is in.
func runeStart(b []byte, i int) int {
	for i > 0 && i < len(b) && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

func ellipsis(cut bool) string {
	if cut {
		return "…"
	}
	return ""
}

func latencyOf(e backend.HistoryEntry) string {
	return backend.FormatDuration(time.Duration(e.LatencyNS))
}

// ExchangeCopies are the texts an exchange page offers to copy; "" leaves
// one out (Curl for servers not on HTTP, Call when the server's command is
// unknown).
type ExchangeCopies struct {
	JSONRPC, Call, Curl string
}

// redactionHint says which redaction markers the copies hold, for those
// who paste them: "" when they hold none.
func (c ExchangeCopies) redactionHint() string {
	all := c.JSONRPC + c.Call + c.Curl
	values, urls := strings.Contains(all, backend.RedactedValue), strings.Contains(all, backend.RedactedURLPart)
	switch {
	case values && urls:
		return "Secret values read " + backend.RedactedValue + " and secret URL parts " + backend.RedactedURLPart + ": put your own in."
	case values:
		return "Secret values read " + backend.RedactedValue + ": put your own in."
	case urls:
		return "Secret URL parts read " + backend.RedactedURLPart + ": put your own in."
	}
	return ""
}

// ExchangePageData is an exchange's permalink page.
type ExchangePageData struct {
	Entry  backend.HistoryEntry
	Copies ExchangeCopies
	// Live are the sessions the request can be replayed on; Idle the
	// registered servers without one, which a replay connects first.
	Live []backend.Session
	Idle []backend.Server
}

// newestHistoryURL is the first page of d's search.
func newestHistoryURL(d HistoryPageData) string {
	return HistoryURL(d.Query, d.Server, d.Outcome, 0)
}

// HistoryURL is the history page of a search, from below exchange id
// before (0: the newest).
func HistoryURL(query, server, outcome string, before int64) string {
	v := url.Values{}
	for _, p := range [][2]string{{"q", query}, {"server", server}, {"outcome", outcome}} {
		if p[1] != "" {
			v.Set(p[0], p[1])
		}
	}
	if before != 0 {
		v.Set("before", itoa(before))
	}
	if len(v) == 0 {
		return "/history"
	}
	return "/history?" + v.Encode()
}
