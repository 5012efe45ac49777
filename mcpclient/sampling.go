package mcpclient

import (
	"bytes"
	"encoding/json"
)

// MethodSample is the server's request for a completion by the client's
// model.
const MethodSample = "sampling/createMessage"

// CreateMessageParams is what a server sends in sampling/createMessage: the
// conversation it wants the client's model to continue, and how.
// IncludeContext is "none", "thisServer" or "allServers". Tools and
// ToolChoice appear from 2025-11-25 on.
type CreateMessageParams struct {
	Messages         []SamplingMessage `json:"messages"`
	SystemPrompt     string            `json:"systemPrompt,omitempty"`
	IncludeContext   string            `json:"includeContext,omitempty"`
	Temperature      *float64          `json:"temperature,omitempty"`
	MaxTokens        int64             `json:"maxTokens"`
	StopSequences    []string          `json:"stopSequences,omitempty"`
	Metadata         json.RawMessage   `json:"metadata,omitempty"`
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	Tools            []Tool            `json:"tools,omitempty"`
	ToolChoice       *ToolChoice       `json:"toolChoice,omitempty"`
}

// SamplingMessage is one turn of a sampling conversation. Content is one
// block or, from 2025-11-25 on, an array of blocks; UnmarshalJSON accepts
// both and MarshalJSON writes one block as a single object.
type SamplingMessage struct {
	Role    string          `json:"role"`
	Content []SamplingBlock `json:"-"`
}

// SamplingBlock is one content block of a sampling message. Type is "text",
// "image", "audio", "tool_use" or "tool_result"; which other fields are set
// depends on it: Text; Data (base64) and MimeType; ID, Name and Input of a
// tool_use; ToolUseID, Content and IsError of a tool_result.
type SamplingBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	Data      string          `json:"data,omitempty"`
	MimeType  string          `json:"mimeType,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"toolUseId,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"isError,omitempty"`
}

type samplingMessageWire struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// UnmarshalJSON reads content as one block or an array of blocks.
func (m *SamplingMessage) UnmarshalJSON(b []byte) error {
	var w samplingMessageWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	m.Role, m.Content = w.Role, nil
	content := bytes.TrimSpace(w.Content)
	if len(content) == 0 || bytes.Equal(content, []byte("null")) {
		return nil
	}
	if content[0] == '[' {
		return json.Unmarshal(content, &m.Content)
	}
	var one SamplingBlock
	if err := json.Unmarshal(content, &one); err != nil {
		return err
	}
	m.Content = []SamplingBlock{one}
	return nil
}

// MarshalJSON writes a single block as an object, several as an array.
func (m SamplingMessage) MarshalJSON() ([]byte, error) {
	var content any = m.Content
	if len(m.Content) == 1 {
		content = m.Content[0]
	}
	return json.Marshal(struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}{m.Role, content})
}

// ModelPreferences says which model the server would like: name hints in
// order of preference, and priorities from 0 to 1 (nil when not given).
type ModelPreferences struct {
	Hints                []ModelHint `json:"hints,omitempty"`
	CostPriority         *float64    `json:"costPriority,omitempty"`
	SpeedPriority        *float64    `json:"speedPriority,omitempty"`
	IntelligencePriority *float64    `json:"intelligencePriority,omitempty"`
}

// ModelHint names a model, or a part of a model's name.
type ModelHint struct {
	Name string `json:"name,omitempty"`
}

// ToolChoice says whether the model may, must or must not use the tools
// offered: Mode is "auto", "required" or "none".
type ToolChoice struct {
	Mode string `json:"mode,omitempty"`
}

// CreateMessageResult is the client's answer to sampling/createMessage:
// the model's message. StopReason is "endTurn", "stopSequence",
// "maxTokens", "toolUse" or another value the model names.
type CreateMessageResult struct {
	Message    SamplingMessage // written flat: role and content beside model
	Model      string
	StopReason string
}

type createMessageResultWire struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Model      string          `json:"model"`
	StopReason string          `json:"stopReason,omitempty"`
}

// MarshalJSON writes the result's flat shape.
func (r CreateMessageResult) MarshalJSON() ([]byte, error) {
	msg, err := json.Marshal(r.Message)
	if err != nil {
		return nil, err
	}
	var w createMessageResultWire
	if err := json.Unmarshal(msg, &w); err != nil {
		return nil, err
	}
	w.Model, w.StopReason = r.Model, r.StopReason
	return json.Marshal(w)
}

// UnmarshalJSON reads the result's flat shape.
func (r *CreateMessageResult) UnmarshalJSON(b []byte) error {
	var w createMessageResultWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	r.Model, r.StopReason = w.Model, w.StopReason
	return r.Message.UnmarshalJSON(b)
}

// CodeUserRejected is the JSON-RPC error code a client sends when the user
// refuses a sampling request.
const CodeUserRejected = -1
