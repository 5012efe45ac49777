package views

import (
	"encoding/json"
	"net/url"

	"github.com/mcp-playground/playground/backend"
)

// LogsView is everything the Logs panel shows: it needs nothing from the
// page around it.
type LogsView struct {
	SessionID int64
	CSRF      string
	// Live is set while the session is connected: only then can the level
	// be set. Modern says the level travels in each request's _meta rather
	// than in logging/setLevel.
	Live   bool
	Modern bool
	Level  LogLevelView
	Filter LogFilter
	Rows   LogRowsView
}

// LogLevelView is the level selector's state.
type LogLevelView struct {
	SessionID int64
	Modern    bool
	Level     string // the level asked for, "" when none was
	Sent      bool   // the form was just sent
	Error     string // why setting the level failed
}

// LogFilter is what the log view shows: entries at MinLevel and above
// ("" for all) that hold Text.
type LogFilter struct {
	MinLevel string
	Text     string
}

// LogRowsView is a page of log entries, oldest first. More says older
// entries may be left; they load from before the first entry.
type LogRowsView struct {
	SessionID int64
	Filter    LogFilter
	Entries   []backend.LogEntry
	More      bool
}

// logsURL is the address of the rows of the panel's filter, with extra
// query members (before, after).
func logsURL(sessionID int64, f LogFilter, extra ...string) string {
	q := url.Values{"rows": {"1"}}
	if f.MinLevel != "" {
		q.Set("level", f.MinLevel)
	}
	if f.Text != "" {
		q.Set("q", f.Text)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		q.Set(extra[i], extra[i+1])
	}
	return "/sessions/" + itoa(sessionID) + "/logs?" + q.Encode()
}

// logData shows a log entry's data: a string as itself, anything else as
// pretty JSON. isJSON tells which.
func logData(raw json.RawMessage) (text string, isJSON bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, false
	}
	return prettyJSON(raw), true
}

// firstLogID is the frame id of the oldest entry shown, 0 for none.
func firstLogID(v LogRowsView) int64 {
	if len(v.Entries) == 0 {
		return 0
	}
	return v.Entries[0].FrameID
}

// lastLogID is the frame id of the newest entry shown, 0 for none.
func lastLogID(v LogRowsView) int64 {
	if len(v.Entries) == 0 {
		return 0
	}
	return v.Entries[len(v.Entries)-1].FrameID
}
