package backend

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// LogLevels are the RFC 5424 severities MCP logging uses, least severe
// first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogSeverity returns the rank of level in LogLevels, -1 when it is not one.
func LogSeverity(level string) int {
	for i, l := range LogLevels {
		if l == level {
			return i
		}
	}
	return -1
}

// MethodLogMessage is the notification that carries a server's log line.
const MethodLogMessage = "notifications/message"

// metaLogLevel is the _meta key by which a modern-era request asks for log
// messages at a level and above (2026-07-28 replaced logging/setLevel).
const metaLogLevel = "io.modelcontextprotocol/logLevel"

// LogEntry is one notifications/message a server sent.
type LogEntry struct {
	FrameID int64
	Time    time.Time
	Level   string
	Logger  string
	Data    json.RawMessage
}

// LogQuery selects a session's log entries: those at MinLevel or above
// ("" for all) whose logger or data holds Text, at most Limit of them:
// the newest with frame ids below BeforeID (0: the newest of all), or,
// with Forward, the oldest with frame ids above AfterID.
type LogQuery struct {
	SessionID int64
	MinLevel  string
	Text      string
	BeforeID  int64
	AfterID   int64
	Forward   bool
	Limit     int
}

// logScanBatch is how many notification frames ListLogs reads at a time,
// and logScanMax how many it reads at most for one page, so that a rare
// level in a long session costs a bounded scan.
const (
	logScanBatch = 200
	logScanMax   = 20 * logScanBatch
)

// ListLogs returns the entries q selects, oldest first. more reports that
// Limit was reached: older entries (newer ones, with Forward) may be left.
func ListLogs(ctx context.Context, frames FrameStore, q LogQuery) (entries []LogEntry, more bool, err error) {
	min := LogSeverity(q.MinLevel) // -1 for "": every entry, whatever its level
	fq := FrameQuery{
		SessionID: q.SessionID, Limit: logScanBatch, Newest: !q.Forward, AfterID: q.AfterID, BeforeID: q.BeforeID,
		Filter: FrameFilter{Direction: mcpclient.Inbound, Text: MethodLogMessage},
	}
	for scanned := 0; scanned < logScanMax; {
		batch, err := frames.ListFrames(ctx, fq)
		if err != nil {
			return nil, false, err
		}
		scanned += len(batch)
		var found []LogEntry
		for _, f := range batch {
			if e, ok := logEntry(f); ok && (min < 0 || LogSeverity(e.Level) >= min) && e.contains(q.Text) {
				found = append(found, e)
			}
		}
		if fq.Newest {
			entries = append(found, entries...)
			if len(entries) >= q.Limit {
				return entries[len(entries)-q.Limit:], true, nil
			}
		} else {
			entries = append(entries, found...)
			if len(entries) >= q.Limit {
				return entries[:q.Limit], true, nil
			}
		}
		if len(batch) < logScanBatch {
			return entries, false, nil
		}
		if fq.Newest {
			fq.BeforeID = batch[0].ID
		} else {
			fq.AfterID = batch[len(batch)-1].ID
		}
	}
	return entries, true, nil
}

// logEntry decodes a notifications/message frame.
func logEntry(f Frame) (LogEntry, bool) {
	if f.Method != MethodLogMessage || f.RPCType != RPCNotification {
		return LogEntry{}, false
	}
	env, err := mcpclient.DecodeEnvelope(f.Body)
	if err != nil {
		return LogEntry{}, false
	}
	var p mcpclient.LoggingMessageParams
	if len(env.Params) > 0 && json.Unmarshal(env.Params, &p) != nil {
		return LogEntry{}, false
	}
	return LogEntry{FrameID: f.ID, Time: f.Time, Level: p.Level, Logger: p.Logger, Data: p.Data}, true
}

func (e LogEntry) contains(text string) bool {
	if text == "" {
		return true
	}
	text = strings.ToLower(text)
	return strings.Contains(strings.ToLower(e.Logger), text) || strings.Contains(strings.ToLower(string(e.Data)), text)
}

// LogLevel returns the log level asked for on a live session, "" when none
// was set.
func (p *Pool) LogLevel(sessionID int64) string {
	ls, err := p.get(sessionID)
	if err != nil {
		return ""
	}
	level, _ := ls.logLevel.Load().(string)
	return level
}

// SetLogLevel asks the server of a live session for log messages at level
// and above. In the legacy era it sends logging/setLevel and returns the
// server's answer (a JSON-RPC error is an EUnavailable *Error); in the
// modern era it only remembers the level, which every later request
// carries in _meta. An unknown level is an EInvalid *Error.
func (p *Pool) SetLogLevel(ctx context.Context, sessionID int64, level string) error {
	if LogSeverity(level) < 0 {
		return Errorf(EInvalid, "%q is not a log level; use one of %s.", level, strings.Join(LogLevels, ", "))
	}
	ls, err := p.writable(sessionID)
	if err != nil {
		return err
	}
	if ls.client.Era() == mcpclient.EraLegacy {
		if err := ls.client.SetLoggingLevel(ctx, level); err != nil {
			return ls.callError("logging/setLevel", err)
		}
	}
	ls.logLevel.Store(level)
	return nil
}

// withLogLevel returns params with the session's log level in _meta when
// the session is in the modern era and a level was set; otherwise params
// as they are. Params that are not a JSON object are left alone: the
// request goes out as the caller wrote it.
func (ls *liveSession) withLogLevel(params json.RawMessage) json.RawMessage {
	level, _ := ls.logLevel.Load().(string)
	if level == "" || ls.client.Era() != mcpclient.EraModern {
		return params
	}
	obj := map[string]json.RawMessage{}
	if len(params) > 0 && json.Unmarshal(params, &obj) != nil {
		return params
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := obj["_meta"]; ok && json.Unmarshal(raw, &meta) != nil {
		return params
	}
	if _, ok := meta[metaLogLevel]; ok { // the caller's own choice wins
		return params
	}
	meta[metaLogLevel], _ = json.Marshal(level)
	obj["_meta"], _ = json.Marshal(meta)
	out, err := json.Marshal(obj)
	if err != nil {
		return params
	}
	return out
}
