package backend

import (
	"context"
	"encoding/json"
	"time"
)

// Outcome is how an exchange ended, as history filters and shows it.
type Outcome string

const (
	// OutcomeOK is a result that does not say "isError": true.
	OutcomeOK Outcome = "ok"
	// OutcomeToolError is a result that says "isError": true.
	OutcomeToolError Outcome = "iserror"
	// OutcomeRPCError is a JSON-RPC error response.
	OutcomeRPCError Outcome = "rpc-error"
	// OutcomeFailed, as a filter only, is either kind of failure.
	OutcomeFailed Outcome = "error"
)

// HistoryQuery selects exchanges across every session of every server.
// The zero value selects them all. ParseHistoryQuery builds one from the
// search box's syntax.
type HistoryQuery struct {
	// Text holds words and phrases that must all occur in the request's or
	// the response's body (the first MaxBodyPreview bytes of each); words
	// match whole words, case-insensitively.
	Text []string
	// Server, when set, is the server's name (case-insensitive).
	Server string
	// Method, when set, is the request's JSON-RPC method.
	Method string
	// Item, when set, is the request's params.name (a tool or a prompt) or
	// params.uri (a resource).
	Item string
	// Outcome, when set, is how the exchange ended.
	Outcome Outcome
	// ErrorCode, when HasErrorCode, is the JSON-RPC error code of the response.
	ErrorCode    int64
	HasErrorCode bool
	// MinLatency and MaxLatency bound the latency, inclusively; 0 leaves a side open.
	MinLatency, MaxLatency time.Duration
	// After and Before bound the request's time (After inclusive, Before
	// exclusive); the zero time leaves a side open.
	After, Before time.Time
	// Lint, when set, keeps the exchanges whose request or response the
	// protocol linter flagged: LintAny for any finding, a severity
	// ("error", "warning", "info") for a finding of it, else a finding of
	// that code.
	Lint string
}

// LintAny is HistoryQuery.Lint for any finding.
const LintAny = "any"

// HistoryEntry is one exchange as history lists it: the request, the
// response, both with at most HistoryPreview bytes of body, and the session
// they belong to.
type HistoryEntry struct {
	Request, Response Frame
	Session           Session
	LatencyNS         int64
}

// HistoryPreview is how many bytes of each body a history search reads.
const HistoryPreview = 4 << 10

// ExchangeID is the id that names the exchange: its request frame's.
func (e HistoryEntry) ExchangeID() int64 { return e.Request.ID }

// Outcome says how the exchange ended.
func (e HistoryEntry) Outcome() Outcome {
	switch {
	case e.Response.RPCType == RPCError:
		return OutcomeRPCError
	case e.Response.ToolError:
		return OutcomeToolError
	}
	return OutcomeOK
}

// ErrorCode returns the JSON-RPC error code of an error response.
func (e HistoryEntry) ErrorCode() (int64, bool) {
	if e.Response.RPCType != RPCError {
		return 0, false
	}
	rpcErr, ok := e.Response.rpcError()
	if !ok {
		return 0, false
	}
	return int64(rpcErr.Code), true
}

// Item returns the request's params.name, or its params.uri, or "" (also
// when the body read is cut short and so not valid JSON).
func (e HistoryEntry) Item() string {
	params := e.Request.Params()
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return ""
	}
	if p.Name != "" {
		return p.Name
	}
	return p.URI
}

// HistoryStore searches recorded exchanges.
type HistoryStore interface {
	// SearchHistory returns up to limit exchanges that q selects, newest
	// first, whose exchange id is below beforeID (0: from the newest).
	SearchHistory(ctx context.Context, q HistoryQuery, beforeID int64, limit int) ([]HistoryEntry, error)
	// GetExchange returns the exchange of session sessionID whose request
	// frame is requestID, with whole bodies, or an ENotFound *Error.
	GetExchange(ctx context.Context, sessionID, requestID int64) (HistoryEntry, error)
}
