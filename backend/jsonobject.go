package backend

import "encoding/json"

// IsJSONObject reports whether raw is a JSON object (not null).
func IsJSONObject(raw json.RawMessage) bool {
	var obj map[string]json.RawMessage
	return json.Unmarshal(raw, &obj) == nil && obj != nil
}
