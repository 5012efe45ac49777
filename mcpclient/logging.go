package mcpclient

import "encoding/json"

// LoggingMessageParams are the params of notifications/message, a log line
// a server sends: its syslog level, the logger's name ("" when unnamed) and
// the data, any JSON value, kept raw.
type LoggingMessageParams struct {
	Level  string          `json:"level"`
	Logger string          `json:"logger,omitempty"`
	Data   json.RawMessage `json:"data"`
}
