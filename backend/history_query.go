package backend

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mcp-playground/playground/mcpclient/lint"
)

// HistoryFilterKeys are the filters the search box knows, in the order the
// help text lists them.
var HistoryFilterKeys = []string{"server", "method", "name", "status", "code", "latency", "lint", "after", "before", "since"}

// ParseHistoryQuery parses the search box's syntax, relative to now:
//
//	server:NAME           the server's name
//	method:METHOD         the request's method, e.g. method:tools/call
//	name:NAME             the tool, prompt (params.name) or resource (params.uri)
//	status:ok|error|iserror|rpc-error
//	code:-32602           the JSON-RPC error code
//	latency:>500ms  latency:<2s  latency:100ms..1s
//	lint:any  lint:error  lint:warning  lint:info  lint:jsonrpc.version
//	                      a protocol-lint finding on the request or response
//	after:2026-11-30  before:2026-11-30T12:00  (UTC; RFC 3339 also)
//	since:2h              within the last two hours
//	word  "exact phrase"  full text in params and results
//
// A value with spaces is quoted (server:"my server"); a word holding a
// colon is quoted too, or it reads as a filter. Malformed input gives an
// EInvalid *Error that says what is wrong; so does a NUL character or
// bytes that are not UTF-8, which nothing recorded is searched for by.
func ParseHistoryQuery(s string, now time.Time) (HistoryQuery, error) {
	var q HistoryQuery
	if strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
		return q, Errorf(EInvalid, "The search holds a character that cannot be searched for (a NUL, or bytes that are not UTF-8): remove it and search again.")
	}
	toks, err := splitQuery(s)
	if err != nil {
		return q, err
	}
	for _, t := range toks {
		if t.key == "" {
			q.Text = append(q.Text, t.value)
			continue
		}
		if t.value == "" {
			return q, Errorf(EInvalid, "%s: needs a value.", t.key)
		}
		if err := q.setFilter(t.key, t.value, now); err != nil {
			return q, err
		}
	}
	return q, nil
}

func (q *HistoryQuery) setFilter(key, v string, now time.Time) error {
	switch key {
	case "server":
		q.Server = v
	case "method":
		q.Method = v
	case "name", "tool", "prompt", "resource", "item":
		q.Item = v
	case "status", "outcome":
		o, err := ParseOutcome(v)
		if err != nil {
			return err
		}
		q.Outcome = o
	case "code":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Errorf(EInvalid, "code:%s is not a number; write e.g. code:-32602.", v)
		}
		q.ErrorCode, q.HasErrorCode = n, true
	case "latency":
		return q.setLatency(v)
	case "lint":
		return q.setLint(v)
	case "after", "before":
		t, err := parseQueryTime(v)
		if err != nil {
			return Errorf(EInvalid, "%s:%s is not a time; write e.g. %s:2026-11-30 or %s:2026-11-30T12:00.", key, v, key, key)
		}
		if key == "after" {
			q.After = t
		} else {
			q.Before = t
		}
	case "since":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return Errorf(EInvalid, "since:%s is not a duration; write e.g. since:2h or since:30m.", v)
		}
		q.After = now.Add(-d)
	default:
		return Errorf(EInvalid, "Unknown filter %q; known: %s. Quote text that holds a colon.", key+":", strings.Join(HistoryFilterKeys, ", "))
	}
	return nil
}

// setLint reads any, a severity or a rule's code (lint.Rules).
func (q *HistoryQuery) setLint(v string) error {
	switch v = strings.ToLower(v); v {
	case LintAny, string(lint.SevError), string(lint.SevWarning), string(lint.SevInfo):
		q.Lint = v
		return nil
	}
	if _, ok := lint.RuleOf(v); !ok {
		return Errorf(EInvalid, "lint:%s is not a lint code; write lint:any, lint:error, lint:warning, lint:info or a code such as lint:jsonrpc.version.", v)
	}
	q.Lint = v
	return nil
}

// ParseOutcome reads a status: value; "" is no filter.
func ParseOutcome(v string) (Outcome, error) {
	switch o := Outcome(strings.ToLower(v)); o {
	case "", OutcomeOK, OutcomeToolError, OutcomeRPCError, OutcomeFailed:
		return o, nil
	}
	return "", Errorf(EInvalid, "status:%s is not a status; use ok, error, iserror or rpc-error.", v)
}

// setLatency reads >D, <D, >=D, <=D or D1..D2.
func (q *HistoryQuery) setLatency(v string) error {
	bad := Errorf(EInvalid, "latency:%s is not a latency range; write e.g. latency:>500ms, latency:<2s or latency:100ms..1s.", v)
	if lo, hi, ok := strings.Cut(v, ".."); ok {
		min, err1 := time.ParseDuration(lo)
		max, err2 := time.ParseDuration(hi)
		if err1 != nil || err2 != nil || min < 0 || max < min {
			return bad
		}
		q.MinLatency, q.MaxLatency = min, max
		return nil
	}
	op := v[:len(v)-len(strings.TrimLeft(v, "<>="))]
	d, err := time.ParseDuration(v[len(op):])
	if err != nil || d < 0 {
		return bad
	}
	switch op {
	case ">", ">=":
		q.MinLatency = d
	case "<", "<=":
		q.MaxLatency = d
	default:
		return bad
	}
	return nil
}

// queryTimeLayouts are the forms after: and before: accept, in UTC.
var queryTimeLayouts = []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"}

func parseQueryTime(v string) (time.Time, error) {
	var err error
	for _, layout := range queryTimeLayouts {
		var t time.Time
		if t, err = time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, err
}

// queryToken is a filter (key set) or a word or phrase of text.
type queryToken struct{ key, value string }

// splitQuery splits s at spaces outside double quotes. A token that starts
// with letters and a colon is a filter; its value may be quoted.
func splitQuery(s string) ([]queryToken, error) {
	var toks []queryToken
	for i := 0; i < len(s); {
		r := rune(s[i])
		if unicode.IsSpace(r) {
			i++
			continue
		}
		var key string
		if j := strings.IndexByte(s[i:], ':'); j > 0 && isFilterKey(s[i:i+j]) {
			key = strings.ToLower(s[i : i+j])
			i += j + 1
		}
		var value string
		if i < len(s) && s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			if end < 0 {
				return nil, Errorf(EInvalid, "A quote is not closed: %s", s[i:])
			}
			value = s[i+1 : i+1+end]
			i += end + 2
		} else {
			end := strings.IndexFunc(s[i:], unicode.IsSpace)
			if end < 0 {
				end = len(s) - i
			}
			value = s[i : i+end]
			i += end
		}
		if key == "" && strings.TrimSpace(value) == "" {
			continue
		}
		toks = append(toks, queryToken{key: key, value: value})
	}
	return toks, nil
}

func isFilterKey(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
